"""Palm Strike's two decks (RULES.md §1 "Cards") and their plain JSON form.

Both decks use one palette of five colours. The generators are seeded and *designed*, not
uniform: with uniformly random cards a beginner-level flip would match some card on a
12-card table almost always, while an advanced-level flip would match a 4-card table almost
never. To keep every level playable on every table size (roughly a quarter to three quarters
of flips match something), the decks share a hidden structure:

* The five colours sit in a fixed ring (``COLOURS`` order, purple next to red), like a
  printed deck. Player cards only ever pair *ring neighbours* (5 pairs), six cards per
  pair: five in the pair's main orientation (background a, picture b; five different
  motifs) and one reversed (background b, picture a). All 30 cards differ.
* Public cards are made from a fixed recipe of kinds around those pairs (``_RECIPE``): most
  match one pair at every level, some only at the easier levels (the traps that make the
  levels differ: congruent cards, reversed word/ink, a busy background), and a quarter match
  nothing at all, so even a crowded table sees plenty of "don't slap" flips.

Every player card matches at least one public card at every level, so no card can be stuck
on the table forever in the normal game. The seed chooses the motifs, which pair each public
card is built on, and the order. ``tests/games/palm_strike/test_cards.py`` simulates
many seeds and checks the match share per level and table size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import random

COLOURS = ("red", "yellow", "blue", "green", "purple")
# Simple pictures the UI draws as SVG; only the colours matter to the rules.
MOTIFS = ("cat", "fish", "bird", "apple", "star", "leaf")

DECK_SIZE = 30


@dataclass(frozen=True)
class PlayerCard:
    """A white card: a background colour and a picture (``motif``) drawn in colour ``pic``."""

    bg: str
    pic: str
    motif: str = "cat"

    def __deepcopy__(self, memo: dict[int, Any]) -> PlayerCard:
        # Immutable value: copying game states need not copy cards.
        return self


@dataclass(frozen=True)
class PublicCard:
    """An orange card: a background colour and a colour ``word`` printed in colour ``ink``."""

    bg: str
    word: str
    ink: str

    def __deepcopy__(self, memo: dict[int, Any]) -> PublicCard:
        return self


Card = PlayerCard | PublicCard


def card_to_dict(card: Card) -> dict[str, str]:
    """The JSON-ready form views and trials use."""
    if isinstance(card, PlayerCard):
        return {"type": "player", "bg": card.bg, "pic": card.pic, "motif": card.motif}
    return {"type": "public", "bg": card.bg, "word": card.word, "ink": card.ink}


# The decks are drawn independently (two calls on one generator), so the ring they share is
# fixed rather than drawn.
_RING = COLOURS


def player_deck(rng: random.Random) -> list[PlayerCard]:
    """The 30 white cards, shuffled: six per pair of ring neighbours (see the module doc)."""
    deck: list[PlayerCard] = []
    for i in range(5):
        a, b = _RING[i], _RING[(i + 1) % 5]
        deck.extend(PlayerCard(a, b, motif) for motif in rng.sample(MOTIFS, 5))
        deck.append(PlayerCard(b, a, rng.choice(MOTIFS)))
    rng.shuffle(deck)
    return deck


def _public_kind(kind: str, i: int) -> PublicCard:
    """One public card of ``kind`` built on the ring pair (a, b) = (_RING[i], _RING[i+1]).

    Match counts are for the player deck above (main orientation a→b five times, reversed
    once): advanced / intermediate / beginner.
    """
    a, b, c, o = (_RING[(i + k) % 5] for k in range(4))
    # c is b's other neighbour; o is the colour opposite the pair (neighbour of neither).
    return {
        # word = picture and ink = background of the main cards: 5 / 6 / 6.
        "calm": PublicCard(bg=o, word=b, ink=a),
        # The background repeats the word: 5 / 6 / 6.
        "echo": PublicCard(bg=b, word=b, ink=a),
        # A background that is itself a ring neighbour adds a beginner-only pair: 5 / 6 / 12.
        "busy": PublicCard(bg=c, word=b, ink=a),
        # Word and ink swapped: only the one reversed card matches at advanced: 1 / 6 / 6.
        "reversed": PublicCard(bg=o, word=a, ink=b),
        # Congruent (word = ink): never an intermediate or advanced match: 0 / 0 / 6.
        "congruent": PublicCard(bg=a, word=b, ink=b),
        # Congruent on a non-neighbour pair: matches nothing at any level.
        "congruent_blank": PublicCard(bg=a, word=c, ink=c),
        # Incongruent on a non-neighbour pair: matches nothing at any level.
        "blank": PublicCard(bg=a, word=a, ink=c),
    }[kind]


# How many public cards of each kind. Advanced-level matches come from calm/echo/busy (and
# the rare reversed card), so they must be the bulk; blanks keep crowded tables honest.
# Five "reversed" cards (one per pair) make every reversed player card matchable at advanced.
_RECIPE = (
    ("calm", 9),
    ("echo", 2),
    ("busy", 3),
    ("reversed", 5),
    ("congruent", 3),
    ("congruent_blank", 6),
    ("blank", 2),
)


# Deck swap (RULES.md: "generate the swapped decks so that every public card can match"):
# the orange cards are dealt in front of players, so each must be matched by some white card
# at every level (a level may change mid-game on the adaptive ladder), or it never leaves its
# owner (scope A stalls) and team-mode centres cannot be cleared. Only the kinds that match at
# all three levels are used; "calm" (the plain advanced match) is the bulk, and five
# "reversed" cards (one per pair) keep the reversed white card worth something.
_SWAP_RECIPE = (
    ("calm", 12),
    ("echo", 6),
    ("busy", 7),
    ("reversed", 5),
)


def public_deck(rng: random.Random, *, swap: bool = False) -> list[PublicCard]:
    """The 30 orange cards, shuffled, made from ``_RECIPE`` (see the module doc), or, for
    the deck-swap variant, from ``_SWAP_RECIPE``: every card then matches some white card."""
    deck: list[PublicCard] = []
    # Kinds take the ring pairs in turn, so every kind with >= 5 cards covers every pair and
    # colours stay balanced.
    pair = rng.randrange(5)
    for kind, count in _SWAP_RECIPE if swap else _RECIPE:
        for _ in range(count):
            deck.append(_public_kind(kind, pair))
            pair = (pair + 1) % 5
    rng.shuffle(deck)
    return deck
