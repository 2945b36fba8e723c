"""Session codes: an alphabet children cannot misread, and forgiving input."""

from __future__ import annotations

import pytest

from classroom.join_codes import (
    JOIN_CODE_ALPHABET,
    JOIN_CODE_LENGTH,
    join_code_generate,
    join_code_is_well_formed,
    join_code_normalize,
)


@pytest.mark.parametrize("confusable", ["0", "O", "1", "I", "L"])
def test_alphabet_has_no_confusable_characters(confusable: str) -> None:
    assert confusable not in JOIN_CODE_ALPHABET


def test_alphabet_is_upper_case_letters_and_digits_without_repeats() -> None:
    assert len(set(JOIN_CODE_ALPHABET)) == len(JOIN_CODE_ALPHABET)
    assert all(char.isupper() or char.isdigit() for char in JOIN_CODE_ALPHABET)
    assert all(char.isascii() for char in JOIN_CODE_ALPHABET)
    # Everything else is kept: 26 letters and 10 digits minus the five confusables.
    assert len(JOIN_CODE_ALPHABET) == 26 + 10 - 5


def test_generated_codes_are_well_formed() -> None:
    codes = [join_code_generate() for _ in range(500)]
    for code in codes:
        assert len(code) == JOIN_CODE_LENGTH == 6
        assert set(code) <= set(JOIN_CODE_ALPHABET)
        assert join_code_is_well_formed(code)
        assert join_code_normalize(code) == code
    # Random, not a constant: 500 draws from 31^6 codes are practically all distinct.
    assert len(set(codes)) > 490


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("abc234", "ABC234"),
        ("ABC-234", "ABC234"),
        ("abc 234", "ABC234"),
        ("  a b-c\t2-3 4\n", "ABC234"),
        ("--ab--c2--34--", "ABC234"),
        ("ABC234", "ABC234"),
        ("", ""),
    ],
)
def test_normalize_strips_spaces_and_dashes_and_upper_cases(typed: str, expected: str) -> None:
    assert join_code_normalize(typed) == expected


@pytest.mark.parametrize(
    "code",
    [
        "",
        "ABC23",  # too short
        "ABC2345",  # too long
        "ABC230",  # zero
        "ABCO34",  # letter O
        "ABC1 4",
        "ABCI34",
        "ABCL34",
        "abc234",  # lower case is not normalized by the check itself
        "ABC-34",
    ],
)
def test_malformed_codes_are_rejected(code: str) -> None:
    assert not join_code_is_well_formed(code)
