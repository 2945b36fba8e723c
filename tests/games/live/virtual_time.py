"""An asyncio event loop on virtual time: minutes of table play run in milliseconds.

Whenever the loop would wait for its next timer and no I/O is ready, the loop's clock jumps
to that timer instead. Only for code that waits on timers and in-memory queues (no threads,
no sockets): nothing outside the loop could wake it.
"""

from __future__ import annotations

import asyncio
import gc
import selectors
import weakref
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine

T = TypeVar("T")


class _JumpingSelector(selectors.DefaultSelector):
    loop: VirtualTimeLoop

    def select(self, timeout: float | None = None) -> list[Any]:
        ready: list[Any] = super().select(0)
        if ready or (timeout is not None and timeout <= 0):
            return ready
        if timeout is None:
            raise RuntimeError("virtual time: the loop would wait forever (nothing scheduled)")
        self.loop.advance(timeout)
        return []


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        selector = _JumpingSelector()
        super().__init__(selector)
        selector.loop = self
        self._now = 0.0

    def time(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += seconds

    def ms(self) -> int:
        """Virtual milliseconds since the loop was made."""
        return round(self._now * 1000)


def run_virtual(main: Callable[[VirtualTimeLoop], Coroutine[Any, Any, T]]) -> T:
    loop = VirtualTimeLoop()
    try:
        return loop.run_until_complete(main(loop))
    finally:
        loop.close()


def loop_outlives(main: Callable[[], Coroutine[Any, Any, Any]]) -> bool:
    """Whether a virtual-time loop that ran ``main`` and was closed is still alive after a
    full collection (something kept it)."""
    loop = VirtualTimeLoop()
    loop.run_until_complete(main())
    loop.close()
    ended = weakref.ref(loop)
    del loop
    gc.collect()
    return ended() is not None


def loop_ms() -> int:
    """The running loop's clock in ms: a host's wall clock on virtual time."""
    return round(asyncio.get_running_loop().time() * 1000)
