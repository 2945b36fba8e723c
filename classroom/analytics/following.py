"""Following others: false slaps made just after another player's slap, against
the child's false slaps when no one else slapped. A measure only a live table gives. (pure)

Pure Python: no Django, no I/O, no clock. The input is a table's flips, each with every
child's response to it (:class:`FlipResponse`); the output is a :class:`Following` per seat.

**Why it could happen.** People acting side by side represent each other's actions: in the
joint Simon task a co-actor's task slows or speeds one's own responses as if it were one's own
(Sebanz, N., Knoblich, G. & Prinz, W. (2003), "Representing others' actions: just like one's
own?", *Cognition* 88, B11-B21), and watching a movement primes making the same movement
(Brass, M., Bekkering, H. & Prinz, W. (2001), "Movement observation affects movement
execution in a simple response task", *Acta Psychologica* 106, 3-22). Neither measures
false responses triggered by another's response, nor gives a time window for it: they show
that others' actions reach one's own response system, which is why a slap at the table may
pull a child's hand down when their own card does not match. The measure is this project's.

**The window.** A slap that follows another's is a response to it, so it comes at least a
simple reaction time after it and, to count as pulled by it, not much later: from
``FOLLOW_FLOOR_MS`` (100 ms, the host's floor for a response to anything seen, the game's
``MIN_PLAUSIBLE_RT_MS``) to ``FOLLOW_WINDOW_MS`` (600 ms) after the
other's slap. Children's simple visual reaction times at school age are a few hundred ms and
fall with age toward the adult's (Kail, R. (1991), "Developmental change in speed of
processing during childhood and adolescence", *Psychological Bulletin* 109, 490-501); 600 ms
leaves room for a slower child and is shorter than the game's shortest response window
(1 s), so a following slap is not the child's own late answer to the card. Both times are
the tablets' own (each from when its card was painted), so the two ends are uncertain by
the tablets' difference in painting, tens of ms.

**The comparison.** On the flips where the child's own card did not match (a slap would be
false):

* *after another's slap*: another child slapped while the child had not yet (their slap, if
  any, came ``FOLLOW_FLOOR_MS`` or more after it): the share of these flips on which the
  child false-slapped within the window after it;
* *alone*: no other child slapped on the flip at all: the share on which the child
  false-slapped at any time.

The alone share counts a whole response window (1-5 s), the following one only 0.5 s, so
a child who slaps at random is *less* likely to be counted following than alone: a following
share above the alone share is not a matter of time at risk. Each share has a Wilson
interval (``classroom.analytics.intervals``), the difference Newcombe's hybrid score interval
(Newcombe, R. G. (1998), "Interval estimation for the difference between independent
proportions", *Statistics in Medicine* 17, 873-890, method 10). Bots' slaps are not stored
as trials, so only other children's slaps count. Fewer than ``FEWEST`` flips on either side:
"needs more play" (the difference of two shares from a handful of flips each is noise).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from classroom.analytics.enough_data import EnoughData
from classroom.analytics.intervals import Interval, wilson_interval
from classroom.analytics.verdicts import proportion_difference_interval

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Mapping, Sequence

FOLLOW_FLOOR_MS = 100
FOLLOW_WINDOW_MS = 600
# Flips needed on each side (after another's slap, alone) before the figures are shown.
FEWEST = 10


@dataclass(frozen=True)
class FlipResponse:
    """One child's trial on one flip: was there a match for them, did they slap and when
    (``rt_ms`` None: no slap, or a slap the tablet could not time)."""

    seat: int
    target: bool
    responded: bool
    rt_ms: int | None


@dataclass(frozen=True)
class Following:
    """A child's false slaps following others (``followed`` of ``exposed`` flips) and alone
    (``alone_false`` of ``alone``)."""

    followed: int = 0
    exposed: int = 0
    alone_false: int = 0
    alone: int = 0

    @property
    def following_rate(self) -> float | None:
        return self.followed / self.exposed if self.exposed else None

    @property
    def alone_rate(self) -> float | None:
        return self.alone_false / self.alone if self.alone else None

    @property
    def difference(self) -> float | None:
        if self.following_rate is None or self.alone_rate is None:
            return None
        return self.following_rate - self.alone_rate

    @property
    def following_interval(self) -> Interval | None:
        return wilson_interval(self.followed, self.exposed)

    @property
    def alone_interval(self) -> Interval | None:
        return wilson_interval(self.alone_false, self.alone)

    @property
    def difference_interval(self) -> Interval | None:
        return proportion_difference_interval(
            self.followed, self.exposed, self.alone_false, self.alone
        )

    @property
    def enough(self) -> EnoughData:
        """Against ``FEWEST``, by the thinner side."""
        return EnoughData(n=min(self.exposed, self.alone), needed=FEWEST)


def flip_following(responses: Sequence[FlipResponse]) -> dict[int, tuple[bool, bool] | None]:
    """For each seat on one flip whose card did not match: ("after another's slap",
    "false-slapped in the window") on an exposed flip, or ("alone", "false-slapped") as
    (False, slapped); ``None`` for a seat the flip says nothing about (its card matched,
    or a time is missing where one is needed)."""
    found: dict[int, tuple[bool, bool] | None] = {}
    for child in responses:
        if child.target:
            found[child.seat] = None
            continue
        others = [r for r in responses if r.seat != child.seat and r.responded]
        if not others:
            found[child.seat] = (False, child.responded)
            continue
        timed = [r.rt_ms for r in others if r.rt_ms is not None]
        if not timed or (child.responded and child.rt_ms is None):
            found[child.seat] = None  # a slap without a time: no way to order them
            continue
        first = min(timed)
        if child.responded and child.rt_ms is not None and child.rt_ms < first + FOLLOW_FLOOR_MS:
            found[child.seat] = None  # slapped first (or together): not following anyone
            continue
        within = (
            child.responded and child.rt_ms is not None and child.rt_ms - first <= FOLLOW_WINDOW_MS
        )
        found[child.seat] = (True, within)
    return found


def following_by_seat(flips: Iterable[Sequence[FlipResponse]]) -> dict[int, Following]:
    """Each seat's :class:`Following` over the flips (each flip: its children's trials)."""
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for responses in flips:
        for seat, found in flip_following(responses).items():
            tally = counts[seat]
            if found is None:
                continue
            exposed, slapped = found
            if exposed:
                tally[0] += slapped
                tally[1] += 1
            else:
                tally[2] += slapped
                tally[3] += 1
    return {seat: Following(*tally) for seat, tally in counts.items()}


def flips_grouped(
    rows: Iterable[tuple[Hashable, FlipResponse]],
) -> Mapping[Hashable, list[FlipResponse]]:
    """Trials grouped by their flip's key (a table and its flip), in the order given."""
    grouped: dict[Hashable, list[FlipResponse]] = defaultdict(list)
    for key, response in rows:
        grouped[key].append(response)
    return grouped
