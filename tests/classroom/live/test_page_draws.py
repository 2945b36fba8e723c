"""A teacher page's draw from a socket's ask: what a render from nothing draws, with what the
socket's earlier draws kept found by its name."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from classroom.live import fragments
from classroom.live.page_draws import DrawAsk, page_draw, page_forget, page_memory
from classroom.models import Table
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_start
from tests.classroom.live.test_fragments import _views

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db

CHART_ID = re.compile(r"chart-[0-9a-f-]{36}")


@pytest.fixture
def playing(make_session: Callable[..., GameSession]) -> GameSession:
    session = make_session(players_per_table=2)
    for name in ("Ava", "Ben", "Chen"):
        seat_join_guest(session=session, nickname=name)
    session_start(session=session)
    return session


@pytest.fixture
def sockets() -> Iterator[list[str]]:
    names: list[str] = []
    yield names
    for name in names:
        page_forget(name)


def _ask(session: GameSession, socket: str, **changes: Any) -> DrawAsk:
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


def test_each_socket_keeps_its_own_memory_until_it_forgets(sockets: list[str]) -> None:
    sockets.extend(["page-a", "page-b"])
    first = page_memory("page-a")
    assert page_memory("page-a") is first
    assert page_memory("page-b") is not first
    assert page_memory("page-b").parts is not first.parts
    page_forget("page-a")
    assert page_memory("page-a") is not first


@pytest.mark.parametrize("page", ["console", "projector"])
def test_a_draw_is_what_a_render_from_nothing_draws(
    playing: GameSession, sockets: list[str], page: str
) -> None:
    sockets.append("page")
    ask = _ask(playing, "page", page=page, dashboard=page == "console")
    drawn = page_draw(ask)
    if page == "console":
        whole = fragments.console_fragment_render(
            session_id=playing.pk, views=ask.views, dashboard=True
        )
    else:
        whole = fragments.projector_fragment_render(session_id=playing.pk, views=ask.views)
    assert CHART_ID.sub("", drawn.html) == CHART_ID.sub("", whole)
    assert drawn.table_ids == set(
        Table.objects.filter(session=playing).values_list("pk", flat=True)
    )
    assert drawn.cpu_s > 0
    # Drawn again with nothing changed: every part comes from the socket's memory.
    before = page_memory("page").parts.rendered
    assert page_draw(ask).html == drawn.html
    assert page_memory("page").parts.rendered == before


def test_a_draw_in_another_language_is_drawn_in_it(
    playing: GameSession, sockets: list[str]
) -> None:
    sockets.append("page")
    english = page_draw(_ask(playing, "page", page="projector"))
    chinese = page_draw(_ask(playing, "page", page="projector", language="zh-hant"))
    assert chinese.html != english.html
    assert "桌" in chinese.html


def test_the_lobby_is_read_again_only_when_the_ask_says_it_changed(
    playing: GameSession, sockets: list[str]
) -> None:
    sockets.append("page")
    page_draw(_ask(playing, "page"))
    seat_join_guest(session=playing, nickname="Noor")
    assert "Noor" not in page_draw(_ask(playing, "page")).html  # the kept lobby
    assert "Noor" in page_draw(_ask(playing, "page", lobby_changed=True)).html
