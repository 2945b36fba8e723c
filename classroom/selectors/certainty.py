"""How sure a child's figures of a session are: each headline figure with its 95 % interval,
the measure's reliability in the session's group, and whether the child played enough for
it to be shown as a number (``classroom.analytics``: intervals, reliability, enough_data).
"""

from __future__ import annotations

import functools
import statistics
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy
from django.core.cache import cache

from classroom.analytics.counts import counts_of_row, counts_row
from classroom.analytics.enough_data import EnoughData, minimum_trials
from classroom.analytics.intervals import Interval, median_interval, wilson_interval
from classroom.analytics.measures import CorrectRts, Tally, measures_from
from classroom.analytics.reliability import SplitHalf, estimate_key, split_half_reliability
from classroom.analytics.row_measures import (
    TrialFacts,
    correct_rts_of,
    measures_of_rows,
    tally_of,
)
from classroom.analytics.speed import ANTICIPATION_FLOOR_MS
from classroom.gamesite import game_site
from classroom.models import GameSession, Seat, Trial

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from classroom.analytics.measures import Measures
    from classroom.gamesite.contract import Measure

# Splits for the page's split-half estimate: fewer than the 500 of the codebook's figures,
# since a page computes it; the estimate is kept in the cache, so a session pays once.
PAGE_PERMUTATIONS = 50
RESAMPLES = 1000
_CACHE_SECONDS = 24 * 3600


@dataclass(frozen=True)
class Certainty:
    """One measure of one child: the value as the page writes it, its interval in the same
    unit, the measure's reliability among the session's players and the enough-data state."""

    measure: Measure
    value: float | int | None
    interval: Interval | None
    reliability: SplitHalf | None
    enough: EnoughData
    # Its trials called for an answer in time (a match to slap, a piece to catch); a trial that
    # only records where a piece came to rest does not, and no time is no figure there.
    called_for_speed: bool = True

    @property
    def no_right_answer(self) -> bool:
        """A time with no right answer to take it from (every tap came before the card could
        be seen, or was wrong): more play of the same kind would not give it a number, so the
        page says why rather than how many more trials it wants."""
        return self.value is None and self.measure.unit == "ms" and self.called_for_speed


def _rows_by_seat(session: GameSession) -> dict[int, list[TrialFacts]]:
    rows = (
        Trial.objects.filter(session=session, seat__isnull=False)
        .order_by("seat", "log_seq")
        .values_list("seat", "target", "responded", "congruent", "rt_ms", "correct", "plausible")
    )
    by_seat: dict[int, list[TrialFacts]] = defaultdict(list)
    for seat, target, responded, congruent, rt_ms, correct, plausible in rows.iterator(
        chunk_size=4000
    ):
        by_seat[seat].append(TrialFacts(target, responded, congruent, rt_ms, correct, plausible))
    return by_seat


def _score(
    measure: Measure, rows: Sequence[TrialFacts], *, speed: bool
) -> Callable[[Sequence[int]], float | None]:
    """The measure of a half of the session's trials, given as their places in ``rows``.
    What a half's measure reads of each trial is worked out once per trial here, not once per
    half (an estimate scores thousands of halves): the speed measure is the median of the
    kept correct RTs (every game's is, see ``GameSite.speed``), and a proportion that says
    what it is a share of reads the counts alone, which add up trial by trial."""
    if speed:
        kept = numpy.array(
            [next(iter(_kept_rts([row])), numpy.nan) for row in rows], dtype=numpy.float64
        )

        def median(half: Sequence[int]) -> float | None:
            rts = kept[half]
            rts = rts[~numpy.isnan(rts)].tolist()
            return float(statistics.median(rts)) if rts else None

        return median

    if measure.of:
        # A trial's counts never depend on its RT, so the trials fall into a few kinds (by
        # target, response, congruence…), each counted once; a half's counts are its number
        # of trials of each kind times that kind's.
        kinds: dict[TrialFacts, int] = {}
        codes = numpy.array(
            [kinds.setdefault(row._replace(rt_ms=None), len(kinds)) for row in rows],
            dtype=numpy.intp,
        )
        by_kind = numpy.array(
            [counts_row(tally_of([kind])) for kind in kinds], dtype=numpy.int64
        ).reshape(len(kinds), len(counts_row(Tally())))

        # Halves with the same counts score the same, and a young session's short halves
        # share a few hundred counts among thousands of halves.
        scored: dict[tuple[int, ...], float | None] = {}

        def counted(half: Sequence[int]) -> float | None:
            sums = tuple((numpy.bincount(codes[half], minlength=len(kinds)) @ by_kind).tolist())
            if sums not in scored:
                value = measure.value(measures_from(counts_of_row(Tally, sums), CorrectRts()))
                scored[sums] = None if value is None else float(value)
            return scored[sums]

        return counted

    def measured(half: Sequence[int]) -> float | None:
        value = measure.value(measures_of_rows([rows[place] for place in half]))
        return None if value is None else float(value)

    return measured


