"""Tables hosted by another process of a cluster: forwarding inputs there, frames back here.

Each process has one address (a channel of the channel layer) and a loop that receives on it.

- As a table's **owner** it takes ``table.join``/``table.leave`` from other processes (which
  seats have sockets there), ``table.act``/``table.sync`` from their sockets, and answers
  each socket directly (``table.reply`` to the socket's channel). Every view and motion frame
  for a seat goes once to that seat's group, which the other processes have joined.
- As a **remote** process it keeps a :class:`RemoteTable` per table its sockets play at,
  standing in for the host: the consumer calls the same ``join``/``submit``/``resync``. When
  the table's owner changes (a takeover after the owner died), its sockets are closed with
  4012 so their tablets reconnect, and reach the new owner.

In the embedded single-process mode none of this runs: every table is hosted here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

from channels.layers import get_channel_layer

from classroom.hosting.lease_keeper import OwnedElsewhere, clustered, process_leases
from classroom.hosting.teacher_pages import pages_elsewhere, teacher_pages
from classroom.server.outages import OUTAGE_ERRORS, outage_warning
from classroom.sockets.close_codes import CloseCode
from games.engine.actions import action_plain
from games.live.supervision import supervised

if TYPE_CHECKING:
    from collections.abc import Callable

    from channels.layers import BaseChannelLayer

    from games.engine.actions import ActionInput
    from games.live.host import Listener, TableHost
    from games.live.registry import HostRegistry

logger = logging.getLogger(__name__)

# Remote processes say again which seats they have every HEARTBEAT_S; the owner forgets a
# process's sockets after MEMBER_TTL_S of silence (the process died or lost its network).
HEARTBEAT_S = 2.0
MEMBER_TTL_S = 6.5
# How often a remote process checks that a table's owner is still the one it talks to.
OWNER_CHECK_S = 0.25


def seat_key(seat: int | None) -> str:
    return "p" if seat is None else str(seat)


def table_seat_group(table_id: int, seat: int | None) -> str:
    """The processes with sockets on one seat of a table (``p``: the public, teacher view)."""
    return f"tbl.{table_id}.{seat_key(seat)}"


# A message to a process's router: tables moved, for its teacher pages of their sessions.
TABLES_MOVED = "teachers.tables_moved"


class RemoteListener(Protocol):
    """A socket in this process at a table hosted elsewhere."""

    seat: int | None

    @property
    def reply_to(self) -> str: ...

    async def deliver(self, frame: str) -> None: ...

    async def close(self, code: int) -> None: ...


# --------------------------------------------------------------------------------------------
# The owner's side: listeners that stand for other processes' sockets


class _GroupListener:
    """All sockets of one seat in other processes: frames go to the seat's group."""

    def __init__(self, layer: BaseChannelLayer, table_id: int, seat: int | None) -> None:
        self.seat = seat
        self._layer = layer
        self._table_id = table_id
        self._group = table_seat_group(table_id, seat)
        # Member process address -> when it last said it has sockets here (monotonic s).
        self.members: dict[str, float] = {}

    async def deliver(self, frame: str) -> None:
        message = {"type": "table.frame", "table_id": self._table_id, "seat": self.seat}
        try:
            await self._layer.group_send(self._group, {**message, "frame": frame})
        except OUTAGE_ERRORS as error:
            # Not raised: the host would drop this listener for good and the other processes'
            # sockets would get no view again. Their stand-ins ask for a fresh view once the
            # layer is back (TableRouter._heartbeat).
            outage_warning("table router: could not send a view to other processes", error)


class _ReplyListener:
    """One socket in another process, for the answer to its own input (ack, error, view)."""

    def __init__(self, layer: BaseChannelLayer, seat: int | None, reply_to: str) -> None:
        self.seat = seat
        self._layer = layer
        self._reply_to = reply_to

    async def deliver(self, frame: str) -> None:
        try:
            await self._layer.send(self._reply_to, {"type": "table.reply", "frame": frame})
        except OUTAGE_ERRORS as error:
            # The tablet sends an unanswered input again; a repeat is acknowledged, not applied.
            outage_warning("table router: could not answer a socket in another process", error)


# --------------------------------------------------------------------------------------------
# The remote side: a stand-in for a host that runs in another process


