"""A teacher page's draw asks, as a console's or projector's socket makes them, for tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from classroom.models import Table
from classroom.pages.page_draws import DrawAsk
from tests.classroom.pages.test_fragments import _views

if TYPE_CHECKING:
    from classroom.models import GameSession


def draw_ask(session: GameSession, socket: str, **changes: Any) -> DrawAsk:
    """A console's ask (with its live skills) for ``session``'s tables at their start."""
    tables = list(Table.objects.filter(session=session))
    fields: dict[str, Any] = {
        "socket": socket,
        "page": "console",
        "session_id": session.pk,
        "language": "en",
        "views": _views(session, tables),
        "dashboard": True,
        **changes,
    }
    return DrawAsk(**fields)
