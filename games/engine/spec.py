"""A game as the site knows it: its name, settings, table sizes, rules, actions and bots.

Each game's ``spec.py`` builds one with :func:`game_spec`, stating what is its own;
``games.registry`` lists them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from games.engine.settings import config_from_values

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from games.engine.actions import ActionSchema
    from games.engine.contract import GameEngine


@dataclass(frozen=True)
class SeatOption:
    """A setting the teacher may give one student (a smaller refill pile …).

    The chosen value travels in the seat's roster entry under ``options``; the game's
    ``table_config`` folds the table's entries into the Config its engine gets.
    """

    name: str
    label: str
    choices: tuple[tuple[Any, str], ...]
    help: str = ""

    def accepts(self, value: Any) -> bool:
        return any(value == choice and type(value) is type(choice) for choice, _ in self.choices)


def _same_config(config: Any, roster: Sequence[Mapping[str, Any]]) -> Any:
    return config


@dataclass(frozen=True)
class GameSpec:
    """A game as the site knows it: its name, settings and table sizes."""

    slug: str
    name: str
    tagline: str
    config_cls: type[Any]
    min_players: int
    max_players: int
    default_players: int
    # The game's rules module (setup/act/tick/view/next_deadline/replay/takeover/retune),
    # typed so that mypy checks every game against the contract.
    rules: GameEngine[Any]
    # The game's player inputs (its actions.py); the wire (games.live.protocol) unions them.
    actions: ActionSchema[Any]
    # The bots the site offers, by skill level ("steady" fills empty seats), as the engine's
    # ``bots`` argument wants them.
    bot_levels: Mapping[str, Any]
    single_table: Callable[[Any], bool] = lambda _config: False
    # Bots take every empty seat of a table (up to the session's players per table), not
    # just enough to reach ``min_players``: a race needs rivals.
    bots_fill_table: bool = False
    seat_options: tuple[SeatOption, ...] = ()
    # The Config one table's engine gets: the session's, with its seats' options folded in.
    table_config: Callable[[Any, Sequence[Mapping[str, Any]]], Any] = _same_config
    # Adaptive difficulty (games.engine.adaptive): setting overrides, easiest rung first.
    ladder: tuple[Mapping[str, Any], ...] = ()

    def make_bot(self, level: str) -> Any:
        """A bot of the named skill level (an unknown name: a steady one)."""
        return self.bot_levels.get(level, self.bot_levels["steady"])

    def seat_option(self, name: str) -> SeatOption | None:
        return next((option for option in self.seat_options if option.name == name), None)

    def config(self, values: Mapping[str, Any]) -> Any:
        return config_from_values(self.config_cls, values)

    def default_config(self) -> Any:
        return self.config_cls()

    def engine(self) -> GameEngine[Any]:
        return self.rules

    @property
    def engine_path(self) -> str:
        """The dotted name of the rules module."""
        name: str = getattr(self.rules, "__name__", type(self.rules).__name__)
        return name


class SpecExtras(TypedDict, total=False):
    """What only some games state (see :class:`GameSpec`)."""

    single_table: Callable[[Any], bool]
    bots_fill_table: bool
    seat_options: tuple[SeatOption, ...]
    table_config: Callable[[Any, Sequence[Mapping[str, Any]]], Any]
    ladder: tuple[Mapping[str, Any], ...]


def game_spec(
    rules: GameEngine[Any],
    *,
    name: str,
    tagline: str,
    default_players: int,
    **extras: Unpack[SpecExtras],
) -> GameSpec:
    """The spec of the game whose rules module is ``rules``, with what the game states itself
    (``name``, ``tagline``, ``default_players``, ``extras``).

    The rest is found beside the rules, in the files every game has (the layout
    ``tests/games/test_contract.py`` checks): the slug is the package's name (``games.<slug>``),
    the table size the rules' ``MIN_SEATS`` and ``MAX_SEATS`` (the seats ``setup`` takes), the
    settings config.py's ``Config``, the player inputs actions.py's ``ACTIONS`` and the bots
    bots.py's ``BOT_LEVELS``. This imports no game of its own accord: each hands over its rules.
    """
    if not isinstance(rules, ModuleType):
        raise TypeError("A game's rules are the module rules.py of its package.")
    package = rules.__name__.rpartition(".")[0]

    def beside(module: str, found: str) -> Any:
        return getattr(importlib.import_module(f"{package}.{module}"), found)

    return GameSpec(
        slug=package.rpartition(".")[2],
        name=name,
        tagline=tagline,
        config_cls=beside("config", "Config"),
        min_players=beside("rules", "MIN_SEATS"),
        max_players=beside("rules", "MAX_SEATS"),
        default_players=default_players,
        rules=rules,
        actions=beside("actions", "ACTIONS"),
        bot_levels=beside("bots", "BOT_LEVELS"),
        **extras,
    )
