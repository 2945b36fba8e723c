"""Palm Strike as the site shows it: its tablet words, levels, ladder, practice and tiles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom.gamesite._shared import YES_NO, data_count_column, table_labels
from classroom.gamesite.contract import (
    PRACTICE_SOLO,
    PRACTICE_WITH_BOTS,
    BulkTrials,
    GameSite,
    Measure,
    TrialColumn,
)
from classroom.gamesite.labels import colour_words
from games.palm_strike.matching import LEVELS
from games.palm_strike.spec import SPEC

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.analytics.measures import Measures
    from classroom.models import Seat

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
        # The card is still open for a player with a longer window of their own (extra time).
        "closed_for_you": _("Wait for the next card."),
        "your_flip": _("Your turn: tap Flip!"),
        "their_flip": _("%(name)s flips next"),
        "get_ready": _("Get ready…"),
        "round_over": _("Round over! New cards are coming…"),
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
    """What a tablet says to each kind of tap: short, for a 7-year-old, never
    harsh; a picture beside each says the same."""
    return {
        "right_slower": _("Right! %(name)s was a bit faster"),
        "wrong_card": _("Not that one. See the glowing card?"),
        "too_late": _("Too late for that card"),
        "paused_tap": _("Paused: eyes on your teacher"),
        "not_your_turn": _("%(name)s flips next: wait for the card"),
        "team_hint": _("Now tap the matching card in the middle"),
        "wait_flip": _("Wait for the next card"),
        # A tap on a hand, another player or the deck while a card is open.
        "slap_big_card": _("To slap, tap the big card"),
        "choose_give_why": _("It matched %(name)s's card!"),
        "choose_return_why": _("It matched your own card!"),
        "choose_player": _("More than one player has a match. Tap whose card it is!"),
    }


def _bulk_settings(level: str) -> dict[str, Any]:
    # Imported here: the config module is only needed when seeding.
    from games.engine.settings import config_to_values
    from games.palm_strike.config import Config

    return config_to_values(Config(level=level))  # type: ignore[arg-type]


# A class's flips in bulk (``BulkTrials``): the odds the demo seed
# (``tests/seeding/palm_strike.py``) draws from, as a typical child's (about 40 % matches, a
# hit rate near 0.88 and false alarms near 0.07, a median near 680 ms, Stroop words about
# 60 ms slower, the host's 100 ms floor).
BULK_TRIALS = BulkTrials(
    kind=FLIP,
    levels=tuple(LEVELS),
    settings=_bulk_settings,
    target_share=0.4,
    # Nine of the deck's 30 public cards name their own ink (``cards._RECIPE``).
    congruent_share=0.3,
    hit_rate=0.88,
    false_alarm_rate=0.07,
    median_rt_ms=680,
    rt_spread=0.23,
    level_cost_ms=55,
    incongruent_ms=60,
    response_window_ms=2500,
    plausible_floor_ms=100,
    implausible_share=0.01,
    # As ``games.palm_strike.trials.flip_trials`` stores them beside the shared columns.
    data={
        "public": {"type": "public", "bg": "orange", "word": "red", "ink": "blue"},
        "first": False,
        "bot": False,
    },
)


# ============================================================================================
# Measures: every flip is a yes/no trial (a match in the child's scope, or not; a slap, or not)


def _hits(m: Measures) -> int:
    """Slaps on a flip with a match in the child's scope (signal present, responded)."""
    return m.signal.hits


def _misses(m: Measures) -> int:
    """A match in scope, no slap (or a slap on the wrong card in team mode)."""
    return m.signal.misses


def _false_alarms(m: Measures) -> int:
    """Slaps with no match in scope."""
    return m.signal.false_alarms


def _correct_rejections(m: Measures) -> int:
    """No match, no slap: holding back was right."""
    return m.signal.correct_rejections


def _accuracy(m: Measures) -> float | None:
    """Proportion correct = (hits + correct rejections) / trials (``analytics.signal``)."""
    return m.accuracy


def _dprime(m: Measures) -> float | None:
    """d' = z(H) - z(F) with the log-linear correction (Macmillan & Creelman 2005; Hautus
    1995), see ``classroom.analytics.signal.dprime``."""
    return m.dprime


def _criterion(m: Measures) -> float | None:
    """c = -1/2 [z(H) + z(F)], same corrected rates (``classroom.analytics.signal.criterion``)."""
    return m.criterion


