"""Seating: balanced tables, hand-placed seats, team mode and late joiners."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from classroom.models import GameSession, Seat, Table
from classroom.services import tables
from classroom.services.seats import (
    GuestJoin,
    seat_join_guest,
    seat_join_student,
    seat_kick,
    seat_move,
    seats_join,
)
from classroom.services.sessions import session_pause, session_rebalance, session_start
from classroom.services.tables import table_capacity

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from classroom.models import SchoolClass

    MakeSession = Callable[..., GameSession]


def _layout(session: GameSession) -> dict[int, list[str]]:
    """Table number → names of the (not removed) seats at it, in joining order."""
    return {
        table.number: list(
            table.seats.filter(kicked_at__isnull=True)
            .order_by("joined_at", "pk")
            .values_list("name", flat=True)
        )
        for table in Table.objects.filter(session=session).order_by("number")
    }


def _table_of(seat: Seat) -> int:
    seat.refresh_from_db()
    assert seat.table is not None
    return seat.table.number


def _join(session: GameSession, *names: str) -> list[Seat]:
    # Fresh from the database, as the console views load them (seat.session is current).
    return [
        Seat.objects.get(pk=seat_join_guest(session=session, nickname=name).pk) for name in names
    ]


@pytest.mark.parametrize("players_per_table", [2, 3, 4, 5])
@pytest.mark.parametrize("students", [1, 2, 4, 7, 10, 13])
def test_tables_stay_balanced_as_students_join_one_by_one(
    make_session: MakeSession, players_per_table: int, students: int
) -> None:
    session = make_session(players_per_table=players_per_table)
    for joined in range(1, students + 1):
        seat_join_guest(session=session, nickname=f"Kid {joined}")
        sizes = [len(names) for names in _layout(session).values()]
        assert sum(sizes) == joined, "every student has a table"
        assert not Seat.objects.filter(session=session, table__isnull=True).exists()
        assert max(sizes) <= players_per_table, sizes
        assert max(sizes) - min(sizes) <= 1, sizes
        # The fewest tables that fit everyone, numbered from 1 without gaps.
        assert len(sizes) == math.ceil(joined / players_per_table)
        assert sorted(_layout(session)) == list(range(1, len(sizes) + 1))


@pytest.mark.parametrize("players_per_table", [2, 4])
def test_a_join_that_needs_no_new_table_moves_nobody(
    make_session: MakeSession, players_per_table: int
) -> None:
    session = make_session(players_per_table=players_per_table)
    for joined in range(1, 4 * players_per_table + 2):
        before = dict(Seat.objects.filter(session=session).values_list("pk", "table_id"))
        seat = seat_join_guest(session=session, nickname=f"Kid {joined}")
        after = dict(
            Seat.objects.filter(session=session).exclude(pk=seat.pk).values_list("pk", "table_id")
        )
        if math.ceil(joined / players_per_table) == math.ceil((joined - 1) / players_per_table):
            assert after == before, f"join {joined} reseated someone"


def test_a_join_takes_a_bounded_number_of_queries(
    make_session: MakeSession, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    """No reseating of the whole lobby per join: a class joining at once waits on each join."""
    session = make_session(players_per_table=4)
    _join(session, *(f"Kid {n}" for n in range(1, 42)))  # 11 tables, of 3 and 4
    with django_assert_max_num_queries(12):
        seat_join_guest(session=session, nickname="Kid 42")  # a table of 3 takes them


def test_a_batch_of_joins_takes_queries_per_join_not_per_seat(
    make_session: MakeSession, django_assert_max_num_queries: Callable[..., Any]
) -> None:
    """A class joining at once: each join its own few statements, the lobby read once."""
    session = make_session(players_per_table=4)
    _join(session, *(f"Kid {n}" for n in range(1, 29)))  # 7 tables of 4
    batch = [GuestJoin(nickname=f"New {n}", device_id=f"device-{n}") for n in range(1, 9)]
    # Per join: the kept-out check, the name check, the seat and its device, in a savepoint;
    # once: the session, the blocklist, the lobby's balance, however many are seated already.
    with django_assert_max_num_queries(6 * len(batch) + 20):
        seats_join(session=session, requests=batch)
    sizes = [len(names) for names in _layout(session).values()]
    assert sorted(sizes) == [4] * 9


def _assert_balanced(
    session: GameSession, players_per_table: int | None, *, numbered_from_one: bool = True
) -> None:
    layout = _layout(session)
    sizes = [len(names) for names in layout.values()]
    seated = Seat.objects.filter(session=session, kicked_at__isnull=True).count()
    assert not Seat.objects.filter(
        session=session, kicked_at__isnull=True, table__isnull=True
    ).exists(), "every student has a table"
    assert sum(sizes) == seated
    if players_per_table is None:
        assert list(layout) == [1]
        return
    assert max(sizes) <= players_per_table, sizes
    assert max(sizes) - min(sizes) <= 1, sizes
    assert len(sizes) == max(1, math.ceil(seated / players_per_table)), sizes
    if numbered_from_one:
        assert sorted(layout) == list(range(1, len(sizes) + 1)), layout


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players_per_table=st.sampled_from([2, 3, 4, 5, None]),
    steps=st.lists(
        st.one_of(
            st.integers(min_value=1, max_value=9).map(lambda size: ("join", size)),
            st.integers(min_value=0, max_value=40).map(lambda index: ("kick", index)),
        ),
        min_size=1,
        max_size=6,
    ),
)
@example(players_per_table=3, steps=[("join", 4), ("kick", 0)])  # table 2 is kept, not 1
def test_batched_joins_keep_the_lobby_exactly_balanced(
    make_session: MakeSession,
    players_per_table: int | None,
    steps: list[tuple[str, int]],
) -> None:
    """Whatever mix of batches (a class tapping Join together) and removals: after each, the
    fewest tables that fit everyone, sizes within one; numbered from 1 without gaps until
    someone is removed (a removal keeps the fuller table, whatever its number)."""
    settings_ = {"team_mode": True} if players_per_table is None else {}
    session = make_session(players_per_table=players_per_table or 2, settings=settings_)
    joined = 0
    removed = False
    for action, number in steps:
        if action == "join":
            batch = [GuestJoin(nickname=f"Kid {joined + n}") for n in range(number)]
            outcomes = seats_join(session=session, requests=batch)
            assert not [o for o in outcomes if isinstance(o, ValidationError)]
            joined += number
        else:
            seats = list(Seat.objects.filter(session=session, kicked_at__isnull=True))
            if not seats:
                continue
            seat_kick(seat=seats[number % len(seats)])
            removed = True
            if len(seats) == 1:
                continue  # nobody left to seat: an empty lobby has no tables to balance
        _assert_balanced(session, players_per_table, numbered_from_one=not removed)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players_per_table=st.sampled_from([2, 3, 4, 5]),
    steps=st.lists(
        st.one_of(
            st.integers(min_value=1, max_value=9).map(lambda size: ("join", size)),
            st.integers(min_value=0, max_value=40).map(lambda index: ("kick", index)),
            st.integers(min_value=0, max_value=40).map(lambda index: ("pin", index)),
        ),
        min_size=1,
        max_size=7,
    ),
)
@example(players_per_table=4, steps=[("join", 8), ("join", 1)])  # two of the first move
@example(players_per_table=3, steps=[("join", 4), ("kick", 0), ("join", 2)])  # uneven
def test_growing_the_lobby_seats_everyone_as_a_full_balance_would(
    make_session: MakeSession, players_per_table: int, steps: list[tuple[str, int]]
) -> None:
    """A batch that needs a new table reads only the seats that move; the same steps with a
    full ``tables_balance`` in its place end with every student at the same table."""
    grown = make_session(players_per_table=players_per_table)
    balanced = make_session(players_per_table=players_per_table)

    def balance_all(*, session: GameSession, **_ignored: Any) -> set[int]:
        return tables.tables_balance(session=session)

    joined = 0
    for action, number in steps:
        for session, grow in ((grown, tables._tables_grow), (balanced, balance_all)):
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(tables, "_tables_grow", grow)
                seats = list(
                    Seat.objects.filter(session=session, kicked_at__isnull=True).order_by("pk")
                )
                if action == "join":
                    batch = [GuestJoin(nickname=f"Kid {joined + n}") for n in range(number)]
                    seats_join(session=session, requests=batch)
                elif seats and action == "kick":
                    seat_kick(seat=seats[number % len(seats)])
                elif seats:
                    first = Table.objects.filter(session=session).order_by("number").first()
                    assert first is not None
                    seat_move(seat=seats[number % len(seats)], table_number=first.number)
        joined += number if action == "join" else 0
        assert _layout(grown) == _layout(balanced), (action, number)


def test_a_batch_moves_nobody_when_no_table_is_needed(make_session: MakeSession) -> None:
    session = make_session(players_per_table=4)
    _join(session, *(f"Kid {n}" for n in range(1, 10)))  # 3 tables: 3, 3, 3
    before = dict(Seat.objects.filter(session=session).values_list("pk", "table_id"))
    outcomes = seats_join(
        session=session, requests=[GuestJoin(nickname=f"New {n}") for n in (1, 2, 3)]
    )
    after = dict(Seat.objects.filter(session=session).values_list("pk", "table_id"))
    assert {pk: after[pk] for pk in before} == before
    assert sorted(len(names) for names in _layout(session).values()) == [4, 4, 4]
    assert all(isinstance(outcome, Seat) for outcome in outcomes)


def test_a_refusal_in_a_batch_changes_nothing_and_the_others_sit_down(
    make_session: MakeSession,
) -> None:
    session = make_session(players_per_table=2)
    _join(session, "Mia")
    outcomes = seats_join(
        session=session,
        requests=[GuestJoin(nickname="Ann"), GuestJoin(nickname="MIA"), GuestJoin(nickname="ann")],
    )
    assert isinstance(outcomes[0], Seat)
    assert isinstance(outcomes[1], ValidationError)
    assert isinstance(outcomes[2], ValidationError)
    assert "already called" in " ".join(outcomes[1].messages)
    assert _layout(session) == {1: ["Mia", "Ann"]}


def test_balancing_moves_the_latest_joiners_not_the_earliest(make_session: MakeSession) -> None:
    session = make_session(players_per_table=3)
    _join(session, "A", "B", "C")
    assert _layout(session) == {1: ["A", "B", "C"]}
    _join(session, "D")
    # Four at tables of three: two tables of two, and the newest joiner of table 1 moved.
    assert _layout(session) == {1: ["A", "B"], 2: ["C", "D"]}


def test_pinned_seat_stays_where_the_teacher_put_it(make_session: MakeSession) -> None:
    session = make_session(players_per_table=2)
    a, _b, _c, _d = _join(session, "A", "B", "C", "D")
    assert _layout(session) == {1: ["A", "B"], 2: ["C", "D"]}

    seat_move(seat=a, table_number=2)
    a.refresh_from_db()
    assert a.pinned
    assert _table_of(a) == 2

    for name in ["E", "F", "G"]:
        _join(session, name)
        assert _table_of(a) == 2, _layout(session)
    assert "A" in _layout(session)[2]


def test_pinned_seat_stays_through_a_removal(make_session: MakeSession) -> None:
    session = make_session(players_per_table=3)
    *_others, e, f = _join(session, "A", "B", "C", "D", "E", "F")
    seat_move(seat=f, table_number=1)
    assert _table_of(f) == 1
    seat_kick(seat=e)
    assert _table_of(f) == 1
    sizes = [len(names) for names in _layout(session).values()]
    assert sum(sizes) == 5


def test_a_full_table_of_pinned_seats_is_not_broken_up(make_session: MakeSession) -> None:
    session = make_session(players_per_table=2)
    a, b, _c = _join(session, "A", "B", "C")
    # The teacher puts three together at table 2 (beyond the size, on purpose).
    seat_move(seat=a, table_number=2)
    seat_move(seat=b, table_number=2)
    assert _layout(session) == {2: ["A", "B", "C"]}
    _join(session, "D")
    layout = _layout(session)
    assert {"A", "B"} <= set(layout[2])
    assert "D" in [name for names in layout.values() for name in names]


def test_rebalance_forgets_hand_placements(make_session: MakeSession) -> None:
    session = make_session(players_per_table=2)
    *_others, c = _join(session, "A", "B", "C")
    seat_move(seat=c, table_number=1)
    assert _layout(session) == {1: ["A", "B", "C"]}
    session_rebalance(session=session)
    assert not Seat.objects.filter(session=session, pinned=True).exists()
    sizes = sorted(len(names) for names in _layout(session).values())
    assert sizes == [1, 2]


def test_pinned_seat_on_a_table_beyond_the_minimum_count_stays(make_session: MakeSession) -> None:
    session = make_session(players_per_table=4)
    _a, _b, c = _join(session, "A", "B", "C")
    seat_move(seat=c, table_number=None)  # the teacher gives C a table of its own
    assert _layout(session) == {1: ["A", "B"], 2: ["C"]}
    _join(session, "D")
    assert _table_of(c) == 2


def test_team_mode_seats_everyone_at_one_table(make_session: MakeSession) -> None:
    session = make_session(players_per_table=2, settings={"team_mode": True})
    assert table_capacity(session=session) is None
    names = [f"Kid {number}" for number in range(1, 14)]
    for joined, name in enumerate(names, start=1):
        _join(session, name)
        layout = _layout(session)
        assert list(layout) == [1]
        assert len(layout[1]) == joined


def test_team_mode_late_joiner_sits_at_the_one_table(make_session: MakeSession) -> None:
    session = make_session(players_per_table=2, settings={"team_mode": True})
    _join(session, "A", "B", "C")
    session_start(session=session)
    _join(session, "D", "E")
    assert _layout(session) == {1: ["A", "B", "C", "D", "E"]}


def test_without_team_mode_capacity_is_players_per_table(make_session: MakeSession) -> None:
    session = make_session(players_per_table=3)
    assert table_capacity(session=session) == 3


def test_late_joiners_get_a_table_of_their_own_and_nobody_moves(
    make_session: MakeSession,
) -> None:
    session = make_session(players_per_table=3)
    seats = _join(session, "A", "B", "C", "D", "E")
    session_start(session=session)
    layout = _layout(session)
    before = {seat.pk: _table_of(seat) for seat in seats}

    # Games started with fixed seats, so a latecomer plays at a new table, with a bot.
    (late,) = _join(session, "F")
    assert _layout(session) == {**layout, 3: ["F"]}
    table = Table.objects.get(session=session, number=3)
    assert table.status == Table.Status.RUNNING
    assert [entry.get("seat_id") for entry in table.roster] == [late.pk, None]
    assert "bot" in table.roster[1]
    assert {seat.pk: _table_of(seat) for seat in seats} == before


def test_a_removal_after_the_start_reseats_nobody(make_session: MakeSession) -> None:
    session = make_session(players_per_table=3)
    seats = {seat.name: seat for seat in _join(session, "A", "B", "C", "D", "E", "F")}
    session_start(session=session)
    layout = _layout(session)
    first, second = layout[1], layout[2]
    seat_kick(seat=seats[first[1]])
    assert _layout(session) == {1: [first[0], first[2]], 2: second}


def test_late_joiner_while_paused_gets_a_paused_table(make_session: MakeSession) -> None:
    session = make_session(players_per_table=2)
    _join(session, "A", "B")
    session_start(session=session)
    session_pause(session=session)
    (late,) = _join(session, "C")
    late.refresh_from_db()
    assert late.table is not None
    assert late.table.number == 2
    assert late.table.status == Table.Status.PAUSED


def test_class_students_are_balanced_like_guests(
    make_session: MakeSession, school_class: SchoolClass
) -> None:
    session = make_session(school_class=school_class, players_per_table=2)
    for student in school_class.students.order_by("display_name"):
        seat_join_student(session=session, student=student)
    sizes = sorted(len(names) for names in _layout(session).values())
    assert sizes == [1, 2, 2]
