"""Where a serving process spends its CPU, by cause, from py-spy's collapsed stacks.

``py-spy record --format raw`` writes one line per distinct stack: its frames from the root
to the innermost, separated by ``;``, then how many samples it was seen in. A sample counts
for the cause of the innermost frame that names one (a socket write under redis-py is Redis,
under Twisted the tablets' sockets), except that everything the table log's writer thread does
is log writing, its database calls included. Samples whose innermost frame waits (epoll, a
thread's queue or condition) are idle and left out of the shares.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable

# Innermost frames of a thread with nothing to do.
IDLE_MARKS = (
    "select (selectors.py",
    "poll (selectors.py",
    "wait (threading.py",
    "_worker (concurrent/futures/thread.py",
    "accept (socket.py",
)
LOG_WRITING_MARKS = ("LogWriter.", "classroom/hosting/log_store.py")
# In the order a frame is tried against them.
CAUSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("redis", ("(redis/", "(channels_redis/", "classroom/server/channel_layer.py")),
    ("database", ("(psycopg/", "(sqlite3/", "(django/db/")),
    ("page drawing", ("(classroom/pages/", "(django/template/")),
    ("socket dispatch", ("(channels/", "(asgiref/")),
    # Twisted's reads and writes, not its reactor, whose frames are under everything.
    (
        "tablet sockets",
        (
            "(twisted/internet/tcp.py",
            "(twisted/internet/abstract.py",
            "(twisted/python/util.py",
            "(autobahn/",
            "(daphne/",
            "(classroom/sockets/",
        ),
    ),
    ("tables", ("(games/", "(classroom/hosting/")),
)


def stack_cause(frames: list[str]) -> str:
    """The cause a sample with these frames (root first) counts for."""
    if any(mark in frames[-1] for mark in IDLE_MARKS):
        return "idle"
    if any(mark in frame for frame in frames for mark in LOG_WRITING_MARKS):
        return "log writing"
    for frame in reversed(frames):
        for cause, marks in CAUSES:
            if any(mark in frame for mark in marks):
                return cause
    return "other"


def causes_counted(lines: Iterable[str]) -> Counter[str]:
    """Samples by cause, from the lines of a ``--format raw`` file."""
    counted: Counter[str] = Counter()
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if stack and count.isdigit():
            counted[stack_cause(stack.split(";"))] += int(count)
    return counted


def causes_shares(counted: Counter[str]) -> dict[str, float]:
    """Each cause's share of the busy samples, in per cent, largest first."""
    busy = sum(n for cause, n in counted.items() if cause != "idle")
    return {
        cause: round(100 * n / busy, 1)
        for cause, n in counted.most_common()
        if cause != "idle" and busy
    }
