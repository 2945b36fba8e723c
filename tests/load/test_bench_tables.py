"""What `make bench` counts: flips inside a side's own blocks, their fan-out and lateness,
and every delivery a tablet was owed and never got."""

from __future__ import annotations

import pytest

from tests.load.bench_tables import Arrivals, side_tally


def _arrivals(flips: dict[tuple[str, int], tuple[float, float, list[float]]]) -> Arrivals:
    arrivals = Arrivals()
    for key, (began, late, received) in flips.items():
        arrivals.began[key] = began
        arrivals.late[key] = late
        arrivals.received[key] = received
    return arrivals


def test_a_complete_flip_counts_its_slowest_tablet_and_its_lateness() -> None:
    arrivals = _arrivals({("t1", 5): (1000.0, 3.0, [1004.0, 1009.0])})
    side = side_tally(arrivals, {"t1": 2}, [(900.0, 2000.0)])
    assert side.fan_out == [9.0]
    assert side.from_due == [12.0]
    assert side.late == [3.0]
    assert side.missed == 0


def test_a_tablet_that_never_got_a_flip_is_a_missed_delivery_and_no_latency() -> None:
    arrivals = _arrivals({("t1", 5): (1000.0, 0.0, [1004.0])})
    side = side_tally(arrivals, {"t1": 4}, [(900.0, 2000.0)])
    assert side.fan_out == []
    assert side.missed == 3


def test_a_flip_no_tablet_got_is_missed_by_the_whole_table() -> None:
    arrivals = _arrivals(
        {
            ("t1", 5): (1000.0, 0.0, [1001.0, 1002.0]),
            ("t1", 7): (1400.0, 0.0, [1401.0, 1402.0]),  # 6 never arrived anywhere
        }
    )
    side = side_tally(arrivals, {"t1": 2}, [(900.0, 2000.0)])
    assert len(side.fan_out) == 2
    assert side.missed == 2


@pytest.mark.parametrize(
    ("began", "outside"),
    [(500.0, 0), (2500.0, 1)],  # before measuring began: ignored; between blocks: counted
)
def test_flips_outside_the_sides_blocks_are_not_measured(began: float, outside: int) -> None:
    arrivals = _arrivals({("t1", 2): (began, 0.0, [began + 1.0])})
    side = side_tally(arrivals, {"t1": 1}, [(900.0, 2000.0), (3000.0, 4000.0)])
    assert side.fan_out == []
    assert side.outside_blocks == outside
