"""The teachers' live pages of each session, told when its tables move.

A page reads the views of the tables hosted in its own process from the hosts themselves, so
a host tells the pages of its session in this process directly: a call, no message. Pages in
another process read the views that travel to that process's table router, which tells its
pages the same way: one message per announcing interval for all the sessions it shows, and
none to a process that shows none of them.

Which processes show a session is kept in Redis, a sorted set per session: each process's
router address, scored with the wall time it last said it has pages of the session. It says
so when its first page of the session opens, again every ``PAGES_SAID_EVERY_S`` while it
has one, and no more when the last one closes; an address not said again for
``PAGES_FORGOTTEN_AFTER_S`` belongs to a process gone. The sets are read at most every
``PAGES_READ_EVERY_S`` per session.

One process (no Redis): every page is here.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import defaultdict
from typing import TYPE_CHECKING, Any, Protocol, cast

from django.conf import settings
from redis.asyncio import Redis

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Iterable, Mapping

    View = Mapping[str, Any]

PAGES_SAID_EVERY_S = 5.0
PAGES_FORGOTTEN_AFTER_S = 3 * PAGES_SAID_EVERY_S
PAGES_READ_EVERY_S = 1.0


class TeacherPage(Protocol):
    def tables_moved(self, table_ids: Iterable[int], views: Mapping[int, View]) -> None:
        """Tables of the page's session moved; ``views``: those hosted elsewhere, by id."""
        ...


class TeacherPages:
    """This process's teacher pages by session."""

    def __init__(self) -> None:
        self._pages: defaultdict[int, set[TeacherPage]] = defaultdict(set)

    def add(self, session_id: int, page: TeacherPage) -> bool:
        """Count the page in; True if it is the session's first here."""
        pages = self._pages[session_id]
        pages.add(page)
        return len(pages) == 1

    def remove(self, session_id: int, page: TeacherPage) -> bool:
        """Count the page out; True if it was the session's last here."""
        pages = self._pages.get(session_id)
        if pages is None or page not in pages:
            return False
        pages.discard(page)
        if pages:
            return False
        del self._pages[session_id]
        return True

    def sessions(self) -> list[int]:
        return list(self._pages)

    def tell(self, session_id: int, table_ids: Iterable[int], views: Mapping[int, View]) -> None:
        ids = list(table_ids)
        for page in list(self._pages.get(session_id, ())):
            page.tables_moved(ids, views)


# The process's pages (one event loop serves every socket of the process).
teacher_pages = TeacherPages()


def _key(session_id: int) -> str:
    return f"{settings.LEASE_PREFIX}:session:{session_id}:page-processes"


class PagesElsewhere:
    """Which processes have pages of which session, kept in Redis (see the module)."""

    def __init__(self, redis: Redis, *, clock: Callable[[], float] = time.time) -> None:
        self._redis = redis
        self._clock = clock
        self._read: dict[int, tuple[float, frozenset[str]]] = {}

    async def say(self, address: str, session_ids: Iterable[int]) -> None:
        """``address`` has pages of these sessions (now)."""
        now = self._clock()
        async with self._redis.pipeline(transaction=False) as pipe:
            for session_id in session_ids:
                pipe.zadd(_key(session_id), {address: now})
                # The set goes by itself once nobody has said anything for long.
                pipe.expire(_key(session_id), int(PAGES_FORGOTTEN_AFTER_S * 4))
            await pipe.execute()

    async def unsay(self, address: str, session_id: int) -> None:
        await cast("Awaitable[int]", self._redis.zrem(_key(session_id), address))

    async def others(self, address: str, session_ids: Iterable[int]) -> dict[int, frozenset[str]]:
        """The other processes with pages of each session, as read within the last
        ``PAGES_READ_EVERY_S`` (those not, in one round trip)."""
        now = self._clock()
        found: dict[int, frozenset[str]] = {}
        unread = []
        for session_id in session_ids:
            read = self._read.get(session_id)
            if read is not None and now - read[0] < PAGES_READ_EVERY_S:
                found[session_id] = read[1]
            else:
                unread.append(session_id)
        if unread:
            async with self._redis.pipeline(transaction=False) as pipe:
                for session_id in unread:
                    pipe.zrangebyscore(_key(session_id), now - PAGES_FORGOTTEN_AFTER_S, "+inf")
                answers = await pipe.execute()
            for session_id, members in zip(unread, answers, strict=True):
                others = frozenset(member.decode() for member in members) - {address}
                self._read[session_id] = (now, others)
                found[session_id] = others
        return found


_elsewhere: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, PagesElsewhere] = (
    weakref.WeakKeyDictionary()
)


def pages_elsewhere() -> PagesElsewhere:
    """This event loop's record of the cluster's pages (a cluster only: it needs Redis)."""
    loop = asyncio.get_running_loop()
    found = _elsewhere.get(loop)
    if found is None:
        found = _elsewhere[loop] = PagesElsewhere(Redis.from_url(settings.REDIS_URL))
    return found