def _median_rt(m: Measures) -> float | None:
    """Median RT of plausible correct slaps, anticipations (< 200 ms) left out (Ratcliff 1993,
    ``classroom.analytics.speed.rt_summary``)."""
    return m.rt.median


def _trials(m: Measures) -> int:
    """Flips the child saw while seated: each flip is one trial, slapped or not."""
    return m.trials


def _mean_rt(m: Measures) -> float | None:
    """Mean RT of plausible correct slaps, anticipations (< 200 ms) left out."""
    return m.rt.mean


def _trimmed_rt(m: Measures) -> float | None:
    """Mean without values beyond 2.5 SD of the child's own mean (Ratcliff 1993)."""
    return m.rt.trimmed_mean


def _ies(m: Measures) -> float | None:
    """IES = mean correct RT / proportion correct (Townsend & Ashby 1983)."""
    return m.inverse_efficiency_ms


def _bis(m: Measures) -> float | None:
    """BIS = z(accuracy) - z(mean correct RT) within the group (Liesefeld & Janczyk 2019)."""
    return m.balanced_integration


def _interference(m: Measures) -> float | None:
    """Median correct RT on incongruent minus congruent matches (Stroop 1935; MacLeod 1991)."""
    return m.interference_ms


def _error_interference(m: Measures) -> float | None:
    """Error rate on incongruent minus congruent matches (Stroop 1935; MacLeod 1991)."""
    return m.error_interference


MEASURES = (
    Measure(
        "trials",
        gettext_lazy("Trials"),
        gettext_lazy("Flips the child saw"),
        _trials,
    ),
    Measure("hits", gettext_lazy("Hits"), gettext_lazy("A match, and they slapped"), _hits),
    Measure("misses", gettext_lazy("Misses"), gettext_lazy("A match, but no slap"), _misses),
    Measure(
        "false_alarms",
        gettext_lazy("False alarms"),
        gettext_lazy("A slap with no match"),
        _false_alarms,
    ),
    Measure(
        "correct_rejections",
        gettext_lazy("Correct rejections"),
        gettext_lazy("No match, and they rightly held back"),
        _correct_rejections,
    ),
    Measure(
        "accuracy",
        gettext_lazy("Accuracy"),
        gettext_lazy("Share of flips answered right (slap on a match, no slap otherwise)"),
        _accuracy,
        unit="%",
        of=lambda m: m.trials,
    ),
    Measure(
        "dprime",
        gettext_lazy("d′"),  # noqa: RUF001
        gettext_lazy("Sensitivity: how well matches are told from non-matches (0 = guessing)"),
        _dprime,
        decimals=2,
        export_label=gettext_lazy("d′ (sensitivity)"),  # noqa: RUF001
    ),
    Measure(
        "criterion",
        gettext_lazy("c"),
        gettext_lazy("Criterion: below 0 slaps readily, above 0 holds back"),
        _criterion,
        decimals=2,
        export_label=gettext_lazy("c (response bias)"),
    ),
    Measure(
        "median_rt",
        gettext_lazy("Median RT"),
        gettext_lazy("Typical time from the card to a right slap"),
        _median_rt,
        unit="ms",
        export_label=gettext_lazy("Median correct RT"),
    ),
    Measure(
        "mean_rt",
        gettext_lazy("Mean RT"),
        gettext_lazy("Average right-slap time"),
        _mean_rt,
        unit="ms",
        export_label=gettext_lazy("Mean correct RT"),
    ),
    Measure(
        "trimmed_mean_rt",
        gettext_lazy("Trimmed mean"),
        gettext_lazy("Mean without anticipations and values beyond 2.5 SD"),
        _trimmed_rt,
        unit="ms",
        export_label=gettext_lazy("Trimmed mean correct RT"),
    ),
    Measure(
        "ies",
        gettext_lazy("IES"),
        gettext_lazy("Inverse efficiency: mean correct RT divided by accuracy (lower is better)"),
        _ies,
        unit="ms",
    ),
    Measure(
        "bis",
        gettext_lazy("BIS"),
        gettext_lazy(
            "Balanced integration score: speed and accuracy together, within this group "
            "(higher is better)"
        ),
        _bis,
        decimals=2,
    ),
    Measure(
        "interference",
        gettext_lazy("Interference"),
        gettext_lazy("Stroop interference: median RT on incongruent minus congruent matches"),
        _interference,
        unit="ms",
    ),
    Measure(
        "error_interference",
        gettext_lazy("Error interference"),
        gettext_lazy(
            "Error rate on incongruent matches minus congruent matches, in percentage points"
        ),
        _error_interference,
        unit="pts",
    ),
)


