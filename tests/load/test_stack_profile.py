"""The causes a serving process's samples count for."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.load.stack_profile import causes_counted, causes_shares, stack_cause

LOOP = "_run_module_as_main (<frozen runpy>:198);run (twisted/internet/asyncioreactor.py:255)"


@pytest.mark.parametrize(
    ("frames", "cause"),
    [
        pytest.param(
            [LOOP, "_renewals_send (games/live/leases.py:192)",
             "execute (redis/asyncio/client.py:1500)",
             "write (asyncio/selector_events.py:1057)"],
            "redis", id="a socket write under redis-py is Redis",
        ),
        pytest.param(
            [LOOP, "deliver (classroom/sockets/table.py:98)",
             "write (twisted/internet/abstract.py:353)",
             "untilConcludes (twisted/python/util.py:760)"],
            "tablet sockets", id="under Twisted, the tablets' sockets",
        ),
        pytest.param(
            ["_bootstrap (threading.py:1002)",
             "LogWriter._write (classroom/hosting/table_hosts.py:133)",
             "execute (psycopg/cursor.py:100)", "wait (psycopg/connection.py:495)"],
            "log writing", id="the log writer's database calls are log writing",
        ),
        pytest.param(
            [LOOP, "TableHost._run (games/live/host.py:446)", "copied (games/engine/table.py:50)"],
            "tables", id="the engines and hosts",
        ),
        pytest.param([LOOP, "select (selectors.py:468)"], "idle", id="epoll is idle"),
        pytest.param([LOOP, "<lambda> (json/encoder.py:1)"], "other", id="nothing known"),
    ],
)  # fmt: skip
def test_a_sample_counts_for_its_innermost_known_cause(frames: list[str], cause: str) -> None:
    assert stack_cause(frames) == cause


def test_shares_are_of_the_busy_samples() -> None:
    lines = [
        f"{LOOP};select (selectors.py:468) 50\n",
        f"{LOOP};TableHost._run (games/live/host.py:446) 30\n",
        f"{LOOP};get (redis/asyncio/client.py:1) 10\n",
        "\n",
    ]
    counted = causes_counted(lines)
    assert counted == Counter({"idle": 50, "tables": 30, "redis": 10})
    assert causes_shares(counted) == {"tables": 75.0, "redis": 25.0}
    assert causes_shares(Counter({"idle": 3})) == {}
