"""One column of rows by primary key: what is there, nothing else, locked where it can be."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classroom.hosting.row_reads import ColumnByKey
from classroom.models import Seat, Table
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_start

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db


def _tables(make_session: Callable[..., GameSession]) -> list[Table]:
    session = make_session(players_per_table=2)
    for name in ("Ava", "Ben", "Cai"):
        seat_join_guest(session=session, nickname=name)
    session_start(session=session)
    return list(Table.objects.filter(session=session))


def test_the_column_of_each_row_asked_for_and_none_of_the_missing(
    make_session: Callable[..., GameSession],
) -> None:
    tables = _tables(make_session)
    Table.objects.filter(pk=tables[0].pk).update(epoch=7)
    missing = max(table.pk for table in tables) + 100

    epochs = ColumnByKey(Table, "epoch").read({tables[0].pk, tables[1].pk, missing})

    assert epochs == {tables[0].pk: 7, tables[1].pk: 0}


def test_a_foreign_key_reads_as_its_id(make_session: Callable[..., GameSession]) -> None:
    tables = _tables(make_session)
    seats = list(Seat.objects.filter(session=tables[0].session))

    students = ColumnByKey(Seat, "student").read([seat.pk for seat in seats])

    assert students == {seat.pk: seat.student_id for seat in seats}


def test_no_keys_run_no_query() -> None:
    with CaptureQueriesContext(connection) as queries:
        assert ColumnByKey(Table, "epoch").read([]) == {}

    assert queries.captured_queries == []


def test_a_locking_read_locks_only_where_the_database_can(
    make_session: Callable[..., GameSession],
) -> None:
    tables = _tables(make_session)

    with CaptureQueriesContext(connection) as queries:
        ColumnByKey(Table, "epoch", lock=True).read([tables[0].pk])

    locked = "FOR UPDATE" in queries.captured_queries[0]["sql"]
    assert locked is connection.features.has_select_for_update