def _public(part: str) -> Any:
    def value(trial: Any) -> str | None:
        card = trial.data.get("public")
        found = card.get(part) if isinstance(card, dict) else None
        return found if isinstance(found, str) else None

    return value


def _response(trial: Any) -> str | None:
    # The game names the response ("slap"/"none"); a row without it has the yes/no column only.
    recorded = trial.data.get("response")
    if isinstance(recorded, str):
        return recorded
    if trial.responded is None:
        return None
    return "slap" if trial.responded else "none"


_COLOURS = "red, yellow, blue, green, purple"

TRIAL_COLUMNS = (
    data_count_column(
        gettext_lazy("Flip"),
        "flip",
        meaning=gettext_lazy("Which flip of the table's game this was, counted from 1"),
    ),
    TrialColumn(
        gettext_lazy("Public card word"),
        _public("word"),
        11,
        meaning=gettext_lazy("The colour word printed on the orange card"),
        unit=_COLOURS,
    ),
    TrialColumn(
        gettext_lazy("Public card ink"),
        _public("ink"),
        11,
        meaning=gettext_lazy("The colour the word was printed in"),
        unit=_COLOURS,
    ),
    TrialColumn(
        gettext_lazy("Public card background"),
        _public("bg"),
        11,
        meaning=gettext_lazy("The orange card's background colour"),
        unit=_COLOURS,
    ),
    TrialColumn(
        gettext_lazy("Target"),
        lambda t: t.target,
        8,
        meaning=gettext_lazy(
            "The card matched a card in the child's slap scope at the table's level: a slap "
            "was called for (signal trial); FALSE is a noise trial"
        ),
        unit=YES_NO,
    ),
    TrialColumn(
        gettext_lazy("Congruent"),
        lambda t: t.congruent,
        10,
        meaning=gettext_lazy(
            "On a match: the word and its ink agree (Stroop congruent); blank without a match"
        ),
        unit=YES_NO,
    ),
    TrialColumn(
        gettext_lazy("Response"),
        _response,
        10,
        meaning=gettext_lazy("What the child did: slapped, or held back"),
        unit="slap, none",
    ),
    TrialColumn(
        gettext_lazy("RT (ms)"),
        lambda t: t.rt_ms,
        9,
        meaning=gettext_lazy(
            "Reaction time measured on the tablet: from the first frame the card was shown to "
            "the touch; blank without a slap"
        ),
        unit="ms",
    ),
    TrialColumn(
        gettext_lazy("RT missing"),
        lambda t: t.data.get("untimed"),
        10,
        meaning=gettext_lazy(
            "Why a slap has no reaction time: its tablet's page was hidden (another tab or a "
            "notification in front), or the card had not been painted yet; blank otherwise"
        ),
        unit="hidden, unpainted",
    ),
    TrialColumn(
        gettext_lazy("Correct"),
        lambda t: t.correct,
        9,
        meaning=gettext_lazy("Slap on a match, or no slap without one"),
        unit=YES_NO,
    ),
    TrialColumn(
        gettext_lazy("First"),
        lambda t: t.data.get("first"),
        7,
        meaning=gettext_lazy("The child won the race for this card (the first plausible slap)"),
        unit=YES_NO,
    ),
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
    # Signal detection (d', criterion) on slap or not, and the Stroop costs of the colour words.
    measures=MEASURES,
    headline="accuracy",
    home_line=gettext_lazy(
        "Looking closely and holding back a quick hand: slap only on a real match, "
        "whatever the word says."
    ),
    speed="median_rt",
    response_time=gettext_lazy("Reaction time"),
    trial_columns=TRIAL_COLUMNS,
    signal_detection=True,
    # The card's colour is what the child reacts to.
    colour_stimulus=True,
    colour_words=True,
    pictured_settings=frozenset({"level", "deck_swap"}),
    bulk_trials=BULK_TRIALS,
    # A child's own slap window: the card stays open for them, the others' slaps still count
    # only inside the table's.
    extra_time_window=True,
    # A flip: each child slaps or holds back at their own card, beside the others' slaps.
    following_kind=FLIP,
)
