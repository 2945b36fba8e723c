"""Django's side of the live runtime: loading table hosts, storing their log, steering them.

The registry of this process lives here. Hosts are started on demand (the first tablet of a
playing table connects) and rebuilt from the action log, so a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.db import InterfaceError, OperationalError, connection, transaction

from classroom.events import SeatGivenToBot, TablesControlled, event_subscribe
from classroom.hosting.engines import table_engine
from classroom.hosting.lease_keeper import (
    OwnedElsewhere,
    clustered,
    lease_hold_while,
    lease_keep,
    process_leases,
)
from classroom.hosting.log_store import (
    StaleOwner,
    TableRecord,
    action_log_append_many,
    table_clock_save,
    table_epoch_claim,
    table_record,
)
from classroom.hosting.router import TABLES_MOVED, RemoteTable, process_router
from classroom.hosting.teacher_pages import TeacherPage, pages_elsewhere, teacher_pages
from classroom.models import GameSession, Table
from classroom.server import metrics
from classroom.server.outages import OUTAGE_ERRORS, outage_warning
from classroom.server.sqlite_anchor import sqlite_checkpoints_leave
from classroom.services.live_tables import roster_takeovers, table_finished
from games.live.host import ClockMark, LogEntry, StoreUnavailable, TableHost, TableSetup
from games.live.registry import HostRegistry
from games.live.supervision import supervised_task
from games.registry import game_get

if TYPE_CHECKING:
    from games.engine.contract import Trial as EngineTrial
    from games.live.leases import Lease

logger = logging.getLogger(__name__)

PLAYING = (GameSession.Status.RUNNING, GameSession.Status.PAUSED)
# The phase every game's public view has once the game is over.
GAME_OVER_PHASE = "game_over"


_Pending = tuple[TableRecord, LogEntry, Sequence["EngineTrial"], "asyncio.Future[None]"]


class LogWriter:
    """The one writer of every table's log in this process, with group commit.

    Each host awaits its own entry; whatever is waiting when the database is free goes out in
    one transaction, so tables that flip together do not queue behind each other's commits.
    """

    def __init__(self) -> None:
        # Its own thread (and so its own database connection): log writes never queue behind
        # page rendering or presence updates on the shared sync thread.
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="log-writer")
        self._queue: asyncio.Queue[_Pending] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None

    def _ensure_running(self) -> asyncio.Queue[_Pending]:
        loop = asyncio.get_running_loop()
        if self._queue is None or self._loop is not loop:
            self._loop = loop
            self._queue = asyncio.Queue()
            # Every table of the process waits on this one task: supervised, so a failure is
            # logged and the writer goes on rather than freezing every table.
            self._task = supervised_task("log writer", partial(self._run, self._queue))
        return self._queue

    async def append(
        self, record: TableRecord, entry: LogEntry, trials: Sequence[EngineTrial]
    ) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._ensure_running().put_nowait((record, entry, trials, done))
        await done

    async def _run(self, queue: asyncio.Queue[_Pending]) -> None:
        while True:
            batch = [await queue.get()]
            while not queue.empty():
                batch.append(queue.get_nowait())
            try:
                await self._write_batch(batch)
            finally:
                # Whatever went wrong, no host is left waiting for an answer that never comes.
                for *_item, done in batch:
                    _settle(done, LogWriterFailed("the log writer failed; try again"))

    async def _write_batch(self, batch: list[_Pending]) -> None:
        # A waiter that was cancelled (its host stopped: lease lost, reaped) wants nothing
        # written any more, and its future must not be answered (InvalidStateError).
        batch = [pending for pending in batch if not pending[3].done()]
        if not batch:
            return
        try:
            await self._write(
                items=[(record, entry, trials) for record, entry, trials, _done in batch]
            )
        except Exception as error:
            if len(batch) > 1:
                await self._one_by_one(batch)
                return
            _settle(batch[0][3], error)
        else:
            for *_item, done in batch:
                _settle(done, None)

    async def _write(
        self, *, items: Sequence[tuple[TableRecord, LogEntry, Sequence[EngineTrial]]]
    ) -> None:
        with metrics.log_write(len(items)):
            # A plain hand-off: the write needs none of asgiref's context copying, which would
            # be most of what a commit costs the event loop.
            await asyncio.get_running_loop().run_in_executor(self._thread, _write_in_thread, items)

    async def ping(self) -> None:
        """Return once the writer's thread is free (a write stuck in the database keeps it
        busy); raise if its loop task has died (``/readyz`` asks this, with a timeout)."""
        task = self._task
        if task is not None and self._loop is asyncio.get_running_loop() and task.done():
            raise RuntimeError("the log writer stopped")
        await asyncio.get_running_loop().run_in_executor(self._thread, _nothing)

    def close_connection(self) -> None:
        """Close the writer thread's database connection (tests drop their database after)."""
        self._thread.submit(_close_connection).result(timeout=10)

    async def _one_by_one(self, batch: list[_Pending]) -> None:
        # One bad entry must not fail the other tables' entries that shared its transaction.
        for record, entry, trials, done in batch:
            if done.done():
                continue  # cancelled meanwhile
            try:
                await self._write(items=[(record, entry, trials)])
            except Exception as error:
                _settle(done, error)
            else:
                _settle(done, None)


