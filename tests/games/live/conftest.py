"""Async tests marked ``virtual_time`` run on a loop whose clock jumps to its next timer
(``tests.games.live.virtual_time``): grace periods, heartbeats and ticks pass without waiting."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from tests.games.live.virtual_time import VirtualTimeLoop

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    import pytest


def pytest_asyncio_loop_factories(
    config: pytest.Config, item: pytest.Item
) -> Mapping[str, Callable[[], asyncio.AbstractEventLoop]]:
    if item.get_closest_marker("virtual_time") is not None:
        return {"virtual_time": VirtualTimeLoop}
    return {"real_time": asyncio.new_event_loop}
