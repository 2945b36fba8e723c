"""Classes and students: parsing name lists, creating and editing classes, badge tokens."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.exceptions import ValidationError

from classroom.models import SchoolClass, Student
from classroom.selectors.classes import student_get_by_token
from classroom.services.classes import (
    STUDENT_NAME_MAX,
    STUDENTS_PER_CLASS_MAX,
    class_create,
    class_update,
    student_names_parse,
    student_token_rotate,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User


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
