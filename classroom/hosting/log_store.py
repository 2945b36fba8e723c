"""The table hosts' log store: each table's action log and the trials it closed, fenced by the
epoch of the host that owns the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from classroom.hosting.row_insert import RowInserter
from classroom.hosting.row_reads import ColumnByKey, ColumnsByKey
from classroom.models import ActionLogEntry, Seat, Table, Trial
from classroom.people.colour_vision import palette_for_player, trial_accommodation
from classroom.people.extra_time import TRIAL_KEY as EXTRA_TIME_KEY
from classroom.people.extra_time import trial_extra_time
from classroom.services.live_tables import roster_extra_time, roster_seat_ids
from games.live.host import StoreFenced

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping, Sequence
    from datetime import datetime

    from games.engine.contract import Trial as EngineTrial
    from games.live.host import LogEntry


@dataclass(frozen=True)
class TableRecord:
    """What writing a table's log needs, read once when its host starts."""

    table_id: int
    session_id: int
    game: str
    # Engine seat index -> (Seat pk, Student pk or None), for the human seats.
    humans: Mapping[int, tuple[int, int | None]]
    # The fencing epoch of the host writing (see table_epoch_claim).
    epoch: int = 0
    # Engine seat index -> the accommodation its trials carry in their data (a human seat
    # playing a colour-stimulus game with the colour-vision-safe palette: "colour_safe").
    accommodations: Mapping[int, str] = field(default_factory=dict)
    # Engine seat index -> the extra time its trials carry ("x1.5", "x2", "untimed"), as the
    # table was dealt (classroom.people.extra_time).
    extra_time: Mapping[int, str] = field(default_factory=dict)


def table_record(*, table: Table, epoch: int = 0) -> TableRecord:
    seat_ids = roster_seat_ids(table.roster)
    seats = {
        seat_id: (student_id, bool(colour_safe))
        for seat_id, student_id, colour_safe in Seat.objects.filter(
            pk__in=seat_ids.values()
        ).values_list("pk", "student_id", "student__colour_safe")
    }
    session = table.session
    accommodations: dict[int, str] = {}
    for index, seat_id in seat_ids.items():
        # Decided as the play page decides its palette
        # (classroom.people.colour_vision.seat_palette).
        palette = palette_for_player(
            session_palette=session.palette, colour_safe=seats.get(seat_id, (None, False))[1]
        )
        if accommodation := trial_accommodation(game=session.game, palette=palette):
            accommodations[index] = accommodation
    return TableRecord(
        table_id=table.pk,
        session_id=table.session_id,
        game=session.game,
        humans={
            index: (seat_id, seats.get(seat_id, (None, False))[0])
            for index, seat_id in seat_ids.items()
        },
        epoch=epoch,
        accommodations=accommodations,
        extra_time={
            index: mark
            for index, choice in roster_extra_time(table.roster).items()
            if (mark := trial_extra_time(game=session.game, choice=choice))
        },
    )


class StaleOwner(StoreFenced):
    """A log write from a host whose table another process has since taken over."""

    def __init__(self, table_ids: Sequence[int]) -> None:
        super().__init__(f"tables {sorted(table_ids)} belong to a newer owner")
        self.table_ids = tuple(table_ids)


def table_epoch_claim(*, table_id: int, epoch: int) -> None:
    """Record that the host with ``epoch`` now owns the table; from now on any write with an
    older epoch is refused. Raises StaleOwner if a newer owner already claimed it."""
    claimed = Table.objects.filter(pk=table_id, epoch__lte=epoch).update(epoch=epoch)
    if not claimed:
        raise StaleOwner([table_id])


def table_clock_save(*, table_id: int, epoch: int, origin_ms: int, frozen_ms: int | None) -> None:
    """Store where the table's game clock stands (see ``Table.clock_origin_ms``), for the host
    with ``epoch``. Raises StaleOwner if a newer owner has claimed the table: its clock is that
    host's to keep."""
    stored = Table.objects.filter(pk=table_id, epoch=epoch).update(
        clock_origin_ms=origin_ms, clock_frozen_ms=frozen_ms
    )
    if not stored:
        raise StaleOwner([table_id])


_table_epochs = ColumnByKey(Table, "epoch", lock=True)


