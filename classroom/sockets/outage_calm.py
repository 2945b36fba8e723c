"""Sockets stay calm through a Redis or database outage (``classroom.server.outages``)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from channels.exceptions import StopConsumer

from classroom.server.outages import OUTAGE_ERRORS, outage_warning
from classroom.sockets.close_codes import CloseCode

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable


class OutageCalmSocket:
    """A consumer mixin: a Redis or database outage while a socket connects, talks or leaves
    is one rate-limited warning, and a socket that could not be set up is closed with
    CloseCode.TRY_AGAIN (its tablet reconnects) rather than crashing with a traceback and 1011."""

    _accepted_here = False
    # How a socket that hit an outage is sent to reconnect: closed with this code (accepted
    # first if need be); None for pages whose htmx socket reconnects only on 1006/1011-1013,
    # which an application cannot send: their handshake is refused instead (the browser sees
    # 1006), and an open one is left open.
    try_again_code: int | None = CloseCode.TRY_AGAIN

    async def accept(self, *args: Any, **kwargs: Any) -> None:
        await super().accept(*args, **kwargs)  # type: ignore[misc]
        self._accepted_here = True

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        step = super().websocket_connect  # type: ignore[misc]
        await self._calmly(step, message, "a socket could not connect")

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        step = super().websocket_receive  # type: ignore[misc]
        await self._calmly(step, message, "could not handle a frame")

    async def _calmly(
        self, step: Callable[[dict[str, Any]], Awaitable[None]], message: dict[str, Any], what: str
    ) -> None:
        try:
            await step(message)
        except OUTAGE_ERRORS as error:
            outage_warning(f"{type(self).__name__}: {what}", error)
            await self._try_again_later()

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        try:
            await super().websocket_disconnect(message)  # type: ignore[misc]
        except OUTAGE_ERRORS as error:
            outage_warning(f"{type(self).__name__}: could not tidy up a closed socket", error)
            raise StopConsumer from error

    async def _try_again_later(self) -> None:
        with contextlib.suppress(Exception):  # the socket may be gone already
            if self.try_again_code is None:
                if not self._accepted_here:
                    await self.close()  # type: ignore[attr-defined]
                return
            if not self._accepted_here:
                # Accepted first: a refused handshake reaches the browser as 1006, without
                # the reason.
                await self.accept()
            await self.close(code=self.try_again_code)  # type: ignore[attr-defined]
