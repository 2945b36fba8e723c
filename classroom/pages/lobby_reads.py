"""What a teacher page's socket read of its session's lobby, kept between redraws.

During play a console or projector redraws for every table's move (at most once a second).
Reading the session, its roster, tables and absent students again for each redraw would be a
large part of what the draws cost, most of a projector's, and a table's move changes none of
it. So the socket keeps
its last reads and reads again after every lobby change it is told of, and at least every
``LOBBY_REREAD_S``: what no notice names (a process that died with tablets on it) still shows
within that. While the teachers' drawing budget stretches every page's gaps between draws
(``classroom.pages.render_budget``), that floor stretches with them: at a stretch of 4 a
console is drawn every 4 s, and a 5 s floor would read the lobby again at every other draw,
which is most of what a school's projectors cost the drawing process.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

LOBBY_REREAD_S = 5.0
# The context key of the tables the lobby's roster read (the tiles are drawn for them).
LOBBY_TABLES = "lobby_tables"


class LobbyReads:
    """One socket's last lobby reads. ``stale`` runs on the event loop, ``get`` in the
    thread that renders: a read that a change overtook is used once, never kept."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._generation = 0
        self._kept: tuple[int, float, dict[str, Any]] | None = None
        self._reread_s = LOBBY_REREAD_S

    def pace(self, *, stretch: float) -> None:
        """The teachers' budget stretches the pages' gaps by ``stretch`` (≥ 1) now."""
        self._reread_s = LOBBY_REREAD_S * max(stretch, 1.0)

    @property
    def reread_s(self) -> float:
        """The longest the reads are kept without a change."""
        return self._reread_s

    def stale(self) -> None:
        """The lobby changed: the next redraw reads it again."""
        self._generation += 1

    def get(self, read: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        """The kept reads if no change came and they are fresh enough, else ``read()``."""
        generation, now = self._generation, self._clock()
        kept = self._kept
        if kept is not None and kept[0] == generation and now - kept[1] < self._reread_s:
            return kept[2]
        lobby = read()
        self._kept = (generation, now, lobby)
        return lobby
