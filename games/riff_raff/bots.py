"""Computer players for Riff Raff: empty seats and solo practice.

A bot thinks for a while (``think_ms``, jittered) before each decision it owes the table:
its secret card, a tie for captain (as last captain), the order of tied seats (as
captain), a declaration, a drop. The engine (:mod:`games.riff_raff.rules`) keeps each bot's
decision time in the state and applies what the functions here pick when ``tick`` reaches
it. Catching is planned the moment a piece leaves the ship: with probability
``catch_chance`` the bot taps it after a reaction time around ``catch_rt_ms`` (too late if
that is beyond the catch window). Only the state's own generator is used, so a game with
bots replays exactly.

Drops aim at the middle of the area's drop zone with a normal error of ``aim_error`` times
the zone's half width (clamped into the zone) and an angle error of ``angle_error``
radians: a gentle bot drops pieces near edges more often, and loses more of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from games.engine.settings import SettingError, range_check

if TYPE_CHECKING:
    import random
    from collections.abc import Sequence

    from games.riff_raff.ship import DropZone

CardStrategy = Literal["random", "high_first", "low_first"]

# No bot decides faster than this, nor catches faster than a quick child could.
MIN_THINK_MS = 300
MIN_CATCH_RT_MS = 250
# Think-time jitter: a decision comes after ``think_ms`` times a factor in this range.
JITTER = (0.7, 1.3)
# How often a "high_first" / "low_first" bot follows its preference (else any card).
STRATEGY_BIAS = 0.7


@dataclass(frozen=True)
class BotSkill:
    """How a bot plays (see the module doc)."""

    think_ms: int = 1500
    aim_error: float = 0.3
    angle_error: float = 0.08
    catch_chance: float = 0.6
    catch_rt_ms: int = 650
    two_pieces: float = 0.5  # chance to declare 2 pieces when it may
    card_strategy: CardStrategy = "random"

    def __post_init__(self) -> None:
        # A bad bot is a programming error, never shown to players: not translated.
        range_check("think_ms", self.think_ms, MIN_THINK_MS, 20_000, unit=" milliseconds")
        for name in ("aim_error", "angle_error"):
            range_check(name, getattr(self, name), 0.0, 2.0)
        for name in ("catch_chance", "two_pieces"):
            range_check(name, getattr(self, name), 0.0, 1.0)
        range_check("catch_rt_ms", self.catch_rt_ms, MIN_CATCH_RT_MS, 10_000, unit=" milliseconds")
        if self.card_strategy not in ("random", "high_first", "low_first"):
            raise SettingError("card_strategy", "Must be random, high_first or low_first.")


# Named skills the site offers (``spec.make_bot(level)``, Config.bot_skill).
BOT_LEVELS: dict[str, BotSkill] = {
    "gentle": BotSkill(
        think_ms=2200,
        aim_error=0.55,
        angle_error=0.2,
        catch_chance=0.3,
        catch_rt_ms=900,
        two_pieces=0.25,
    ),
    "steady": BotSkill(),
    "quick": BotSkill(
        think_ms=900,
        aim_error=0.15,
        angle_error=0.03,
        catch_chance=0.85,
        catch_rt_ms=450,
        two_pieces=0.75,
        card_strategy="high_first",
    ),
}


def think_delay(skill: BotSkill, rng: random.Random) -> int:
    """Milliseconds until the bot's next decision."""
    return max(MIN_THINK_MS, round(skill.think_ms * rng.uniform(*JITTER)))


def choose_card(skill: BotSkill, cards: Sequence[int], rng: random.Random) -> int:
    """The card the bot picks from its remaining ``cards`` (never empty)."""
    ordered = sorted(cards)
    roll = rng.random()
    if skill.card_strategy == "high_first" and roll < STRATEGY_BIAS:
        return ordered[-1]
    if skill.card_strategy == "low_first" and roll < STRATEGY_BIAS:
        return ordered[0]
    return rng.choice(ordered)


def pick_captain(seat: int, tied: Sequence[int], rng: random.Random) -> int:
    """As last captain: itself when tied, else one of the tied seats at random."""
    if seat in tied:
        return seat
    return rng.choice(sorted(tied))


def order_tied(tied: Sequence[int], rng: random.Random) -> list[int]:
    """As captain: the tied seats in a random order."""
    seats = sorted(tied)
    rng.shuffle(seats)
    return seats


def declare(skill: BotSkill, supply: int, rng: random.Random) -> Literal[1, 2]:
    """1 or 2 pieces (2 only with two or more in the supply)."""
    return 2 if supply >= 2 and rng.random() < skill.two_pieces else 1


def aim(skill: BotSkill, zone: DropZone, rng: random.Random) -> tuple[float, float]:
    """The bot's drop point (ship x, inside the zone) and angle."""
    middle = (zone.x_min + zone.x_max) / 2
    half = (zone.x_max - zone.x_min) / 2
    x = middle + rng.normalvariate(0.0, skill.aim_error * half)
    x = min(zone.x_max, max(zone.x_min, x))
    angle = rng.normalvariate(0.0, skill.angle_error) if skill.angle_error > 0 else 0.0
    return round(x, 1), round(angle, 3)


def plan_catch(skill: BotSkill, rng: random.Random) -> int | None:
    """How long after a piece leaves the ship the bot taps it, or None when it does not try."""
    if rng.random() >= skill.catch_chance:
        return None
    spread = skill.catch_rt_ms * 0.25
    return max(MIN_CATCH_RT_MS, round(rng.normalvariate(skill.catch_rt_ms, spread)))
