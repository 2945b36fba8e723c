"""The teacher pages' share of the process: their gaps stretch while their draws cost more."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from classroom.pages.render_budget import RenderBudget


def _draw_for(budget: RenderBudget, *, seconds: float, cpu_s_per_s: float, began: float) -> float:
    """Pages drawing ``cpu_s_per_s`` at their usual pace, divided by the stretch in force,
    as the pages' gaps make it; returns the loop time at the end."""
    now = began
    while now < began + seconds:
        stretch = budget.stretch(now=now)
        budget.spend(cpu_s=0.1 * cpu_s_per_s / stretch, now=now)
        now += 0.1
    return now


@pytest.mark.parametrize(
    ("cpu_s_per_s", "stretch"),
    [
        pytest.param(0.15, 1.0, id="within their share: their usual pace"),
        # Drawn 2.5 times less often, the pages spend their share and no more.
        pytest.param(0.5, 2.5, id="over it: drawn less often until they fit"),
        pytest.param(3.0, 4.0, id="far over it: capped, so a page still moves"),
    ],
)
def test_pages_are_drawn_as_often_as_their_share_allows(cpu_s_per_s: float, stretch: float) -> None:
    budget = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    now = _draw_for(budget, seconds=10, cpu_s_per_s=cpu_s_per_s, began=0.0)
    assert budget.stretch(now=now) == pytest.approx(stretch)


def test_when_the_load_goes_the_pace_comes_back() -> None:
    budget = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    now = _draw_for(budget, seconds=10, cpu_s_per_s=0.6, began=0.0)
    assert budget.stretch(now=now) == pytest.approx(3.0)
    now = _draw_for(budget, seconds=6, cpu_s_per_s=0.1, began=now)
    assert budget.stretch(now=now) == 1.0
    # A quiet spell with no draw at all: back to the usual pace too.
    budget = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    now = _draw_for(budget, seconds=6, cpu_s_per_s=2.0, began=0.0)
    assert budget.stretch(now=now) == 4.0
    assert budget.stretch(now=now + 60) == 1.0


def test_the_first_window_keeps_the_usual_pace() -> None:
    budget = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    budget.spend(cpu_s=5.0, now=100.0)
    assert budget.stretch(now=101.9) == 1.0  # one draw, however long, is not yet a window
    assert budget.stretch(now=102.0) == 4.0


@given(
    st.lists(st.tuples(st.floats(0.0, 5.0), st.floats(-1.0, 10.0, allow_nan=False)), max_size=60)
)
def test_the_stretch_stays_between_one_and_the_cap(draws: list[tuple[float, float]]) -> None:
    budget = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    now = 0.0
    for step, cpu_s in draws:
        now += step
        budget.spend(cpu_s=cpu_s, now=now)
        assert 1.0 <= budget.stretch(now=now) <= 4.0


def test_the_other_processes_demand_counts_as_the_pages_own() -> None:
    budget = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    budget.others = 0.3
    now = _draw_for(budget, seconds=10, cpu_s_per_s=0.2, began=0.0)
    # 0.2 of its own and 0.3 of the others': 2.5 times the machine's share.
    assert budget.stretch(now=now) == pytest.approx(2.5)
    assert budget.demand == pytest.approx(0.2)


def test_two_processes_pooling_their_demand_draw_as_one_process_does() -> None:
    """A school's pages split over two processes that tell each other their demand are drawn
    as often in all as on one process."""
    alone = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    end = _draw_for(alone, seconds=20, cpu_s_per_s=0.6, began=0.0)
    first = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    second = RenderBudget(share=0.2, window_s=2.0, most=4.0)
    now = 0.0
    while now < 20:
        # Each pools every window, as classroom.pages.render_pool does.
        first.others, second.others = second.demand, first.demand
        _draw_for(first, seconds=2, cpu_s_per_s=0.3, began=now)
        now = _draw_for(second, seconds=2, cpu_s_per_s=0.3, began=now)
    assert first.stretch(now=now) == pytest.approx(alone.stretch(now=end), rel=0.05)
    assert second.stretch(now=now) == pytest.approx(alone.stretch(now=end), rel=0.05)
