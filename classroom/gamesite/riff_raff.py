"""Riff Raff as the site shows it: its tablet words, levels, ladder, practice, tiles and ship."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from classroom.gamesite._shared import YES_NO, data_count_column, table_labels
from classroom.gamesite.contract import PRACTICE_WITH_BOTS, GameSite, Measure, TrialColumn
from games.riff_raff.cargo import SHAPES
from games.riff_raff.spec import SPEC
from games.riff_raff.trials import CATCH, PLACEMENT, level_wave_strength

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.analytics.measures import Measures
    from classroom.models import Seat


def level_name(level: str) -> str | None:
    strength = level_wave_strength(level)
    return None if strength is None else _("Wave %(strength)s") % {"strength": f"{strength:.1f}"}


def kind_names() -> dict[str, str]:
    return {CATCH: _("Catches"), PLACEMENT: _("Placements (stayed on board)")}


def sea_words(strength: float) -> str:
    """The sea of a wave strength (0-1) in a child's words: no numbers to decode."""
    if strength < 0.1:
        return _("Calm sea")
    if strength < 0.3:
        return _("Small waves")
    if strength < 0.5:
        return _("Waves")
    if strength < 0.7:
        return _("Big waves")
    if strength < 0.9:
        return _("Rough sea")
    return _("Storm")


def step_label(step: Mapping[str, Any]) -> str:
    """A rung of the ladder as the child's practice pages and the teacher's form say it."""
    return _("%(sea)s, %(window)s seconds to catch") % {
        "sea": sea_words(step["wave_strength"]),
        "window": f"{step['catch_window_s']:g}",
    }


def scene() -> dict[str, Any]:
    """The ship and cargo outlines every canvas of this game draws (tablet, console, projector)."""
    # Imported here: the ship module loads pymunk, which only this game's pages need.
    from games.riff_raff.cargo import CARGO, outline
    from games.riff_raff.ship import ship_outline

    return {"geometry": ship_outline(), "cargo": {name: outline(name) for name in CARGO}}


def tablet_labels(*, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]:
    return {
        **table_labels(seat),
        **scene(),
        "wave_strength": settings.get("wave_strength", 0.4),
        "your_colour": _("Your colour"),
        "card_n": _("card %(n)s"),
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
        "near_miss": _("So close! Tap right on the cargo."),
        "played_cards": _("Cards played"),
        "first_captain": _("%(name)s is captain first. Same cards? %(name)s chooses."),
        "turn_left": _("Turn left"),
        "turn_right": _("Turn right"),
        # A tap on the ship that cannot be played now: what to do instead.
        "tap_card": _("Tap a number card first."),
        "tap_captain": _("Tap a name: who is captain?"),
        "tap_first": _("Tap who goes first."),
        "tap_how_many": _("Tap 1 or 2 first."),
        "wait_for": _("Wait for %(name)s."),
        "wait_still": _("Wait until the ship is still."),
        "they_catch": _("%(name)s catches this one."),
        "drop_on": _("Drop it on number %(n)s."),
    }


# ============================================================================================
# Measures (games/riff_raff/trials.py)
#
# A *catch* trial is a piece that fell overboard in the child's turn (``target`` True): caught
# (a hit, with an RT) or not (a miss). A *placement* is one drop (``target`` None): right when
# the piece stayed aboard through the settling. Every catch trial is a signal trial and there
# is no noise trial, so d' and c do not apply. The counts of both kinds come pooled in one
# ``Measures`` (a session) or alone (a kind's row), and each formula below reads its own part.


def _falls(m: Measures) -> int:
    """Pieces that fell in the child's turn: caught + not caught."""
    return m.signal.hits + m.signal.misses


def catch_rate(m: Measures) -> float | None:
    """Catch rate = caught / pieces that fell (the hit rate, Macmillan & Creelman 2005,
    ch. 1). None when nothing fell."""
    return m.signal.hit_rate


def catch_rt(m: Measures) -> float | None:
    """Median catch RT: from the first frame the piece is shown falling to the tap, over
    plausible catches, anticipations (< 200 ms) left out (Ratcliff 1993,
    ``classroom.analytics.speed.rt_summary``)."""
    return m.rt.median


