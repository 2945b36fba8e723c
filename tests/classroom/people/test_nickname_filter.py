"""The nickname filter: built-in words and the teacher's, however they are disguised."""

from __future__ import annotations

import pytest

from classroom.people.nickname_filter import blocked_words_parse, nickname_fold, nickname_is_blocked


def test_folding_keeps_only_letters_and_digits_case_folded() -> None:
    assert nickname_fold("S.t u-p!d 2") == "stupd2"
    assert nickname_fold("ＳＴＵＰＩＤ") == "stupid"  # full-width letters
    assert nickname_fold("笨 蛋!") == "笨蛋"


@pytest.mark.parametrize(
    "name",
    ["Stupid", "stu pid", "S.T.U.P.I.D", "Mr Idiot", "ＰＯＯＰ", "小笨蛋", "笨-蛋", "Fart 9"],
)
def test_built_in_words_are_caught_in_any_disguise(name: str) -> None:
    assert nickname_is_blocked(name)


@pytest.mark.parametrize(
    "name",
    ["Ava", "Butterfly", "Closer", "Class Star", "Stuart", "小明", "勇敢的水獺", "Brave Otter"],
)
def test_ordinary_names_pass(name: str) -> None:
    assert not nickname_is_blocked(name)


def test_the_teachers_words_count_too() -> None:
    words = blocked_words_parse("Banana\n\n  ba nana \nKEVIN\n")
    assert words == ["banana", "kevin"]
    assert nickname_is_blocked("Big Ba-Nana", extra_words=words)
    assert nickname_is_blocked("kevin!!", extra_words=words)
    assert not nickname_is_blocked("Kev", extra_words=words)


def test_a_name_of_only_symbols_is_not_blocked_here() -> None:
    # Nothing to compare; the name rules decide whether such a name is allowed at all.
    assert not nickname_is_blocked("🙂🙂", extra_words=["x"])
