"""When a live page is drawn again: bursts of changes coalesced, at most one draw per gap.

A burst (a class joining at once, tables flipping) would otherwise draw every page of the
session once per change, all on the one thread that also answers the joins. Changes that come
while a draw waits are shown together; the first change after a quiet spell is drawn at once.
The teacher's pages also share the process's drawing budget (``classroom.pages.render_budget``):
while they spend more than their share, each waits longer between two draws.

A page socket owns one ``RenderSchedule`` and gives it what only the socket knows: how to draw
its page, send it and close. The schedule decides when.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from classroom.pages.render_budget import teacher_render_budget

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

# A page drawn: its HTML, the close code it ends the socket with (None: it stays open), and
# the CPU its draw took.
Drawing = tuple[str, int | None, float]

# The least time between two draws of one tablet's lobby while changes keep coming.
LOBBY_RENDER_GAP_S = 0.25
# The same for the teacher's console and projector: while tables play they change every few
# hundred ms, and a console draw costs far more CPU than a lobby's.
TEACHER_RENDER_GAP_S = 1.0
# The least time between two draws of the console's live skills (every trial of the session
# is read for them) while the tables keep changing.
DASHBOARD_GAP_S = 2.0


@dataclass(frozen=True)
class Pace:
    """The gap between two draws of a page, and whether its draws share the teachers' budget."""

    gap_s: float
    budgeted: bool = False

    def gap(self, now: float) -> float:
        if not self.budgeted:
            return self.gap_s
        return self.gap_s * teacher_render_budget.stretch(now=now)

    def spent(self, cpu_s: float, now: float) -> None:
        if self.budgeted:
            teacher_render_budget.spend(cpu_s=cpu_s, now=now)


@dataclass
class RenderSchedule:
    """Draws a page when it changed, at most once per ``pace`` gap, and pushes what differs."""

    draw: Callable[[], Awaitable[Drawing]]
    # Sends a drawn page; False when the socket was closing (nothing more to push to).
    push: Callable[[str], Awaitable[bool]]
    close: Callable[[int], Awaitable[None]]
    pace: Pace
    dirty: bool = False
    task: asyncio.Task[None] | None = None
    sent_html: str | None = None
    drawn_at: float = float("-inf")  # loop time the last draw began

    def redraw(self) -> None:
        """The page changed: at most one draw in flight, and one queued behind it."""
        self.dirty = True
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._push_while_dirty())

    def shown(self, html: str, *, drawn_at: float) -> None:
        """The page was drawn and sent by its socket itself (as it opened)."""
        self.drawn_at = drawn_at
        self.sent_html = html

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _push_while_dirty(self) -> None:
        loop = asyncio.get_running_loop()
        while self.dirty:
            now = loop.time()
            wait = self.drawn_at + self.pace.gap(now) - now
            if wait > 0:
                await asyncio.sleep(wait)
            self.dirty = False
            self.drawn_at = loop.time()
            html, close_code, cpu_s = await self.draw()
            self.pace.spent(cpu_s, loop.time())
            if html != self.sent_html:
                if not await self.push(html):
                    return  # closed while it was drawn: nobody to push to any more
                self.sent_html = html
            if close_code is not None:
                await self.close(close_code)
                return


@dataclass
class DashboardTimer:
    """When the console's draw includes its live skills: at most every ``DASHBOARD_GAP_S``
    (stretched as the teachers' budget stretches the pages), and once more after the last
    change of a burst, by a draw it asks for itself."""

    redraw: Callable[[], None]
    drawn_at: float = float("-inf")  # loop time of the last draw with the live skills
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def due(self) -> bool:
        """Does the draw about to begin include the live skills?"""
        now = asyncio.get_running_loop().time()
        gap = DASHBOARD_GAP_S * teacher_render_budget.stretch(now=now)
        if now - self.drawn_at >= gap:
            self.drawn_at = now
            return True
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._later(self.drawn_at + gap - now))
        return False

    def now_due(self) -> None:
        """The next draw includes the live skills, however recent the last: they changed
        outside play."""
        self.drawn_at = float("-inf")

    async def _later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self.redraw()

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()