class RemoteTable:
    """What a consumer here talks to when its table is hosted by the process ``owner``."""

    def __init__(self, router: TableRouter, table_id: int, owner: str) -> None:
        self.table_id = table_id
        self.owner = owner
        self.ended = False
        # The owner went away (taken over, stopped): sockets still on their way in are sent
        # to reconnect instead of joining a stand-in nobody delivers to any more.
        self.gone = False
        self._router = router
        self._listeners: dict[int | None, set[RemoteListener]] = {}
        self._stop_callbacks: list[Callable[[], None]] = []

    def on_stop(self, callback: Callable[[], None]) -> None:
        if self.gone:
            callback()
        else:
            self._stop_callbacks.append(callback)

    def forget_on_stop(self, callback: Callable[[], None]) -> None:
        with contextlib.suppress(ValueError):
            self._stop_callbacks.remove(callback)

    async def join(self, listener: Listener) -> None:
        remote: RemoteListener = listener  # type: ignore[assignment]
        if self.gone:
            return  # its on_stop callback has already sent the socket to reconnect
        seat = remote.seat
        first = not self._listeners.get(seat)
        self._listeners.setdefault(seat, set()).add(remote)
        if first:
            await self._router.layer.group_add(
                table_seat_group(self.table_id, seat), self._router.address
            )
            await self._router.tell_owner(self, "table.join", seat=seat)
        # Its own view at once (the group hears views only when something changes).
        self.resync(listener)

    def leave(self, listener: Listener) -> None:
        for seat, listeners in list(self._listeners.items()):
            listeners.discard(listener)
            if not listeners:
                del self._listeners[seat]
                self._router.spawn(self._seat_left(seat))
        if not self._listeners:
            self._router.forget(self)

    async def _seat_left(self, seat: int | None) -> None:
        await self._router.layer.group_discard(
            table_seat_group(self.table_id, seat), self._router.address
        )
        await self._router.tell_owner(self, "table.leave", seat=seat)

    def submit(
        self, listener: Listener, seq: int, action: ActionInput, client_id: str | None = None
    ) -> None:
        remote: RemoteListener = listener  # type: ignore[assignment]
        fields = {"seq": seq, "action": action_plain(action), "cid": client_id}
        self._router.spawn(
            self._router.tell_owner(
                self, "table.act", seat=remote.seat, reply_to=remote.reply_to, **fields
            )
        )

    def resync(self, listener: Listener) -> None:
        remote: RemoteListener = listener  # type: ignore[assignment]
        self._router.spawn(
            self._router.tell_owner(self, "table.sync", seat=remote.seat, reply_to=remote.reply_to)
        )

    def seats(self) -> list[int | None]:
        return list(self._listeners)

    async def deliver(self, seat: int | None, frame: str) -> None:
        for listener in list(self._listeners.get(seat, ())):
            try:
                await listener.deliver(frame)
            except Exception:
                logger.debug("table %s: a socket went away", self.table_id, exc_info=True)

    async def owner_gone(self) -> None:
        """The owner changed or stopped: every socket here reconnects and is routed anew."""
        self.gone = True
        for callback in self._stop_callbacks:
            callback()
        for listeners in list(self._listeners.values()):
            for listener in list(listeners):
                with contextlib.suppress(Exception):
                    await listener.close(CloseCode.SERVICE_RESTART)
        self._listeners.clear()


# --------------------------------------------------------------------------------------------
# The router of this process