class LogWriterFailed(Exception):
    """The log writer failed before it could answer (it restarts; the host tries again)."""


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    """Answer a waiting host, unless it stopped waiting (cancelled) or has its answer."""
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


def _write_in_thread(items: Sequence[tuple[TableRecord, LogEntry, Sequence[EngineTrial]]]) -> None:
    # The writer thread keeps its connection open between writes (opening one costs more than
    # the write); after a failure it starts afresh, in case the connection itself broke.
    try:
        sqlite_checkpoints_leave(connection)
        action_log_append_many(items=items)
    except Exception:
        connection.close()
        raise


def _nothing() -> None:
    pass


def _close_connection() -> None:
    # Looked up here, in the calling thread: Django's connections are per thread.
    connection.close()


log_writer = LogWriter()


class DjangoTableStore:
    """Writes a table's log entries and trials to the database (through the log writer)."""

    def __init__(self, record: TableRecord) -> None:
        self.record = record

    async def append(self, entry: LogEntry, trials: Sequence[EngineTrial]) -> None:
        try:
            await log_writer.append(self.record, entry, trials)
        except (OperationalError, InterfaceError, LogWriterFailed) as error:
            # The database cannot be reached (down, restarting, connection cut): the host
            # keeps the entry and tries again.
            raise StoreUnavailable(str(error)) from error
        if entry.kind == "bot" and entry.seat is not None:
            # A bot plays the seat now: its responses are nobody's progress.
            humans = {i: link for i, link in self.record.humans.items() if i != entry.seat}
            self.record = dataclasses.replace(self.record, humans=humans)

    async def clock_save(self, mark: ClockMark) -> None:
        # Rare (a host's start, pause, resume): the shared sync thread is fine for it.
        await database_sync_to_async(table_clock_save)(
            table_id=self.record.table_id,
            epoch=self.record.epoch,
            origin_ms=mark.origin_ms,
            frozen_ms=mark.frozen_ms,
        )


def _epoch_if_playing(table_id: int) -> int | None:
    """The table's current fencing epoch if it is playing (else None: nothing to host)."""
    table = Table.objects.select_related("session").filter(pk=table_id).first()
    if table is None or not table.roster or table.seed is None:
        return None
    if game_get(table.session.game) is None or table.session.status not in PLAYING:
        return None
    return table.epoch


@transaction.atomic
def _host_parts(
    table_id: int, epoch: int
) -> tuple[TableRecord, Table, Any, TableSetup, list[LogEntry], bool] | None:
    # Claim the table first, then read its log: once claimed, no former owner can add to the
    # log, so what is read here is all there will ever be before this host's own entries.
    table_epoch_claim(table_id=table_id, epoch=epoch)
    table = Table.objects.select_related("session").filter(pk=table_id).first()
    if table is None or not table.roster or table.seed is None:
        return None
    session = table.session
    spec = game_get(session.game)
    if spec is None or session.status not in PLAYING:
        return None
    engine, config = table_engine(
        spec=spec,
        settings=session.settings if table.settings is None else table.settings,
        adaptive=session.adaptive,
        roster=table.roster,
    )
    setup = TableSetup(
        table_id=table.pk,
        config=config,
        seats=tuple(range(len(table.roster))),
        seed=table.seed,
        bots={
            index: spec.make_bot(entry["bot"])
            for index, entry in enumerate(table.roster)
            if "bot" in entry
        },
    )
    log = [
        LogEntry(
            row.seq, row.kind, row.seat_index, row.payload, row.server_ms, row.client_id or None
        )
        for row in table.log_entries.order_by("seq")
    ]
    paused = session.status == GameSession.Status.PAUSED
    record = table_record(table=table, epoch=epoch)
    return record, table, engine, setup, log, paused


