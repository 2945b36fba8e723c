"""Classes and students: parsing name lists, creating and editing classes, badge tokens."""

from __future__ import annotations

from datetime import time
from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from classroom.models import ActionLogEntry, GameSession, SchoolClass, Seat, Student, Table, Trial
from classroom.selectors.classes import classes_visible, student_get_by_token
from classroom.selectors.practice_access import (
    class_deleted_message,
    practice_seat_problem,
    practice_sign_in_check,
)
from classroom.services.classes import (
    STUDENT_NAME_MAX,
    STUDENTS_PER_CLASS_MAX,
    class_create,
    class_delete_begin,
    class_delete_preview,
    class_update,
    classes_purge,
    student_colour_safe_set,
    student_names_parse,
    student_remove,
    student_token_rotate,
)
from classroom.services.practice import practice_start
from classroom.services.practice_access import (
    practice_code_open,
    practice_sign_in_by_badge,
    practice_sign_in_by_code,
)
from classroom.services.seats import seat_join_guest, seat_join_student
from classroom.services.sessions import session_end, session_pause, session_start

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User
    from django.test import Client


def _parse_errors(text: str) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        student_names_parse(text)
    return caught.value.messages


def _names(school_class: SchoolClass) -> list[str]:
    return list(
        Student.objects.filter(school_class=school_class)
        .order_by("display_name")
        .values_list("display_name", flat=True)
    )


# --------------------------------------------------------------------------------------------
# student_names_parse


def test_parse_one_name_per_line_cleaned_and_in_order() -> None:
    text = "  Ava \nBen   Lee\r\nChen\n"
    assert student_names_parse(text) == ["Ava", "Ben Lee", "Chen"]


def test_parse_ignores_blank_lines() -> None:
    assert student_names_parse("\n\nAva\n   \n\t\nBen\n\n") == ["Ava", "Ben"]


@pytest.mark.parametrize("text", ["", "\n", "   \n \n"])
def test_parse_of_nothing_is_an_empty_list(text: str) -> None:
    assert student_names_parse(text) == []


def test_parse_reports_case_insensitive_duplicates_with_line_number() -> None:
    errors = _parse_errors("Ava\nBen\n\nAVA")
    assert errors == ["Line 4: AVA is listed twice."]


def test_parse_treats_extra_spaces_as_the_same_name() -> None:
    assert _parse_errors("Ava Lee\nava   lee") == ["Line 2: ava lee is listed twice."]


def test_parse_reports_every_bad_line_with_its_number() -> None:
    too_long = "x" * (STUDENT_NAME_MAX + 1)
    text = f"Ava\n\nMi\x07a\n{too_long}\nBen\nava\n"
    errors = _parse_errors(text)
    assert len(errors) == 3
    assert errors[0].startswith("Line 3: ")
    assert "letters, numbers, spaces and emoji" in errors[0]
    assert errors[1].startswith("Line 4: ")
    assert f"at most {STUDENT_NAME_MAX} characters" in errors[1]
    assert errors[2] == "Line 6: ava is listed twice."


def test_parse_accepts_a_name_of_exactly_the_maximum_length() -> None:
    name = "y" * STUDENT_NAME_MAX
    assert student_names_parse(name) == [name]


# --------------------------------------------------------------------------------------------
# class_create / class_update


def test_class_create_stores_class_and_students_with_distinct_tokens(teacher: User) -> None:
    school_class = class_create(teacher=teacher, name="  Year 4   Owls ", student_names=["A", "B"])
    school_class.refresh_from_db()
    assert school_class.teacher == teacher
    assert school_class.name == "Year 4 Owls"
    assert _names(school_class) == ["A", "B"]
    tokens = set(Student.objects.filter(school_class=school_class).values_list("token", flat=True))
    assert len(tokens) == 2
    assert all(len(token) >= 32 for token in tokens)


def test_a_new_class_s_school_day_ends_when_the_site_says(teacher: User, settings: Any) -> None:
    settings.SCHOOL_DAY_ENDS = time(15, 10)
    school_class = class_create(teacher=teacher, name="Year 5 Hares", student_names=[])
    school_class.refresh_from_db()
    assert school_class.school_day_ends == time(15, 10)


