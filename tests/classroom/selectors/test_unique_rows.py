"""A unique lookup's row, without the ORDER BY ``first()`` would compile."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from classroom.models import GameSession
from classroom.selectors.unique_rows import unique_row

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.django_db


def test_the_row_of_a_unique_column_is_found_without_an_order_by(
    make_session: Callable[..., GameSession],
) -> None:
    session = make_session()
    make_session()
    with CaptureQueriesContext(connection) as queries:
        found = unique_row(GameSession.objects.filter(code=session.code))
    assert found == session
    (query,) = queries.captured_queries
    assert "ORDER BY" not in query["sql"]


def test_no_row_is_none(make_session: Callable[..., GameSession]) -> None:
    make_session()
    assert unique_row(GameSession.objects.filter(code="NOPE00")) is None
