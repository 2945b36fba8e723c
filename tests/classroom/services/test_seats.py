"""Students taking, keeping and losing seats: guests, roster taps, badges, kicks and moves."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from classroom.models import GameSession, Seat, SeatConnection, Student, Table
from classroom.processes import PROCESS_ID
from classroom.selectors.sessions import seat_get_by_token
from classroom.services.classes import class_create, student_token_rotate
from classroom.services.seats import (
    NICKNAME_MAX,
    seat_join_badge,
    seat_join_guest,
    seat_join_student,
    seat_kick,
    seat_move,
    seat_option_set,
    seat_readmit,
    seat_resume,
)
from classroom.services.sessions import (
    session_create,
    session_end,
    session_lock,
    session_start,
)
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass

    MakeSession = Callable[..., GameSession]


def _fresh(seat: Seat) -> Seat:
    """The seat as the console loads it: current row, current session."""
    return Seat.objects.get(pk=seat.pk)


def _student(school_class: SchoolClass, name: str) -> Student:
    return school_class.students.get(display_name=name)


def _expire(session: GameSession) -> None:
    GameSession.objects.filter(pk=session.pk).update(
        created_at=timezone.now() - timedelta(hours=15)
    )


def _connect(seat: Seat, *, process_id: str = PROCESS_ID, channel: str = "tablet-1") -> None:
    SeatConnection.objects.create(seat=seat, channel_name=channel, process_id=process_id)


def _message(caught: pytest.ExceptionInfo[ValidationError]) -> str:
    return " ".join(caught.value.messages)


# --------------------------------------------------------------------------------------------
# seat_join_guest


def test_guest_joins_with_a_cleaned_nickname(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="  Mia   Lee ")
    seat = _fresh(seat)
    assert seat.name == "Mia Lee"
    assert seat.name_key == "mia lee"
    assert seat.session == guest_session
    assert seat.student is None
    assert seat.table is not None
    assert len(seat.token) >= 32
    assert seat_resume(session=guest_session, token=seat.token) == seat


@pytest.mark.parametrize("duplicate", ["Mia", "MIA", " mia ", "\uff2d\uff49\uff41"])
def test_duplicate_nickname_is_refused_case_insensitively(
    guest_session: GameSession, duplicate: str
) -> None:
    seat_join_guest(session=guest_session, nickname="Mia")
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=guest_session, nickname=duplicate)
    assert "already called" in _message(caught)
    assert guest_session.seats.count() == 1


def test_the_same_tablet_asking_again_for_its_name_gets_its_seat_back(
    guest_session: GameSession,
) -> None:
    # A second tap on Join while a busy server answered the first (or an answer lost on the
    # Wi-Fi): the child is seated once, and both answers open the same seat.
    first = seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-mia-0001")
    again = seat_join_guest(session=guest_session, nickname=" MIA ", device_id="tablet-mia-0001")
    assert again.pk == first.pk
    assert again.token == first.token
    assert guest_session.seats.count() == 1


def test_the_same_tablet_gets_its_seat_back_after_the_game_started(
    guest_session: GameSession,
) -> None:
    first = seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-mia-0001")
    seat_join_guest(session=guest_session, nickname="Noah", device_id="tablet-noah-001")
    GameSession.objects.filter(pk=guest_session.pk).update(late_join=False)  # latecomers wait
    session_start(session=GameSession.objects.get(pk=guest_session.pk))
    again = seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-mia-0001")
    assert again.pk == first.pk
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=guest_session, nickname="Ava", device_id="tablet-ava-0001")
    assert "already started" in _message(caught)


@pytest.mark.parametrize("device_id", ["", "another-tablet-01"])
def test_another_tablet_cannot_take_a_name_by_typing_it(
    guest_session: GameSession, device_id: str
) -> None:
    seat_join_guest(session=guest_session, nickname="Mia", device_id="tablet-mia-0001")
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=guest_session, nickname="Mia", device_id=device_id)
    assert "already called" in _message(caught)
    assert guest_session.seats.count() == 1


def test_same_nickname_in_another_session_is_fine(make_session: MakeSession) -> None:
    first, second = make_session(), make_session()
    seat_join_guest(session=first, nickname="Mia")
    assert seat_join_guest(session=second, nickname="Mia").session_id == second.pk


@pytest.mark.parametrize(
    ("nickname", "problem"),
    [
        ("", "type a name"),
        ("    ", "type a name"),
        ("x" * (NICKNAME_MAX + 1), f"at most {NICKNAME_MAX} characters"),
        ("Mi\x07a", "letters, numbers, spaces and emoji"),
        ("\u202eaiM", "letters, numbers, spaces and emoji"),
    ],
)
def test_bad_nicknames_are_refused(guest_session: GameSession, nickname: str, problem: str) -> None:
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=guest_session, nickname=nickname)
    assert problem in _message(caught)
    assert not guest_session.seats.exists()
    assert not guest_session.tables.exists()


def test_nickname_of_exactly_the_maximum_is_allowed(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="x" * NICKNAME_MAX)
    assert seat.name == "x" * NICKNAME_MAX


def test_locked_lobby_refuses_new_guests(guest_session: GameSession) -> None:
    seat_join_guest(session=guest_session, nickname="Mia")
    session_lock(session=guest_session, locked=True)
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=guest_session, nickname="Noah")
    assert "locked" in _message(caught)
    assert list(guest_session.seats.values_list("name", flat=True)) == ["Mia"]


def test_ended_session_refuses_guests(guest_session: GameSession) -> None:
    session_end(session=guest_session)
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=guest_session, nickname="Mia")
    assert "ended" in _message(caught)
    assert not guest_session.seats.exists()


def test_expired_code_refuses_guests(guest_session: GameSession) -> None:
    _expire(guest_session)
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=guest_session, nickname="Mia")
    assert "expired" in _message(caught)
    assert not guest_session.seats.exists()


def test_code_still_works_just_before_it_expires(guest_session: GameSession) -> None:
    GameSession.objects.filter(pk=guest_session.pk).update(
        created_at=timezone.now() - timedelta(hours=13, minutes=50)
    )
    assert seat_join_guest(session=guest_session, nickname="Mia").pk


def test_running_session_does_not_expire(guest_session: GameSession) -> None:
    seat_join_guest(session=guest_session, nickname="Mia")
    session_start(session=GameSession.objects.get(pk=guest_session.pk))
    _expire(guest_session)
    assert seat_join_guest(session=guest_session, nickname="Noah").pk


def test_guest_cannot_join_a_class_session(class_session: GameSession) -> None:
    with pytest.raises(ValidationError) as caught:
        seat_join_guest(session=class_session, nickname="Mallory")
    assert "class list" in _message(caught)
    assert not class_session.seats.exists()


# --------------------------------------------------------------------------------------------
# seat_join_student


def test_student_joins_under_their_class_name(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    seat = _fresh(seat_join_student(session=class_session, student=ava))
    assert seat.student == ava
    assert seat.name == "Ava"
    assert seat.table is not None
    assert seat.token != ava.token  # the seat token is not the badge


def test_student_from_another_class_is_refused(class_session: GameSession, teacher: User) -> None:
    other_class = class_create(teacher=teacher, name="Year 5 Hawks", student_names=["Zed"])
    with pytest.raises(ValidationError) as caught:
        seat_join_student(session=class_session, student=_student(other_class, "Zed"))
    assert "not on this session's class list" in _message(caught)
    assert not class_session.seats.exists()


def test_student_cannot_join_a_guest_session(
    guest_session: GameSession, school_class: SchoolClass
) -> None:
    with pytest.raises(ValidationError):
        seat_join_student(session=guest_session, student=_student(school_class, "Ava"))
    assert not guest_session.seats.exists()


def test_rejoin_gives_a_new_token_and_the_old_one_stops_working(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    first = seat_join_student(session=class_session, student=ava)
    old_token = first.token
    second = seat_join_student(session=class_session, student=ava)
    assert second.pk == first.pk  # same seat, same table
    assert second.token != old_token
    assert seat_get_by_token(session=class_session, token=old_token) is None
    with pytest.raises(ValidationError):
        seat_resume(session=class_session, token=old_token)
    assert seat_resume(session=class_session, token=second.token).pk == first.pk
    assert class_session.seats.count() == 1


def test_rejoin_is_refused_while_another_tablet_is_connected(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    seat = seat_join_student(session=class_session, student=ava)
    _connect(seat)
    with pytest.raises(ValidationError) as caught:
        seat_join_student(session=class_session, student=ava)
    assert "already playing on another tablet" in _message(caught)
    assert _fresh(seat).token == seat.token  # the connected tablet keeps its seat


def test_connection_of_a_dead_process_does_not_block_a_rejoin(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    seat = seat_join_student(session=class_session, student=ava)
    _connect(seat, process_id="0" * 32)
    again = seat_join_student(session=class_session, student=ava)
    assert again.token != seat.token


def test_badge_takes_over_a_connected_seat(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    seat = seat_join_student(session=class_session, student=ava)
    _connect(seat)
    taken = seat_join_badge(token=ava.token)
    assert taken.pk == seat.pk
    assert taken.token != seat.token
    assert seat_get_by_token(session=class_session, token=seat.token) is None


def test_seated_student_may_come_back_to_a_locked_lobby(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    seat = seat_join_student(session=class_session, student=ava)
    session_lock(session=class_session, locked=True)
    assert seat_join_student(session=class_session, student=ava).pk == seat.pk
    with pytest.raises(ValidationError) as caught:
        seat_join_student(session=class_session, student=_student(school_class, "Ben"))
    assert "locked" in _message(caught)
    assert class_session.seats.count() == 1


def test_student_cannot_join_an_ended_or_expired_session(
    make_session: MakeSession, school_class: SchoolClass
) -> None:
    ended = make_session(school_class=school_class)
    session_end(session=ended)
    expired = make_session(school_class=school_class)
    _expire(expired)
    for session in (ended, expired):
        with pytest.raises(ValidationError):
            seat_join_student(session=session, student=_student(school_class, "Ava"))
        assert not session.seats.exists()


# --------------------------------------------------------------------------------------------
# seat_join_badge


def test_badge_joins_the_open_session_of_the_class(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ben = _student(school_class, "Ben")
    seat = seat_join_badge(token=ben.token)
    assert seat.session_id == class_session.pk
    assert seat.student_id == ben.pk


def test_badge_picks_the_newest_open_session(
    make_session: MakeSession, school_class: SchoolClass
) -> None:
    older = make_session(school_class=school_class)
    newer = make_session(school_class=school_class)
    GameSession.objects.filter(pk=older.pk).update(created_at=timezone.now() - timedelta(hours=1))
    ben = _student(school_class, "Ben")
    assert seat_join_badge(token=ben.token).session_id == newer.pk
    session_end(session=GameSession.objects.get(pk=newer.pk))
    assert seat_join_badge(token=ben.token).session_id == older.pk


@pytest.mark.parametrize("token", ["", "no-such-badge", "x" * 32])
def test_unknown_badge_is_refused(class_session: GameSession, token: str) -> None:
    with pytest.raises(ValidationError) as caught:
        seat_join_badge(token=token)
    assert "does not work any more" in _message(caught)
    assert not Seat.objects.exists()


def test_badge_without_an_open_session_is_refused(school_class: SchoolClass) -> None:
    with pytest.raises(ValidationError) as caught:
        seat_join_badge(token=_student(school_class, "Ava").token)
    assert "no game open for Year 3 Otters" in _message(caught)
    assert not Seat.objects.exists()


def test_badge_with_only_ended_or_expired_sessions_is_refused(
    make_session: MakeSession, school_class: SchoolClass
) -> None:
    ended = make_session(school_class=school_class)
    session_end(session=ended)
    expired = make_session(school_class=school_class)
    _expire(expired)
    with pytest.raises(ValidationError) as caught:
        seat_join_badge(token=_student(school_class, "Ava").token)
    assert "no game open" in _message(caught)
    assert not Seat.objects.exists()


def test_rotated_badge_is_refused_and_the_new_one_works(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    old_token = ava.token
    student_token_rotate(student=ava)
    with pytest.raises(ValidationError) as caught:
        seat_join_badge(token=old_token)
    assert "does not work any more" in _message(caught)
    assert not Seat.objects.exists()
    assert seat_join_badge(token=ava.token).student_id == ava.pk


def test_badge_of_a_kicked_student_is_refused(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    seat = seat_join_badge(token=ava.token)
    seat_kick(seat=_fresh(seat))
    with pytest.raises(ValidationError) as caught:
        seat_join_badge(token=ava.token)
    assert "removed you" in _message(caught)
    assert _fresh(seat).is_kicked


# --------------------------------------------------------------------------------------------
# seat_kick / seat_readmit / seat_resume


def test_kicked_guest_token_is_refused(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    seat_kick(seat=_fresh(seat))
    kicked = _fresh(seat)
    assert kicked.is_kicked
    assert kicked.table is None
    with pytest.raises(ValidationError) as caught:
        seat_resume(session=guest_session, token=seat.token)
    assert "removed you" in _message(caught)


def test_kicked_student_cannot_come_back_by_roster_tap(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    seat = seat_join_student(session=class_session, student=ava)
    seat_kick(seat=_fresh(seat))
    with pytest.raises(ValidationError) as caught:
        seat_join_student(session=class_session, student=ava)
    assert "removed you" in _message(caught)
    after = _fresh(seat)
    assert after.is_kicked
    assert after.token == seat.token


def test_kick_is_idempotent(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    seat_kick(seat=_fresh(seat))
    kicked_at = _fresh(seat).kicked_at
    seat_kick(seat=_fresh(seat))
    assert _fresh(seat).kicked_at == kicked_at


def test_kick_in_the_lobby_rebalances_the_rest(guest_session: GameSession) -> None:
    seats = [seat_join_guest(session=guest_session, nickname=name) for name in "ABC"]
    assert guest_session.tables.count() == 2
    seat_kick(seat=_fresh(seats[2]))
    assert guest_session.tables.count() == 1
    assert {_fresh(seat).table_id for seat in seats[:2]} == {guest_session.tables.get().pk}


def test_readmitted_student_gets_a_new_token_and_a_table(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava = _student(school_class, "Ava")
    seat = seat_join_student(session=class_session, student=ava)
    seat_kick(seat=_fresh(seat))
    seat_readmit(seat=_fresh(seat))
    back = _fresh(seat)
    assert not back.is_kicked
    assert back.table is not None
    assert back.token != seat.token  # the old tablet does not silently come back
    with pytest.raises(ValidationError):
        seat_resume(session=class_session, token=seat.token)
    # The student joins again from the roster and gets their seat back.
    rejoined = seat_join_student(session=class_session, student=ava)
    assert rejoined.pk == seat.pk
    assert seat_resume(session=class_session, token=rejoined.token).pk == seat.pk


def test_readmitted_guest_frees_the_nickname(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    seat_kick(seat=_fresh(seat))
    with pytest.raises(ValidationError):
        seat_join_guest(session=guest_session, nickname="mia")
    seat_readmit(seat=_fresh(seat))
    assert not Seat.objects.filter(pk=seat.pk).exists()
    again = seat_join_guest(session=guest_session, nickname="mia")
    assert again.pk != seat.pk


def test_readmit_of_a_seated_student_changes_nothing(guest_session: GameSession) -> None:
    seat = _fresh(seat_join_guest(session=guest_session, nickname="Mia"))
    seat_readmit(seat=seat)
    assert _fresh(seat).token == seat.token
    assert not _fresh(seat).is_kicked


def test_readmit_after_start_places_as_a_late_joiner(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    seats = {
        name: seat_join_student(session=class_session, student=_student(school_class, name))
        for name in ["Ava", "Ben", "Chen"]
    }
    session_start(session=GameSession.objects.get(pk=class_session.pk))
    seat_kick(seat=_fresh(seats["Ava"]))
    before = {name: _fresh(seat).table_id for name, seat in seats.items() if name != "Ava"}
    seat_readmit(seat=_fresh(seats["Ava"]))
    assert _fresh(seats["Ava"]).table is not None
    assert {name: _fresh(seat).table_id for name, seat in seats.items() if name != "Ava"} == (
        before
    )


@pytest.mark.parametrize("token", ["", "nope"])
def test_seat_resume_with_unknown_token(guest_session: GameSession, token: str) -> None:
    seat_join_guest(session=guest_session, nickname="Mia")
    with pytest.raises(ValidationError) as caught:
        seat_resume(session=guest_session, token=token)
    assert "join again" in _message(caught)


def test_seat_token_only_works_in_its_own_session(make_session: MakeSession) -> None:
    first, second = make_session(), make_session()
    seat = seat_join_guest(session=first, nickname="Mia")
    with pytest.raises(ValidationError):
        seat_resume(session=second, token=seat.token)


def test_seat_resume_refused_after_the_session_ended(guest_session: GameSession) -> None:
    seat = seat_join_guest(session=guest_session, nickname="Mia")
    session_end(session=GameSession.objects.get(pk=guest_session.pk))
    with pytest.raises(ValidationError) as caught:
        seat_resume(session=GameSession.objects.get(pk=guest_session.pk), token=seat.token)
    assert "ended" in _message(caught)


# --------------------------------------------------------------------------------------------
# seat_move


def _three_guests(session: GameSession) -> list[Seat]:
    return [_fresh(seat_join_guest(session=session, nickname=name)) for name in "ABC"]


def test_move_to_an_existing_table(guest_session: GameSession) -> None:
    _a, _b, c = _three_guests(guest_session)
    assert c.table is not None
    assert c.table.number == 2
    seat_move(seat=c, table_number=1)
    moved = _fresh(c)
    assert moved.table is not None
    assert moved.table.number == 1
    assert moved.pinned
    # Table 2 was left empty in the lobby, so it is gone.
    assert list(guest_session.tables.values_list("number", flat=True)) == [1]


def test_move_to_a_new_table(guest_session: GameSession) -> None:
    a, _b, _c = _three_guests(guest_session)
    seat_move(seat=a, table_number=None)
    moved = _fresh(a)
    assert moved.table is not None
    assert moved.table.number == 3
    assert moved.pinned
    assert list(guest_session.tables.values_list("number", flat=True)) == [1, 2, 3]
    assert moved.table.status == Table.Status.WAITING


def test_move_to_a_table_that_does_not_exist(guest_session: GameSession) -> None:
    a, _b, _c = _three_guests(guest_session)
    with pytest.raises(ValidationError) as caught:
        seat_move(seat=a, table_number=7)
    assert "no table 7" in _message(caught)
    unmoved = _fresh(a)
    assert unmoved.table_id == a.table_id
    assert not unmoved.pinned
    assert guest_session.tables.count() == 2


def test_move_cannot_use_a_table_of_another_session(make_session: MakeSession) -> None:
    first, second = make_session(), make_session()
    a = _fresh(seat_join_guest(session=first, nickname="A"))
    for name in "XYZ":
        seat_join_guest(session=second, nickname=name)
    with pytest.raises(ValidationError):
        seat_move(seat=a, table_number=2)
    assert _fresh(a).table_id == a.table_id


def test_move_after_start_is_refused_because_games_have_fixed_seats(
    guest_session: GameSession,
) -> None:
    _a, _b, c = _three_guests(guest_session)
    session_start(session=GameSession.objects.get(pk=guest_session.pk))
    table_before = _fresh(c).table_id
    with pytest.raises(ValidationError, match="Move students before you press Start"):
        seat_move(seat=_fresh(c), table_number=1)
    assert _fresh(c).table_id == table_before
    assert not _fresh(c).pinned


def test_kicked_seat_cannot_be_moved(guest_session: GameSession) -> None:
    _a, _b, c = _three_guests(guest_session)
    seat_kick(seat=c)
    with pytest.raises(ValidationError):
        seat_move(seat=_fresh(c), table_number=1)
    assert _fresh(c).table is None


def test_seat_in_an_ended_session_cannot_be_moved(guest_session: GameSession) -> None:
    a, _b, _c = _three_guests(guest_session)
    session_end(session=GameSession.objects.get(pk=guest_session.pk))
    with pytest.raises(ValidationError):
        seat_move(seat=_fresh(a), table_number=2)
    assert _fresh(a).table_id == a.table_id


# --------------------------------------------------------------------------------------------
# Per-student game options (Commotion's smaller refill pile)


def _race(teacher: User, school_class: SchoolClass | None = None) -> GameSession:
    return session_create(
        teacher=teacher,
        game="commotion",
        school_class=school_class,
        players_per_table=4,
        settings={"refill_size": 8},
    )


def test_a_student_gets_a_smaller_refill_pile_and_keeps_it_next_time(
    teacher: User, school_class: SchoolClass
) -> None:
    ava = school_class.students.get(display_name="Ava")
    first = _race(teacher, school_class)
    seat = seat_join_student(session=first, student=ava)
    seat_option_set(seat=seat, name="refill", value=6)
    seat.refresh_from_db()
    assert seat.options == {"refill": 6}
    ava.refresh_from_db()
    assert ava.game_options == {"commotion": {"refill": 6}}

    session_start(session=first)
    table = Table.objects.get(session=first)
    entry = next(e for e in table.roster if e.get("seat_id") == seat.pk)
    assert entry["options"] == {"refill": 6}
    assert len(table.roster) == 4  # bots take the empty seats of a race
    spec = game_get("commotion")
    assert spec is not None
    config = spec.table_config(spec.config(first.settings), table.roster)
    assert config.refill_for(table.roster.index(entry)) == 6

    assert config.refill_for(next(i for i, e in enumerate(table.roster) if "bot" in e)) == 8
    later = _race(teacher, school_class)
    assert seat_join_student(session=later, student=ava).options == {"refill": 6}


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("refill", 4, "Choose one of the listed values."),
        ("refill", "6", "Choose one of the listed values."),
        ("speed", 1, "This game has no such setting for one student."),
    ],
)
def test_a_bad_option_is_refused_and_changes_nothing(
    teacher: User, name: str, value: object, message: str
) -> None:
    session = _race(teacher)
    seat = seat_join_guest(session=session, nickname="Ava")
    with pytest.raises(ValidationError, match=message):
        seat_option_set(seat=seat, name=name, value=value)
    seat.refresh_from_db()
    assert seat.options == {}


def test_options_are_set_before_play_and_palm_strike_has_none(
    make_session: Callable[..., GameSession], teacher: User
) -> None:
    palm = make_session()
    seat = seat_join_guest(session=palm, nickname="Ava")
    with pytest.raises(ValidationError, match="no such setting"):
        seat_option_set(seat=seat, name="refill", value=6)
    race = _race(teacher)
    racer = seat_join_guest(session=race, nickname="Ben")
    seat_join_guest(session=race, nickname="Cy")
    session_start(session=race)
    with pytest.raises(ValidationError, match="before the session starts"):
        seat_option_set(seat=racer, name="refill", value=6)
