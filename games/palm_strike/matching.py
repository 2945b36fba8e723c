"""The match relation between an orange and a white card (RULES.md §1 "Match levels").

Kept apart from the game flow so that every other module (table scope, bots, decks' tests)
can use it without importing the whole rule set. ``games.palm_strike.rules.matches`` is the
public name.
"""

from __future__ import annotations

from games.palm_strike.cards import Card, PlayerCard, PublicCard

LEVELS = ("beginner", "intermediate", "advanced")


def matches(public: PublicCard, player: PlayerCard, level: str) -> bool:
    """Whether public card ``public`` matches player card ``player`` at ``level``.

    beginner: both of the player card's colours appear among the public card's three;
    intermediate: the word and its ink are the player card's two colours, either way round;
    advanced: word = picture colour and ink = background colour.
    """
    if level == "beginner":
        return {player.bg, player.pic} <= {public.bg, public.word, public.ink}
    if level == "intermediate":
        return {public.word, public.ink} == {player.bg, player.pic}
    if level == "advanced":
        return public.word == player.pic and public.ink == player.bg
    raise ValueError(f"unknown level {level!r}")


def cards_match(flipped: Card, table_card: Card, level: str) -> bool:
    """The match between a flipped card and a card on the table, whichever deck is flipped.

    In the deck-swap variant white cards are flipped onto orange table cards; the relation is
    the same with the roles swapped, so it is always ``matches(orange, white)``. Two cards of
    the same colour kind never match.
    """
    if isinstance(flipped, PublicCard) and isinstance(table_card, PlayerCard):
        return matches(flipped, table_card, level)
    if isinstance(flipped, PlayerCard) and isinstance(table_card, PublicCard):
        return matches(table_card, flipped, level)
    return False