class TableRouter:
    """This process's address and its traffic with the other processes about tables."""

    def __init__(self, layer: BaseChannelLayer, registry: HostRegistry) -> None:
        self.layer = layer
        self.registry = registry
        self.address = ""
        self._remotes: dict[int, RemoteTable] = {}
        self._groups: dict[tuple[int, int | None], _GroupListener] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._started = False
        # The channel layer's count of outages it came back from (SteadyRedisChannelLayer):
        # when it moves, the sockets of every stand-in here reconnect.
        self._recoveries_seen = 0

    async def start(self) -> None:
        if self._started:
            return
        self._started = True
        # The default prefix on purpose: channels_redis receives every process-local channel
        # through one blocking pop on "<prefix>.<client>!", shared with the consumers' own
        # channels; another prefix would wait behind their pops (up to 5 s each).
        self.address = await self.layer.new_channel()
        # Supervised: one of these ending (a Redis blip once ended the receiving loop for good)
        # would leave this process's sockets at other processes' tables with no views or acks.
        for name, loop in (
            ("receiving", self._receive),
            ("heartbeat", self._heartbeat),
            ("owner watch", self._watch_owners),
        ):
            self.spawn(supervised(f"table router {name} loop", loop))

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.error("table router: a task failed", exc_info=task.exception())

    async def stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # -- remote side -------------------------------------------------------------------------

    def remote_table(self, table_id: int, owner: str) -> RemoteTable:
        remote = self._remotes.get(table_id)
        if remote is None or remote.owner != owner:
            remote = RemoteTable(self, table_id, owner)
            self._remotes[table_id] = remote
        return remote

    def forget(self, remote: RemoteTable) -> None:
        if self._remotes.get(remote.table_id) is remote:
            del self._remotes[remote.table_id]

    async def tell_owner(self, remote: RemoteTable, kind: str, **fields: Any) -> None:
        message = {"type": kind, "table_id": remote.table_id, "member": self.address, **fields}
        try:
            await self.layer.send(remote.owner, message)
        except OUTAGE_ERRORS as error:
            outage_warning("table router: could not reach a table's host", error)
        except Exception:
            logger.warning("table %s: could not reach its host", remote.table_id, exc_info=True)

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_S)
            await self.rejoin()
            self.expire_members()
            await self.pages_say()

    async def pages_say(self) -> None:
        """Say again which sessions have teacher pages here (``teacher_pages``)."""
        sessions = teacher_pages.sessions()
        if not sessions or not clustered():
            return
        try:
            await pages_elsewhere().say(self.address, sessions)
        except OUTAGE_ERRORS as error:
            outage_warning("table router: could not say which sessions it shows", error)

    async def rejoin(self) -> None:
        """Say again which seats have sockets here, re-joining their groups (a Redis that
        restarted has forgotten them)."""
        for remote in list(self._remotes.values()):
            for seat in remote.seats():
                group = table_seat_group(remote.table_id, seat)
                try:
                    await self.layer.group_add(group, self.address)
                except OUTAGE_ERRORS as error:
                    outage_warning("table router: could not re-join a table's group", error)
                    return  # the next heartbeat tries again
                await self.tell_owner(remote, "table.join", seat=seat)

    async def reconnect_after_outage(self) -> None:
        """After the channel layer came back from an outage, send this process's sockets at
        other processes' tables to reconnect: views, acks and inputs that were on their way
        were lost, and a tablet that reconnects gets a fresh view and sends its unanswered
        inputs again (a repeat is acknowledged, not applied)."""
        recoveries = int(getattr(self.layer, "recoveries", 0))
        if recoveries == self._recoveries_seen:
            return
        self._recoveries_seen = recoveries
        remotes = list(self._remotes.values())
        if remotes:
            logger.info("channel layer back: %d tables' sockets reconnect", len(remotes))
        for remote in remotes:
            self.forget(remote)
            await remote.owner_gone()

    async def _watch_owners(self) -> None:
        leases = process_leases()
        while True:
            await asyncio.sleep(OWNER_CHECK_S)
            await self.reconnect_after_outage()
            for remote in list(self._remotes.values()):
                try:
                    owner = await leases.owner_of(remote.table_id)
                except Exception:
                    logger.debug("owner of table %s unknown", remote.table_id, exc_info=True)
                    continue  # Redis unreachable: nothing can be decided now
                if owner != remote.owner:
                    logger.info(
                        "table %s: its host moved (%s); reconnecting", remote.table_id, owner
                    )
                    if owner is None:
                        self.spawn(self._take_over(remote.table_id))
                    self.forget(remote)
                    await remote.owner_gone()

    async def _take_over(self, table_id: int) -> None:
        """The owner's lease ran out (it died or stalled) and nobody holds the table: read
        its log here now, while this process's tablets wait out their reconnect backoff, so
        they find it running (or loading) instead of starting it one round trip later."""
        try:
            host = await self.registry.host_for(table_id)
        except OwnedElsewhere:
            return  # another process was quicker; the tablets find it through its lease
        if host is not None:
            self.registry.listener_left(host)  # stops it later if no tablet comes after all

    # -- both sides: the receiving loop -------------------------------------------------------

    async def _receive(self) -> None:
        while True:
            message = await self.layer.receive(self.address)  # raising: restarted (supervised)
            try:
                await self._dispatch(message)
            except Exception:
                logger.exception("table router: could not handle %s", message.get("type"))

    async def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        logger.debug("table router %s: %s", self.address, message)
        table_id = int(message.get("table_id", 0))
        seat = message.get("seat")
        if kind == "table.frame":
            remote = self._remotes.get(table_id)
            if remote is not None:
                await remote.deliver(seat, message["frame"])
            return
        if kind == TABLES_MOVED:
            for change in message["sessions"]:
                views = {int(table_id): view for table_id, view in change["views"].items()}
                teacher_pages.tell(int(change["session_id"]), change["table_ids"], views)
            return
        if kind == "table.gone":
            remote = self._remotes.get(table_id)
            if remote is not None:
                self.forget(remote)
                await remote.owner_gone()
            return
        if self.registry.starting(table_id):
            # Our lease is taken but the log is still being read: the other process's sockets
            # found us through the lease meanwhile. Answer once the host runs (a whole class
            # connects at once; "gone" here would send half of it to reconnect).
            self.spawn(self._to_host(table_id, message))
            return
        await self._to_host(table_id, message)

    async def _to_host(self, table_id: int, message: dict[str, Any]) -> None:
        host = await self.registry.started(table_id)
        if host is None:
            # Not hosted here (any more): the asking process re-routes its sockets.
            await self.layer.send(message["member"], {"type": "table.gone", "table_id": table_id})
            return
        kind, seat = message.get("type"), message.get("seat")
        if kind == "table.join":
            await self._member_joined(host, seat, message["member"])
        elif kind == "table.leave":
            self._member_left(host, seat, message["member"])
        elif kind == "table.act":
            reply = _ReplyListener(self.layer, seat, message["reply_to"])
            host.submit(reply, int(message["seq"]), message["action"], message.get("cid"))
        elif kind == "table.sync":
            host.resync(_ReplyListener(self.layer, seat, message["reply_to"]))
        elif kind == "table.to_bot" and isinstance(seat, int):
            # A child taken off the class list on a page served by another process.
            host.seat_to_bot(seat, str(message["level"]))

    async def _member_joined(self, host: TableHost, seat: int | None, member: str) -> None:
        key = (host.table_id, seat)
        listener = self._groups.get(key)
        if listener is None:
            listener = _GroupListener(self.layer, host.table_id, seat)
            self._groups[key] = listener
            host.on_stop(partial(self._forget_group, key))
            await host.join(listener)
        listener.members[member] = time.monotonic()

    def _forget_group(self, key: tuple[int, int | None]) -> None:
        self._groups.pop(key, None)

    def _member_left(self, host: TableHost, seat: int | None, member: str) -> None:
        key = (host.table_id, seat)
        listener = self._groups.get(key)
        if listener is None:
            return
        listener.members.pop(member, None)
        self._drop_if_empty(host, key, listener)

    def _drop_if_empty(
        self, host: TableHost, key: tuple[int, int | None], listener: _GroupListener
    ) -> None:
        if listener.members:
            return
        del self._groups[key]
        host.leave(listener)
        self.registry.listener_left(host)

    def expire_members(self, now: float | None = None) -> None:
        """Forget processes that stopped saying they have sockets here (they died)."""
        moment = time.monotonic() if now is None else now
        for key, listener in list(self._groups.items()):
            for member, seen in list(listener.members.items()):
                if moment - seen > MEMBER_TTL_S:
                    del listener.members[member]
            host = self.registry.running(key[0])
            if host is None:
                self._groups.pop(key, None)
            else:
                self._drop_if_empty(host, key, listener)


# One router per event loop (each test has its own loop and channel layer).
_routers: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, TableRouter] = (
    weakref.WeakKeyDictionary()
)


async def process_router(registry: HostRegistry) -> TableRouter:
    loop = asyncio.get_running_loop()
    router = _routers.get(loop)
    if router is None:
        layer = get_channel_layer()
        assert layer is not None
        router = TableRouter(layer, registry)
        _routers[loop] = router
    await router.start()
    return router
