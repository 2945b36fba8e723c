"""Computer players for Palm Strike: solo practice and empty seats.

A bot decides once per flip, the moment the card is shown, using the game state's own
generator (so a game with bots is as reproducible as one without). The rule engine
(:mod:`games.palm_strike.rules`) tells the bot whether a slap would be right for it and
schedules what it decides; the bot's slap reaches the game at ``shown + rt`` like a human's,
with a plausible reaction time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from games.engine.settings import range_check

if TYPE_CHECKING:
    import random

# No bot is faster than this (a fast human simple reaction is ~250 ms).
MIN_BOT_RT_MS = 250
# A bot whose turn it is taps the deck this long after the turn reaches it.
BOT_FLIP_DELAY_MS = 1000
# A bot that must pick one of its cards takes this long (and picks the first card).
BOT_CHOICE_DELAY_MS = 800


@dataclass(frozen=True)
class BotSkill:
    """How a bot plays: its reaction-time distribution and how often it gets a flip wrong.

    Reaction times are lognormal with this mean and standard deviation (right-skewed like
    human RTs), clamped to at least ``MIN_BOT_RT_MS``. ``error_rate`` is the chance of
    getting one flip wrong: missing a real match, or slapping when there is none.
    """

    mean_rt_ms: int = 900
    sd_rt_ms: int = 200
    error_rate: float = 0.1

    def __post_init__(self) -> None:
        range_check("mean_rt_ms", self.mean_rt_ms, MIN_BOT_RT_MS, 10_000, unit=" milliseconds")
        range_check("sd_rt_ms", self.sd_rt_ms, 0, 5_000, unit=" milliseconds")
        range_check("error_rate", self.error_rate, 0.0, 1.0)


# Named skills the site offers (``spec.make_bot(level)``); "steady" fills empty seats.
BOT_LEVELS: dict[str, BotSkill] = {
    "gentle": BotSkill(mean_rt_ms=1300, sd_rt_ms=300, error_rate=0.2),
    "steady": BotSkill(),
    "quick": BotSkill(mean_rt_ms=650, sd_rt_ms=120, error_rate=0.05),
}


def sample_rt(skill: BotSkill, rng: random.Random) -> int:
    """One reaction time in ms drawn from the skill's lognormal distribution."""
    mean, sd = float(skill.mean_rt_ms), float(skill.sd_rt_ms)
    sigma2 = math.log1p((sd / mean) ** 2)
    mu = math.log(mean) - sigma2 / 2
    return max(MIN_BOT_RT_MS, round(rng.lognormvariate(mu, math.sqrt(sigma2))))


def decide(skill: BotSkill, rng: random.Random, should_slap: bool, window_ms: int) -> int | None:
    """The bot's reaction time if it responds to this flip, else None.

    ``should_slap`` is the truth for this bot (a match in its scope). With probability
    ``error_rate`` the bot does the opposite. It always draws both numbers, so the generator
    advances the same way whatever the flip. A response too slow for the window is no
    response.
    """
    wrong = rng.random() < skill.error_rate
    rt = sample_rt(skill, rng)
    if should_slap == wrong or rt >= window_ms:
        return None
    return rt


def pick_claim(
    rng: random.Random, matching: list[int], others: list[int], wrong: bool
) -> int | None:
    """Team mode: which centre place a responding bot taps.

    A right response taps one of the ``matching`` places; a wrong one (a false alarm) taps one
    of the ``others``. None when there is nothing of that sort to tap.
    """
    pool = others if wrong else matching
    return rng.choice(pool) if pool else None
