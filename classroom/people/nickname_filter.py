"""Words a guest nickname may not contain: a short built-in list plus the teacher's own.

Names and words are compared folded: case-insensitive, full-width letters as ordinary ones,
and with everything but letters and digits dropped, so "S.t u-p!d" is caught like "stupid".
A word is found anywhere inside the folded name, which also means a teacher should add whole
words rather than syllables (a blocked "ass" would catch "Class").
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Iterable

# Kept short and mild on purpose: the teacher adds what their class needs on the settings page.
# None may hide inside an ordinary name or word: "butt" would catch "Butterfly" and "loser"
# "Closer", so they are left out or listed in longer forms.
BUILT_IN_WORDS: Final = (
    # English
    "stupid",
    "idiot",
    "moron",
    "dummy",
    "poop",
    "fart",
    "butthead",
    "buttface",
    "shutup",
    # 繁體中文
    "笨蛋",
    "白痴",
    "白癡",
    "智障",
    "大便",
    "屁股",
    "去死",
    "醜八怪",
    "豬頭",
)
# One teacher's list: plenty for a class, small enough to check on every join.
MAX_WORDS: Final = 500
MAX_WORD_LENGTH: Final = 40


def nickname_fold(text: str) -> str:
    """The form names and words are compared in: letters and digits only, case-folded."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(char for char in folded if unicodedata.category(char)[0] in {"L", "N"})


def blocked_words_parse(text: str) -> list[str]:
    """A teacher's list (one word per line) as folded words, blanks and repeats dropped."""
    words: list[str] = []
    for line in text.splitlines():
        word = nickname_fold(line)
        if word and word not in words:
            words.append(word)
    return words


def nickname_is_blocked(nickname: str, *, extra_words: Iterable[str] = ()) -> bool:
    """Does the name contain a built-in word or one of ``extra_words`` (already folded)?"""
    folded = nickname_fold(nickname)
    if not folded:
        return False
    built_in = (nickname_fold(word) for word in BUILT_IN_WORDS)
    return any(word and word in folded for word in (*built_in, *extra_words))
