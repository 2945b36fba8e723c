"""How much of the process the teachers' pages may take to be drawn.

Drawn on the one thread Channels gives all sockets' database work, the consoles and
projectors of a whole school playing would take most of that thread and much of the
process's GIL, time the flips of every table wait for. They are drawn in a process of their
own (``classroom.pages.page_drawing``), which still takes a core the flips, the joins and the
log writer share. A teacher reads a tile every few seconds; a child waits for
the next card at once.

So the pages share a budget: their draws may use ``share`` of one CPU. Every window the
draws' CPU time is summed; what they would have spent at their usual pace (the sum times the
stretch in force) is the demand, and the next window's stretch is demand / share, between 1
and ``most``. Every teacher page multiplies its gaps between draws by it: one class's
console is drawn as often as ever, a school's consoles less often, and the tablets keep their
pace. The clock is passed in (the event loop's), so the rule is plain arithmetic.

The share is the machine's, not each process's: the processes of a cluster on one machine
draw on the same cores, so each adds the others' demand (``others``, told by
``classroom.pages.render_pool``) to its own, and a school's pages cost the same whether one
process serves it or several.
"""

from __future__ import annotations

from dataclasses import dataclass

from classroom.server import metrics

# A fifth of one CPU for every teacher page on the machine together: unbounded, a school's
# pages would take a third of the process.
RENDER_SHARE = 0.2
# Long enough to hold several draws of every page (a console is drawn about once a second).
WINDOW_S = 2.0
# A console drawn at least every 4 s, its live skills every 8 s: the capacity bench calls a
# teacher page that got no frame for 10 s frozen.
MOST_STRETCH = 4.0


@dataclass
class RenderBudget:
    share: float = RENDER_SHARE
    window_s: float = WINDOW_S
    most: float = MOST_STRETCH
    # The other processes' demand on this machine (CPU-s per second at their usual pace).
    others: float = 0.0
    _stretch: float = 1.0
    _window_began: float | None = None
    _spent_s: float = 0.0
    _demand: float = 0.0

    def spend(self, *, cpu_s: float, now: float) -> None:
        """A teacher page's draw took ``cpu_s`` of CPU, ending at loop time ``now``."""
        self._roll(now)
        self._spent_s += max(cpu_s, 0.0)

    def stretch(self, *, now: float) -> float:
        """What every teacher page multiplies its gaps between draws by now (≥ 1)."""
        self._roll(now)
        return self._stretch

    @property
    def current(self) -> float:
        """The stretch as last worked out (for the metrics, which have no loop clock)."""
        return self._stretch

    @property
    def demand(self) -> float:
        """This process's pages' demand over the last window: what they would spend per
        second at their usual pace (what the other processes on the machine are told)."""
        return self._demand

    def _roll(self, now: float) -> None:
        if self._window_began is None:
            self._window_began = now
            return
        elapsed = now - self._window_began
        if elapsed < self.window_s:
            return
        # At stretch s the pages were drawn 1/s as often as their usual pace asks.
        self._demand = self._spent_s / elapsed * self._stretch
        self._stretch = min(self.most, max(1.0, (self._demand + self.others) / self.share))
        self._window_began = now
        self._spent_s = 0.0


# One per serving process: the pages of every session here share its drawing process.
teacher_render_budget = RenderBudget()
metrics.teacher_page_stretch_from(lambda: teacher_render_budget.current)
