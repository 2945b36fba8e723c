"""Reading a year group however a class list writes it."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from classroom.people.year_groups import YEAR_GROUPS, year_group_parse


@pytest.mark.parametrize(
    ("text", "stored"),
    [
        ("", ""),
        ("  ", ""),
        ("3", "3"),
        ("03", "3"),  # OneRoster's grades
        ("03,04", "3"),  # several: the first
        ("Year 3", "3"),
        ("Grade 12", "12"),
        ("Y4", "4"),
        ("P5", "5"),
        ("Primary 2", "2"),
        ("3rd", "3"),
        ("三年級", "3"),
        ("小三", "3"),
        ("國小六年級", "6"),
        ("KG", "K"),
        ("Kindergarten", "K"),
        ("PK", "PK"),
        ("幼兒園", "K"),
    ],
)
def test_every_spelling_of_a_year_becomes_one_value(text: str, stored: str) -> None:
    assert year_group_parse(text) == stored


@pytest.mark.parametrize("text", ["13", "0", "Year 20", "blue", "UG", "Other"])
def test_what_is_not_a_year_group_is_refused(text: str) -> None:
    assert year_group_parse(text) is None


@given(st.text(max_size=20))
@example("¹")  # a digit to str.isdigit, not a number to int
@example("Year ③")
def test_anything_read_is_a_stored_year_group_or_refused(text: str) -> None:
    assert year_group_parse(text) in {None, "", *YEAR_GROUPS}


@given(st.sampled_from(YEAR_GROUPS))
def test_a_stored_value_reads_back_as_itself(value: str) -> None:
    assert year_group_parse(value) == value
