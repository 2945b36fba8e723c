"""A teacher page's kept lobby reads: used again until a change or their age says otherwise."""

from __future__ import annotations

from typing import Any

from classroom.pages.lobby_reads import LOBBY_REREAD_S, LobbyReads


class _Reader:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> dict[str, Any]:
        self.count += 1
        return {"read": self.count}


def test_the_reads_are_kept_until_the_lobby_changes() -> None:
    now = [100.0]
    reads, read = LobbyReads(clock=lambda: now[0]), _Reader()
    assert reads.get(read) == {"read": 1}
    now[0] += LOBBY_REREAD_S - 0.1
    assert reads.get(read) == {"read": 1}
    reads.stale()
    assert reads.get(read) == {"read": 2}
    assert reads.get(read) == {"read": 2}
    assert read.count == 2


def test_the_reads_are_read_again_once_they_are_old() -> None:
    # What no notice names (a process that died with tablets on it) shows within this.
    now = [0.0]
    reads, read = LobbyReads(clock=lambda: now[0]), _Reader()
    reads.get(read)
    now[0] += LOBBY_REREAD_S
    assert reads.get(read) == {"read": 2}
    now[0] += 1
    assert reads.get(read) == {"read": 2}


def test_a_read_that_a_change_overtook_is_used_once_and_not_kept() -> None:
    reads = LobbyReads(clock=lambda: 0.0)
    count = 0

    def read_while_the_lobby_changes() -> dict[str, Any]:
        nonlocal count
        count += 1
        if count == 1:
            reads.stale()  # the change lands while this read runs: it may predate it
        return {"read": count}

    assert reads.get(read_while_the_lobby_changes) == {"read": 1}
    assert reads.get(read_while_the_lobby_changes) == {"read": 2}
    assert reads.get(read_while_the_lobby_changes) == {"read": 2}


def test_the_reads_are_kept_longer_while_the_teachers_budget_stretches_the_pages() -> None:
    # At a stretch of 4 a console is drawn every 4 s: a 5 s floor would read again at every
    # other draw.
    now = [0.0]
    reads, read = LobbyReads(clock=lambda: now[0]), _Reader()
    reads.pace(stretch=4.0)
    reads.get(read)
    now[0] += 4 * LOBBY_REREAD_S - 0.1
    assert reads.get(read) == {"read": 1}
    now[0] += 0.1
    assert reads.get(read) == {"read": 2}
    reads.pace(stretch=1.0)  # the budget eased: the usual floor again
    now[0] += LOBBY_REREAD_S
    assert reads.get(read) == {"read": 3}
    reads.stale()  # a change is read at once whatever the stretch
    reads.pace(stretch=4.0)
    assert reads.get(read) == {"read": 4}
