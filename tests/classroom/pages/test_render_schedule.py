"""When a live page is drawn again (classroom.pages.render_schedule), without a socket."""

from __future__ import annotations

import asyncio

import pytest

from classroom.pages import render_schedule
from classroom.pages.render_budget import RenderBudget
from classroom.pages.render_schedule import DashboardTimer, Drawing, Pace, RenderSchedule


class _Page:
    """What a socket gives its schedule: draws counted, pushes and closes recorded."""

    def __init__(self, pages: list[str], *, close_code: int | None = None) -> None:
        self.pages = pages
        self.close_code = close_code
        self.draws = 0
        self.pushed: list[str] = []
        self.closed: list[int] = []
        self.open = True

    async def draw(self) -> Drawing:
        html = self.pages[min(self.draws, len(self.pages) - 1)]
        self.draws += 1
        await asyncio.sleep(0)
        return html, self.close_code, 0.001

    async def push(self, html: str) -> bool:
        if self.open:
            self.pushed.append(html)
        return self.open

    async def close(self, code: int) -> None:
        self.closed.append(code)

    def schedule(self, pace: Pace) -> RenderSchedule:
        return RenderSchedule(draw=self.draw, push=self.push, close=self.close, pace=pace)


@pytest.fixture
def budget(monkeypatch: pytest.MonkeyPatch) -> RenderBudget:
    fresh = RenderBudget()
    monkeypatch.setattr(render_schedule, "teacher_render_budget", fresh)
    return fresh


async def _settled(schedule: RenderSchedule) -> None:
    while schedule.task is not None and not schedule.task.done():
        await schedule.task


async def test_a_burst_of_changes_is_drawn_once_at_once_and_once_after_the_gap() -> None:
    page = _Page(["<p>1</p>", "<p>2</p>"])
    schedule = page.schedule(Pace(0.05))
    for _ in range(5):
        schedule.redraw()
    await _settled(schedule)
    assert page.draws == 1  # the first change of a quiet spell, at once; the rest with it
    schedule.redraw()
    schedule.redraw()
    began = asyncio.get_running_loop().time()
    await _settled(schedule)
    assert page.draws == 2
    assert asyncio.get_running_loop().time() - began >= 0.04  # not before the gap
    assert page.pushed == ["<p>1</p>", "<p>2</p>"]


async def test_a_page_drawn_the_same_is_not_sent_again() -> None:
    page = _Page(["<p>same</p>"])
    schedule = page.schedule(Pace(0.0))
    schedule.shown("<p>same</p>", drawn_at=0.0)
    schedule.redraw()
    await _settled(schedule)
    assert page.draws == 1
    assert page.pushed == []


async def test_a_draw_with_a_close_code_is_sent_then_closes_the_socket() -> None:
    page = _Page(["<p>bye</p>"], close_code=4401)
    schedule = page.schedule(Pace(0.0))
    schedule.redraw()
    await _settled(schedule)
    assert (page.pushed, page.closed) == (["<p>bye</p>"], [4401])


async def test_a_page_closed_while_drawn_stops_its_schedule() -> None:
    page = _Page(["<p>1</p>", "<p>2</p>"])
    page.open = False
    schedule = page.schedule(Pace(0.0))
    schedule.redraw()
    await _settled(schedule)
    assert schedule.sent_html is None
    assert page.closed == []


async def test_teacher_pages_spend_the_budget_and_wait_as_it_stretches(
    budget: RenderBudget, monkeypatch: pytest.MonkeyPatch
) -> None:
    spent: list[float] = []
    monkeypatch.setattr(budget, "spend", lambda *, cpu_s, now: spent.append(cpu_s))
    monkeypatch.setattr(budget, "stretch", lambda *, now: 4.0)
    assert Pace(0.25, budgeted=True).gap(0.0) == 1.0
    assert Pace(0.25).gap(0.0) == 0.25  # a tablet's lobby keeps its pace
    page = _Page(["<p>1</p>"])
    schedule = page.schedule(Pace(0.25, budgeted=True))
    schedule.redraw()
    await _settled(schedule)
    assert spent == [0.001]


async def test_the_live_skills_are_due_at_most_every_gap_and_once_after_a_burst(
    budget: RenderBudget, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(render_schedule, "DASHBOARD_GAP_S", 0.05)
    asked: list[int] = []
    timer = DashboardTimer(redraw=lambda: asked.append(1))
    assert timer.due()  # the first draw has them
    assert not timer.due()  # within the gap: not this one ...
    assert timer.task is not None
    await timer.task  # ... but a draw is asked for once the gap is over
    assert asked == [1]
    assert timer.due()
    timer.cancel()
