"""The class's highlights for the projector's end-of-session celebration.

Class-wide figures always; names (first names only) only where the session lets the class
see who did best (``classroom.selectors.standings``): never with the leaderboard off or
without scoring.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from classroom.gamesite import game_site
from classroom.selectors.analytics import human_trials, measures_by, scored_responses

if TYPE_CHECKING:
    from classroom.models import GameSession, Seat

# A student's median needs a few correct answers to mean anything (the projector says so).
FASTEST_MIN_CORRECT: Final = 5
FASTEST_SHOWN: Final = 3
# "Most improved": accuracy in the second half of a student's judged trials against the first
# half, among students with at least IMPROVED_MIN_ANSWERS judged trials of which at least
# IMPROVED_MIN_RESPONSES were answers they gave (a slap, a play, a catch): holding back on
# every card is no improvement, however the matches happened to fall.
IMPROVED_MIN_ANSWERS: Final = 10
IMPROVED_MIN_RESPONSES: Final = 5
IMPROVED_MIN_POINTS: Final = 10.0


@dataclass(frozen=True)
class Highlights:
    players: int = 0
    answers: int = 0
    # The game's own headline rate of the whole class (accuracy, spotting rate, catch rate).
    accuracy_percent: float | None = None
    rate_label: str = ""
    median_rt_ms: float | None = None
    # What that time is in this game (reaction time, catch time, time to play).
    time_label: str = ""
    fastest: list[str] = field(default_factory=list)
    most_improved: str | None = None
    # The minimums behind the names, said on the screen.
    fastest_min: int = FASTEST_MIN_CORRECT
    improved_min: int = IMPROVED_MIN_ANSWERS


def first_name(seat: Seat) -> str:
    """A class student by their first name only; a guest by the nickname they chose."""
    if seat.student_id is None:
        return seat.name
    return seat.name.split()[0] if seat.name.split() else seat.name


def _fastest(session: GameSession) -> list[int]:
    rts: dict[int, list[int]] = defaultdict(list)
    rows = scored_responses(human_trials().filter(session=session)).values_list("seat", "rt_ms")
    for seat_id, rt in rows:
        if rt is not None:  # never: scored responses have one
            rts[seat_id].append(rt)
    medians = [
        (statistics.median(values), seat_id)
        for seat_id, values in rts.items()
        if len(values) >= FASTEST_MIN_CORRECT
    ]
    return [seat_id for _median, seat_id in sorted(medians)[:FASTEST_SHOWN]]


def _most_improved(session: GameSession) -> int | None:
    answers: dict[int, list[bool]] = defaultdict(list)
    rows = (
        human_trials()
        .filter(session=session, correct__isnull=False)
        .order_by("created_at", "pk")
        .values_list("seat", "correct", "responded")
    )
    responses: dict[int, int] = defaultdict(int)
    for seat_id, correct, responded in rows:
        answers[seat_id].append(bool(correct))
        responses[seat_id] += bool(responded)
    best: tuple[float, int] | None = None
    for seat_id, results in answers.items():
        if len(results) < IMPROVED_MIN_ANSWERS or responses[seat_id] < IMPROVED_MIN_RESPONSES:
            continue
        half = len(results) // 2
        first, second = results[:half], results[half:]
        gain = 100 * (sum(second) / len(second) - sum(first) / len(first))
        if gain >= IMPROVED_MIN_POINTS and (best is None or gain > best[0]):
            best = (gain, seat_id)
    return best[1] if best else None


def session_highlights(*, session: GameSession, names: bool) -> Highlights:
    """What the class did together; with ``names``, who was fastest and who improved most."""
    trials = human_trials().filter(session=session)
    judged = list(trials.filter(correct__isnull=False).values_list("seat", "correct"))
    if not judged:
        return Highlights()
    rts = [rt for rt in scored_responses(trials).values_list("rt_ms", flat=True) if rt is not None]
    fastest: list[str] = []
    improved: str | None = None
    if names:
        seats = {seat.pk: seat for seat in session.seats.all()}
        fastest = [first_name(seats[seat_id]) for seat_id in _fastest(session) if seat_id in seats]
        improved_seat = seats.get(_most_improved(session) or 0)
        improved = first_name(improved_seat) if improved_seat is not None else None
    site = game_site(session.game)
    headline = site.headline_measure
    whole = measures_by(trials=trials, by=["session"]).get((session.pk,))
    rate = headline.value(whole) if whole is not None else None
    return Highlights(
        players=len({seat_id for seat_id, _correct in judged}),
        answers=len(judged),
        accuracy_percent=None if rate is None else 100 * float(rate),
        rate_label=str(headline.label),
        median_rt_ms=statistics.median(rts) if rts else None,
        time_label=str(site.response_time),
        fastest=fastest,
        most_improved=improved,
    )
