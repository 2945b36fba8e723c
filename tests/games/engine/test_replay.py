"""Rebuilding a table from its log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from games.engine.contract import Outcome
from games.engine.replay import log_replay

if TYPE_CHECKING:
    from collections.abc import Mapping


def test_log_replay_applies_entries_in_order_and_refuses_a_malformed_one() -> None:
    def act(state: list[str], seat: int, action: Mapping[str, Any], now_ms: int) -> Outcome[Any]:
        return Outcome(state=[*state, f"{seat}:{action['kind']}@{now_ms}"])

    def tick(state: list[str], now_ms: int) -> Outcome[Any]:
        return Outcome(state=[*state, f"tick@{now_ms}"])

    log = [("act", 1, {"kind": "flip"}, 10), ("tick", None, None, 20)]
    assert log_replay([], log, act=act, tick=tick) == ["1:flip@10", "tick@20"]
    with pytest.raises(ValueError, match="not a log entry"):
        log_replay([], [("act", None, {"kind": "flip"}, 5)], act=act, tick=tick)