def _placements(m: Measures) -> int:
    """Drops: the trials that are not catches."""
    return m.trials - m.signal.trials


def placement_stability(m: Measures) -> float | None:
    """Placement stability = placements that stayed aboard to the end of the settling /
    placements. Stayed = correct trials that are not caught pieces (correct - hits). None with
    no placement."""
    placements = _placements(m)
    return (m.correct - m.signal.hits) / placements if placements else None


MEASURES = (
    Measure(
        "falls",
        gettext_lazy("Falling pieces"),
        gettext_lazy("Cargo that fell in their turn"),
        _falls,
    ),
    Measure(
        "caught",
        gettext_lazy("Caught"),
        gettext_lazy("Falling cargo they caught"),
        lambda m: m.signal.hits,
    ),
    Measure(
        "catch_rate",
        gettext_lazy("Catch rate"),
        gettext_lazy("Share of falling cargo they caught"),
        catch_rate,
        unit="%",
        of=_falls,
    ),
    Measure(
        "catch_rt",
        gettext_lazy("Catch time"),
        gettext_lazy("Median time from the piece starting to fall to their tap"),
        catch_rt,
        unit="ms",
    ),
    Measure(
        "placements",
        gettext_lazy("Placements"),
        gettext_lazy("Pieces they put on the ship"),
        _placements,
    ),
    Measure(
        "placement_stability",
        gettext_lazy("Stayed aboard"),
        gettext_lazy("Share of their pieces that stayed on the ship through the rocking"),
        placement_stability,
        unit="%",
        of=_placements,
    ),
)


def _caught(trial: Any) -> bool | None:
    # Only catches are caught or not; a placement row leaves it blank.
    return trial.correct if trial.kind == CATCH else None


def _stayed(trial: Any) -> bool | None:
    return trial.correct if trial.kind == PLACEMENT else None


TRIAL_COLUMNS = (
    data_count_column(
        gettext_lazy("Round"),
        "round",
        meaning=gettext_lazy("The round of the game (up to 10, or 20 with two players)"),
    ),
    TrialColumn(
        gettext_lazy("Area"),
        lambda t: t.data.get("area"),
        7,
        meaning=gettext_lazy("The ship's placement area of the child's card (1-4 deck, 5-10 mast)"),
        unit="1-10",
    ),
    TrialColumn(
        gettext_lazy("Piece"),
        lambda t: t.data.get("shape"),
        10,
        meaning=gettext_lazy("The cargo piece placed or falling"),
        unit=", ".join(SHAPES),
    ),
    TrialColumn(
        gettext_lazy("Caught"),
        _caught,
        8,
        meaning=gettext_lazy("On a falling piece: the child tapped it before it reached the sea"),
        unit=YES_NO,
    ),
    TrialColumn(
        gettext_lazy("Catch time (ms)"),
        lambda t: t.rt_ms,
        10,
        meaning=gettext_lazy("From the first frame the piece was shown falling to the tap"),
        unit="ms",
    ),
    TrialColumn(
        gettext_lazy("Stayed aboard"),
        _stayed,
        9,
        meaning=gettext_lazy("On a placement: the piece was still on the ship when it settled"),
        unit=YES_NO,
    ),
)


SITE = GameSite(
    spec=SPEC,
    tablet_labels=tablet_labels,
    level_name=level_name,
    kind_names=kind_names,
    step_label=step_label,
    practice_settings={PRACTICE_WITH_BOTS: {}},
    # The cargo still to load.
    count_field="pieces_left",
    measures=MEASURES,
    headline="catch_rate",
    home_line=gettext_lazy(
        "Planning where each piece of cargo goes, placing it steadily, and catching what slips."
    ),
    speed="catch_rt",
    response_time=gettext_lazy("Catch time"),
    trial_columns=TRIAL_COLUMNS,
    # Catches and placements share a session: each kind is shown on its own.
    colour_symbols=True,
    mixed_kinds=True,
    kind_rates={CATCH: "catch_rate", PLACEMENT: "placement_stability"},
    watch_scene=scene,
    # The catching child's own catch window (only the active player catches).
    extra_time_window=True,
)