def test_class_create_refuses_a_duplicate_name_case_insensitively(
    school_class: SchoolClass, teacher: User
) -> None:
    before_classes = SchoolClass.objects.count()
    before_students = Student.objects.count()
    with pytest.raises(ValidationError) as caught:
        class_create(teacher=teacher, name="  year 3 OTTERS ", student_names=["Zed"])
    assert "already have a class" in caught.value.messages[0]
    assert SchoolClass.objects.count() == before_classes
    assert Student.objects.count() == before_students


def test_another_teacher_may_reuse_a_class_name(
    school_class: SchoolClass, other_teacher: User
) -> None:
    theirs = class_create(teacher=other_teacher, name=school_class.name, student_names=["Ava"])
    assert theirs.pk != school_class.pk
    assert theirs.name == school_class.name
    assert SchoolClass.objects.filter(name=school_class.name).count() == 2


def test_class_create_refuses_bad_class_names(teacher: User) -> None:
    for bad in ["   ", "Class\x07", "x" * 81]:
        with pytest.raises(ValidationError):
            class_create(teacher=teacher, name=bad, student_names=[])
    assert not SchoolClass.objects.filter(teacher=teacher).exists()


def test_class_create_refuses_too_many_students(teacher: User) -> None:
    names = [f"Kid {number}" for number in range(STUDENTS_PER_CLASS_MAX + 1)]
    with pytest.raises(ValidationError):
        class_create(teacher=teacher, name="Huge", student_names=names)
    assert not SchoolClass.objects.filter(teacher=teacher).exists()
    assert not Student.objects.exists()


def test_class_update_renames_and_adds_students(school_class: SchoolClass) -> None:
    before_tokens = dict(school_class.students.values_list("display_name", "token"))
    class_update(school_class=school_class, name="Year 3 Foxes", new_student_names=["Fay", "Gus"])
    school_class.refresh_from_db()
    assert school_class.name == "Year 3 Foxes"
    assert _names(school_class) == ["Ava", "Ben", "Chen", "Dara", "Eli", "Fay", "Gus"]
    # Existing students keep their badges.
    after_tokens = dict(school_class.students.values_list("display_name", "token"))
    assert {name: after_tokens[name] for name in before_tokens} == before_tokens


def test_class_update_may_keep_its_own_name_in_another_case(school_class: SchoolClass) -> None:
    class_update(school_class=school_class, name="YEAR 3 OTTERS", new_student_names=[])
    school_class.refresh_from_db()
    assert school_class.name == "YEAR 3 OTTERS"


def test_class_update_refuses_the_name_of_another_own_class(
    school_class: SchoolClass, teacher: User
) -> None:
    other = class_create(teacher=teacher, name="Year 4 Owls", student_names=[])
    with pytest.raises(ValidationError):
        class_update(school_class=other, name="year 3 otters", new_student_names=["New Kid"])
    other.refresh_from_db()
    assert other.name == "Year 4 Owls"
    assert not other.students.exists()


def test_class_update_may_take_a_name_used_by_another_teacher(
    school_class: SchoolClass, make_teacher: Callable[..., User]
) -> None:
    stranger = make_teacher("ms-chen")
    theirs = class_create(teacher=stranger, name="Otters", student_names=[])
    class_update(school_class=theirs, name=school_class.name, new_student_names=[])
    theirs.refresh_from_db()
    assert theirs.name == school_class.name


def test_adding_an_existing_student_name_is_refused_and_nothing_changes(
    school_class: SchoolClass,
) -> None:
    before = _names(school_class)
    with pytest.raises(ValidationError) as caught:
        class_update(school_class=school_class, name="Renamed", new_student_names=["Fay", "AVA"])
    assert "AVA" in caught.value.messages[0]
    school_class.refresh_from_db()
    assert school_class.name == "Year 3 Otters"  # the rename was rolled back too
    assert _names(school_class) == before


def test_class_update_refuses_to_pass_the_class_size_limit(school_class: SchoolClass) -> None:
    count = school_class.students.count()
    names = [f"Kid {number}" for number in range(STUDENTS_PER_CLASS_MAX - count + 1)]
    with pytest.raises(ValidationError):
        class_update(school_class=school_class, name=school_class.name, new_student_names=names)
    assert school_class.students.count() == count
    # Exactly up to the limit is fine.
    class_update(school_class=school_class, name=school_class.name, new_student_names=names[1:])
    assert school_class.students.count() == STUDENTS_PER_CLASS_MAX


