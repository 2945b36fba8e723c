"""Commotion as the site shows it: its tablet words, levels, ladder, practice and tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from classroom.gamesite._shared import data_count_column, table_labels
from classroom.gamesite.contract import PRACTICE_WITH_BOTS, GameSite, Measure, TrialColumn
from games.commotion.spec import SPEC
from games.commotion.trials import level_fields

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.analytics.measures import Measures
    from classroom.models import Seat

PLAY = "commotion.play"


def _refill_and_turn(refill: object, turn: object) -> str:
    # Plain words: a child reads this on their practice pages ("Level 3 of 8: …").
    return _("Clear %(refill)s cards, turn %(turn)s at a time") % {"refill": refill, "turn": turn}


def level_name(level: str) -> str | None:
    fields = level_fields(level)
    return None if fields is None else _refill_and_turn(fields.refill, fields.stock_turn)


def kind_names() -> dict[str, str]:
    return {PLAY: _("Plays")}


def step_label(step: Mapping[str, Any]) -> str:
    return _refill_and_turn(step["refill_size"], step["stock_turn"])


def tablet_labels(*, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **table_labels(seat),
        "colour": {
            "red": _("red"),
            "blue": _("blue"),
            "green": _("green"),
            "yellow": _("yellow"),
        },
        "start": pgettext("Commotion card", "START"),
        "stop": pgettext("Commotion card", "STOP"),
        "number_card": _("%(colour)s %(number)s"),
        # The top card's words first and the count after, as the pile shows them (a name that
        # holds what is seen, in that order: WCAG 2.5.3, label in name).
        "pile_label": _("%(card)s, %(n)s cards"),
        "points": _("%(n)s points"),
        "points_short": _("%(n)s pts"),
        "refill_left": _("Refill pile: %(n)s"),
        "refill_short": _("%(n)s left"),
        # The child's own refill pile, the cards still to clear before OUT.
        "cards_to_go": _("%(n)s cards to go"),
        "round_n": _("Round %(n)s"),
        "countdown": _("Ready… %(n)s"),
        "go": _("GO!"),
        "playing": _("Tap a card, then a pile"),
        "now_pile": _("Now tap a pile"),
        "stuck": _("Everyone is stuck: take one more card!"),
        "extra_right": _("Everyone was stuck: you may still take one more card."),
        "turn": _("Turn cards"),
        "recycle": _("Turn the pile over"),
        "waste_empty": _("Empty"),
        "new_pile": _("New pile"),
        "centre_empty": _("Piles start with a START card."),
        "round_over": _("Round %(n)s is over"),
        "next_round": _("Next round in %(n)s s"),
        "called_out": _("%(name)s called OUT!"),
        "you_called_out": _("You called OUT!"),
        "stall_ended": _("Nobody could play any more: the round ended."),
        "player": _("Player"),
        "centre_cards": _("Cards in the centre"),
        "refill_penalty": _("Refill left (-2 each)"),
        "out_bonus": _("OUT bonus"),
        "this_round": _("This round"),
        "total": _("Total"),
        # The teacher ended the game before it was over: no scores, no winner.
        "ended_early": _("The game stopped before the end."),
        "ended_early_text": _("Nobody wins this time. Well played, everyone!"),
        # The answers to a tap that cannot play anything now (static/js/commotion_hints.js).
        "hint_out": _("Tap OUT!"),
        "hint_green": _("A card with a green ring fits: tap it."),
        "hint_extra": _("Nobody can play: tap “Take a 6th card”."),
        "hint_turn": _("Tap “Turn cards” for new cards."),
        "hint_wait": _("Nobody can play now: wait a moment."),
        "hint_wait_go": _("Wait for GO!"),
        "hint_card_first": _("Tap one of your cards first, then a pile."),
        "hint_pile": _("Now tap a pile for your card."),
        "hint_row_first": _("A card in your row fits a pile: play it first!"),
        "hint_not_yours": _("Those are another player's cards. Tap yours, at the bottom."),
    }


# ============================================================================================
# Measures of play opportunities (games/commotion/trials.py)
#
# An opportunity opens when one of the child's visible cards fits a centre pile on their
# screen and ends *spotted* (they played it: a hit), *beaten* (a rival's play closed it first:
# ``target`` None, neither right nor wrong), or *missed* (it passed: covered by their own
# stock, the round ended). A *wrong play* is a tap of a card onto a pile it does not fit (a
# false alarm). There are no noise trials a child could rightly hold back on (no correct
# rejections), so d' and c do not apply.
#
# Beaten, but right: a child who taps the right card just after a rival fills the pile did spot
# it; they are slower, as a teacher watching would say. The engine records that tap beside the
# beaten trial (``outcome`` "late": ``target`` None, ``responded`` and ``correct`` True,
# games/commotion/trials.py), and it counts as spotted here, so a child always beaten by quick
# bots still gets a spotting rate. Only the beaten chances they did not tap stay out of it.
# The legend says so.


def _late(m: Measures) -> int:
    """Beaten, but they tapped the right card just after the rival: the right trials that are
    not hits (Commotion has no correct rejections, so those are the late taps)."""
    return m.correct - m.signal.hits - m.signal.correct_rejections


def _spotted(m: Measures) -> int:
    """Played (hits), or tapped just after a rival (late)."""
    return m.signal.hits + _late(m)


def _missed(m: Measures) -> int:
    return m.signal.misses


def _beaten(m: Measures) -> int:
    """Opportunities a rival closed first that they did not tap: the trials that are neither
    signal nor noise are the beaten chances and their late taps, one late tap per beaten
    chance."""
    return max(0, m.trials - m.signal.trials - 2 * _late(m))


def _opportunities(m: Measures) -> int:
    """spotted + beaten + missed: every trial but the wrong plays, a late tap counted once
    with its beaten chance."""
    return m.trials - m.signal.false_alarms - _late(m)


def spotting_rate(m: Measures) -> float | None:
    """Spotting rate = spotted / (spotted + missed), spotted including the late taps (the
    right card tapped just after a rival filled the pile).

    Beaten opportunities they did not tap are left out: a rival being faster says nothing
    about whether the child saw the card. This is the hit rate of signal detection
    (Macmillan & Creelman 2005, ch. 1) over the opportunities the child answered or let pass.
    None with no such opportunity.
    """
    chances = _spotting_chances(m)
    return _spotted(m) / chances if chances else None


def _spotting_chances(m: Measures) -> int:
    """What the spotting rate is a share of: spotted + missed."""
    return _spotted(m) + m.signal.misses


def _plays(m: Measures) -> int:
    """What the wrong-play rate is a share of: spotted + wrong plays."""
    return _spotted(m) + m.signal.false_alarms


def wrong_play_rate(m: Measures) -> float | None:
    """Wrong-play rate = wrong plays / (spotted + wrong plays): the share of the child's
    plays that did not fit the pile. None when they played nothing."""
    plays = _plays(m)
    return m.signal.false_alarms / plays if plays else None


def time_to_play(m: Measures) -> float | None:
    """Median time to play: from the frame the opportunity appeared on the child's tablet to
    the tap, over plausible spotted plays (late taps too), anticipations (< 200 ms) left out
    (Ratcliff 1993, ``classroom.analytics.speed.rt_summary``)."""
    return m.rt.median


MEASURES = (
    Measure(
        "opportunities",
        gettext_lazy("Opportunities"),
        gettext_lazy("Times one of the child's cards fitted a pile"),
        _opportunities,
    ),
    Measure(
        "spotted",
        gettext_lazy("Spotted"),
        gettext_lazy(
            "They played the card, or tapped it just after a rival filled the pile (a right "
            "card, a little slower)"
        ),
        _spotted,
    ),
    Measure(
        "beaten",
        gettext_lazy("Beaten"),
        gettext_lazy(
            "A rival filled the pile first and they did not tap the card (not counted as a miss)"
        ),
        _beaten,
    ),
    Measure(
        "missed",
        gettext_lazy("Missed"),
        gettext_lazy("The chance passed without a play (card covered, round over)"),
        _missed,
    ),
    Measure(
        "spotting_rate",
        gettext_lazy("Spotting rate"),
        gettext_lazy(
            "Spotted ÷ (spotted + missed): how often they saw a card that fitted; a right card "
            "tapped just after a rival counts as spotted"
        ),
        spotting_rate,
        of=_spotting_chances,
        unit="%",
    ),
    Measure(
        "time_to_play",
        gettext_lazy("Time to play"),
        gettext_lazy("Median time from the card fitting on their screen to their tap"),
        time_to_play,
        unit="ms",
    ),
    Measure(
        "wrong_plays",
        gettext_lazy("Wrong plays"),
        gettext_lazy("Taps of a card onto a pile it does not fit"),
        lambda m: m.signal.false_alarms,
    ),
    Measure(
        "wrong_play_rate",
        gettext_lazy("Wrong-play rate"),
        gettext_lazy("Share of their plays that did not fit"),
        wrong_play_rate,
        unit="%",
        of=_plays,
    ),
)


def _card(trial: Any) -> str | None:
    card = trial.data.get("card")
    if not isinstance(card, dict):
        return None
    if card.get("kind") == "number":
        return f"{card.get('colour')} {card.get('number')}"
    return str(card.get("kind") or "") or None


def _outcome(trial: Any) -> str | None:
    recorded = trial.data.get("outcome")
    if isinstance(recorded, str):
        return recorded
    # A row without a named outcome counts a rival's play as a miss.
    if trial.target is False:
        return "wrong"
    return "spotted" if trial.responded else "missed"


TRIAL_COLUMNS = (
    data_count_column(
        gettext_lazy("Round"),
        "round",
        meaning=gettext_lazy("The round of the game, counted from 1"),
    ),
    TrialColumn(
        gettext_lazy("Card"),
        _card,
        10,
        meaning=gettext_lazy(
            "The card that could be played (face colour and number, or START/STOP)"
        ),
        unit=gettext_lazy("colour and 2-12, start, stop"),
    ),
    TrialColumn(
        gettext_lazy("From"),
        lambda t: t.data.get("source"),
        9,
        meaning=gettext_lazy("Where the card lay: the child's row of five, or their waste"),
        unit="tableau, waste",
    ),
    TrialColumn(
        gettext_lazy("Pile"),
        lambda t: t.data.get("pile"),
        7,
        meaning=gettext_lazy("The centre pile the card fitted, counted from 0 in the order opened"),
        unit=gettext_lazy("index"),
    ),
    TrialColumn(
        gettext_lazy("Outcome"),
        _outcome,
        10,
        meaning=gettext_lazy(
            "spotted: they played it; beaten: a rival's play closed it first (not a miss); "
            "missed: it passed; wrong: a card tapped onto a pile it does not fit"
        ),
        unit="spotted, beaten, missed, wrong",
    ),
    TrialColumn(
        gettext_lazy("Time to play (ms)"),
        lambda t: t.rt_ms,
        10,
        meaning=gettext_lazy(
            "From the frame the opportunity appeared on the child's tablet to the tap"
        ),
        unit="ms",
    ),
)


SITE = GameSite(
    spec=SPEC,
    tablet_labels=tablet_labels,
    level_name=level_name,
    kind_names=kind_names,
    step_label=step_label,
    practice_settings={PRACTICE_WITH_BOTS: {}},
    # The refill pile still to clear.
    count_field="refill",
    measures=MEASURES,
    headline="spotting_rate",
    home_line=gettext_lazy(
        "Spotting a useful card quickly and deciding where it goes, while the piles keep changing."
    ),
    # A spotting rate alone hides a child who plays any card anywhere.
    tile_measures=("wrong_play_rate", "wrong_plays"),
    speed="time_to_play",
    response_time=gettext_lazy("Time to play"),
    trial_columns=TRIAL_COLUMNS,
    colour_symbols=True,
)
