"""What the site needs of a game: one ``GameSite`` per game, in ``classroom/gamesite/<slug>.py``.

Everything the pages know of one game lives in its site module; the rest of classroom/ asks
the registry (``classroom.gamesite.game_site``) and never names a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from django_stubs_ext import StrPromise

    from classroom.analytics.measures import Measures
    from classroom.models import Seat
    from games.engine.spec import GameSpec

# The ways of practising a game (``GameSite.practice_settings``): alone, or with patient bots.
PRACTICE_SOLO: Final = "solo"
PRACTICE_WITH_BOTS: Final = "bots"

# Phases in which a table is between rounds (or done): no round is in play.
ROUND_BREAKS: Final = frozenset({"round_over", "game_over"})

# The partials a tile template defines (``{% partialdef <name> %}``), in order of the page.
TILE_PARTIALS: Final = (
    # Console: the status line of a live table that is not paused or between rounds.
    "status",
    # Console and projector: the live table drawn on a canvas (empty for other games).
    "canvas",
    # Console: the heading cells of the per-player number (and any more columns).
    "head",
    # Console: a player's number cells, matching ``head``.
    "cells",
    # Console and projector: a mark before a player's name.
    "mark",
    # Console: the title of one recent trial.
    "trial",
    # Projector, standings hidden: how far the table is.
    "progress",
    # Projector: a player's number (``.card-count``) and what it counts (``.count-unit``).
    "count",
)


@dataclass(frozen=True)
class Measure:
    """One measure a game reports, as every page, export and console tile shows it.

    ``value`` reads it off the measures of a group of trials (``classroom.analytics.measures``);
    the formula and its source are in the docstring of the function the site module passes.
    """

    # Stable name (the summary export's column id and tests use it).
    key: str
    # Short column header, e.g. "Spotting rate".
    label: StrPromise
    # What it means in plain words (shown under the table and as the header's title).
    meaning: StrPromise
    value: Callable[[Measures], float | int | None]
    # How it is written: "%" (a proportion shown as a percentage), "pts" (a difference of
    # proportions shown in percentage points), "ms", or "" (a number).
    unit: str = ""
    decimals: int = 0
    # The export's header, where it says more than the page's short one.
    export_label: StrPromise | None = None
    # A proportion of counts: how many trials it is a share of (its Wilson interval's n).
    of: Callable[[Measures], int] | None = None

    def cell(self, measures: Measures) -> float | int | None:
        """The value as pages and exports write it (a proportion in %, rounded)."""
        value = self.value(measures)
        if value is None:
            return None
        if self.unit in {"%", "pts"}:
            value = 100 * value
        if self.decimals:
            # Adding 0.0 turns a rounded -0.0 (c of -0.001) into 0.0: never "-0.00" on a page.
            return round(value, self.decimals) + 0.0
        return round(value)


@dataclass(frozen=True)
class TrialColumn:
    """One column of a game's per-trial table and trials export (its own columns)."""

    label: StrPromise
    # From one trial (a ``Trial`` row or an export row: both have ``data`` and the columns).
    value: Callable[[Any], str | int | float | bool | None]
    width: int = 9  # in characters, for the workbook
    # What the column holds, in plain words, and its unit or the values it takes: the
    # exports' codebook and the workbook's About sheet say it (``classroom.exports.codebook``).
    meaning: StrPromise | str = ""
    unit: StrPromise | str = ""


class TabletLabels(Protocol):
    """The words and data a game's tablet page needs (its ``labels`` JSON)."""

    def __call__(self, *, seat: Seat, settings: dict[str, Any]) -> dict[str, Any]: ...