def _kept_rts(rows: Sequence[TrialFacts]) -> list[int]:
    """The RTs a median RT is of: plausible correct ones at or above the anticipation floor."""
    return kept_rts(correct_rts_of(rows).all)


def _places(by_seat: dict[int, list[TrialFacts]]) -> tuple[list[TrialFacts], dict[int, list[int]]]:
    """The session's trials in one list, and each seat's trials as their places in it."""
    rows = [row for seat_rows in by_seat.values() for row in seat_rows]
    places: dict[int, list[int]] = {}
    start = 0
    for seat, seat_rows in by_seat.items():
        places[seat] = list(range(start, start + len(seat_rows)))
        start += len(seat_rows)
    return rows, places


def _reliability(
    session: GameSession, measure: Measure, by_seat: dict[int, list[TrialFacts]], *, speed: bool
) -> SplitHalf | None:
    """Split-half reliability of ``measure`` over the session's players, cached by the
    session, the measure and its number of trials (a session still being played, by that
    number's step: ``estimate_key``)."""
    total = sum(len(rows) for rows in by_seat.values())
    in_play = session.status != GameSession.Status.ENDED
    key = f"snapclass:reliability:{session.pk}:{measure.key}:{estimate_key(total, in_play=in_play)}"
    found = cache.get(key)
    if isinstance(found, SplitHalf) or found == "none":
        return found if isinstance(found, SplitHalf) else None
    rows, places = _places(by_seat)
    result = split_half_reliability(
        places, _score(measure, rows, speed=speed), permutations=PAGE_PERMUTATIONS
    )
    cache.set(key, result if result is not None else "none", _CACHE_SECONDS)
    return result


def _scaled(interval: Interval | None, measure: Measure) -> Interval | None:
    """The interval in the unit the page writes the measure in (a proportion in %)."""
    if interval is None or measure.unit not in {"%", "pts"}:
        return interval
    return Interval(100 * interval.low, 100 * interval.high)


def _interval(measure: Measure, rows: Sequence[TrialFacts], speed: bool) -> Interval | None:
    """Wilson for a proportion that says what it is a share of; a percentile bootstrap of the
    median for the game's speed measure (the kept correct RTs, as ``rt_summary`` keeps them)."""
    if speed:
        return median_interval(_kept_rts(rows), resamples=RESAMPLES)
    interval, _trials = share_interval(measure, measures_of_rows(rows))
    return interval


def seat_certainty(*, session: GameSession, seat: Seat) -> list[Certainty]:
    """The game's headline and speed measures of ``seat``, each with how sure it is."""
    return session_certainty(session=session).get(seat.pk, [])


def session_certainty(*, session: GameSession) -> dict[int, list[Certainty]]:
    """Every seat's headline and speed measures (by seat id), each with how sure it is: one
    read of the session's trials, the reliabilities measured once among its players."""
    site = game_site(session.game)
    by_seat = _rows_by_seat(session)
    pair = (site.headline_measure, site.speed_measure)
    needed = {}
    reliabilities = {}
    for measure in pair:
        reliability = _reliability(session, measure, by_seat, speed=measure is site.speed_measure)
        reliabilities[measure.key] = reliability
        needed[measure.key] = (
            minimum_trials(reliability.estimate, reliability.mean_trials)
            if reliability is not None
            else None
        )
    made: dict[int, list[Certainty]] = {}
    for seat_id, rows in by_seat.items():
        measures = measures_of_rows(rows)
        made[seat_id] = [
            Certainty(
                measure=measure,
                value=measure.cell(measures),
                interval=_scaled(
                    _interval(measure, rows, speed=measure is site.speed_measure), measure
                ),
                reliability=reliabilities[measure.key],
                enough=EnoughData(n=len(rows), needed=needed[measure.key]),
                called_for_speed=_called_for_speed(measures),
            )
            for measure in pair
        ]
    return made


