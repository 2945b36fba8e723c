"""Friendly made-up nicknames for guest sessions: an adjective and an animal ("Brave Otter").

Each word comes in English and Traditional Chinese, paired, so a name reads naturally in the
language of the tablet ("勇敢的水獺"). Pure: the caller says which names are taken.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from classroom.people.names import name_key

if TYPE_CHECKING:
    from collections.abc import Callable, Collection

# (English, 繁體中文). Kind words only, none that could tease; short enough for a name chip.
ADJECTIVES: Final = (
    ("Brave", "勇敢的"),
    ("Happy", "快樂的"),
    ("Clever", "聰明的"),
    ("Swift", "敏捷的"),
    ("Gentle", "溫柔的"),
    ("Sunny", "陽光的"),
    ("Curious", "好奇的"),
    ("Bouncy", "活潑的"),
    ("Calm", "冷靜的"),
    ("Kind", "善良的"),
    ("Lucky", "幸運的"),
    ("Cheerful", "開心的"),
    ("Mighty", "強壯的"),
    ("Friendly", "友善的"),
    ("Sparkly", "閃亮的"),
    ("Quiet", "安靜的"),
)
ANIMALS: Final = (
    ("Otter", "水獺"),
    ("Panda", "熊貓"),
    ("Tiger", "老虎"),
    ("Dolphin", "海豚"),
    ("Rabbit", "兔子"),
    ("Penguin", "企鵝"),
    ("Koala", "無尾熊"),
    ("Fox", "狐狸"),
    ("Owl", "貓頭鷹"),
    ("Turtle", "烏龜"),
    ("Deer", "小鹿"),
    ("Whale", "鯨魚"),
    ("Squirrel", "松鼠"),
    ("Zebra", "斑馬"),
    ("Hedgehog", "刺蝟"),
    ("Parrot", "鸚鵡"),
)
# 16 x 16 = 256 names per language; past that a number tells two apart.
NUMBERED_FROM: Final = 2


def nickname_compose(adjective: int, animal: int, *, language: str) -> str:
    """One name, in Chinese for a Chinese page (``zh-hant`` and the like), else English."""
    chinese = language.lower().startswith("zh")
    adjective_word = ADJECTIVES[adjective][1 if chinese else 0]
    animal_word = ANIMALS[animal][1 if chinese else 0]
    return f"{adjective_word}{animal_word}" if chinese else f"{adjective_word} {animal_word}"


def nickname_generate(
    *,
    taken: Collection[str],
    language: str,
    allowed: Callable[[str], bool] = lambda _name: True,
    rng: random.Random | None = None,
) -> str:
    """A name nobody in the session has yet (``taken`` are ``name_key`` forms) and that
    ``allowed`` accepts (the teacher's blocklist)."""
    rng = rng or random.Random()  # a playful name, not a secret: no need for secrets
    pairs = [(a, b) for a in range(len(ADJECTIVES)) for b in range(len(ANIMALS))]
    rng.shuffle(pairs)
    free = [
        name
        for name in (nickname_compose(a, b, language=language) for a, b in pairs)
        if allowed(name)
    ]
    for name in free:
        if name_key(name) not in taken:
            return name
    # A very large class (or a strict blocklist): number the names instead.
    base = free[0] if free else nickname_compose(0, 0, language=language)
    number = NUMBERED_FROM
    while name_key(f"{base} {number}") in taken:
        number += 1
    return f"{base} {number}"
