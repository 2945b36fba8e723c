"""A school's year of trials in PostgreSQL, fast: classes, sessions, tables and seats through the
ORM, the trials (millions) in one ``INSERT … SELECT generate_series`` per class.

What ``tests.seeding.palm_strike`` does trial by trial in Python would take hours at 36 M rows.
Here Python draws only each child's traits (speed, learning, hit and false-alarm odds) from a seeded
``random.Random``; PostgreSQL draws the trials from them with ``random()`` after
``setseed``, using the odds a game's site gives (``GameSite.bulk_trials``), so the trials have
the columns, links and ``data`` the live tables write, and values a class could have played:

* every session is one school day of the year at one level (the levels in equal parts of the
  series, in order), the class reseated at tables of at most four each time;
* one trial per seat per flip, log sequence and time as a table writes them (a flip, its
  responses, the closing tick, a second apart), rows in the order the tables wrote them;
* the median RT falls by a personal 8-25 % over the year, most of it early; each level up
  costs some speed, hits and false alarms; incongruent trials are slower and missed more;
* a share of implausible responses (under the host's floor), and no response after the
  window closes.

PostgreSQL only (``generate_series``, ``setseed``); SQLite sizes use ``tests.seeding.palm_strike``.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.utils import timezone

from classroom.gamesite import game_sites
from classroom.join_codes import join_code_generate
from classroom.management.trial_tallies import tallies_recount
from classroom.models import GameSession, SchoolClass, Seat, Student, Table, Trial
from classroom.services.classes import class_create
from classroom.services.student_seats import student_seat_new

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from django.contrib.auth.models import User

    from classroom.gamesite.contract import BulkTrials

TABLE_SIZE = 4
# A flip's log entries (the flip, the responses, the closing tick) are taken as a second apart.
SECONDS_PER_LOG_ENTRY = 1


@dataclass(frozen=True)
class SchoolSize:
    classes: int
    students: int
    sessions: int
    trials: int  # per student and session

    @property
    def total(self) -> int:
        return self.classes * self.students * self.sessions * self.trials


@dataclass(frozen=True)
class _Learner:
    """One child's traits, relative to the game's typical child."""

    speed: float  # their median RT over the typical one
    gain: float  # how much faster they get over the year
    hit: float
    false_alarm: float


def bulk_game() -> tuple[str, BulkTrials]:
    """The first game whose site can seed trials in bulk."""
    for site in game_sites():
        if site.bulk_trials is not None:
            return site.slug, site.bulk_trials
    raise LookupError("No game has bulk trials to seed.")


def school_days(*, count: int, before: date) -> list[date]:
    """The last ``count`` school days (Monday to Friday) before ``before``, oldest first."""
    days: list[date] = []
    day = before
    while len(days) < count:
        day -= timedelta(days=1)
        if day.weekday() < 5:
            days.append(day)
    return days[::-1]


def table_sizes(students: int) -> list[int]:
    """The fewest tables of at most ``TABLE_SIZE`` that seat everyone, sizes within one."""
    tables = math.ceil(students / TABLE_SIZE)
    base, extra = divmod(students, tables)
    return [base + 1 if number < extra else base for number in range(tables)]


def school_seed(
    *, teacher: User, size: SchoolSize, seed: int = 0, progress: Callable[[str], None] | None = None
) -> list[SchoolClass]:
    """``size.classes`` new classes of ``teacher``, each with its year of trials."""
    if connection.vendor != "postgresql":
        raise ValueError("A school is seeded on PostgreSQL only.")
    game, bulk = bulk_game()
    days = school_days(count=size.sessions, before=timezone.localdate())
    classes = []
    say = progress or (lambda message: None)
    with _trial_indexes_dropped(say=say):
        for number in range(1, size.classes + 1):
            rng = random.Random(f"{seed}-{number}")
            with transaction.atomic():
                school_class = _class_seed(
                    teacher=teacher,
                    number=number,
                    size=size,
                    rng=rng,
                    game=game,
                    bulk=bulk,
                    days=days,
                )
            classes.append(school_class)
            say(f"{school_class.name}: {number * size.total // size.classes:,} trials")
    return classes


@contextlib.contextmanager
def _trial_indexes_dropped(*, say: Callable[[str], None]) -> Iterator[None]:
    """Without the trials' secondary indexes while inserting, and each built again at the
    end: one sorted build is several times cheaper than millions of row-by-row insertions
    into nine B-trees. (A seed that dies midway leaves the table without them: the database
    is a throwaway.)"""
    table = Trial._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s AND indexname NOT IN "
            "(SELECT conname FROM pg_constraint WHERE conrelid = %s::regclass)",
            [table, table],
        )
        indexes = cursor.fetchall()
        for name, _definition in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
    yield
    with connection.cursor() as cursor:
        cursor.execute("SET maintenance_work_mem = '1GB'")
        for name, definition in indexes:
            say(f"Building {name}.")
            cursor.execute(definition)


def _class_seed(
    *,
    teacher: User,
    number: int,
    size: SchoolSize,
    rng: random.Random,
    game: str,
    bulk: BulkTrials,
    days: Sequence[date],
) -> SchoolClass:
    names = [f"Pupil {index:02d}" for index in range(1, size.students + 1)]
    school_class = class_create(teacher=teacher, name=f"School class {number}", student_names=names)
    students = list(school_class.students.order_by("pk"))
    learners = {student.pk: _learner(rng) for student in students}
    sessions = _sessions_create(
        teacher=teacher, school_class=school_class, rng=rng, game=game, bulk=bulk, days=days
    )
    _seats_create(sessions=sessions, students=students, rng=rng)
    _trials_insert(sessions=sessions, learners=learners, game=game, bulk=bulk, size=size, rng=rng)
    _times_settle(school_class=school_class, sessions=sessions, trials=size.trials)
    return school_class


def _learner(rng: random.Random) -> _Learner:
    return _Learner(
        speed=max(0.75, min(1.3, rng.lognormvariate(0, 0.17))),
        gain=rng.uniform(0.08, 0.25),
        hit=rng.gauss(0, 0.05),
        false_alarm=rng.gauss(0, 0.03),
    )


def _level_of(index: int, *, sessions: int, levels: Sequence[str]) -> int:
    return min(len(levels) - 1, index * len(levels) // sessions)


def _sessions_create(
    *,
    teacher: User,
    school_class: SchoolClass,
    rng: random.Random,
    game: str,
    bulk: BulkTrials,
    days: Sequence[date],
) -> list[GameSession]:
    tz = timezone.get_current_timezone()
    codes: set[str] = set()
    while len(codes) < len(days):
        codes.add(join_code_generate())
    codes -= set(GameSession.objects.filter(code__in=codes).values_list("code", flat=True))
    while len(codes) < len(days):  # a clash with an earlier class's code: draw again
        codes.add(join_code_generate())
    sessions = []
    for index, (day, code) in enumerate(zip(days, sorted(codes), strict=True)):
        level = bulk.levels[_level_of(index, sessions=len(days), levels=bulk.levels)]
        # Some time in the school day between 08:30 and 14:30, on a five-minute mark.
        started = datetime.combine(day, time(8, 30), tzinfo=tz) + timedelta(
            minutes=5 * rng.randrange(73)
        )
        sessions.append(
            GameSession(
                teacher=teacher,
                school_class=school_class,
                game=game,
                settings=bulk.settings(level),
                players_per_table=TABLE_SIZE,
                code=code,
                seed=rng.getrandbits(63),
                status=GameSession.Status.ENDED,
                started_at=started,
            )
        )
    return GameSession.objects.bulk_create(sessions)


def _seats_create(
    *, sessions: Sequence[GameSession], students: Sequence[Student], rng: random.Random
) -> None:
    sizes = table_sizes(len(students))
    tables = Table.objects.bulk_create(
        Table(session=session, number=number, status=Table.Status.ENDED, seed=rng.getrandbits(63))
        for session in sessions
        for number in range(1, len(sizes) + 1)
    )
    seats = []
    for index, session in enumerate(sessions):
        order = list(students)
        rng.shuffle(order)  # a new seating every session
        placed = 0
        for table, seats_here in zip(tables[index * len(sizes) :], sizes, strict=False):
            for student in order[placed : placed + seats_here]:
                seats.append(student_seat_new(session=session, table=table, student=student))
            placed += seats_here
    Seat.objects.bulk_create(seats, batch_size=5000)


def _trials_insert(
    *,
    sessions: Sequence[GameSession],
    learners: dict[int, _Learner],
    game: str,
    bulk: BulkTrials,
    size: SchoolSize,
    rng: random.Random,
) -> None:
    """Every trial of the class's sessions, in one statement (see the module doc)."""
    levels = [
        _level_of(i, sessions=len(sessions), levels=bulk.levels) for i in range(len(sessions))
    ]
    params: dict[str, Any] = {
        "session_ids": [session.pk for session in sessions],
        "level_indexes": levels,
        "level_names": [bulk.levels[index] for index in levels],
        "progress": [i / max(1, len(sessions) - 1) for i in range(len(sessions))],
        "student_ids": list(learners),
        "speed": [learner.speed for learner in learners.values()],
        "gain": [learner.gain for learner in learners.values()],
        "hit": [learner.hit for learner in learners.values()],
        "false_alarm": [learner.false_alarm for learner in learners.values()],
        "flips": size.trials,
        "game": game,
        "kind": bulk.kind,
        "target_share": bulk.target_share,
        "congruent_share": bulk.congruent_share,
        "hit_rate": bulk.hit_rate,
        "false_alarm_rate": bulk.false_alarm_rate,
        "median_rt_ms": bulk.median_rt_ms,
        "rt_spread": bulk.rt_spread,
        "level_cost_ms": bulk.level_cost_ms,
        "incongruent_ms": bulk.incongruent_ms,
        "window_ms": bulk.response_window_ms,
        "floor_ms": bulk.plausible_floor_ms,
        "implausible_share": bulk.implausible_share,
        "data": json.dumps(bulk.data),
        "step_s": SECONDS_PER_LOG_ENTRY,
    }
    with connection.cursor() as cursor:
        # The sort that puts the rows in the tables' order would spill to disk at 4 MB.
        cursor.execute("SET LOCAL work_mem = '256MB'")
        # No foreign-key checks (four per row, queued to the commit): every link is taken
        # from the seats just written. No triggers either (the tallies are counted below,
        # once). Needs a superuser, as the bench's database has.
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("SELECT setseed(%s)", [rng.uniform(-1, 1)])
        tables = {
            "trial": Trial._meta.db_table,
            "seat": Seat._meta.db_table,
            "session": GameSession._meta.db_table,
        }
        cursor.execute(_TRIALS_SQL.format(**tables), params)
    # The triggers that keep the tallies were off with the foreign keys: count them here.
    tallies_recount(session_ids=params["session_ids"])