def test_class_create_refuses_repeated_names_in_its_own_list(teacher: User) -> None:
    with pytest.raises(ValidationError):
        class_create(teacher=teacher, name="Repeats", student_names=["Ava", "ava"])


# --------------------------------------------------------------------------------------------
# student_token_rotate


def test_student_token_rotate_retires_the_old_badge(school_class: SchoolClass) -> None:
    student = school_class.students.get(display_name="Ava")
    old_token = student.token
    assert student_get_by_token(token=old_token) == student
    assert student.token_rotated_at is None

    student_token_rotate(student=student)

    student.refresh_from_db()
    assert student.token != old_token
    assert student.token_rotated_at is not None
    assert student_get_by_token(token=old_token) is None
    found = student_get_by_token(token=student.token)
    assert found == student
    assert found is not None
    assert found.school_class == school_class


def test_student_token_rotate_leaves_classmates_alone(school_class: SchoolClass) -> None:
    tokens = dict(school_class.students.values_list("pk", "token"))
    ava = school_class.students.get(display_name="Ava")
    student_token_rotate(student=ava)
    after = dict(school_class.students.values_list("pk", "token"))
    assert after[ava.pk] != tokens[ava.pk]
    assert {pk: token for pk, token in after.items() if pk != ava.pk} == {
        pk: token for pk, token in tokens.items() if pk != ava.pk
    }


def test_student_get_by_token_with_unknown_or_empty_token(school_class: SchoolClass) -> None:
    assert student_get_by_token(token="not-a-token") is None
    assert student_get_by_token(token="") is None


# --------------------------------------------------------------------------------------------
# Trials leave with their student; class_delete


def _played(seat: Seat) -> Trial:
    """One trial of the seat, and a log entry of its table, as a game would leave them."""
    seat.refresh_from_db()  # placed at a table by the join
    assert seat.table is not None
    ActionLogEntry.objects.get_or_create(
        table=seat.table, seq=seat.pk, defaults={"kind": "act", "server_ms": 0}
    )
    return Trial.objects.create(
        session=seat.session,
        table=seat.table,
        seat=seat,
        student=seat.student,
        log_seq=seat.pk,
        game="palm_strike",
        kind="palm_strike.flip",
    )


