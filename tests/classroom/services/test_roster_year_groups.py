"""Year groups from a class list file: a column of a CSV, OneRoster's ``grades``; an
unreadable one is a problem on its line, and nothing is saved while it is kept."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from classroom.models import SchoolClass, Student
from classroom.services.rosters import roster_import, roster_read
from tests.classroom.services.test_rosters import ONEROSTER

pytestmark = pytest.mark.django_db


def test_oneroster_grades_become_year_groups(school_class: SchoolClass) -> None:
    preview = roster_read(school_class=school_class, data=ONEROSTER.encode())
    assert [(line.name, line.year_group) for line in preview.lines] == [
        ("Mia L.", "3"),
        ("Mia K.", "3"),
        ("Noah", "3"),
    ]
    assert preview.has_year_groups
    roster_import(school_class=school_class, lines=preview.lines, dropped=set())
    saved = dict(school_class.students.values_list("display_name", "year_group"))
    assert saved["Mia L."] == saved["Noah"] == "3"
    assert saved["Ava"] == ""  # the class's own children keep theirs


def test_a_year_group_column_and_a_file_without_one(school_class: SchoolClass) -> None:
    preview = roster_read(
        school_class=school_class, data=b"First name,Year group\nFay,Year 4\nGus,\n"
    )
    assert [(line.name, line.year_group, line.problem) for line in preview.lines] == [
        ("Fay", "4", ""),
        ("Gus", "", ""),
    ]
    plain = roster_read(school_class=school_class, data=b"Fay\nGus\n")
    assert not plain.has_year_groups


def test_an_unreadable_year_group_is_a_problem_until_the_line_is_left_out(
    school_class: SchoolClass,
) -> None:
    preview = roster_read(school_class=school_class, data=b"Name,Grade\nFay,blue\nGus,2\n")
    fay, gus = preview.lines
    assert "blue" in fay.problem
    assert not gus.problem
    before = Student.objects.count()
    with pytest.raises(ValidationError):
        roster_import(school_class=school_class, lines=preview.lines, dropped=set())
    assert Student.objects.count() == before
    added = roster_import(school_class=school_class, lines=preview.lines, dropped={fay.line})
    assert [(s.display_name, s.year_group) for s in added] == [("Gus", "2")]
    assert Student.objects.get(pk=added[0].pk).year_group == "2"
