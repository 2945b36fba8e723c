"""Figures worked out from a whole class's trials (its children's change, their verdicts),
kept in the cache.

Each is kept under the exact state of the class's play (the tallies' fingerprint), so a visit
with nothing played since finds it. During a lesson every answer changes that state, and
working the whole class out again on each visit costs a school-sized class half a second; so
while one of the class's sessions is not over, a figure worked out in the last
``IN_PLAY_FRESH_S`` stands for the class whatever was played since. What a teacher decided is
part of the key the caller gives (flags, year groups), so a decision shows at once; once the
sessions are over, the next visit works the figures out exactly again.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, TypeVar

from django.core.cache import cache

from classroom.models import GameSession, SchoolClass

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")

IN_PLAY_FRESH_S = 30.0
_CACHE_SECONDS = 24 * 3600
# Wall time: the cache is shared by the site's processes; tests set it.
_clock = time.time


def class_in_play(*, school_class: SchoolClass) -> bool:
    """Whether any of the class's sessions (class games and practice) is not over."""
    return (
        GameSession.objects.filter(school_class=school_class)
        .exclude(status=GameSession.Status.ENDED)
        .exists()
    )


def class_figure_kept(
    *,
    key: str,
    played: str,
    school_class: SchoolClass,
    kind: type[T],
    make: Callable[[], T],
) -> T:
    """The figure ``make()`` works out, from the cache under ``key`` (everything it depends
    on but play) and ``played`` (the class's tallies' fingerprint), or, while the class is in
    play, as worked out within the last ``IN_PLAY_FRESH_S`` under ``key``."""
    exact = f"{key}:{played}"
    found = cache.get(exact)
    if isinstance(found, kind):
        return found
    recent_key = f"{key}:in-play"
    in_play = class_in_play(school_class=school_class)
    if in_play:
        recent = cache.get(recent_key)
        if isinstance(recent, tuple):
            made_at, figure = recent
            if isinstance(figure, kind) and _clock() - made_at < IN_PLAY_FRESH_S:
                return figure
    made = make()
    cache.set(exact, made, _CACHE_SECONDS)
    if in_play:
        cache.set(recent_key, (_clock(), made), int(IN_PLAY_FRESH_S))
    return made
