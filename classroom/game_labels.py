"""Words a game page needs in the child's language (colour words are the Stroop stimulus)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

if TYPE_CHECKING:
    from classroom.models import Seat


def colour_words(*, language: str) -> dict[str, str]:
    """The words printed on public cards: short, heavy, in the session's language (the
    language the child reads, which the Stroop effect needs), whatever the page's language."""
    with translation.override(language):
        return {
            "red": pgettext("colour word on a card", "RED"),
            "yellow": pgettext("colour word on a card", "YELLOW"),
            "blue": pgettext("colour word on a card", "BLUE"),
            "green": pgettext("colour word on a card", "GREEN"),
            "purple": pgettext("colour word on a card", "PURPLE"),
        }


def _colour_names() -> dict[str, str]:
    return {
        "red": _("red"),
        "yellow": _("yellow"),
        "blue": _("blue"),
        "green": _("green"),
        "purple": _("purple"),
    }


def _motif_names() -> dict[str, str]:
    return {
        "cat": _("cat"),
        "fish": _("fish"),
        "bird": _("bird"),
        "apple": _("apple"),
        "star": _("star"),
        "leaf": _("leaf"),
    }


RIFF_RAFF_LEVEL = re.compile(r"wave_(\d{1,2})")
COMMOTION_LEVEL = re.compile(r"refill_(\d+)_turn_(\d+)")


def level_label(level: str) -> str:
    """A level's name for teachers' pages (levels a game does not name show as they are)."""
    names = {
        "beginner": _("Beginner"),
        "intermediate": _("Intermediate"),
        "advanced": _("Advanced"),
    }
    if level in names:
        return names[level]
    if commotion := COMMOTION_LEVEL.fullmatch(level):
        refill, turn = commotion.groups()
        return _("Refill %(refill)s, stock by %(turn)s") % {"refill": refill, "turn": turn}
    if riff_raff := RIFF_RAFF_LEVEL.fullmatch(level):
        # Stored as wave strength times 10 (games.riff_raff.trials.level): wave_6 is 0.6.
        strength = int(riff_raff.group(1)) / 10
        return _("Wave %(strength)s") % {"strength": f"{strength:.1f}"}
    return level or _("Unknown level")


def kind_label(kind: str) -> str:
    """What one kind of trial is called on the teachers' pages."""
    names = {
        "palm_strike.flip": _("Flips"),
        "palm_strike.team_flip": _("Team flips"),
        "commotion.play": _("Plays"),
        "riff_raff.catch": _("Catches"),
        "riff_raff.placement": _("Placements (stayed on board)"),
    }
    return names.get(kind, kind)


def _seat_names(seat: Seat) -> dict[str, Any]:
    """The table's names, and what a seat is called once a robot takes it over mid-game (its
    child was taken off the class list: the tablets drop the name at once)."""
    assert seat.table is not None
    return {
        "names": {
            str(index): entry.get("name", "") for index, entry in enumerate(seat.table.roster)
        },
        "robot": _("Robot"),
    }


def commotion_labels(*, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **_seat_names(seat),
        "colour": {
            "red": _("red"),
            "blue": _("blue"),
            "green": _("green"),
            "yellow": _("yellow"),
        },
        "start": pgettext("Commotion card", "START"),
        "stop": pgettext("Commotion card", "STOP"),
        "number_card": _("%(colour)s %(number)s"),
        "pile_label": _("Pile with %(card)s on top, %(n)s cards"),
        "player_n": _("Player %(n)s"),
        "points": _("%(n)s points"),
        "refill_left": _("Refill pile: %(n)s"),
        "round_n": _("Round %(n)s"),
        "countdown": _("Ready… %(n)s"),
        "go": _("GO!"),
        "playing": _("Tap a card, then a pile"),
        "now_pile": _("Now tap a pile"),
        "stuck": _("Everyone is stuck: take one more card!"),
        "turn": _("Turn %(n)s"),
        "recycle": _("Turn the waste over"),
        "waste_empty": _("Empty"),
        "new_pile": _("New pile"),
        "centre_empty": _("Piles start with a START card."),
        "paused": _("Paused: eyes on your teacher."),
        "ended": _("The game has ended."),
        "game_over": _("Game over!"),
        "round_over": _("Round %(n)s is over"),
        "next_round": _("Next round in %(n)s s"),
        "you_win": _("You win! 🏆"),
        "winner_is": _("%(name)s wins!"),
        "well_played": _("Well played, everyone!"),
        "left_title": _("This tablet left the game."),
        "player": _("Player"),
        "centre_cards": _("Cards in the centre"),
        "refill_penalty": _("Refill left (-2 each)"),
        "out_bonus": _("OUT bonus"),
        "this_round": _("This round"),
        "total": _("Total"),
    }


