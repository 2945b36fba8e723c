"""Display names and nicknames: cleaning, visible length and comparison keys."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from classroom.people.names import display_name_clean, name_key, visible_length
from classroom.services.seats import NICKNAME_MAX


def _error_code(raw: str, *, max_length: int = NICKNAME_MAX) -> str | None:
    with pytest.raises(ValidationError) as caught:
        display_name_clean(raw, max_length=max_length)
    return caught.value.code


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("Mia", "Mia"),
        ("  Mia  ", "Mia"),
        ("\tMia\n", "Mia"),
        ("Mia   Lee", "Mia Lee"),
        ("  Mia \u00a0\u3000 Lee  ", "Mia Lee"),
        ("e\u0301mile", "\u00e9mile"),  # NFC: e + combining acute becomes one letter
        ("小明", "小明"),
        ("Zoë 🦊", "Zoë 🦊"),
    ],
)
def test_display_name_clean_trims_folds_and_normalizes(raw: str, expected: str) -> None:
    assert display_name_clean(raw, max_length=NICKNAME_MAX) == expected


@pytest.mark.parametrize("raw", ["", "   ", "\n\t ", "\u00a0\u3000", "\u200d", "\ufe0f\ufe0e"])
def test_display_name_clean_refuses_empty_names(raw: str) -> None:
    assert _error_code(raw) == "empty"


def test_display_name_clean_allows_exactly_the_maximum() -> None:
    name = "A" * NICKNAME_MAX
    assert display_name_clean(name, max_length=NICKNAME_MAX) == name


@pytest.mark.parametrize("raw", ["A" * (NICKNAME_MAX + 1), "Mia " * 6, "🦊" * (NICKNAME_MAX + 1)])
def test_display_name_clean_refuses_overlong_names(raw: str) -> None:
    assert _error_code(raw) == "too_long"


def test_overlong_message_names_the_limit() -> None:
    with pytest.raises(ValidationError) as caught:
        display_name_clean("A" * 21, max_length=20)
    assert "20" in caught.value.messages[0]


def test_length_limit_counts_what_a_reader_sees() -> None:
    # 20 hearts written with a variation selector: 40 code points, 20 visible characters.
    hearts = "\u2764\ufe0f" * NICKNAME_MAX
    assert len(hearts) == 2 * NICKNAME_MAX
    assert display_name_clean(hearts, max_length=NICKNAME_MAX) == hearts
    # Surrounding spaces do not count either.
    assert display_name_clean("  " + "B" * NICKNAME_MAX + "  ", max_length=NICKNAME_MAX)


@pytest.mark.parametrize(
    "raw",
    [
        "Mi\x07a",  # bell
        "\x07",
        "Mia\x00",
        "Mi\x1ba",  # escape
        "Mia\u202e",  # right-to-left override
        "\u202eaiM",
        "Mia\u2066Lee\u2069",  # bidi isolates
        "Mia\u2028Lee",  # line separator
        "Mia\u2029Lee",  # paragraph separator
        "Mia\ue000",  # private use
        "Mia\ud800",  # lone surrogate
        "Mia\uffff",  # unassigned / noncharacter
        "Ann\tLee",  # a tab inside a name is a control character
    ],
)
def test_display_name_clean_refuses_control_characters(raw: str) -> None:
    assert _error_code(raw) == "control"


def test_control_message_is_readable() -> None:
    with pytest.raises(ValidationError) as caught:
        display_name_clean("Mi\x07a", max_length=NICKNAME_MAX)
    assert caught.value.messages == ["Names can only use letters, numbers, spaces and emoji."]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("Mia", 3),
        ("Mia Lee", 7),
        ("e\u0301", 1),  # combining acute accent adds nothing
        ("\u2764\ufe0f", 1),  # heart + variation selector
        ("\u0915\u094d\u0937", 2),  # Devanagari with a virama (a combining mark)
        ("\u20dd", 0),  # enclosing mark alone
    ],
)
def test_visible_length(text: str, expected: int) -> None:
    assert visible_length(text) == expected


@pytest.mark.parametrize(
    "emoji",
    [
        "\U0001f469\u200d\U0001f4bb",  # woman technologist: woman ZWJ laptop
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # family: three people, two joiners
        "\U0001f3f3\ufe0f\u200d\U0001f308",  # rainbow flag
    ],
)
def test_emoji_with_joiners_count_less_than_their_code_points(emoji: str) -> None:
    length = visible_length(emoji)
    assert 1 <= length < len(emoji)
    # The joiners and selectors themselves never count.
    assert length == sum(1 for char in emoji if char not in "\u200d\ufe0f\ufe0e")


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Mia", "MIA"),
        ("Mia", "mia"),
        ("Straße", "STRASSE"),
        ("\uff2d\uff49\uff41", "Mia"),  # full-width letters fold to the same name
        ("\u00e9mile", "E\u0301MILE"),
    ],
)
def test_name_key_is_case_and_width_insensitive(first: str, second: str) -> None:
    assert name_key(first) == name_key(second)


@pytest.mark.parametrize(("first", "second"), [("Mia", "Mika"), ("Ava", "Eva"), ("Li", "Li Na")])
def test_name_key_keeps_different_names_apart(first: str, second: str) -> None:
    assert name_key(first) != name_key(second)


@pytest.mark.parametrize("raw", ["\u200b", "\u2060", "\u00ad", "\ufeff"])
def test_invisible_only_name_is_refused(raw: str) -> None:
    with pytest.raises(ValidationError):
        display_name_clean(raw, max_length=NICKNAME_MAX)


def test_lookalike_with_zero_width_space_is_refused_or_same_key() -> None:
    try:
        cleaned = display_name_clean("Mi\u200ba", max_length=NICKNAME_MAX)
    except ValidationError:
        return
    assert name_key(cleaned) == name_key("Mia")
