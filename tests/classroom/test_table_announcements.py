"""Teacher pages hear of table changes in batches: one message per session and interval."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest
from channels.layers import get_channel_layer

from classroom.hosting import table_hosts
from classroom.pages.notify import teachers_group


@dataclass
class FakeHost:
    table_id: int

    def teacher_view(self) -> dict[str, int]:
        return {"table": self.table_id}


@pytest.fixture(autouse=True)
def _no_pending_announcements() -> None:
    # Batches are per process: one left by an earlier test (its loop gone before the batch
    # went out) would swallow this test's changes into a batch nobody sends.
    table_hosts._pending_announcements.clear()


async def test_changes_within_an_interval_become_one_message() -> None:
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(teachers_group(7), channel)
    for table_id in (3, 1, 3, 2):
        table_hosts._announce_change(7, FakeHost(table_id))  # type: ignore[arg-type]
    table_hosts._announce_change(8, FakeHost(9))  # type: ignore[arg-type]
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    assert message == {"type": "table.changed", "table_ids": [1, 2, 3]}
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), timeout=table_hosts.ANNOUNCE_INTERVAL_S * 2)


async def test_in_a_cluster_the_views_travel_with_the_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_hosts, "clustered", lambda: True)
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(teachers_group(5), channel)
    table_hosts._announce_change(5, FakeHost(4))  # type: ignore[arg-type]
    message = await asyncio.wait_for(layer.receive(channel), timeout=2)
    assert message["views"] == {"4": {"table": 4}}


@dataclass(frozen=True)
class FinishedHost:
    table_id: int
    phase: str

    def teacher_view(self) -> dict[str, object]:
        return {"table": self.table_id, "phase": self.phase}


# The mark runs through database_sync_to_async, which first closes stale connections on the
# shared database thread; an earlier test's connection there must be reachable, so the database
# is unblocked even though the write itself is replaced.
@pytest.mark.django_db
async def test_a_table_whose_game_is_over_is_marked_finished_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    marked: list[int] = []

    def finished(*, table_id: int) -> bool:
        marked.append(table_id)
        return True

    monkeypatch.setattr(table_hosts, "table_finished", finished)
    table_hosts._finished.discard(41)
    table_hosts._finished.discard(42)
    layer = get_channel_layer()
    assert layer is not None
    channel = await layer.new_channel()
    await layer.group_add(teachers_group(6), channel)
    table_hosts._announce_change(6, FinishedHost(41, "game_over"))  # type: ignore[arg-type]
    table_hosts._announce_change(6, FinishedHost(42, "open"))  # type: ignore[arg-type]
    await asyncio.wait_for(layer.receive(channel), timeout=2)
    table_hosts._announce_change(6, FinishedHost(41, "game_over"))  # type: ignore[arg-type]
    await asyncio.wait_for(layer.receive(channel), timeout=2)
    # The mark is written off the loop, on the shared database thread: wait for it, up to
    # 10 s (a busy machine queues that thread; the loop ends as soon as it is there).
    for _ in range(500):
        if marked:
            break
        await asyncio.sleep(0.02)
    assert marked == [41]
