"""Realistic demo trials: a class that has played Palm Strike for a term, for benchmarks.

Everything statistical comes from one seeded ``random.Random``, so a seed gives the same
students, levels, cards, responses and reaction times every time (tokens and join codes stay
secret-random: they must be unique in the database, not reproducible).

The model behind the numbers, per student:

* a base median reaction time (lognormal across the class, about 500-900 ms) and a
  within-student lognormal spread of RTs;
* learning: the median shrinks by a personal 8-25 % over the series, fastest early on;
* levels move beginner -> intermediate -> advanced in thirds of the series; each harder level
  costs some speed and accuracy;
* about 40 % of a seat's trials are targets (the flip matches one of their cards);
  incongruent cards (word != ink) are answered about 60 ms slower and missed a bit more;
* hit probability about 0.85 and false-alarm probability about 0.1, both personal and both
  improving a little with practice;
* a few anticipations (slaps at 120-199 ms, still plausible to the host) and about 1 %
  implausible reaction times (below the host's 100 ms floor).

Sessions are ended, one a week on a school day, each with the fewest tables of at most four
that seat the class (sizes differ by at most one, as the lobby balances them) and the class
reshuffled between tables every week. Trials carry the same ``data`` keys the live tables
store (see ``games.palm_strike.trials.flip_trials``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any, cast

from django.db import transaction
from django.db.models import DateTimeField, DurationField, ExpressionWrapper, IntegerField, Value
from django.db.models.functions import Cast
from django.utils import timezone

from classroom.join_codes import join_code_generate
from classroom.models import GameSession, SchoolClass, Seat, Student, Table, Trial
from classroom.services.classes import STUDENTS_PER_CLASS_MAX, class_create
from classroom.services.student_seats import student_seat_new
from games.engine.settings import config_to_values
from games.palm_strike.cards import PublicCard, card_to_dict, public_deck
from games.palm_strike.config import Config, Level
from games.palm_strike.matching import LEVELS

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from django.contrib.auth.models import User

GAME = "palm_strike"
TRIAL_KIND = "palm_strike.flip"
TABLE_SIZE = 4
# Rows per INSERT batch: big enough to amortise the round trip, small enough to keep memory
# flat (Django caps it further at the backend's bound-parameter limit).
BATCH_SIZE = 5000

# Every action-log entry (flip, slap, window close) is taken as one second apart: a flip with
# a couple of slaps then lasts about four seconds, close to auto pacing with a 2.5 s window.
SECONDS_PER_LOG_ENTRY = 1
RESPONSE_WINDOW_MS = 2500
# The host's floor (games.palm_strike.trials.MIN_PLAUSIBLE_RT_MS): faster is flagged implausible.
MIN_PLAUSIBLE_RT_MS = 100

TARGET_SHARE = 0.4
IMPLAUSIBLE_SHARE = 0.01
# Speed and accuracy cost of each level relative to beginner: (ms, hit prob., false-alarm prob.).
LEVEL_COST: dict[str, tuple[float, float, float]] = {
    "beginner": (0.0, 0.0, 0.0),
    "intermediate": (60.0, -0.04, 0.03),
    "advanced": (110.0, -0.08, 0.05),
}
# Extra misses on incongruent targets: the Stroop conflict costs accuracy as well as speed.
INCONGRUENT_MISS = 0.04

FIRST_NAMES = (
    "Ava", "Ben", "Chen", "Dara", "Eli", "Farah", "Gus", "Hana", "Ivan", "Jia",
    "Kofi", "Lena", "Mateo", "Nia", "Omar", "Priya", "Quinn", "Rosa", "Sami", "Tomas",
    "Uma", "Viktor", "Wen", "Xavi", "Yara", "Zoe", "Aiko", "Bruno", "Chloe", "Dev",
    "Emre", "Fatima", "Gabe", "Hugo", "Ines", "Jonah", "Kai", "Liam", "Mei", "Noor",
    "Olek", "Pia", "Rafi", "Sofia", "Theo", "Yu-Ting", "Wei", "Zara", "Amara", "Bao",
    "Cleo", "Diego", "Esme", "Finn", "Greta", "Hiro", "Isla", "Jun", "Kenji", "Luca",
)  # fmt: skip


@dataclass(frozen=True)
class _Learner:
    """One student's fixed traits; ``_Learner.at`` turns them into one session's odds."""

    base_rt_ms: float
    rt_sigma: float
    learning_gain: float
    stroop_ms: float
    hit: float
    false_alarm: float
    anticipation: float

    def at(self, *, progress: float, level: str) -> _SessionOdds:
        """Odds for a session ``progress`` of the way through the series (0 first, 1 last)."""
        # Negatively accelerated learning: most of the gain comes in the first sessions.
        learned = (1 - math.exp(-3 * progress)) / (1 - math.exp(-3))
        level_ms, level_hit, level_fa = LEVEL_COST[level]
        return _SessionOdds(
            median_ms=self.base_rt_ms * (1 - self.learning_gain * learned) + level_ms,
            rt_sigma=self.rt_sigma,
            stroop_ms=self.stroop_ms,
            hit=_clamp(self.hit + 0.05 * learned + level_hit, 0.5, 0.99),
            false_alarm=_clamp(self.false_alarm - 0.03 * learned + level_fa, 0.01, 0.4),
            anticipation=self.anticipation,
        )


@dataclass(frozen=True)
class _SessionOdds:
    median_ms: float
    rt_sigma: float
    stroop_ms: float
    hit: float
    false_alarm: float
    anticipation: float


@dataclass(frozen=True)
class _Response:
    rt_ms: int
    plausible: bool


def _clamp(value: float, low: float, high: float) -> float:
    return max(low, min(high, value))


def _learner(rng: random.Random) -> _Learner:
    return _Learner(
        base_rt_ms=_clamp(rng.lognormvariate(math.log(680), 0.17), 500, 900),
        rt_sigma=rng.uniform(0.18, 0.28),
        learning_gain=rng.uniform(0.08, 0.25),
        stroop_ms=max(20.0, rng.gauss(60, 15)),
        # Above the class-wide 0.85 / 0.1 the series ends up with: harder levels, incongruent
        # cards and stray (anticipated or implausible) slaps all pull both rates that way.
        hit=_clamp(rng.gauss(0.88, 0.05), 0.65, 0.98),
        false_alarm=_clamp(rng.gauss(0.07, 0.03), 0.01, 0.2),
        anticipation=rng.uniform(0.005, 0.03),
    )


def _respond(
    rng: random.Random, odds: _SessionOdds, *, target: bool, congruent: bool
) -> _Response | None:
    """The seat's slap on one flip, or None for no slap."""
    draw = rng.random()
    if draw < IMPLAUSIBLE_SHARE:
        # A tablet clock glitch or a slap already on its way: kept, but flagged.
        return _Response(rt_ms=rng.randint(20, MIN_PLAUSIBLE_RT_MS - 1), plausible=False)
    if draw < IMPLAUSIBLE_SHARE + odds.anticipation:
        # Slapping on the flip itself, before the card could be read: target or not.
        return _Response(rt_ms=rng.randint(120, 199), plausible=True)
    if target:
        hit = odds.hit - (0 if congruent else INCONGRUENT_MISS)
        if rng.random() >= hit:
            return None
        median = odds.median_ms
    else:
        if rng.random() >= odds.false_alarm:
            return None
        # False alarms are mostly impulsive, so a little faster than hits.
        median = odds.median_ms * 0.9
    if not congruent:
        median += odds.stroop_ms
    rt = round(median * math.exp(rng.gauss(0, odds.rt_sigma)))
    if rt >= RESPONSE_WINDOW_MS:
        return None  # too late: the window had closed, so the host saw no slap
    # Under 200 ms belongs to the anticipations above, not to a read-and-decide response.
    return _Response(rt_ms=max(rt, 200), plausible=True)


