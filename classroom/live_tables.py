"""Django's side of the live runtime: loading table hosts, storing their log, steering them.

The registry of this process lives here. Hosts are started on demand (the first tablet of a
playing table connects) and rebuilt from the action log, so a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import logging
from functools import partial
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from classroom.live_updates import session_group
from classroom.models import GameSession, Table
from classroom.services.live_tables import action_log_append
from games.core import game_get
from games.live.host import LogEntry, TableHost, TableSetup
from games.live.registry import HostRegistry

if TYPE_CHECKING:
    from collections.abc import Sequence

    from games.core import Trial as EngineTrial

logger = logging.getLogger(__name__)

PLAYING = (GameSession.Status.RUNNING, GameSession.Status.PAUSED)


class DjangoTableStore:
    """Writes a table's log entries and trials to the database, one transaction each."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def append(self, entry: LogEntry, trials: Sequence[EngineTrial]) -> None:
        await database_sync_to_async(action_log_append)(
            table=self.table, entry=entry, trials=trials
        )


def _host_parts(table_id: int) -> tuple[Table, Any, TableSetup, list[LogEntry], bool] | None:
    table = Table.objects.select_related("session").filter(pk=table_id).first()
    if table is None or not table.roster or table.seed is None:
        return None
    session = table.session
    spec = game_get(session.game)
    if spec is None or session.status not in PLAYING:
        return None
    setup = TableSetup(
        table_id=table.pk,
        config=spec.config(session.settings),
        seats=tuple(range(len(table.roster))),
        seed=table.seed,
        bots={
            index: spec.make_bot(entry["bot"])
            for index, entry in enumerate(table.roster)
            if "bot" in entry
        },
    )
    log = [
        LogEntry(row.seq, row.kind, row.seat_index, row.payload, row.server_ms)
        for row in table.log_entries.order_by("seq")
    ]
    return table, spec.engine(), setup, log, session.status == GameSession.Status.PAUSED


async def table_host_load(table_id: int) -> TableHost | None:
    parts = await database_sync_to_async(_host_parts)(table_id)
    if parts is None:
        return None
    table, engine, setup, log, paused = parts
    return TableHost(
        setup=setup,
        engine=engine,
        store=DjangoTableStore(table),
        log=log,
        paused=paused,
        on_change=partial(_announce_change, table.session_id),
    )


registry = HostRegistry(table_host_load)


def _announce_change(session_id: int, host: TableHost) -> None:
    """Tell the session's teacher pages that a table moved (they re-render its tile)."""
    layer = get_channel_layer()
    if layer is None:
        return
    message = {"type": "table.changed", "table_id": host.table_id}
    task = asyncio.ensure_future(layer.group_send(session_group(session_id), message))
    task.add_done_callback(_log_failure)


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.warning("could not announce a table change", exc_info=task.exception())


async def _control(table_ids: list[int], command: str) -> None:
    registry.control(table_ids, command)


def tables_control(*, session_id: int, command: str) -> None:
    """Pause, resume or end the session's running tables once the change is committed."""

    def send() -> None:
        table_ids = list(Table.objects.filter(session_id=session_id).values_list("pk", flat=True))
        try:
            async_to_sync(_control)(table_ids, command)
        except RuntimeError:
            # No event loop of ours here (a management command): no host runs in it either.
            logger.debug("no running loop for table control", exc_info=True)

    transaction.on_commit(send)
