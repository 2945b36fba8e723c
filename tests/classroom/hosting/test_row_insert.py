"""Rows of the live log go in as multi-row statements, their values adapted as the ORM would."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from classroom.hosting import row_insert
from classroom.hosting.row_insert import RowInserter
from classroom.models import ActionLogEntry, Table
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_start

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db

COLUMNS = (
    "table", "seq", "kind", "seat_index", "payload", "server_ms", "epoch", "client_id",
    "created_at",
)  # fmt: skip


@pytest.fixture
def table(make_session: Callable[..., GameSession]) -> Table:
    session = make_session(players_per_table=2)
    seat_join_guest(session=session, nickname="Ava")
    session_start(session=session)
    return Table.objects.get(session=session)


def test_rows_go_in_one_statement_with_their_json_and_timestamps(table: Table) -> None:
    now = timezone.now()
    rows = [
        (table.pk, seq, "act", seq % 2, {"kind": "slap", "flip": seq}, seq * 100, 0, "", now)
        for seq in range(1, 5)
    ]

    with CaptureQueriesContext(connection) as queries:
        RowInserter(ActionLogEntry, COLUMNS).insert(rows)

    # One execution whose statement carries the four rows (not one execution per row).
    inserts = [query["sql"] for query in queries.captured_queries if "INSERT" in query["sql"]]
    assert len(inserts) == 1
    assert inserts[0].count("), (") == 3
    stored = list(
        ActionLogEntry.objects.filter(table=table).values_list(
            "seq", "seat_index", "payload", "server_ms", "created_at"
        )
    )
    assert stored == [
        (seq, seq % 2, {"kind": "slap", "flip": seq}, seq * 100, now) for seq in range(1, 5)
    ]


def test_more_rows_than_a_statement_holds_go_in_several(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(row_insert, "MAX_ROWS_PER_STATEMENT", 2)
    now = timezone.now()
    rows = [(table.pk, seq, "tick", None, None, seq, 0, "", now) for seq in range(1, 6)]

    with CaptureQueriesContext(connection) as queries:
        RowInserter(ActionLogEntry, COLUMNS).insert(rows)

    assert sum("INSERT" in query["sql"] for query in queries.captured_queries) == 3
    assert list(ActionLogEntry.objects.filter(table=table).values_list("seq", flat=True)) == [
        1, 2, 3, 4, 5
    ]  # fmt: skip


def test_no_rows_run_no_statement(table: Table) -> None:
    with CaptureQueriesContext(connection) as queries:
        RowInserter(ActionLogEntry, COLUMNS).insert([])

    assert queries.captured_queries == []


def test_rows_with_different_timestamps_keep_their_own(table: Table) -> None:
    first = timezone.now()
    second = first + timezone.timedelta(seconds=3)
    rows = [
        (table.pk, 1, "tick", None, None, 1, 0, "", first),
        (table.pk, 2, "tick", None, None, 2, 0, "", second),
    ]

    RowInserter(ActionLogEntry, COLUMNS).insert(rows)

    assert list(
        ActionLogEntry.objects.filter(table=table).values_list("created_at", flat=True)
    ) == [first, second]