def session_minimums(*, session: GameSession, trials: int) -> dict[str, int | None]:
    """The fewest trials each of the game's headline and speed measures needs among this
    session's players (``minimum_trials`` of their split-half reliability), by measure key.

    A live console asks at every draw, while ``trials`` (the session's count so far) grows:
    the estimate is measured again only each time that count doubles, since it reads every
    trial of the session and moves little in between."""
    key = f"snapclass:minimums:{session.pk}:{trials.bit_length()}"
    found = cache.get(key)
    if isinstance(found, dict):
        return found
    site = game_site(session.game)
    by_seat = _rows_by_seat(session)
    made: dict[str, int | None] = {}
    for measure in (site.headline_measure, site.speed_measure):
        reliability = _reliability(session, measure, by_seat, speed=measure is site.speed_measure)
        made[measure.key] = (
            None
            if reliability is None
            else minimum_trials(reliability.estimate, reliability.mean_trials)
        )
    cache.set(key, made, _CACHE_SECONDS)
    return made


def window_certainty(
    *, measure: Measure, window: Sequence[int], value: float | None, played: int, needed: int | None
) -> Certainty:
    """How sure a recent median of the speed measure is (a console's "last 10"): the bootstrap
    interval of the median of the ``window``'s kept RTs, and the enough-data state of the
    child's ``played`` kept RTs in the session against the measure's minimum."""
    kept = tuple(kept_rts(window))
    return Certainty(
        measure=measure,
        value=value,
        interval=_median_interval_of(kept),
        reliability=None,
        enough=EnoughData(n=played, needed=needed),
    )


def measures_certainty(
    *,
    measure: Measure,
    measures: Measures,
    speed: bool,
    reliability: SplitHalf | None = None,
    needed: int | None = None,
    of: Callable[[Measures], int] | None = None,
) -> Certainty:
    """How sure one figure of already-counted ``measures`` is: the interval of ``measure``
    (a bootstrap of the median of the kept correct RTs for the ``speed`` measure, Wilson's
    for a share that says what it is of) and the enough-data state against ``needed``, in
    the unit the minimum was measured in (kept RTs for speed, the share's trials for a rate).
    ``of`` counts the trials of a share that does not say (``Measure.of``) itself."""
    if speed:
        kept = tuple(kept_rts(measures.correct_rts))
        interval = _median_interval_of(kept)
        count = len(kept)
    else:
        interval, count = share_interval(measure, measures, of=of)
    return Certainty(
        measure=measure,
        value=measure.cell(measures),
        interval=_scaled(interval, measure),
        reliability=reliability,
        enough=EnoughData(n=count, needed=needed),
        called_for_speed=_called_for_speed(measures),
    )


def _called_for_speed(measures: Measures) -> bool:
    """Some trial had something to answer in time: a match, a chance to play, a falling piece
    (``target`` true, whether it was hit or missed)."""
    return measures.signal.hits + measures.signal.misses > 0


@functools.lru_cache(maxsize=8192)
def _median_interval_of(kept: tuple[int, ...]) -> Interval | None:
    """The bootstrap interval of these RTs' median, kept per process: a progress page and the
    printed reports show the same sessions' intervals again and again (a year of a child is
    200 of them, a millisecond each)."""
    return median_interval(kept, resamples=RESAMPLES)


def kept_rts(rts: Sequence[int]) -> list[int]:
    """The RTs a median RT is of: those at or above the anticipation floor."""
    return [rt for rt in rts if rt >= ANTICIPATION_FLOOR_MS]


def share_interval(
    measure: Measure, measures: Measures, *, of: Callable[[Measures], int] | None = None
) -> tuple[Interval | None, int]:
    """The Wilson interval of a share (as a proportion) and how many trials it is of
    (``Measure.of``, else ``of``); no interval for a measure that is not a share or has no
    trials."""
    count = measure.of or of
    if count is None:
        return None, 0
    value, trials = measure.value(measures), count(measures)
    if value is None or not trials:
        return None, trials
    return wilson_interval(round(value * trials), trials), trials
