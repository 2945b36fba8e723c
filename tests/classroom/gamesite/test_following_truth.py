"""Known truth for "following others" (Palm Strike): scripted children play through the real
table host; one of them, on a card that does not match their own, slaps a moment after
another child's slap with a set probability. The measure read back from the stored trials
recovers that probability, and finds none in the children who do not follow.

The tablets are those of ``test_known_truth`` (they see each frame, draw their decisions from
a seeded generator and answer on virtual time)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from classroom.analytics.following import FOLLOW_FLOOR_MS, FOLLOW_WINDOW_MS
from classroom.models import Trial
from classroom.selectors.following import session_following
from tests.classroom.gamesite.test_known_truth import ScriptedTablet, Skill, _play, _stored
from tests.classroom.trial_rows import played_session

if TYPE_CHECKING:
    from classroom.models import GameSession, SchoolClass

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

# Seat -> the probability they follow another's slap on a card that is not their match.
FOLLOWS = {0: 0.5, 1: 0.0, 2: 0.0}
# Their own play: the followers slap little on their own; the third slaps often, so the
# others have slaps to follow.
SKILLS = [
    Skill(p_respond_signal=0.9, p_respond_noise=0.05, rt_mean_ms=700, rt_sd_ms=100),
    Skill(p_respond_signal=0.9, p_respond_noise=0.05, rt_mean_ms=700, rt_sd_ms=100),
    Skill(p_respond_signal=0.9, p_respond_noise=0.25, rt_mean_ms=650, rt_sd_ms=100),
]
# How long after the other's slap a follower's slap comes: well inside the window.
DELAY_MS = (FOLLOW_FLOOR_MS + 120, FOLLOW_WINDOW_MS - 150)
TOLERANCE = 0.1


def _decide(tablet: ScriptedTablet, view: dict[str, Any]) -> None:
    host = tablet.host
    flip = view.get("flip")
    if view.get("phase") != "open" or host is None or host.state.current is None:
        return
    from games.palm_strike.trials import flip_matches_for  # the truth the tablet perceives

    current = host.state.current
    match = flip_matches_for(host.state, current, tablet.index)
    if flip not in tablet.seen:
        tablet.seen.add(flip)
        p = tablet.skill.p_respond_signal if match else tablet.skill.p_respond_noise
        if tablet.rng.random() < p:
            tablet.answer_after(tablet.rt(), lambda: {"kind": "slap", "flip": flip})
            tablet.seen.add(("slapping", flip))
        tablet.seen.add(("follow-draw", flip, tablet.rng.random()))
    if match or ("slapping", flip) in tablet.seen or ("followed", flip) in tablet.seen:
        return
    others = [r for r in current.responses if r.seat != tablet.index and r.rt_ms is not None]
    if not others:
        return
    tablet.seen.add(("followed", flip))
    if tablet.rng.random() >= FOLLOWS[tablet.index]:
        return
    first = min(r.rt_ms for r in others if r.rt_ms is not None)
    # The tablet reports its slap ``first + delay`` after the card showed, as a child who
    # slapped ``delay`` after the other would. (The scripted tablet waits the reported time
    # from this frame, so the slap reaches the host later than that: it only has to come
    # before the card closes, and the host holds a time no later than the card's age.)
    reported = first + tablet.rng.randint(*DELAY_MS)
    tablet.answer_after(reported, lambda: {"kind": "slap", "flip": flip})


def _store(session: GameSession, school_class: SchoolClass, trials: list[Any]) -> dict[int, int]:
    """The trials as the log writer stores them, each flip's under one log entry (here: the
    game's number and the flip's, as one table's games follow each other); seat ids by
    scripted seat."""
    students = list(school_class.students.order_by("display_name"))[:3]
    seat_of = played_session(session=session, students=students, game="palm_strike")
    seats = [seat_of[student.pk] for student in students]
    _stored(session, seats, trials)
    rows = list(Trial.objects.filter(session=session).order_by("log_seq"))
    game, last_flip = 0, 0
    for row in rows:
        if row.data["flip"] < last_flip:
            game += 1  # the next game starts at flip 1 again
        last_flip = row.data["flip"]
        row.log_seq = game * 100_000 + last_flip
    Trial.objects.bulk_update(rows, ["log_seq"], batch_size=1000)
    return {index: seat.pk for index, seat in enumerate(seats)}


def test_following_others_recovers_the_set_probability(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    # "own": a child's match is with their own cards, so another's right slap is often on a
    # card that does not match theirs (with "any" every child has the same matches).
    settings = {
        "flip_pacing": "auto",
        "auto_flip_s": 3.0,
        "response_window_s": 2.5,
        "slap_scope": "own",
    }
    trials = _play("palm_strike", settings, SKILLS, _decide, tables=40, max_ms=600_000)
    seat_ids = _store(class_session, school_class, trials)
    found = session_following(session=class_session)
    follower, independent = found[seat_ids[0]], found[seat_ids[1]]
    print("figures following", follower, follower.difference_interval)
    print("figures following", independent, independent.difference_interval)
    for child in (follower, independent):
        assert child.exposed >= 100
        assert child.alone >= 100
        assert child.enough.enough
    assert follower.following_rate == pytest.approx(FOLLOWS[0], abs=TOLERANCE)
    interval = follower.difference_interval
    assert interval is not None
    assert interval.low > 0.3
    # Not following: their false slaps after another's are no more than alone.
    assert independent.following_rate is not None
    assert independent.following_rate < TOLERANCE
    independent_interval = independent.difference_interval
    assert independent_interval is not None
    assert independent_interval.low < 0
