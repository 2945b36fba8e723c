"""Which table hosts run in this process: start on demand, stop when ended or idle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from games.live.host import TableHost

logger = logging.getLogger(__name__)

HostLoader = Callable[[int], Awaitable[TableHost | None]]

# A table nobody has listened to for this long stops; its log brings it back on demand.
IDLE_STOP_S = 120.0


class HostRegistry:
    """Maps table id → running host. One per process; hosts own all game state."""

    def __init__(self, loader: HostLoader, *, idle_stop_s: float = IDLE_STOP_S) -> None:
        self._loader = loader
        self._idle_stop_s = idle_stop_s
        self._hosts: dict[int, TableHost] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._reapers: dict[int, asyncio.Task[None]] = {}

    def running(self, table_id: int) -> TableHost | None:
        host = self._hosts.get(table_id)
        return host if host is not None and not host.ended else None

    def running_count(self) -> int:
        return sum(1 for host in self._hosts.values() if not host.ended)

    def starting(self, table_id: int) -> bool:
        """A host for this table is being loaded here right now (its lease is already ours)."""
        lock = self._locks.get(table_id)
        return lock is not None and lock.locked()

    async def started(self, table_id: int) -> TableHost | None:
        """The running host, once any start in progress here has finished."""
        lock = self._locks.get(table_id)
        if lock is not None and lock.locked():
            async with lock:
                pass
        return self.running(table_id)

    async def host_for(self, table_id: int) -> TableHost | None:
        """The running host of a table, started (from its log) if needed; None if not live."""
        host = self.running(table_id)
        if host is not None:
            return host
        lock = self._locks.setdefault(table_id, asyncio.Lock())
        async with lock:
            host = self.running(table_id)
            if host is None:
                host = await self._loader(table_id)
                if host is None:
                    return None
                self._hosts[table_id] = host
                task = host.start()
                task.add_done_callback(lambda done: self._forget(table_id, host, done))
            return host

    def _forget(
        self, table_id: int, host: TableHost, task: asyncio.Task[None] | None = None
    ) -> None:
        if task is not None and not task.cancelled() and task.exception() is not None:
            # A failed host: its tablets reconnect and rebuild it from the log; say why here.
            logger.error("table %s: its host failed", table_id, exc_info=task.exception())
        if self._hosts.get(table_id) is host:
            del self._hosts[table_id]

    def teacher_views(self, table_ids: Iterable[int] | None = None) -> dict[int, dict[str, Any]]:
        """The teacher view of every table running here (or of ``table_ids`` among them), by
        table id. A teacher's page asks for its session's tables only: building every table's
        view for each of a school's consoles was most of the event loop's work."""
        if table_ids is None:
            return {table_id: host.teacher_view() for table_id, host in list(self._hosts.items())}
        hosts = ((table_id, self._hosts.get(table_id)) for table_id in table_ids)
        return {table_id: host.teacher_view() for table_id, host in hosts if host is not None}

    def control(self, table_ids: list[int], command: str) -> None:
        """Pause, resume or end the given tables if they run here (must run in the loop)."""
        for table_id in table_ids:
            host = self.running(table_id)
            if host is not None:
                host.control(command)

    def listener_left(self, host: TableHost) -> None:
        """Stop a host no tablet listens to, after a grace period (a reload must not stop it).

        Teacher pages watching a table do not keep it running: they do not play.
        """
        if host.seats_listening():
            return
        previous = self._reapers.pop(host.table_id, None)
        if previous is not None:
            previous.cancel()
        self._reapers[host.table_id] = asyncio.create_task(self._reap_when_idle(host))

    async def _reap_when_idle(self, host: TableHost) -> None:
        await asyncio.sleep(self._idle_stop_s)
        if not host.seats_listening():
            self._forget(host.table_id, host)
            await host.stop()

    async def stop_all(self) -> None:
        for host in list(self._hosts.values()):
            await host.stop()
        for reaper in self._reapers.values():
            reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reaper
        self._hosts.clear()