def _session_days(*, rng: random.Random, sessions: int, start: date | None) -> list[date]:
    """One school day (Monday to Friday) in each of ``sessions`` consecutive weeks.

    Without ``start`` the series ends in the week before today, so every session is over.
    """
    first_week = start or timezone.localdate() - timedelta(weeks=sessions)
    days = []
    for week in range(sessions):
        week_start = first_week + timedelta(weeks=week)
        # Any seven consecutive days hold exactly five school days.
        school_days = [
            week_start + timedelta(days=offset)
            for offset in range(7)
            if (week_start + timedelta(days=offset)).weekday() < 5
        ]
        days.append(rng.choice(school_days))
    return days


def _table_sizes(students: int) -> list[int]:
    """The fewest tables of at most ``TABLE_SIZE`` that seat everyone, sizes within one."""
    tables = math.ceil(students / TABLE_SIZE)
    base, extra = divmod(students, tables)
    return [base + 1 if number < extra else base for number in range(tables)]


def _free_class_name(*, teacher: User) -> str:
    taken = {
        name.casefold()
        for name in SchoolClass.objects.filter(
            teacher=teacher, name__istartswith="Demo class"
        ).values_list("name", flat=True)
    }
    number = 1
    while f"demo class {number}" in taken:
        number += 1
    return f"Demo class {number}"


