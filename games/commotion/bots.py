"""Computer players for Commotion: empty seats and solo practice.

A bot moves at its own pace: every so often (``move_every_ms``, jittered, scaled by the
table's ``bot_speed``) it makes one legal move, like a child with one hand. The rule engine
(:mod:`games.commotion.rules`) keeps each bot's next move time in the state, lists what the
bot may do (:class:`BotOptions`) and applies what :func:`choose_move` picks. Only the
state's own generator is used, so a game with bots replays exactly.

What a bot does, in order: call OUT when it may; otherwise play onto the centre (row cards
first, they bring the refill pile down); otherwise take a 6th card when the table is stuck;
otherwise turn its stock. With probability ``error_rate`` it overlooks its plays on a move
and turns the stock instead (a human-like slip).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from games.engine.settings import range_check

if TYPE_CHECKING:
    import random

    from games.commotion.state import Source

# No bot moves more often than this, whatever its skill and the table's speed.
MIN_MOVE_MS = 250
# Pace jitter: a move comes after ``move_every_ms`` times a factor in this range.
JITTER = (0.7, 1.3)

# The table's "Bot speed" setting scales every bot's pace (steady = as the skill says). The
# site fills empty seats with ``make_bot("steady")``, so this is what the teacher controls.
BOT_TEMPO: dict[str, float] = {"gentle": 1.6, "steady": 1.0, "quick": 0.6}


@dataclass(frozen=True)
class BotSkill:
    """How a bot plays: its mean time between moves and how often it overlooks a play."""

    move_every_ms: int = 2000
    error_rate: float = 0.12

    def __post_init__(self) -> None:
        range_check("move_every_ms", self.move_every_ms, MIN_MOVE_MS, 20_000, unit=" milliseconds")
        range_check("error_rate", self.error_rate, 0.0, 1.0)


# Named skills the site offers (``spec.make_bot(level)``); "steady" fills empty seats.
BOT_LEVELS: dict[str, BotSkill] = {
    "gentle": BotSkill(move_every_ms=3000, error_rate=0.25),
    "steady": BotSkill(),
    "quick": BotSkill(move_every_ms=1200, error_rate=0.05),
}


@dataclass(frozen=True)
class BotOptions:
    """Everything one bot may do right now."""

    # (source, card index, pile); pile -1 begins a new pile with a START.
    plays: tuple[tuple[Source, int, int], ...] = ()
    can_out: bool = False
    can_extra: bool = False
    can_turn: bool = False


@dataclass(frozen=True)
class BotMove:
    kind: Literal["play", "out", "extra", "turn"]
    source: Source = "tableau"
    card: int = 0
    pile: int = -1


def move_delay(skill: BotSkill, tempo: str, rng: random.Random) -> int:
    """Milliseconds until the bot's next move."""
    base = skill.move_every_ms * BOT_TEMPO.get(tempo, 1.0)
    return max(MIN_MOVE_MS, round(base * rng.uniform(*JITTER)))


def choose_move(skill: BotSkill, rng: random.Random, options: BotOptions) -> BotMove | None:
    """The bot's move, or None when it has nothing at all to do."""
    if options.can_out:
        return BotMove("out")
    plays = list(options.plays)
    if plays and options.can_turn and rng.random() < skill.error_rate:
        return BotMove("turn")
    if plays:
        row = [play for play in plays if play[0] == "tableau"]
        source, card, pile = rng.choice(row or plays)
        return BotMove("play", source, card, pile)
    if options.can_extra:
        return BotMove("extra")
    if options.can_turn:
        return BotMove("turn")
    return None