def _times_settle(
    *, school_class: SchoolClass, sessions: Sequence[GameSession], trials: int
) -> None:
    """auto_now_add stamped everything "now": move it to when the class really played."""
    first = min(session.started_at for session in sessions if session.started_at)
    enrolled = first - timedelta(days=3)
    SchoolClass.objects.filter(pk=school_class.pk).update(created_at=enrolled)
    Student.objects.filter(school_class=school_class).update(created_at=enrolled)
    # The longest table's flips: a flip, up to four responses and the closing tick each.
    length_s = SECONDS_PER_LOG_ENTRY * trials * (TABLE_SIZE + 2)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {GameSession._meta.db_table} SET created_at = started_at - interval "  # noqa: S608
            "'5 minutes', ended_at = started_at + make_interval(secs => %s) "
            "WHERE school_class_id = %s",
            [length_s, school_class.pk],
        )
        cursor.execute(
            f"UPDATE {Seat._meta.db_table} AS seat SET joined_at = session.started_at - interval "  # noqa: S608
            f"'3 minutes' FROM {GameSession._meta.db_table} AS session "
            "WHERE session.id = seat.session_id AND session.school_class_id = %s",
            [school_class.pk],
        )
        cursor.execute(
            f"UPDATE {Table._meta.db_table} AS t SET roster = (SELECT jsonb_agg("  # noqa: S608
            "jsonb_build_object('seat_id', seat.id, 'name', seat.name) ORDER BY seat.id) "
            f"FROM {Seat._meta.db_table} AS seat WHERE seat.table_id = t.id) "
            f"FROM {GameSession._meta.db_table} AS session "
            "WHERE session.id = t.session_id AND session.school_class_id = %s",
            [school_class.pk],
        )


