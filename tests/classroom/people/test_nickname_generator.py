"""Made-up guest nicknames: kind, in the tablet's language, never one the session has."""

from __future__ import annotations

import random

from classroom.people.names import name_key, visible_length
from classroom.people.nickname_filter import nickname_is_blocked
from classroom.people.nickname_generator import (
    ADJECTIVES,
    ANIMALS,
    nickname_compose,
    nickname_generate,
)
from classroom.services.seats import NICKNAME_MAX


def _every_name(language: str) -> list[str]:
    return [
        nickname_compose(a, b, language=language)
        for a in range(len(ADJECTIVES))
        for b in range(len(ANIMALS))
    ]


def test_names_read_naturally_in_both_languages() -> None:
    assert nickname_compose(0, 0, language="en") == "Brave Otter"
    assert nickname_compose(0, 0, language="zh-hant") == "勇敢的水獺"


def test_every_name_fits_a_seat_and_passes_the_built_in_filter() -> None:
    for language in ("en", "zh-hant"):
        names = _every_name(language)
        assert len(set(names)) == len(names)
        for name in names:
            assert visible_length(name) <= NICKNAME_MAX, name
            assert not nickname_is_blocked(name), name


def test_a_name_already_taken_is_never_suggested() -> None:
    taken = {name_key(name) for name in _every_name("en")[:-1]}
    last = _every_name("en")[-1]
    for seed in range(5):
        assert nickname_generate(taken=taken, language="en", rng=random.Random(seed)) == last


def test_when_every_name_is_taken_a_number_tells_them_apart() -> None:
    taken = {name_key(name) for name in _every_name("en")}
    name = nickname_generate(taken=taken, language="en", rng=random.Random(1))
    assert name.endswith(" 2")
    assert name_key(name) not in taken


def test_names_the_teacher_blocks_are_skipped() -> None:
    name = nickname_generate(
        taken=set(), language="en", allowed=lambda name: "Otter" not in name, rng=random.Random(3)
    )
    assert "Otter" not in name


def test_suggestions_vary() -> None:
    names = {nickname_generate(taken=set(), language="en", rng=random.Random(s)) for s in range(8)}
    assert len(names) > 1
