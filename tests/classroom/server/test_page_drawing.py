"""The teacher pages' drawing process: the same pages as drawn in the serving process, a
process that dies is replaced at the next draw, and it goes when the serving process goes."""

from __future__ import annotations

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

from classroom.live.page_draws import page_draw, page_forget
from classroom.server.page_drawing import PageDrawer
from tests.classroom.live.test_page_draws import CHART_ID, _ask, playing  # noqa: F401

if TYPE_CHECKING:
    from collections.abc import Iterator

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def drawer() -> Iterator[PageDrawer]:
    drawer = PageDrawer()
    yield drawer
    drawer.stop()


def _drawing_pid(drawer: PageDrawer) -> int:
    pool = drawer._pool
    assert pool is not None
    (pid,) = pool._processes  # type: ignore[attr-defined]
    return int(pid)


async def test_a_page_drawn_apart_is_the_page_drawn_here(
    drawer: PageDrawer,
    playing: GameSession,  # noqa: F811
) -> None:
    ask = await sync_to_async(_ask)(playing, "apart", page="console")
    apart = await drawer.draw(ask)
    here = await sync_to_async(page_draw)(ask.__class__(**{**ask.__dict__, "socket": "here"}))
    page_forget("here")
    assert CHART_ID.sub("", apart.html) == CHART_ID.sub("", here.html)
    assert apart.table_ids == here.table_ids
    assert _drawing_pid(drawer) != os.getpid()


async def test_a_drawing_process_that_dies_is_replaced_at_the_next_draw(
    drawer: PageDrawer,
    playing: GameSession,  # noqa: F811
    caplog: pytest.LogCaptureFixture,
) -> None:
    ask = await sync_to_async(_ask)(playing, "page", page="projector")
    first = await drawer.draw(ask)
    dead = _drawing_pid(drawer)
    restarts = REGISTRY.get_sample_value("snapclass_page_drawing_restarts_total") or 0
    os.kill(dead, signal.SIGKILL)
    again = await drawer.draw(ask)
    assert again.html == first.html
    assert _drawing_pid(drawer) != dead
    assert "drawing process failed" in caplog.text
    assert REGISTRY.get_sample_value("snapclass_page_drawing_restarts_total") == restarts + 1


_SERVING = textwrap.dedent(
    """
    import os, sys
    import django
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "classroom.settings")
    django.setup()
    from classroom.server.page_drawing import PageDrawer
    drawer = PageDrawer()
    print(drawer._pool_get().submit(os.getpid).result(timeout=60), flush=True)
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
