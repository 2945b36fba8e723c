"""A teacher page's draw from a socket's ask: what a render from nothing draws, with what the
socket's earlier draws kept found by its name."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from classroom.models import Table
from classroom.pages import fragments
from classroom.pages.lobby_reads import LOBBY_REREAD_S
from classroom.pages.page_draws import page_draw, page_forget, page_memory
from classroom.services.seats import seat_join_guest
from tests.classroom.draw_asks import draw_ask
from tests.classroom.pages.test_fragments import CHART_ID

if TYPE_CHECKING:
    from collections.abc import Iterator

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db


@pytest.fixture
def sockets() -> Iterator[list[str]]:
    """Socket names a test draws for: what they kept is forgotten after it."""
    names: list[str] = []
    yield names
    for name in names:
        page_forget(name)


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
    started_session: GameSession, sockets: list[str], page: str
) -> None:
    sockets.append("page")
    ask = draw_ask(started_session, "page", page=page, dashboard=page == "console")
    drawn = page_draw(ask)
    if page == "console":
        whole = fragments.console_fragment_render(
            session_id=started_session.pk, views=ask.views, dashboard=True
        )
    else:
        whole = fragments.projector_fragment_render(session_id=started_session.pk, views=ask.views)
    assert CHART_ID.sub("", drawn.html) == CHART_ID.sub("", whole)
    assert drawn.table_ids == set(
        Table.objects.filter(session=started_session).values_list("pk", flat=True)
    )
    assert drawn.cpu_s > 0
    # Drawn again with nothing changed: every part comes from the socket's memory.
    before = page_memory("page").parts.rendered
    assert page_draw(ask).html == drawn.html
    assert page_memory("page").parts.rendered == before


def test_a_draw_in_another_language_is_drawn_in_it(
    started_session: GameSession, sockets: list[str]
) -> None:
    sockets.append("page")
    english = page_draw(draw_ask(started_session, "page", page="projector"))
    chinese = page_draw(draw_ask(started_session, "page", page="projector", language="zh-hant"))
    assert chinese.html != english.html
    assert "桌" in chinese.html


def test_the_lobby_is_read_again_only_when_the_ask_says_it_changed(
    started_session: GameSession, sockets: list[str]
) -> None:
    sockets.append("page")
    page_draw(draw_ask(started_session, "page"))
    seat_join_guest(session=started_session, nickname="Noor")
    assert "Noor" not in page_draw(draw_ask(started_session, "page")).html  # the kept lobby
    assert "Noor" in page_draw(draw_ask(started_session, "page", lobby_changed=True)).html


def test_the_asks_stretch_paces_how_long_the_lobby_is_kept(
    started_session: GameSession, sockets: list[str]
) -> None:
    sockets.append("page")
    reads = page_memory("page").lobby_reads
    page_draw(draw_ask(started_session, "page", stretch=3.0))
    assert reads.reread_s == 3 * LOBBY_REREAD_S
    page_draw(draw_ask(started_session, "page"))
    assert reads.reread_s == LOBBY_REREAD_S