def _free_join_codes(count: int) -> list[str]:
    """``count`` distinct codes no session in the database uses yet."""
    codes: set[str] = set()
    while len(codes) < count:
        codes.update(join_code_generate() for _ in range(count - len(codes)))
        codes -= set(GameSession.objects.filter(code__in=codes).values_list("code", flat=True))
    return sorted(codes)


def _table_trials(
    *,
    rng: random.Random,
    session: GameSession,
    table: Table,
    seats: Sequence[Seat],
    odds: dict[int, _SessionOdds],
    level: str,
    flips: int,
) -> Iterator[Trial]:
    """One trial per seat per flip, in log order, as the live table would store them."""
    deck: list[PublicCard] = []
    seq = 0
    for flip in range(1, flips + 1):
        if not deck:
            deck = public_deck(rng)
        card = deck.pop()
        public = card_to_dict(card)
        congruent = card.word == card.ink
        seq += 1  # the flip itself
        # Each seat's card hand is not modelled: whether the flip matches it is a coin.
        outcomes = []
        for seat in seats:
            assert seat.student_id is not None
            target = rng.random() < TARGET_SHARE
            response = _respond(rng, odds[seat.student_id], target=target, congruent=congruent)
            outcomes.append((seat, target, response))
            if response is not None:
                seq += 1  # one log entry per slap
        seq += 1  # the tick that closes the window and records the trials
        # The race goes to the earliest plausible slap, hit or not (normal mode).
        racers = [(r.rt_ms, i) for i, (_s, _t, r) in enumerate(outcomes) if r and r.plausible]
        winner = min(racers)[1] if racers else None
        for index, (seat, target, response) in enumerate(outcomes):
            responded = response is not None
            data: dict[str, Any] = {
                "flip": flip,
                "level": level,
                "public": public,
                "target": target,
                "responded": responded,
                "congruent": congruent,
                "response": "slap" if responded else "none",
                "rt_ms": response.rt_ms if response is not None else None,
                "plausible": response.plausible if response is not None else True,
                "correct": target == responded,
                "first": index == winner,
                "bot": False,
            }
            yield Trial(
                session=session,
                table=table,
                seat=seat,
                student_id=seat.student_id,
                log_seq=seq,
                game=GAME,
                kind=TRIAL_KIND,
                level=level,
                target=target,
                responded=responded,
                congruent=congruent,
                rt_ms=data["rt_ms"],
                correct=data["correct"],
                plausible=data["plausible"],
                data=data,
            )