@dataclass(frozen=True)
class BulkTrials:
    """What a game's trials look like in bulk, for seeding a school's year of them in SQL
    (``make bench-analytics-school``, ``tests/seeding/school.py``): the
    columns' typical values and the game's own ``data`` keys, not the learning curves of a
    demo seed, which writes every trial from Python and would take hours for millions."""

    kind: str
    # The levels a class climbs through, in order (the series is played in equal parts).
    levels: tuple[str, ...]
    # A session's settings at one level (``GameSession.settings``).
    settings: Callable[[str], dict[str, Any]]
    # Share of trials that call for a response (signal trials).
    target_share: float
    # Share of congruent trials, or None where a trial has no congruence.
    congruent_share: float | None
    # A typical child's odds of responding to a target and to a non-target.
    hit_rate: float
    false_alarm_rate: float
    # A typical child's median RT and its lognormal spread; slower per level up.
    median_rt_ms: float
    rt_spread: float
    level_cost_ms: float
    # Extra ms on incongruent trials.
    incongruent_ms: float
    # Responses after the window are no response; below ``plausible_floor_ms`` implausible.
    response_window_ms: int
    plausible_floor_ms: int
    implausible_share: float
    # The game's own ``data`` keys besides the shared columns (flip, level, target …), the
    # same on every seeded trial: sized like the live tables' data.
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class GameSite:
    """One game as the site shows it."""

    spec: GameSpec
    tablet_labels: TabletLabels
    # The name of a trial ``level`` this game writes, or None for a level it does not write.
    level_name: Callable[[str], str | None]
    # What each kind of trial the game records is called on teachers' pages.
    kind_names: Callable[[], Mapping[str, str]]
    # One rung of the game's adaptive ladder (a ``GameSpec.ladder`` step), named.
    step_label: Callable[[Mapping[str, Any]], str]
    # The ways the game can be practised, each with what practice changes from its defaults.
    practice_settings: Mapping[str, Mapping[str, object]]
    # The key of the per-player number in the engine's teacher view (cards, refill, cargo).
    count_field: str
    # The measures the game reports, in the order of every table and export.
    measures: tuple[Measure, ...]
    # The key of the measure the console tile and progress lead with (accuracy, spotting rate…).
    headline: str
    # The key of the game's measure of speed, a median time in ms (median correct RT, time to
    # play, catch time): charts, console tiles and progress tables name speed after it.
    speed: str
    # What the time of one response is called ("Reaction time", "Time to play"): the console's
    # histogram of the class's responses.
    response_time: StrPromise
    # The game's own trial columns (per-student table, trials export), after the shared ones.
    trial_columns: tuple[TrialColumn, ...]
    # Signal and noise trials both exist (a response can be withheld on a non-match): only then
    # d', c and the console's "many responses without a match" flag mean anything.
    signal_detection: bool = False
    # A colour is the stimulus: trials on the colour-safe palette carry the accommodation.
    colour_stimulus: bool = False
    # Marks each colour with a shape too (static/js/colour_symbols.js).
    colour_symbols: bool = False
    # Prints colour words the children read, in the session's "Colour words in" language.
    colour_words: bool = False
    # Settings the new-session form shows a picture for, drawn by ``settings_template``.
    pictured_settings: frozenset[str] = frozenset()
    # Records more than one kind of trial in a session; pages show each kind on its own.
    mixed_kinds: bool = False
    # A game that mixes kinds: the measure each kind's share right is (a catch's is the catch
    # rate), so a column or chart of those shares is named after them.
    kind_rates: Mapping[str, str] = field(default_factory=dict)
    # Measures every live-skills tile shows beside the headline rate, so that rate is never read
    # alone (a spotting rate of 100 % beside 80 % wrong plays).
    tile_measures: tuple[str, ...] = ()
    # Phases between rounds, when a "between rounds" leaderboard shows.
    round_breaks: frozenset[str] = ROUND_BREAKS
    # Games drawn live on a canvas: the scene data (``watch_template`` draws it).
    watch_scene: Callable[[], dict[str, Any]] | None = None
    # The same in bulk, for a school's year of trials seeded in SQL, if the game has them.
    bulk_trials: BulkTrials | None = None
    # What the game exercises, in one plain line for a family (the report for home).
    home_line: StrPromise | str = ""
    # Its engine takes a response window per seat (its spec's ``table_config`` folds a child's
    # extra time in); without one, extra time means no speed scoring (classroom.people.extra_time).
    extra_time_window: bool = False
    # The kind of trial whose false responses another player's slap can lead (a slap or not
    # at the child's own card): the "following others" measure (classroom.analytics.following)
    # is read from it; empty when the game has no such trial.
    following_kind: str = ""

    @property
    def slug(self) -> str:
        return self.spec.slug

    # A game's templates live in templates/gamesite/<slug>/, each under one name per role.

    @property
    def tile_template(self) -> str:
        """The game's tile partials (``TILE_PARTIALS``) for console and projector."""
        return f"gamesite/{self.slug}/_tile.html"

    @property
    def settings_template(self) -> str:
        """The pictures beside the new-session form's settings (``pictured_settings``)."""
        return f"gamesite/{self.slug}/_settings.html"

    @property
    def trials_template(self) -> str:
        """The per-student trial table's ``head`` and ``row`` partials."""
        return f"gamesite/{self.slug}/_trials.html"

    @property
    def watch_template(self) -> str:
        """For a game drawn live on a canvas, its ``assets`` and ``canvas`` partials."""
        return f"gamesite/{self.slug}/_watch.html" if self.watch_scene is not None else ""

    def measure(self, key: str) -> Measure:
        return next(m for m in self.measures if m.key == key)

    @property
    def headline_measure(self) -> Measure:
        return self.measure(self.headline)

    @property
    def speed_measure(self) -> Measure:
        return self.measure(self.speed)

    @property
    def rate_label(self) -> str:
        """What the game's rate is called: its headline measure, or for a game that mixes
        kinds, each kind's ("Catch rate / Stayed aboard")."""
        if self.mixed_kinds and self.kind_rates:
            return " / ".join(str(self.measure(key).label) for key in self.kind_rates.values())
        return str(self.headline_measure.label)

    def tile_partials(self) -> dict[str, str]:
        return tile_partials(self.tile_template)


def tile_partials(template: str) -> dict[str, str]:
    """``{partial: "template#partial"}`` for ``{% include %}``."""
    return {name: f"{template}#{name}" for name in TILE_PARTIALS}
