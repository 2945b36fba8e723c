"""Class lists from files: every format read, problems marked line by line, nothing saved
from a file with problems unless those lines are left out."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from classroom.models import SchoolClass, Student
from classroom.services.classes import STUDENTS_PER_CLASS_MAX
from classroom.services.rosters import roster_import, roster_read

pytestmark = pytest.mark.django_db

ONEROSTER = (
    "sourcedId,status,dateLastModified,enabledUser,orgSourcedIds,role,username,userIds,"
    "givenName,familyName,middleName,identifier,email,sms,phone,agentSourcedIds,grades,password\n"
    "s1,active,2026-09-01,true,sch1,student,mlee,,Mia,Lee,,,,,,,03,\n"
    "t1,active,2026-09-01,true,sch1,teacher,jwu,,Jun,Wu,,,,,,,,\n"
    "s2,active,2026-09-01,true,sch1,student,mkao,,Mia,Kao,,,,,,,03,\n"
    "s3,tobedeleted,2026-09-01,true,sch1,student,old,,Old,Gone,,,,,,,03,\n"
    "s4,active,2026-09-01,true,sch1,student,nchen,,Noah,Chen,,,,,,,03,\n"
)


def _names(school_class: SchoolClass, text: str | bytes) -> list[tuple[int, str, str]]:
    data = text.encode() if isinstance(text, str) else text
    preview = roster_read(school_class=school_class, data=data)
    return [(line.line, line.name, line.problem) for line in preview.lines]


def test_one_column_of_names_without_a_header(school_class: SchoolClass) -> None:
    assert _names(school_class, "Fay\nGus\n\nHana\n") == [
        (1, "Fay", ""),
        (2, "Gus", ""),
        (4, "Hana", ""),
    ]


def test_one_column_with_a_header(school_class: SchoolClass) -> None:
    assert _names(school_class, "Name\nFay\nGus\n") == [(2, "Fay", ""), (3, "Gus", "")]


def test_oneroster_keeps_students_by_first_name_and_tells_two_mias_apart(
    school_class: SchoolClass,
) -> None:
    preview = roster_read(school_class=school_class, data=ONEROSTER.encode())
    assert [(line.line, line.name, line.problem) for line in preview.lines] == [
        (2, "Mia L.", ""),
        (4, "Mia K.", ""),
        (6, "Noah", ""),
    ]
    assert preview.skipped == 2  # the teacher and the row to be deleted


def test_a_school_export_with_semicolons_and_a_bom_in_big5(school_class: SchoolClass) -> None:
    text = "學號;姓;名\n1;王;小明\n2;林;美美\n"
    assert _names(school_class, text.encode("cp950")) == [(2, "小明", ""), (3, "美美", "")]
    excel = "\ufeffFirst name,Last name\nFay,Ng\n".encode()
    assert _names(school_class, excel) == [(2, "Fay", "")]


def test_problems_are_marked_on_their_lines(school_class: SchoolClass) -> None:
    text = "First name,Last name\nFay,Ng\n,Blank\nava,Lin\nFay,Ng\n" + "X" * 40 + ",Long\n"
    rows = _names(school_class, text)
    assert rows[0] == (2, "Fay N.", "")  # two Fays: told apart by the initial
    assert rows[1] == (3, "", "No first name on this line.")
    assert rows[2] == (4, "ava", "ava is already in this class.")
    assert rows[3] == (5, "Fay N.", "Fay N. is listed twice.")
    assert rows[4][0] == 6
    assert "at most 30 characters" in rows[4][2]


def test_a_full_class_marks_the_lines_past_the_limit(school_class: SchoolClass) -> None:
    room = STUDENTS_PER_CLASS_MAX - school_class.students.count()
    text = "\n".join(f"Kid{i}" for i in range(room + 2))
    rows = _names(school_class, text)
    assert [problem for *_, problem in rows[:room]] == [""] * room
    assert all("class is full" in problem for *_, problem in rows[room:])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "The file is empty."),
        (b"\x00\x81\xff" * 10, "could not be read"),
        (b"id,grade\n1,3\n2,3\n", "No column of names found"),
        (b"a\n" * 300_000, "too big"),
    ],
)
def test_files_that_cannot_be_used_say_why(
    school_class: SchoolClass, data: bytes, message: str
) -> None:
    with pytest.raises(ValidationError, match=message):
        roster_read(school_class=school_class, data=data)


def test_nothing_is_saved_while_a_kept_line_has_a_problem(school_class: SchoolClass) -> None:
    before = set(Student.objects.values_list("pk", flat=True))
    preview = roster_read(school_class=school_class, data=b"Fay\nava\nGus\n")
    with pytest.raises(ValidationError) as refused:
        roster_import(school_class=school_class, lines=preview.lines, dropped=set())
    assert refused.value.code == "problems"
    assert set(Student.objects.values_list("pk", flat=True)) == before

    added = roster_import(school_class=school_class, lines=preview.lines, dropped={2})
    assert [student.display_name for student in added] == ["Fay", "Gus"]


def test_importing_checks_the_lines_again(school_class: SchoolClass) -> None:
    preview = roster_read(school_class=school_class, data=b"Fay\nGus\n")
    roster_import(school_class=school_class, lines=preview.lines[:1], dropped=set())
    with pytest.raises(ValidationError, match="Nothing was saved"):
        roster_import(school_class=school_class, lines=preview.lines, dropped=set())
    with pytest.raises(ValidationError, match="No names left"):
        roster_import(school_class=school_class, lines=preview.lines, dropped={1, 2})
