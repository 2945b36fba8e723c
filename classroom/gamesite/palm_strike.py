"""Palm Strike as the site shows it: its tablet words, levels, ladder, practice and tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from classroom.gamesite._shared import table_labels
from classroom.gamesite.contract import PRACTICE_SOLO, PRACTICE_WITH_BOTS, GameSite
from classroom.gamesite.labels import colour_words
from games.palm_strike.matching import LEVELS
from games.palm_strike.spec import SPEC

if TYPE_CHECKING:
    from collections.abc import Mapping

    from django.contrib.auth.models import User

    from classroom.models import SchoolClass, Seat

FLIP = "palm_strike.flip"
TEAM_FLIP = "palm_strike.team_flip"


def _level_names() -> dict[str, str]:
    names = {
        "beginner": _("Beginner"),
        "intermediate": _("Intermediate"),
        "advanced": _("Advanced"),
    }
    assert set(names) == set(LEVELS)
    return names


def level_name(level: str) -> str | None:
    return _level_names().get(level)


def kind_names() -> dict[str, str]:
    return {FLIP: _("Flips"), TEAM_FLIP: _("Team flips")}


def step_label(step: Mapping[str, Any]) -> str:
    level = str(step["level"])
    return _("%(level)s, %(window)s s to slap") % {
        "level": level_name(level) or level,
        "window": f"{step['response_window_s']:g}",
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


def tablet_labels(*, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **table_labels(seat),
        "pacing": settings.get("flip_pacing", "tap"),
        "word": colour_words(language=seat.session.language),
        "word_language": seat.session.language,
        "colour": _colour_names(),
        "motif": _motif_names(),
        "level": _level_names(),
        "player_card": _("%(pic)s %(motif)s on %(bg)s"),
        "public_card": _("the word %(word)s in %(ink)s on %(bg)s"),
        "claim": _("Claim %(card)s"),
        "slap": _("Slap"),
        "deck_count": _("%(n)s cards left"),
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
        **_answer_labels(),
        # Accuracy-only sessions (scoring off): right or not, never who was first.
        "spotted": _("Well spotted! That was a match."),
        "no_match": _("No match this time"),
        "right_count": _("Right: %(right)s of %(total)s"),
        "right_total": _("You got %(right)s of %(total)s right."),
    }


def _answer_labels() -> dict[str, str]:
    """What a tablet says to each kind of tap (issue 19): short, for a 7-year-old, never
    harsh; a picture beside each says the same."""
    return {
        "right_slower": _("Right! %(name)s was a bit faster"),
        "wrong_card": _("Not that one. See the glowing card?"),
        "too_late": _("Too late for that card"),
        "paused_tap": _("Paused: eyes on your teacher"),
        "not_your_turn": _("%(name)s flips next: wait for the card"),
        "team_hint": _("Now tap the matching card in the middle"),
        "wait_flip": _("Wait for the next card"),
        "choose_give_why": _("It matched %(name)s's card!"),
        "choose_return_why": _("It matched your own card!"),
        "choose_player": _("More than one player has a match. Tap whose card it is!"),
    }


def demo_seed(
    *, teacher: User, students: int, sessions: int, trials_per_session: int, seed: int
) -> SchoolClass:
    # Imported here: the seed needs the class services, which need the models loaded.
    from classroom.gamesite.palm_strike_seed import demo_class_seed

    return demo_class_seed(
        teacher=teacher,
        students=students,
        sessions=sessions,
        trials_per_session=trials_per_session,
        seed=seed,
    )


SITE = GameSite(
    spec=SPEC,
    tablet_labels=tablet_labels,
    level_name=level_name,
    kind_names=kind_names,
    step_label=step_label,
    practice_settings={
        # Alone with the flip deck: team mode with one player claims matches from the centre.
        PRACTICE_SOLO: {"team_mode": True, "flip_pacing": "auto", "auto_flip_s": 5.0},
        PRACTICE_WITH_BOTS: {"flip_pacing": "auto", "auto_flip_s": 5.0},
    },
    count_field="card_count",
    tile_template="gamesite/palm_strike/_tile.html",
    # Signal detection (d', criterion) on slap or not, and the Stroop costs of the colour words.
    measures=(
        "accuracy",
        "rt",
        "dprime",
        "criterion",
        "inverse_efficiency_ms",
        "interference_ms",
        "error_interference",
        "balanced_integration",
    ),
    # The card's colour is what the child reacts to.
    colour_stimulus=True,
    demo_seed=demo_seed,
)