def test_student_remove_anonymises_their_trials_and_forgets_their_seat(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben = (school_class.students.get(display_name=name) for name in ("Ava", "Ben"))
    ava_trial = _played(seat_join_student(session=class_session, student=ava))
    ben_trial = _played(seat_join_student(session=class_session, student=ben))
    ava_seat = Seat.objects.get(student=ava)

    student_remove(student=ava)

    # Their trial stays with the table, linked to no one; Ben's is untouched.
    ava_trial.refresh_from_db()
    assert (ava_trial.student_id, ava_trial.seat_id) == (None, None)
    assert ava_trial.table_id == ben_trial.table_id
    ben_trial.refresh_from_db()
    assert ben_trial.student_id == ben.pk
    assert ben_trial.seat is not None
    assert ben_trial.seat.name == "Ben"
    # Nothing of the session names them any more.
    assert not Seat.objects.filter(pk=ava_seat.pk).exists()
    assert not Seat.objects.filter(session=class_session, name="Ava").exists()
    assert not Student.objects.filter(pk=ava.pk).exists()
    assert ActionLogEntry.objects.filter(table=ben_trial.table).count() == 2


def test_student_remove_after_the_game_keeps_the_place_unnamed_so_the_table_replays(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben = (school_class.students.get(display_name=name) for name in ("Ava", "Ben"))
    ava_seat = seat_join_student(session=class_session, student=ava)
    seat_join_student(session=class_session, student=ben)
    Seat.objects.filter(pk=ava_seat.pk).update(options={"refill": 8})
    session_start(session=class_session)
    session_end(session=class_session)
    table = Table.objects.get(session=class_session)
    before = table.roster

    student_remove(student=ava)

    table.refresh_from_db()
    assert len(table.roster) == len(before)
    index = next(i for i, entry in enumerate(before) if entry.get("seat_id") == ava_seat.pk)
    assert table.roster[index] == {"name": "", "removed": True, "options": {"refill": 8}}
    assert "Ava" not in str(table.roster)
    others = [entry for i, entry in enumerate(before) if i != index]
    assert [entry for i, entry in enumerate(table.roster) if i != index] == others


def test_student_remove_mid_game_hands_the_seat_to_a_bot(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben = (school_class.students.get(display_name=name) for name in ("Ava", "Ben"))
    ava_seat = seat_join_student(session=class_session, student=ava)
    seat_join_student(session=class_session, student=ben)
    session_start(session=class_session)
    table = Table.objects.get(session=class_session)
    index = next(i for i, e in enumerate(table.roster) if e.get("seat_id") == ava_seat.pk)

    student_remove(student=ava)

    table.refresh_from_db()
    entry = table.roster[index]
    assert entry["took_over"] == "steady"
    assert "seat_id" not in entry
    assert entry["name"] not in ("Ava", "Ben")
    assert "Ava" not in str(table.roster)


def test_student_remove_in_the_lobby_frees_the_place(
    class_session: GameSession, school_class: SchoolClass
) -> None:
    ava, ben = (school_class.students.get(display_name=name) for name in ("Ava", "Ben"))
    seat_join_student(session=class_session, student=ava)
    ben_seat = seat_join_student(session=class_session, student=ben)

    student_remove(student=ava)

    assert list(class_session.seats.values_list("pk", flat=True)) == [ben_seat.pk]
    session_start(session=class_session)
    assert "Ava" not in str(list(Table.objects.values_list("roster", flat=True)))


@pytest.fixture
def two_classes(
    teacher: User, school_class: SchoolClass, make_session: Callable[..., GameSession]
) -> tuple[SchoolClass, SchoolClass, GameSession]:
    """The class with two played sessions, another class and a guest session, each played."""
    for _number in range(2):
        session = make_session(school_class=school_class)
        for student in school_class.students.all()[:2]:
            _played(seat_join_student(session=session, student=student))
    other = class_create(teacher=teacher, name="Year 4 Owls", student_names=["Fay"])
    other_session = make_session(school_class=other)
    _played(seat_join_student(session=other_session, student=other.students.get()))
    guests = make_session()
    _played(seat_join_guest(session=guests, nickname="Mo"))
    return school_class, other, guests


def _counts(school_class: SchoolClass) -> tuple[int, int, int]:
    return (
        Student.objects.filter(school_class=school_class).count(),
        GameSession.objects.filter(school_class=school_class).count(),
        Trial.objects.filter(session__school_class=school_class).count(),
    )


def _deleted(*, school_class: SchoolClass) -> None:
    # The page's way: hidden at once, then the task worker's purge removes the rest.
    class_delete_begin(school_class=school_class)
    assert not classes_visible(teacher=school_class.teacher).filter(pk=school_class.pk).exists()
    classes_purge()


def test_class_delete_preview_counts_what_would_go(
    two_classes: tuple[SchoolClass, SchoolClass, GameSession],
) -> None:
    school_class, _other, _guests = two_classes
    preview = class_delete_preview(school_class=school_class)
    assert (preview.students, preview.sessions, preview.trials) == (5, 2, 4)
    assert preview.live_sessions == []


def test_class_delete_removes_students_sessions_and_trials(
    two_classes: tuple[SchoolClass, SchoolClass, GameSession],
) -> None:
    school_class, other, guests = two_classes
    session_ids = list(school_class.game_sessions.values_list("pk", flat=True))
    other_before = _counts(other)

    _deleted(school_class=school_class)

    assert not SchoolClass.objects.filter(pk=school_class.pk).exists()
    assert not Student.objects.filter(school_class_id=school_class.pk).exists()
    assert not GameSession.objects.filter(pk__in=session_ids).exists()
    for model in (Table, Seat, Trial):
        assert not model.objects.filter(session_id__in=session_ids).exists()
    assert not ActionLogEntry.objects.filter(table__session_id__in=session_ids).exists()
    # Everything else stays.
    assert _counts(other) == other_before == (1, 1, 1)
    assert Trial.objects.filter(session=guests).count() == 1
    assert Trial.objects.count() == 2


def test_class_delete_takes_the_students_trials_from_every_session(
    teacher: User,
    school_class: SchoolClass,
    make_session: Callable[..., GameSession],
) -> None:
    # A trial can name a student of the class in a session the class no longer owns.
    session = make_session(school_class=school_class)
    trial = _played(
        seat_join_student(session=session, student=school_class.students.get(display_name="Ava"))
    )
    other = class_create(teacher=teacher, name="Year 4 Owls", student_names=[])
    GameSession.objects.filter(pk=session.pk).update(school_class=other)
    assert class_delete_preview(school_class=school_class).trials == 1

    _deleted(school_class=school_class)

    assert not Trial.objects.filter(pk=trial.pk).exists()
    assert GameSession.objects.filter(pk=session.pk).exists()


@pytest.mark.parametrize("pause", [False, True])
def test_class_delete_is_refused_while_a_session_is_played(
    class_session: GameSession,
    school_class: SchoolClass,
    pause: bool,
) -> None:
    _played(
        seat_join_student(
            session=class_session, student=school_class.students.get(display_name="Ava")
        )
    )
    session_start(session=class_session)
    if pause:
        session_pause(session=class_session)
    before = _counts(school_class)
    assert class_delete_preview(school_class=school_class).live_sessions == [class_session]

    with pytest.raises(ValidationError) as caught:
        _deleted(school_class=school_class)

    assert class_session.code in caught.value.messages[0]
    assert SchoolClass.objects.filter(pk=school_class.pk).exists()
    assert _counts(school_class) == before
    # Once it is ended the class may go.
    class_session.refresh_from_db()
    session_end(session=class_session)
    _deleted(school_class=school_class)
    assert not SchoolClass.objects.filter(pk=school_class.pk).exists()


def test_class_delete_takes_a_session_still_in_the_lobby(
    class_session: GameSession,
    school_class: SchoolClass,
) -> None:
    seat_join_student(session=class_session, student=school_class.students.all()[0])
    _deleted(school_class=school_class)
    assert not GameSession.objects.filter(pk=class_session.pk).exists()


# --------------------------------------------------------------------------------------------
# The class_delete page


def test_class_delete_page_shows_what_will_go(
    teacher_client: Client, two_classes: tuple[SchoolClass, SchoolClass, GameSession]
) -> None:
    school_class, _other, _guests = two_classes
    response = teacher_client.get(reverse("class_delete", args=[school_class.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Delete Year 3 Otters?" in page
    for line in ("5 students", "2 sessions", "4 recorded responses"):
        assert line in page
    assert 'class="btn btn-danger" type="submit">' in page
    assert reverse("class_detail", args=[school_class.pk]) in page  # Cancel
    assert SchoolClass.objects.filter(pk=school_class.pk).exists()  # a GET deletes nothing


def test_class_detail_links_to_the_delete_page(
    teacher_client: Client, school_class: SchoolClass
) -> None:
    page = teacher_client.get(reverse("class_detail", args=[school_class.pk])).content.decode()
    assert reverse("class_delete", args=[school_class.pk]) in page


def test_class_delete_post_deletes_and_goes_home(
    teacher_client: Client,
    two_classes: tuple[SchoolClass, SchoolClass, GameSession],
    django_capture_on_commit_callbacks: Any,
    settings: Any,
) -> None:
    school_class, other, _guests = two_classes
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = teacher_client.post(reverse("class_delete", args=[school_class.pk]), follow=True)
    assert response.redirect_chain == [(reverse("home"), 302)]
    page = response.content.decode()
    assert "Class Year 3 Otters deleted" in page
    assert "Its results are being removed in the background." in page
    assert "Year 3 Otters</a>" not in page  # gone from the class list at once
    # The purge was queued once the deletion held (here the task ran as it was queued).
    assert len(callbacks) == 1
    assert not SchoolClass.objects.filter(pk=school_class.pk).exists()
    assert _counts(school_class) == (0, 0, 0)
    assert SchoolClass.objects.filter(pk=other.pk).exists()


def test_a_class_being_deleted_is_gone_for_everyone_before_the_purge(
    teacher_client: Client,
    client: Client,
    two_classes: tuple[SchoolClass, SchoolClass, GameSession],
    teacher: User,
) -> None:
    school_class, _other, _guests = two_classes
    ava = school_class.students.get(display_name="Ava")
    code = school_class.practice_code
    before = _counts(school_class)
    assert class_delete_begin(school_class=school_class) is True  # trials left to purge
    # Not purged yet (no worker ran): the rows are there, but nobody finds them.
    assert _counts(school_class) == before
    for url in [
        reverse("class_detail", args=[school_class.pk]),
        reverse("class_overview", args=[school_class.pk]),
        reverse("class_delete", args=[school_class.pk]),
    ]:
        assert teacher_client.get(url).status_code == 404, url
    assert student_get_by_token(token=ava.token) is None  # the badge opens nothing
    practice = client.get(reverse("practice_sign_in_class", args=[code]))
    assert "Ava" not in practice.content.decode()  # no list of names to tap
    # Its name is free for a new class at once.
    assert class_create(teacher=teacher, name="Year 3 Otters", student_names=["Ava"]).pk
    assert classes_purge() == 1
    assert _counts(school_class) == (0, 0, 0)


def test_deleting_a_class_ends_every_sign_in_of_it_at_once(
    client: Client, school_class: SchoolClass
) -> None:
    """Code and badge sign-ins alike: the tablets show no name, start nothing, and a
    practice game one of them had started stops, before any purge."""
    ava, ben = (
        school_class.students.get(display_name="Ava"),
        school_class.students.get(display_name="Ben"),
    )
    practice_code_open(school_class=school_class)
    by_code = practice_sign_in_by_code(school_class=school_class, student=ava)
    by_badge = practice_sign_in_by_badge(student=ben)
    seat = practice_start(student=ava, game="palm_strike", sign_in=by_code)
    assert practice_sign_in_check(token=by_code.token).sign_in is not None

    class_delete_begin(school_class=school_class)

    school_class.refresh_from_db()
    assert school_class.practice_code_open_until is None
    for sign_in in (by_code, by_badge):
        check = practice_sign_in_check(token=sign_in.token)
        assert check.sign_in is None
        assert check.problem == class_deleted_message()
    seat.refresh_from_db()
    assert practice_seat_problem(seat=seat) == class_deleted_message()
    assert seat.session.status == GameSession.Status.ENDED
    response = client.get(reverse("practice_sign_in_class", args=[school_class.practice_code]))
    assert "Ava" not in response.content.decode()
    with pytest.raises(ValidationError):
        practice_sign_in_by_code(school_class=school_class, student=ava)


def test_class_delete_post_while_playing_is_refused_on_the_page(
    teacher_client: Client, class_session: GameSession, school_class: SchoolClass
) -> None:
    seat_join_student(session=class_session, student=school_class.students.all()[0])
    session_start(session=class_session)
    get = teacher_client.get(reverse("class_delete", args=[school_class.pk]))
    assert 'type="submit" disabled' in get.content.decode()
    response = teacher_client.post(reverse("class_delete", args=[school_class.pk]))
    assert response.status_code == 409
    assert f"End session {class_session.code}" in response.content.decode()
    assert SchoolClass.objects.filter(pk=school_class.pk).exists()


def test_another_teacher_cannot_delete_the_class(
    client: Client,
    other_teacher: User,
    two_classes: tuple[SchoolClass, SchoolClass, GameSession],
) -> None:
    school_class, _other, _guests = two_classes
    before = _counts(school_class)
    client.force_login(other_teacher)
    url = reverse("class_delete", args=[school_class.pk])
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404
    assert SchoolClass.objects.filter(pk=school_class.pk).exists()
    assert _counts(school_class) == before


def test_class_delete_needs_a_signed_in_teacher(client: Client, school_class: SchoolClass) -> None:
    response = client.post(reverse("class_delete", args=[school_class.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert SchoolClass.objects.filter(pk=school_class.pk).exists()


def test_student_colour_safe_set_turns_the_safe_palette_on_and_off(
    school_class: SchoolClass,
) -> None:
    ava = school_class.students.get(display_name="Ava")
    assert not ava.colour_safe

    student_colour_safe_set(student=ava, colour_safe=True)
    assert Student.objects.get(pk=ava.pk).colour_safe
    assert not Student.objects.filter(colour_safe=True).exclude(pk=ava.pk).exists()

    student_colour_safe_set(student=ava, colour_safe=False)
    assert not Student.objects.get(pk=ava.pk).colour_safe
