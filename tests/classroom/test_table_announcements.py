"""Teacher pages hear of table changes in batches: one telling per session and interval, to
the pages in this process directly and, in a cluster, to other processes with pages of the
session, with the views."""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pytest
from channels.layers import get_channel_layer
from redis.asyncio import Redis

from classroom.hosting import table_hosts
from classroom.hosting.router import TABLES_MOVED, process_router
from classroom.hosting.teacher_pages import PagesElsewhere, teacher_pages
from tests.services import REDIS_URL, require

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterable, Mapping


@dataclass
class FakeHost:
    table_id: int

    def teacher_view(self) -> dict[str, int]:
        return {"table": self.table_id}


@dataclass(eq=False)
class Page:
    """A teacher page: what it was told."""

    told: list[tuple[list[int], dict[int, Any]]] = field(default_factory=list)
    heard: asyncio.Event = field(default_factory=asyncio.Event)

    def tables_moved(self, table_ids: Iterable[int], views: Mapping[int, Any]) -> None:
        self.told.append((list(table_ids), dict(views)))
        self.heard.set()


@pytest.fixture(autouse=True)
def _no_pending_announcements() -> None:
    # Batches are per process: one left by an earlier test (its loop gone before the batch
    # went out) would swallow this test's changes into a batch nobody sends.
    table_hosts._pending_announcements.clear()


async def test_changes_within_an_interval_become_one_telling() -> None:
    page, other = Page(), Page()
    await table_hosts.teacher_page_open(7, page)
    await table_hosts.teacher_page_open(8, other)
    try:
        for table_id in (3, 1, 3, 2):
            table_hosts._announce_change(7, FakeHost(table_id))  # type: ignore[arg-type]
        await asyncio.wait_for(page.heard.wait(), timeout=2)
        await asyncio.sleep(table_hosts.ANNOUNCE_INTERVAL_S * 2)
    finally:
        await table_hosts.teacher_page_close(7, page)
        await table_hosts.teacher_page_close(8, other)
    # The views of this process's hosts are read by the page itself.
    assert page.told == [([1, 2, 3], {})]
    assert other.told == []


async def test_a_page_closed_is_told_nothing_more() -> None:
    page = Page()
    await table_hosts.teacher_page_open(9, page)
    await table_hosts.teacher_page_close(9, page)
    table_hosts._announce_change(9, FakeHost(1))  # type: ignore[arg-type]
    await asyncio.sleep(table_hosts.ANNOUNCE_INTERVAL_S * 2)
    assert page.told == []
    assert 9 not in teacher_pages.sessions()


@pytest.fixture
async def elsewhere(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[PagesElsewhere]:
    """A cluster's record of pages in a real Redis, under a prefix of the test's own."""
    require("redis")
    monkeypatch.setattr(table_hosts, "clustered", lambda: True)
    monkeypatch.setattr("django.conf.settings.LEASE_PREFIX", f"test-{uuid.uuid4().hex[:8]}")
    client = Redis.from_url(REDIS_URL)
    record = PagesElsewhere(client)
    monkeypatch.setattr(table_hosts, "pages_elsewhere", lambda: record)
    yield record
    await client.aclose()


async def test_in_a_cluster_other_processes_with_pages_get_the_views(
    elsewhere: PagesElsewhere,
) -> None:
    layer = get_channel_layer()
    assert layer is not None
    router = await process_router(table_hosts.registry)
    other_process = await layer.new_channel()
    without_pages = await layer.new_channel()
    await elsewhere.say(other_process, [5, 6])
    await elsewhere.say(without_pages, [7])
    page = Page()
    await table_hosts.teacher_page_open(5, page)
    try:
        table_hosts._announce_change(5, FakeHost(4))  # type: ignore[arg-type]
        table_hosts._announce_change(6, FakeHost(8))  # type: ignore[arg-type]
        table_hosts._announce_change(7, FakeHost(9))  # type: ignore[arg-type]
        message = await asyncio.wait_for(layer.receive(other_process), timeout=2)
        shown = await elsewhere.others(router.address, [5, 7])
        assert shown == {5: {other_process}, 7: {without_pages}}
    finally:
        await table_hosts.teacher_page_close(5, page)
    # One message for both sessions it shows.
    assert message == {
        "type": TABLES_MOVED,
        "sessions": [
            {"session_id": 5, "table_ids": [4], "views": {"4": {"table": 4}}},
            {"session_id": 6, "table_ids": [8], "views": {"8": {"table": 8}}},
        ],
    }
    assert page.told == [([4], {})]
    # The router of a process with pages tells them, views and all.
    other_page = Page()
    teacher_pages.add(5, other_page)
    try:
        await router._dispatch(message)
    finally:
        teacher_pages.remove(5, other_page)
    assert other_page.told == [([4], {4: {"table": 4}})]
    # The process showing only session 7 hears of session 7 alone.
    alone = await asyncio.wait_for(layer.receive(without_pages), timeout=2)
    assert [change["session_id"] for change in alone["sessions"]] == [7]


async def test_a_process_that_stops_saying_it_has_pages_is_forgotten(
    elsewhere: PagesElsewhere,
) -> None:
    now = [1_000.0]
    record = PagesElsewhere(elsewhere._redis, clock=lambda: now[0])
    await record.say("process-b", [11])
    await record.say("process-c", [11])
    assert await record.others("process-a", [11]) == {11: {"process-b", "process-c"}}
    await record.unsay("process-c", 11)
    now[0] += 0.5  # read again only after PAGES_READ_EVERY_S
    assert await record.others("process-a", [11]) == {11: {"process-b", "process-c"}}
    now[0] += 1
    assert await record.others("process-a", [11]) == {11: {"process-b"}}
    now[0] += 16  # process-b said nothing more: gone
    assert await record.others("process-a", [11, 12]) == {11: frozenset(), 12: frozenset()}


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
    page = Page()
    await table_hosts.teacher_page_open(6, page)
    try:
        table_hosts._announce_change(6, FinishedHost(41, "game_over"))  # type: ignore[arg-type]
        table_hosts._announce_change(6, FinishedHost(42, "open"))  # type: ignore[arg-type]
        await asyncio.wait_for(page.heard.wait(), timeout=2)
        page.heard.clear()
        table_hosts._announce_change(6, FinishedHost(41, "game_over"))  # type: ignore[arg-type]
        await asyncio.wait_for(page.heard.wait(), timeout=2)
    finally:
        await table_hosts.teacher_page_close(6, page)
    # The mark is written off the loop, on the shared database thread: wait for it, up to
    # 10 s (a busy machine queues that thread; the loop ends as soon as it is there).
    for _ in range(500):
        if marked:
            break
        await asyncio.sleep(0.02)
    assert marked == [41]
