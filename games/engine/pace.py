"""How long a game lasts at a typical pace: bots-only games played through the engine.

A table of steady bots (the skill that fills empty seats: about a 7-to-10-year-old's pace) plays
a few games with the given settings, and the median game time is the estimate the teacher's
form shows. Pure like the engines: the seeds are fixed, so the same settings always give the
same figure.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from games.engine.spec import GameSpec

# Games played per estimate, and the most timers one may fire (a game that would run longer
# is counted at the time it had reached).
GAMES = 3
MAX_STEPS = 200_000


def game_ms(spec: GameSpec, config: Any, players: int, seed: int) -> int:
    """The game time of one bots-only game: from the deal until nothing is left to happen."""
    rules = spec.rules
    seats = list(range(players))
    bot = spec.make_bot("steady")
    state = rules.setup(config, seats, seed, dict.fromkeys(seats, bot))
    now = 0
    for _ in range(MAX_STEPS):
        deadline = rules.next_deadline(state)
        if deadline is None:
            break
        now = max(now, deadline)
        state = rules.tick(state, now).state
    return now


def typical_game_ms(spec: GameSpec, config: Any, players: int, *, games: int = GAMES) -> int:
    """The median time of ``games`` bots-only games of ``players`` with ``config``, in ms."""
    return round(statistics.median(game_ms(spec, config, players, seed) for seed in range(games)))