def _epochs_check(items: Sequence[tuple[TableRecord, LogEntry, Sequence[EngineTrial]]]) -> None:
    # Inside the write's transaction: the fence and the entries commit (or fail) together.
    # One locking read for every table of the batch (a claim waits for this commit); a table
    # is written only in the rare batch that carries a newer epoch than the one stored.
    epochs = {record.table_id: record.epoch for record, _entry, _trials in items}
    stored = _table_epochs.read(epochs)
    stale = [
        table_id
        for table_id, epoch in epochs.items()
        if table_id not in stored or stored[table_id] > epoch
    ]
    if stale:
        raise StaleOwner(stale)
    for table_id, epoch in epochs.items():
        if stored[table_id] < epoch:
            Table.objects.filter(pk=table_id).update(epoch=epoch)


_LOG_COLUMNS = (
    "table", "seq", "kind", "seat_index", "payload", "server_ms", "epoch", "client_id",
    "created_at",
)  # fmt: skip
_TRIAL_COLUMNS = (
    "session", "table", "seat", "student", "log_seq", "game", "kind", "level", "target",
    "responded", "congruent", "rt_ms", "correct", "plausible", "data", "created_at", "device",
)  # fmt: skip
_log_inserter = RowInserter(ActionLogEntry, _LOG_COLUMNS)
_trial_inserter = RowInserter(Trial, _TRIAL_COLUMNS)
_seat_links = ColumnsByKey(Seat, ("student", "device"))


def _optional_bool(value: Any) -> bool | None:
    return None if value is None else bool(value)


def _trial_rows(
    record: TableRecord, entry: LogEntry, trials: Sequence[EngineTrial], now: datetime
) -> Iterator[tuple[Any, ...]]:
    """Rows in ``_TRIAL_COLUMNS`` order, for the human seats."""
    for trial in trials:
        human = record.humans.get(trial.seat)
        if human is None:
            continue  # a bot's response is part of the game, not of anyone's progress
        data = dict(trial.data)
        if accommodation := record.accommodations.get(trial.seat):
            data["accommodation"] = accommodation
        if extra_time := record.extra_time.get(trial.seat):
            data[EXTRA_TIME_KEY] = extra_time
        yield (
            record.session_id,
            record.table_id,
            human[0],
            human[1],
            entry.seq,
            record.game,
            trial.kind,
            str(data.get("level", "")),
            _optional_bool(data.get("target")),
            _optional_bool(data.get("responded")),
            _optional_bool(data.get("congruent")),
            data.get("rt_ms"),
            _optional_bool(data.get("correct")),
            bool(data.get("plausible", True)),
            data,
            now,
            None,  # the device, set with the seat's links (_relinked)
        )


@transaction.atomic
def action_log_append_many(
    *, items: Sequence[tuple[TableRecord, LogEntry, Sequence[EngineTrial]]]
) -> None:
    """Store log entries (of any tables) and the trials they closed, all or none.

    Entries that arrive at the same moment share one transaction (group commit), so ten
    tables flipping together cost one commit rather than ten in a row. The unique
    (table, seq) constraint still refuses an entry written twice, and a host whose table has a
    newer owner (a higher epoch) is refused with StaleOwner.
    """
    _epochs_check(items)
    now = timezone.now()
    _log_inserter.insert(
        (
            record.table_id,
            entry.seq,
            entry.kind,
            entry.seat,
            dict(entry.action) if entry.action is not None else None,
            entry.now_ms,
            record.epoch,
            entry.client_id or "",
            now,
        )
        for record, entry, _trials in items
    )
    rows = [
        row for record, entry, trials in items for row in _trial_rows(record, entry, trials, now)
    ]
    if rows:
        _trial_inserter.insert(_relinked(rows))


def _relinked(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The trial rows with their seat, student and device as they are now, in this
    transaction.

    A host reads its seats once, when it starts; a child taken off the class list since has
    no seat or student row any more, and writing their ids would fail the foreign keys (and
    every later write of the table with it). Their last trials are kept, linked to no one.
    The device is the one the seat's page reported last (``devices_record``), read here so a
    tablet swapped mid-game is right from its next trial.
    """
    links = _seat_links.read_rows({row[2] for row in rows})
    return [
        (*row[:2], row[2], links[row[2]][0], *row[4:-1], links[row[2]][1])
        if row[2] in links
        else (*row[:2], None, None, *row[4:-1], None)
        for row in rows
    ]
