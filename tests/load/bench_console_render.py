"""Benchmark: the CPU one teacher's page costs the thread every socket's rendering shares.

    .venv/bin/python tests/load/bench_console_render.py [--repeats 200] [--warm-s 11]

A class of 30 guests at 8 tables of auto-flip Palm Strike (the capacity benchmark's game),
made with the real services on a fresh SQLite file, its tables played by their real hosts in
this process for ``--warm-s`` seconds (every seat slaps about a third of the flips), so the
tiles show a game mid-way: flips, scores, a full strip of recent trials. The hosts are then
stopped and their teacher views kept, plus the same views with one table a flip further on.

Each page is drawn the way its socket has it drawn (``page_draw``, in the page's language,
with the session's queries), ``--repeats`` times, and the median CPU time
(``time.process_time``) is printed as JSON, per page and language:

* ``first``: a page's first render (a fresh socket, nothing drawn before);
* ``one_table_changed``: the same socket drawing again after one table moved (the views
  alternate between the two snapshots);
* ``unchanged``: the same socket drawing again with nothing changed.

``bytes`` is how much the last render of each kind sent. The scenarios take turns, one render
each, so other work on the machine weighs on all of them alike; CPU time counts this process
only, but a busy machine still makes it a little longer (caches, shared cores).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable


ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.load.bench_tables import bench_env  # noqa: E402

CLASS_SIZE = 30
TABLE_SIZE = 4
SLAP_SHARE = 0.3
LANGUAGES = ("en", "zh-hant")


class _Tablet:
    """A seat's listener on its table's host: slaps some flips, picks a card when it won.

    A slap goes out once its reaction time has passed since the tablet saw the flip, as a
    child's would: a slap claiming more time than had passed is implausible, left out of
    every measure, and the console then had no class chart to draw."""

    def __init__(self, seat: int, draw: random.Random) -> None:
        self.seat = seat
        self.draw = draw
        self.seen_flip = 0
        self.sent = 0
        self.slap_due: tuple[int, float, int] | None = None  # flip, loop time, RT ms

    async def deliver(self, frame: str) -> None:
        return None

    def play(self, host: Any, now: float) -> None:
        view = host.engine.view(host.state, self.seat)
        if view["phase"] == "choosing":
            self.sent += 1
            host.submit(self, self.sent, {"kind": "choose", "card": 0})
        flip = int(view.get("flip") or 0)
        if view.get("window_closes_ms") and flip > self.seen_flip:
            self.seen_flip = flip
            if self.draw.random() < SLAP_SHARE:
                rt_ms = self.draw.randint(350, 900)
                self.slap_due = (flip, now + rt_ms / 1000, rt_ms)
        if self.slap_due is not None and now >= self.slap_due[1]:
            due_flip, _, rt_ms = self.slap_due
            self.slap_due = None
            if due_flip == flip and view.get("window_closes_ms"):
                self.sent += 1
                action = {"kind": "slap", "flip": flip, "rt_ms": rt_ms, "rtt_ms": 5}
                host.submit(self, self.sent, action)


def _class_started() -> tuple[int, list[int]]:
    from django.contrib.auth.models import User

    from classroom.models import Table
    from classroom.services.seats import seat_join_guest
    from classroom.services.sessions import session_create, session_start

    teacher = User.objects.create_user(username="render-teacher", password="render-pass-123")
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=None,
        players_per_table=TABLE_SIZE,
        settings={
            "flip_pacing": "auto",
            "auto_flip_s": 2.0,
            "response_window_s": 1.5,
            "points_target": 100,
        },
    )
    for number in range(CLASS_SIZE):
        seat_join_guest(session=session, nickname=f"S{number:02d}")
    session_start(session=session)
    tables = list(Table.objects.filter(session=session).values_list("pk", flat=True))
    return session.pk, tables


async def _mid_game(
    tables: list[int], warm_s: float
) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]]]:
    """The tables' teacher views after ``warm_s`` of play, and the same with one table's
    view taken a flip later."""
    from classroom.hosting.table_hosts import registry

    draw = random.Random(21)
    hosts = [await registry.host_for(table_id) for table_id in tables]
    tablets = []
    for host in hosts:
        assert host is not None
        for seat in range(len(host.setup.seats)):
            tablet = _Tablet(seat, random.Random(draw.random()))
            await host.join(tablet)
            tablets.append((host, tablet))
    loop = asyncio.get_running_loop()
    until = loop.time() + warm_s
    while loop.time() < until:
        for host, tablet in tablets:
            tablet.play(host, loop.time())
        await asyncio.sleep(0.1)
    before = copy.deepcopy(registry.teacher_views(tables))
    moved = tables[0]
    while registry.teacher_views([moved])[moved]["flip"] == before[moved]["flip"]:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)
    after = {**before, moved: copy.deepcopy(registry.teacher_views([moved])[moved])}
    await registry.stop_all()
    return before, after


def _draw(
    kind: str, session_id: int, language: str, socket: str
) -> Callable[[dict[int, Any]], str]:
    """A console or projector socket's draws, as the drawing process makes them: each keeps
    what the socket's earlier draws read (``socket`` names it)."""
    from classroom.pages.page_draws import DrawAsk, page_draw

    def draw(views: dict[int, dict[str, Any]]) -> str:
        ask = DrawAsk(
            socket=socket,
            page="console" if kind.startswith("console") else "projector",
            session_id=session_id,
            language=language,
            views=views,
            dashboard=kind == "console+dashboard",
        )
        return page_draw(ask).html

    return draw