def _clock_mark(table: Table) -> ClockMark | None:
    """Where the table's timeline stands, as its last host left it (None: never hosted
    since clock marks were kept; the host starts at its last logged entry)."""
    if table.clock_origin_ms is None:
        return None
    return ClockMark(table.clock_origin_ms, table.clock_frozen_ms)


async def _process_address() -> str:
    if not clustered():
        return "local"
    return (await process_router(registry)).address


async def _lease(table_id: int, floor: int) -> Lease:
    """This process's lease on the table, or OwnedElsewhere naming the process that has it."""
    leases = process_leases()
    me = await _process_address()
    for _attempt in range(3):
        lease = await leases.acquire(table_id, me, floor=floor)
        if lease is not None:
            return lease
        owner = await leases.owner_of(table_id)
        if owner is not None:
            raise OwnedElsewhere(table_id, owner)
        # The lease expired between the two questions: ask again.
    raise OwnedElsewhere(table_id, "")


async def table_host_load(table_id: int) -> TableHost | None:
    floor = await database_sync_to_async(_epoch_if_playing)(table_id)
    if floor is None:
        return None
    taken = await _lease(table_id, floor)
    metrics.table_taken_over(floor)
    leases = process_leases()
    try:
        parts, lease = await lease_hold_while(
            database_sync_to_async(_host_parts)(table_id, taken.epoch), taken, leases
        )
    except StaleOwner:
        parts, lease = None, taken  # a newer owner claimed it meanwhile
    if lease is None:
        # Lost while the log was read (Redis unreachable for longer than the lease lasts):
        # whoever holds it now hosts the table.
        owner = await leases.owner_of(table_id)
        raise OwnedElsewhere(table_id, owner or "")
    if parts is None:
        await leases.release(lease)
        return None
    record, table, engine, setup, log, paused = parts
    store = DjangoTableStore(record)
    host = TableHost(
        setup=setup,
        engine=engine,
        store=store,
        log=log,
        paused=paused,
        on_change=partial(_announce_change, table.session_id),
        epoch=lease.epoch,
        clock_mark=_clock_mark(table),
        clock_store=store,
    )
    for index, level in roster_takeovers(table.roster).items():
        # Its child was taken off the class list while no host ran here: a bot takes the
        # seat now (nothing happens if the log already has it).
        host.seat_to_bot(index, level)
    keeper = asyncio.ensure_future(lease_keep(host, lease, leases))
    _keepers.add(keeper)
    keeper.add_done_callback(_keepers.discard)
    return host


# The lease keepers' tasks (kept referenced while they run).
_keepers: set[asyncio.Future[None]] = set()


registry = HostRegistry(table_host_load)
metrics.live_tables_from(registry.running_count)

TableHandle = TableHost | RemoteTable


async def table_handle(table_id: int) -> TableHandle | None:
    """What a tablet's socket plays through: the host if this process runs the table (taking
    it on if nobody does), a stand-in for the host in another process, or None (not live)."""
    try:
        return await registry.host_for(table_id)
    except OwnedElsewhere as elsewhere:
        if not elsewhere.owner:
            return None
        router = await process_router(registry)
        return router.remote_table(table_id, elsewhere.owner)


async def table_watch_handle(table_id: int) -> TableHandle | None:
    """A running table for a teacher page to watch, wherever it runs; never starts one."""
    host = registry.running(table_id)
    if host is not None or not clustered():
        return host
    router = await process_router(registry)
    owner = await process_leases().owner_of(table_id)
    if owner is None or owner == router.address:
        return None
    return router.remote_table(table_id, owner)


# Table changes waiting to be announced, by session: every session's pages are told once per
# interval however many of its tables moved (a class of 30 flips several tables a second),
# and each other process showing some of the sessions gets one message for all of them.
ANNOUNCE_INTERVAL_S = 0.2
_pending_announcements: dict[int, dict[int, TableHost]] = {}

View = Mapping[str, Any]


def _announce_change(session_id: int, host: TableHost) -> None:
    """Tell the session's teacher pages that a table moved (they re-render its tile)."""
    if not _pending_announcements:
        asyncio.get_running_loop().call_later(ANNOUNCE_INTERVAL_S, _announce_now)
    _pending_announcements.setdefault(session_id, {})[host.table_id] = host


def _announce_now() -> None:
    pending = dict(_pending_announcements)
    _pending_announcements.clear()
    changes: dict[int, tuple[list[int], dict[int, View]]] = {}
    for session_id, hosts in pending.items():
        views: dict[int, View] = {table_id: host.teacher_view() for table_id, host in hosts.items()}
        _mark_finished(views)
        table_ids = sorted(hosts)
        # The pages here read these hosts' views themselves.
        teacher_pages.tell(session_id, table_ids, {})
        changes[session_id] = (table_ids, views)
    if changes and clustered():
        task = asyncio.ensure_future(_announce_elsewhere(changes))
        task.add_done_callback(_log_failure)


