"""Counting the tasks a block of code creates on the running loop (a per-message cost)."""

from __future__ import annotations

import asyncio
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator


@contextmanager
def tasks_created() -> Iterator[list[asyncio.Task[Any]]]:
    """Every task the running loop creates inside the block."""
    loop = asyncio.get_running_loop()
    created: list[asyncio.Task[Any]] = []

    def factory(loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Task[Any]:
        task = asyncio.Task(coro, loop=loop, **kwargs)
        created.append(task)
        return task

    before = loop.get_task_factory()
    loop.set_task_factory(factory)
    try:
        yield created
    finally:
        loop.set_task_factory(before)