def palm_strike_labels(*, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **_seat_names(seat),
        "pacing": settings.get("flip_pacing", "tap"),
        "word": colour_words(language=seat.session.language),
        "word_language": seat.session.language,
        "colour": _colour_names(),
        "motif": _motif_names(),
        "level": {
            "beginner": _("Beginner"),
            "intermediate": _("Intermediate"),
            "advanced": _("Advanced"),
        },
        "player_card": _("%(pic)s %(motif)s on %(bg)s"),
        "public_card": _("the word %(word)s in %(ink)s on %(bg)s"),
        "claim": _("Claim %(card)s"),
        "slap": _("Slap"),
        "deck_count": _("%(n)s cards left"),
        "player_n": _("Player %(n)s"),
        "no_cards": _("No cards left!"),
        "claimed_count": _("Cards you claimed: %(n)s"),
        "open": _("Match? Slap it!"),
        "open_team": _("Find a match in the middle and tap it!"),
        "your_flip": _("Your turn: tap Flip!"),
        "their_flip": _("%(name)s flips next"),
        "get_ready": _("Get ready…"),
        "waiting_choice": _("Waiting for a card to be chosen…"),
        "choose_give": _("Tap one of your cards to give to %(name)s"),
        "choose_return": _("Tap one of your cards to put back"),
        "first": _("First! Well spotted!"),
        "claimed": _("You got it!"),
        "too_slow": _("A match, but %(name)s was faster"),
        "false_slap": _("No match this time: +1 card"),
        # Accuracy-only sessions (scoring off): right or not, never who was first.
        "spotted": _("Well spotted! That was a match."),
        "no_match": _("No match this time."),
        "right_count": _("Right: %(right)s of %(total)s"),
        "right_total": _("You got %(right)s of %(total)s right."),
        "paused": _("Paused: eyes on your teacher."),
        "ended": _("The game has ended."),
        "game_over": _("Game over!"),
        "you_win": _("You win! 🏆"),
        "winner_is": _("%(name)s wins!"),
        "well_played": _("Well played, everyone!"),
        "left_title": _("This tablet left the game."),
    }


def riff_raff_scene() -> dict[str, Any]:
    """The ship and cargo outlines every Riff Raff canvas draws (tablet, console, projector)."""
    # Imported here: the ship module loads pymunk, which only this game's pages need.
    from games.riff_raff.cargo import CARGO, outline
    from games.riff_raff.ship import ship_outline

    return {"geometry": ship_outline(), "cargo": {name: outline(name) for name in CARGO}}


def watch_scene(game: str) -> dict[str, Any] | None:
    """What a teacher page needs to draw a game's tables live, for games drawn on a canvas."""
    return riff_raff_scene() if game == "riff_raff" else None


def riff_raff_labels(*, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **_seat_names(seat),
        **riff_raff_scene(),
        "your_colour": _("Your colour"),
        "card_n": _("card %(n)s"),
        "player_n": _("Player %(n)s"),
        "round_n": _("Round %(n)s of %(total)s"),
        "pieces_left": _("%(n)s cargo left"),
        "choose_card": _("Pick a card: the highest is captain"),
        "waiting_others": _("Waiting for the others to pick…"),
        "captain_tie": _("A tie for captain: the last captain chooses"),
        "order_tie": _("Same cards: the captain chooses who goes first"),
        "goes_first": _("%(name)s first"),
        "declare": _("That area has cargo: place 1 or 2 pieces?"),
        "declare_n": _("%(n)s"),
        "drag_piece": _("Drag your cargo onto the ship and let go"),
        "their_turn": _("%(name)s is loading"),
        "settling": _("The sea rolls…"),
        "catch_it": _("Catch it! Tap the falling cargo"),
        "falling": _("Cargo overboard!"),
        "paused": _("Paused: eyes on your teacher."),
        "ended": _("The game has ended."),
        "game_over": _("Game over!"),
        "you_win": _("You win! 🏆"),
        "winner_is": _("%(name)s wins!"),
        "well_played": _("Well played, everyone!"),
        "left_title": _("This tablet left the game."),
    }


GAME_LABELS = {
    "palm_strike": palm_strike_labels,
    "commotion": commotion_labels,
    "riff_raff": riff_raff_labels,
}
