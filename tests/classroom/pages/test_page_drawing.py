"""The teacher pages' drawing process: the same pages as drawn in the serving process, drawn
here while it starts or after it died (then replaced), and gone when the serving process is."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from typing import TYPE_CHECKING

import pytest
from asgiref.sync import sync_to_async
from prometheus_client import REGISTRY

from classroom.models import Seat
from classroom.pages import page_drawing
from classroom.pages.page_drawing import PageDrawer
from classroom.pages.page_draws import DrawAsk, page_draw, page_forget
from classroom.services.presence import seat_connection_open
from tests.classroom.draw_asks import draw_ask
from tests.classroom.pages.test_fragments import CHART_ID

if TYPE_CHECKING:
    from collections.abc import Iterator

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db(transaction=True)


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> _Clock:
    return _Clock()


@pytest.fixture
def drawer(clock: _Clock) -> Iterator[PageDrawer]:
    drawer = PageDrawer(clock=clock)
    yield drawer
    drawer.stop()


async def _draw_when_up(drawer: PageDrawer, ask: DrawAsk) -> page_drawing.Drawn:
    """The first draw asked starts the process and gives None; then it draws."""
    for _ in range(600):
        drawn = await drawer.draw(ask)
        if drawn is not None:
            return drawn
        await asyncio.sleep(0.05)
    raise AssertionError("the drawing process never came up")


async def test_a_page_drawn_apart_is_the_page_drawn_here(
    drawer: PageDrawer,
    started_session: GameSession,
) -> None:
    ask = await sync_to_async(draw_ask)(started_session, "apart", page="console")
    assert await drawer.draw(ask) is None  # starting: the socket draws it itself
    apart = await _draw_when_up(drawer, ask)
    here = await sync_to_async(page_draw)(DrawAsk(**{**ask.__dict__, "socket": "here"}))
    page_forget("here")
    assert CHART_ID.sub("", apart.html) == CHART_ID.sub("", here.html)
    assert apart.table_ids == here.table_ids
    assert drawer.pid() not in (None, os.getpid())


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
async def test_the_drawing_process_draws_in_the_idle_scheduling_class(
    drawer: PageDrawer,
    started_session: GameSession,
) -> None:
    ask = await sync_to_async(draw_ask)(started_session, "apart", page="console")
    await _draw_when_up(drawer, ask)
    pid = drawer.pid()
    assert pid is not None
    assert os.sched_getscheduler(pid) == os.SCHED_IDLE
    assert os.sched_getscheduler(os.getpid()) == os.SCHED_OTHER  # the serving side is not


async def test_the_tablets_this_process_holds_are_connected_on_the_pages_drawn_apart(
    drawer: PageDrawer,
    started_session: GameSession,
) -> None:
    # Presence counts only the sockets of live processes: the drawing process speaks for
    # the serving process that started it.
    def tablet_connects() -> None:
        seat = Seat.objects.filter(session=started_session).order_by("pk").first()
        assert seat is not None
        seat_connection_open(
            seat_id=seat.pk, session_id=started_session.pk, channel_name="tablet-1"
        )

    await sync_to_async(tablet_connects)()
    ask = await sync_to_async(draw_ask)(started_session, "apart", page="console")
    assert "1 connected" in (await _draw_when_up(drawer, ask)).html


async def test_a_drawing_process_that_dies_is_replaced_and_pages_are_drawn_here_meanwhile(
    drawer: PageDrawer,
    clock: _Clock,
    started_session: GameSession,
    caplog: pytest.LogCaptureFixture,
) -> None:
    ask = await sync_to_async(draw_ask)(started_session, "page", page="projector")
    first = await _draw_when_up(drawer, ask)
    dead = drawer.pid()
    assert dead is not None
    restarts = REGISTRY.get_sample_value("snapclass_page_drawing_restarts_total") or 0
    os.kill(dead, signal.SIGKILL)
    assert await drawer.draw(ask) is None  # found dead: this page is drawn here
    assert "drawing process failed" in caplog.text
    assert REGISTRY.get_sample_value("snapclass_page_drawing_restarts_total") == restarts + 1
    assert await drawer.draw(ask) is None  # not started again at once
    clock.now += page_drawing.RESTART_AFTER_S
    again = await _draw_when_up(drawer, ask)
    assert again.html == first.html
    assert drawer.pid() not in (None, dead)


async def test_a_socket_draws_its_page_itself_while_the_process_starts(
    started_session: GameSession,
    settings: object,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    starting = PageDrawer()
    monkeypatch.setattr(page_drawing, "_drawer", starting)
    monkeypatch.setattr(settings, "TEACHER_PAGES_DRAWN_APART", True)
    ask = await sync_to_async(draw_ask)(started_session, "page", page="projector")
    try:
        drawn = await page_drawing.teacher_page_draw(ask)
        assert starting.pid() is None  # drawn here, not in the process still starting
        fresh = await sync_to_async(page_draw)(DrawAsk(**{**ask.__dict__, "socket": "fresh"}))
        assert drawn.html == fresh.html
        assert drawn.table_ids == fresh.table_ids
    finally:
        page_drawing.teacher_page_forget("page")
        page_forget("fresh")
        starting.stop()


_SERVING = textwrap.dedent(
    """
    import os, sys, time
    import django
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "classroom.settings")
    django.setup()
    from classroom.pages.page_drawing import PageDrawer
    drawer = PageDrawer()
    drawer._current()
    while drawer.pid() is None:
        time.sleep(0.05)
    print(drawer.pid(), flush=True)
    sys.stdin.read()
    """
)


@pytest.mark.slow
def test_the_drawing_process_goes_when_the_serving_process_is_killed() -> None:
    serving = subprocess.Popen(
        [sys.executable, "-c", _SERVING],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert serving.stdout is not None
    drawing = int(serving.stdout.readline())
    assert os.path.exists(f"/proc/{drawing}")
    serving.kill()
    serving.wait(timeout=10)
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{drawing}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{drawing}")