def _scenarios(
    kind: str,
    language: str,
    session_id: int,
    tables: list[int],
    snapshots: tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]]],
) -> dict[str, Callable[[int], str]]:
    from classroom.pages.page_draws import page_forget

    def first(index: int) -> str:
        socket = f"first-{kind}-{language}"
        page_forget(socket)  # a fresh socket, nothing drawn before
        return _draw(kind, session_id, language, socket)(snapshots[index % 2])

    kept = _draw(kind, session_id, language, f"kept-{kind}-{language}")

    def changed(index: int) -> str:
        return kept(snapshots[index % 2])

    still = _draw(kind, session_id, language, f"still-{kind}-{language}")

    def unchanged(_index: int) -> str:
        return still(snapshots[0])

    return {"first": first, "one_table_changed": changed, "unchanged": unchanged}


def _median_cpu_ms(
    scenarios: dict[tuple[str, str], Callable[[int], str]], repeats: int
) -> dict[tuple[str, str], tuple[float, int]]:
    """Each scenario's median CPU ms and last size. One render of each in turn, so that what
    else the machine does weighs on all of them alike."""
    sizes = {name: len(render(0).encode()) for name, render in scenarios.items()}  # warm
    gc.collect()
    samples: dict[tuple[str, str], list[float]] = {name: [] for name in scenarios}
    for index in range(1, repeats + 1):
        for name, render in scenarios.items():
            started = time.process_time()
            html = render(index)
            samples[name].append((time.process_time() - started) * 1000)
            sizes[name] = len(html.encode())
    return {
        name: (round(statistics.median(times), 2), sizes[name]) for name, times in samples.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--warm-s", type=float, default=11.0)
    args = parser.parse_args()
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="snapclass-render-") as workdir:
        os.environ.update(
            bench_env(
                Path(workdir) / "bench.sqlite3",
                STATIC_ROOT=str(Path(workdir) / "static"),
            )
        )
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0, interactive=False)
        call_command("collectstatic", verbosity=0, interactive=False)
        session_id, tables = _class_started()
        snapshots = asyncio.run(_mid_game(tables, args.warm_s))
        flips = sorted(view["flip"] for view in snapshots[0].values())
        scenarios = {
            (f"{kind} {language}", name): render
            for kind in ("console", "console+dashboard", "projector")
            for language in LANGUAGES
            for name, render in _scenarios(kind, language, session_id, tables, snapshots).items()
        }
        pages: dict[str, dict[str, Any]] = {}
        for (page, name), (ms, size) in _median_cpu_ms(scenarios, args.repeats).items():
            pages.setdefault(page, {})[name] = {"cpu_ms_median": ms, "bytes": size}
    print(
        json.dumps(
            {
                "students": CLASS_SIZE,
                "tables": len(tables),
                "flips": flips,
                "repeats": args.repeats,
                "load_average": [load_before, os.getloadavg()[0]],
                "pages": pages,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