async def _announce_elsewhere(changes: Mapping[int, tuple[list[int], Mapping[int, View]]]) -> None:
    """The sessions' pages in other processes cannot ask these hosts: the views travel, in
    one message to each process that shows some of them (``classroom.hosting.teacher_pages``)."""
    router = await process_router(registry)
    try:
        showing = await pages_elsewhere().others(router.address, list(changes))
        told: defaultdict[str, list[dict[str, Any]]] = defaultdict(list)
        for session_id, addresses in showing.items():
            table_ids, views = changes[session_id]
            change = {
                "session_id": session_id,
                "table_ids": table_ids,
                "views": {str(table_id): view for table_id, view in views.items()},
            }
            for address in addresses:
                told[address].append(change)
        for address, sessions in told.items():
            await router.layer.send(address, {"type": TABLES_MOVED, "sessions": sessions})
    except OUTAGE_ERRORS as error:
        outage_warning("could not tell other processes' teacher pages of a change", error)


async def teacher_page_open(session_id: int, page: TeacherPage) -> None:
    """A teacher page of the session opened here: told of its tables from now on."""
    if not teacher_pages.add(session_id, page) or not clustered():
        return
    router = await process_router(registry)
    try:
        await pages_elsewhere().say(router.address, [session_id])
    except OUTAGE_ERRORS as error:  # said again by the router's heartbeat
        outage_warning("could not say this process shows a session", error)


async def teacher_page_close(session_id: int, page: TeacherPage) -> None:
    if not teacher_pages.remove(session_id, page) or not clustered():
        return
    router = await process_router(registry)
    try:
        await pages_elsewhere().unsay(router.address, session_id)
    except OUTAGE_ERRORS as error:  # forgotten after PAGES_FORGOTTEN_AFTER_S anyway
        outage_warning("could not say this process no longer shows a session", error)


# Tables this process has marked finished (their game is over), so each is written once.
_finished: set[int] = set()


def _mark_finished(views: Mapping[int, Mapping[str, Any]]) -> None:
    """A table whose game is over is finished in the database too: the console and the
    projector say so (instead of "Playing"), and Play again knows every table is done."""
    for table_id, view in views.items():
        if table_id in _finished or view.get("phase") != GAME_OVER_PHASE:
            continue
        _finished.add(table_id)
        task = asyncio.ensure_future(database_sync_to_async(table_finished)(table_id=table_id))
        task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Future[Any]) -> None:
    if task.cancelled() or (error := task.exception()) is None:
        return
    if isinstance(error, OUTAGE_ERRORS):
        outage_warning("could not announce a table change", error)
    else:
        logger.warning("could not announce a table change", exc_info=error)


async def _control(table_ids: list[int], command: str) -> None:
    registry.control(table_ids, command)


def _tables_controlled(event: TablesControlled) -> None:
    chosen = (
        list(event.table_ids)
        if event.table_ids is not None
        else list(Table.objects.filter(session_id=event.session_id).values_list("pk", flat=True))
    )
    try:
        async_to_sync(_control)(chosen, event.command)
    except RuntimeError:
        # No event loop of ours here (a management command): no host runs in it either.
        logger.debug("no running loop for table control", exc_info=True)


async def _to_bot(table_id: int, seat_index: int, level: str) -> None:
    host = registry.running(table_id)
    if host is not None:
        host.seat_to_bot(seat_index, level)
        return
    if not clustered():
        return
    router = await process_router(registry)
    owner = await process_leases().owner_of(table_id)
    if owner is not None and owner != router.address:
        message = {"table_id": table_id, "seat": seat_index, "level": level}
        await router.layer.send(
            owner, {"type": "table.to_bot", "member": router.address, **message}
        )


def _seat_given_to_bot(event: SeatGivenToBot) -> None:
    # Its host is told, here or (clustered) in the process that owns it; a host started later
    # reads it from the roster.
    try:
        async_to_sync(_to_bot)(event.table_id, event.seat_index, event.level)
    except RuntimeError:
        logger.debug("no running loop for a seat takeover", exc_info=True)


def hosts_subscribe() -> None:
    """Steer the table hosts when the store pauses, resumes or ends tables, or gives a seat to
    a bot (the app does it when it starts)."""
    event_subscribe(kind=TablesControlled, handler=_tables_controlled)
    event_subscribe(kind=SeatGivenToBot, handler=_seat_given_to_bot)