# One row per seat per flip. ``draws`` takes every random number a trial needs once (the CTE
# is materialised: it calls a volatile function), ``responses`` turns them into what the child
# did, and the outer SELECT writes the columns and ``data`` as the live tables do.
_TRIALS_SQL = """
WITH sessions AS (
    SELECT * FROM unnest(
        %(session_ids)s::bigint[], %(level_indexes)s::int[], %(level_names)s::text[],
        %(progress)s::float8[]
    ) AS s(session_id, level_index, level, progress)
), learners AS (
    SELECT * FROM unnest(
        %(student_ids)s::bigint[], %(speed)s::float8[], %(gain)s::float8[], %(hit)s::float8[],
        %(false_alarm)s::float8[]
    ) AS l(student_id, speed, gain, hit, false_alarm)
), places AS (
    SELECT seat.id AS seat_id, seat.session_id, seat.table_id, seat.student_id,
        row_number() OVER (PARTITION BY seat.table_id ORDER BY seat.id) AS place,
        count(*) OVER (PARTITION BY seat.table_id) AS places
    FROM {seat} AS seat JOIN sessions USING (session_id)
), draws AS (
    SELECT places.*, flip, session.started_at, sessions.level,
        -- Negatively accelerated learning: most of the year's gain comes early.
        learners.speed * %(median_rt_ms)s
            * (1 - learners.gain * (1 - exp(-3 * sessions.progress)) / (1 - exp(-3)))
            + sessions.level_index * %(level_cost_ms)s AS median_ms,
        least(0.99, greatest(0.5, %(hit_rate)s + learners.hit + 0.05 * sessions.progress
            - 0.04 * sessions.level_index)) AS hit,
        least(0.4, greatest(0.01, %(false_alarm_rate)s + learners.false_alarm
            - 0.03 * sessions.progress + 0.03 * sessions.level_index)) AS false_alarm,
        random() < %(target_share)s AS target,
        CASE WHEN %(congruent_share)s::float8 IS NOT NULL
            THEN random() < %(congruent_share)s::float8 END AS congruent,
        random() AS u_respond, random() AS u_implausible, random() AS u1, random() AS u2
    FROM places
    JOIN sessions USING (session_id)
    JOIN learners USING (student_id)
    JOIN {session} AS session ON session.id = places.session_id
    CROSS JOIN generate_series(1, %(flips)s) AS flip
), responses AS (
    SELECT draws.*,
        u_implausible < %(implausible_share)s AS implausible,
        -- Lognormal around the child's median (Box-Muller from two uniform draws).
        round((median_ms + CASE WHEN congruent IS FALSE THEN %(incongruent_ms)s ELSE 0 END)
            * exp(%(rt_spread)s * sqrt(-2 * ln(1 - u1)) * cos(2 * pi() * u2))) AS raw_rt,
        u_respond < CASE WHEN target
            THEN hit - CASE WHEN congruent IS FALSE THEN 0.04 ELSE 0 END
            ELSE false_alarm END AS wants
    FROM draws
), trials AS (
    SELECT responses.*,
        implausible OR (wants AND raw_rt < %(window_ms)s) AS responded,
        CASE WHEN implausible THEN (20 + floor(u1 * (%(floor_ms)s - 20)))::int
            WHEN wants AND raw_rt < %(window_ms)s THEN raw_rt::int END AS rt_ms,
        (flip - 1) * (places + 2) + place + 1 AS log_seq
    FROM responses
)
INSERT INTO {trial} (
    session_id, table_id, seat_id, student_id, log_seq, game, kind, level, target,
    responded, congruent, rt_ms, correct, plausible, data, created_at
)
SELECT session_id, table_id, seat_id, student_id, log_seq, %(game)s, %(kind)s, level, target,
    responded, congruent, rt_ms, target = responded, NOT implausible,
    jsonb_build_object(
        'flip', flip, 'level', level, 'target', target, 'responded', responded,
        'congruent', congruent, 'rt_ms', rt_ms, 'plausible', NOT implausible,
        'correct', target = responded
    ) || %(data)s::jsonb,
    started_at + make_interval(secs => log_seq * %(step_s)s)
FROM trials
ORDER BY started_at, flip, table_id, place
"""