def _session_seed(
    *,
    rng: random.Random,
    teacher: User,
    school_class: SchoolClass,
    students: Sequence[Student],
    learners: dict[int, _Learner],
    code: str,
    day: date,
    progress: float,
    level: str,
    flips: int,
) -> None:
    tz = timezone.get_current_timezone()
    # Some time in the school day between 08:30 and 14:30, on a five-minute mark.
    started = datetime.combine(day, time(8, 30), tzinfo=tz) + timedelta(
        minutes=5 * rng.randrange(73)
    )
    session = GameSession.objects.create(
        teacher=teacher,
        school_class=school_class,
        game=GAME,
        settings=config_to_values(Config(level=cast("Level", level))),
        players_per_table=TABLE_SIZE,
        code=code,
        seed=rng.getrandbits(63),
        status=GameSession.Status.ENDED,
        started_at=started,
    )
    order = list(students)
    rng.shuffle(order)  # a new seating every week
    tables = Table.objects.bulk_create(
        Table(session=session, number=number, status=Table.Status.ENDED, seed=rng.getrandbits(63))
        for number in range(1, len(_table_sizes(len(order))) + 1)
    )
    seats: list[Seat] = []
    for table, size in zip(tables, _table_sizes(len(order)), strict=True):
        seats.extend(
            student_seat_new(session=session, table=table, student=student)
            for student in order[len(seats) : len(seats) + size]
        )
    Seat.objects.bulk_create(seats)
    by_table: dict[int, list[Seat]] = {table.pk: [] for table in tables}
    for seat in seats:
        assert seat.table_id is not None
        by_table[seat.table_id].append(seat)
    for table in tables:
        table.roster = [{"seat_id": seat.pk, "name": seat.name} for seat in by_table[table.pk]]
    Table.objects.bulk_update(tables, ["roster"])

    odds = {pk: learner.at(progress=progress, level=level) for pk, learner in learners.items()}
    last_seq = 0
    batch: list[Trial] = []
    for table in tables:
        for trial in _table_trials(
            rng=rng,
            session=session,
            table=table,
            seats=by_table[table.pk],
            odds=odds,
            level=level,
            flips=flips,
        ):
            last_seq = max(last_seq, trial.log_seq)
            batch.append(trial)
            if len(batch) >= BATCH_SIZE:
                Trial.objects.bulk_create(batch)
                batch = []
    Trial.objects.bulk_create(batch)

    # auto_now_add stamped everything "now"; move it into the lesson. Tables play side by
    # side, so a trial's time follows its table's log sequence.
    step = timedelta(seconds=SECONDS_PER_LOG_ENTRY)
    Trial.objects.filter(session=session).update(
        created_at=ExpressionWrapper(
            Value(started, output_field=DateTimeField())
            # SQLite only multiplies durations by plain IntegerFields, not PositiveIntegerField.
            + ExpressionWrapper(
                Cast("log_seq", IntegerField()) * Value(step), output_field=DurationField()
            ),
            output_field=DateTimeField(),
        )
    )
    Seat.objects.filter(session=session).update(joined_at=started - timedelta(minutes=3))
    GameSession.objects.filter(pk=session.pk).update(
        created_at=started - timedelta(minutes=5),
        ended_at=started + step * (last_seq + 1) + timedelta(seconds=30),
    )


@transaction.atomic
def demo_class_seed(
    *,
    teacher: User,
    students: int = 30,
    sessions: int = 20,
    trials_per_session: int = 200,
    seed: int = 0,
    start: date | None = None,
) -> SchoolClass:
    """A new class of ``teacher`` with ``students`` x ``sessions`` x ``trials_per_session``
    Palm Strike trials (one trial per student per flip).

    ``start`` is the first week of the series (the first session falls on a school day of that
    week); by default the series ends in the week before today.
    """
    if not 2 <= students <= min(STUDENTS_PER_CLASS_MAX, len(FIRST_NAMES)):
        raise ValueError(f"students must be 2 to {STUDENTS_PER_CLASS_MAX}, not {students}")
    if sessions < 1 or trials_per_session < 1:
        raise ValueError("sessions and trials_per_session must be at least 1")
    rng = random.Random(seed)
    names = rng.sample(FIRST_NAMES, students)
    school_class = class_create(
        teacher=teacher, name=_free_class_name(teacher=teacher), student_names=names
    )
    roster = list(school_class.students.order_by("display_name", "pk"))
    learners = {student.pk: _learner(rng) for student in roster}
    days = _session_days(rng=rng, sessions=sessions, start=start)
    codes = _free_join_codes(sessions)
    for index, (day, code) in enumerate(zip(days, codes, strict=True)):
        progress = index / (sessions - 1) if sessions > 1 else 0.0
        _session_seed(
            rng=rng,
            teacher=teacher,
            school_class=school_class,
            students=roster,
            learners=learners,
            code=code,
            day=day,
            progress=progress,
            # Thirds of the series: beginner, then intermediate, then advanced.
            level=LEVELS[min(len(LEVELS) - 1, index * len(LEVELS) // sessions)],
            flips=trials_per_session,
        )
    # The class existed before its first lesson, not from the moment it was seeded.
    enrolled = datetime.combine(
        days[0] - timedelta(days=3), time(16, 0), tzinfo=timezone.get_current_timezone()
    )
    SchoolClass.objects.filter(pk=school_class.pk).update(created_at=enrolled)
    Student.objects.filter(school_class=school_class).update(created_at=enrolled)
    school_class.refresh_from_db()
    return school_class
