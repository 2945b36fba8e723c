from __future__ import annotations

import pytest

from games.engine.reaction import LAG_SLACK_MS, rt_plausible


@pytest.mark.parametrize(
    ("rt", "age", "rtt", "plausible"),
    [
        (99, 500, 20, False),  # under the floor
        (100, 300, 20, True),
        (370, 300, 20, True),  # age 300 + round trip 20 + slack 50
        (371, 300, 20, False),  # watched longer than the card existed
        (1000 - 20 - LAG_SLACK_MS, 1000, 20, True),  # the least the arrival allows
        (1000 - 20 - LAG_SLACK_MS - 1, 1000, 20, False),  # claimed speed it did not show
        (101, 1500, 20, False),  # a forged 101 ms on a fast link
        (101, 1500, 1200, True),  # ...plausible only over a link the server timed that slow
    ],
)
def test_worked_examples(rt: int, age: int, rtt: int, plausible: bool) -> None:
    assert rt_plausible(rt, age_ms=age, rtt_ms=rtt, floor_ms=100, slack_ms=50) is plausible
