"""The log writer: a host that stops waiting for its write can never kill the shared writer.

Issue 16, finding 1: the lease keeper cancelled a host while its write was in flight; the write
then failed (StaleOwner) and the writer answered the cancelled future, raised
InvalidStateError and died, freezing every table of the process. A fake ``_write`` replays
that order of events without a database.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import pytest

from classroom.hosting.log_store import StaleOwner, TableRecord
from classroom.hosting.table_hosts import LogWriter
from games.live.host import LogEntry

if TYPE_CHECKING:
    from collections.abc import Sequence

RECORD = TableRecord(table_id=1, session_id=1, game="palm_strike", humans={})


def _entry(seq: int) -> LogEntry:
    return LogEntry(seq, "act", 0, {"kind": "flip"}, seq * 10, f"c{seq}")


class FakeWriter(LogWriter):
    """Writes go to a list; ``fail_next`` entries fail once ``gate`` opens (StaleOwner)."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.in_flight = asyncio.Event()
        self.fail: set[int] = set()
        self.written: list[int] = []

    async def _write(self, *, items: Sequence[tuple[TableRecord, LogEntry, Sequence[Any]]]) -> None:
        self.in_flight.set()
        await self.gate.wait()
        seqs = [entry.seq for _record, entry, _trials in items]
        if self.fail & set(seqs):
            raise StaleOwner([1])
        self.written.extend(seqs)


async def _cancelled_mid_write(writer: FakeWriter, seqs: list[int]) -> None:
    writer.gate.clear()
    writer.in_flight.clear()
    waiters = [asyncio.ensure_future(writer.append(RECORD, _entry(seq), ())) for seq in seqs]
    await writer.in_flight.wait()
    for waiter in waiters:
        waiter.cancel()  # the keeper stops the host: lease lost
    writer.gate.set()  # ...and then the write comes back refused
    for waiter in waiters:
        with pytest.raises(asyncio.CancelledError):
            await waiter


@pytest.mark.parametrize("seqs", [[1], [1, 2]], ids=["alone", "in-a-batch"])
async def test_a_cancelled_waiter_whose_write_fails_leaves_the_writer_running(
    seqs: list[int],
) -> None:
    writer = FakeWriter()
    writer.fail = set(seqs)
    # A first write starts the writer, then the failing ones are queued while it is busy.
    await writer.append(RECORD, _entry(100), ())
    await _cancelled_mid_write(writer, seqs)
    # Every later commit of the process still gets its answer.
    await asyncio.wait_for(writer.append(RECORD, _entry(101), ()), timeout=10)
    assert writer.written == [100, 101]
    assert writer._task is not None
    assert not writer._task.done()


async def test_a_failed_write_is_told_to_its_waiter() -> None:
    writer = FakeWriter()
    writer.fail = {5}
    with pytest.raises(StaleOwner):
        await writer.append(RECORD, _entry(5), ())
    await writer.append(RECORD, _entry(6), ())
    assert writer.written == [6]


class CrashingWriter(FakeWriter):
    """The writer's own code fails (not the write): the waiter is answered, the writer restarts."""

    crashes = 1

    async def _write_batch(self, batch: list[object]) -> None:  # type: ignore[override]
        if self.crashes:
            self.crashes -= 1
            raise RuntimeError("a bug in the writer")
        await super()._write_batch(batch)  # type: ignore[arg-type]


async def test_a_crash_in_the_writer_answers_its_waiters_and_the_writer_restarts(
    caplog: pytest.LogCaptureFixture,
) -> None:
    writer = CrashingWriter()
    with pytest.raises(Exception, match="log writer failed"):
        await writer.append(RECORD, _entry(1), ())
    await asyncio.wait_for(writer.append(RECORD, _entry(2), ()), timeout=10)
    assert writer.written == [2]
    assert "log writer failed" in caplog.text
    assert "a bug in the writer" in caplog.text  # with its traceback
