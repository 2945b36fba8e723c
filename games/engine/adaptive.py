"""A table whose level follows its players: any engine, wrapped with a staircase per seat.

The wrapper is itself an engine (same ``setup``/``act``/``tick``/``view``/``replay``), so the
table host drives it like any other. After every outcome it feeds the human seats' scored
trials to their staircases (games.engine.staircase); the table plays at the lowest rung among them,
so nobody at the table is pushed past about 80 % correct. A change of rung reaches the game
through the engine's ``retune``, which may decline until a safe moment (no flip being
judged); the wrapper keeps asking after each outcome.

Pure and deterministic: the staircases live in the state and move only on trials, so
replaying the log rebuilds the same levels without logging them. Every trial carries the
``rung`` it was played at, which is how the site shows a child's level track.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from games.engine.contract import Framed, Outcome, Restorable, Trial
from games.engine.replay import log_replay
from games.engine.settings import SettingError
from games.engine.staircase import Staircase

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from games.engine.actions import ActionInput
    from games.engine.contract import GameEngine, LogEntry
    from games.engine.table import TableT


@dataclass(frozen=True)
class SeatBand:
    """Where one human seat starts on the ladder and the band it may move in."""

    start: int
    floor: int = 0
    ceiling: int | None = None  # None: the top of the ladder


@dataclass(frozen=True)
class AdaptiveConfig:
    """What ``setup`` needs: the game's own Config (setup moves it to the table's starting
    rung) and a band for each human seat (engine seat number -> band)."""

    game: Any
    bands: Mapping[int, SeatBand]


@dataclass(frozen=True)
class SeatStairs:
    staircase: Staircase
    floor: int

    @property
    def rung(self) -> int:
        return self.floor + self.staircase.rung


@dataclass
class AdaptiveState:
    game: Any
    stairs: dict[int, SeatStairs]
    # The rung the game plays at now, and one it should move to at the next safe moment.
    rung: int
    pending: int | None = None
    history: list[int] = field(default_factory=list)  # every rung played, for the view


def table_rung(stairs: Mapping[int, SeatStairs]) -> int:
    return min(seat.rung for seat in stairs.values()) if stairs else 0


def ladder_config(config: Any, step: Mapping[str, Any]) -> Any:
    """``config`` with one ladder rung's settings (validated by the Config itself)."""
    return dataclasses.replace(config, **step)


class AdaptiveEngine:
    """``engine`` (a game's rules module) played on ``ladder`` (easiest rung first)."""

    def __init__(self, engine: GameEngine[Any], ladder: Sequence[Mapping[str, Any]]) -> None:
        if not ladder:
            raise ValueError("an adaptive table needs a ladder")
        self.engine = engine
        self.ladder = tuple(ladder)
        self._retune: Callable[[Any, Mapping[str, Any]], Any] = engine.retune
        if isinstance(engine, Framed):
            # Engines with moving parts stream frames; the host asks for ``Framed``.
            frame = engine.frame
            self.frame: Callable[[AdaptiveState], dict[str, Any]] = lambda state: frame(state.game)

    # -- the engine contract ---------------------------------------------------------------

    def setup(
        self,
        config: AdaptiveConfig,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any] | None = None,
    ) -> AdaptiveState:
        top = len(self.ladder) - 1
        stairs = {}
        for seat, band in config.bands.items():
            ceiling = top if band.ceiling is None else min(band.ceiling, top)
            floor = min(max(band.floor, 0), ceiling)
            start = min(max(band.start, floor), ceiling)
            stairs[seat] = SeatStairs(
                Staircase(rungs=ceiling - floor + 1, rung=start - floor), floor=floor
            )
        rung = table_rung(stairs)
        game = self.engine.setup(ladder_config(config.game, self.ladder[rung]), seats, seed, bots)
        return AdaptiveState(game=game, stairs=stairs, rung=rung, history=[rung])

    def act(
        self, state: AdaptiveState, seat: int, action: ActionInput, now_ms: int
    ) -> Outcome[AdaptiveState]:
        return self._after(state, self.engine.act(state.game, seat, action, now_ms))

    def tick(self, state: AdaptiveState, now_ms: int) -> Outcome[AdaptiveState]:
        return self._after(state, self.engine.tick(state.game, now_ms))

    def next_deadline(self, state: AdaptiveState) -> int | None:
        deadline: int | None = self.engine.next_deadline(state.game)
        return deadline

    def view(self, state: AdaptiveState, seat: int | None) -> dict[str, Any]:
        view: dict[str, Any] = self.engine.view(state.game, seat)
        view["adaptive"] = {"rung": state.rung, "rungs": len(self.ladder)}
        return view

    def restore(self, state: AdaptiveState, checkpoint: Mapping[str, Any]) -> AdaptiveState:
        if not isinstance(self.engine, Restorable):
            return state
        return dataclasses.replace(state, game=self.engine.restore(state.game, checkpoint))

    def takeover(
        self, state: AdaptiveState, seat: int, level: str, now_ms: int
    ) -> Outcome[AdaptiveState]:
        outcome = self.engine.takeover(state.game, seat, level, now_ms)
        if outcome.state is state.game:
            return dataclasses.replace(outcome, state=state)
        # A bot's play says nothing about the children's level: the seat leaves the
        # staircase (unless it was the last one, which keeps the table's rung where it is).
        stairs = {other: stair for other, stair in state.stairs.items() if other != seat}
        return self._after(dataclasses.replace(state, stairs=stairs or state.stairs), outcome)

    def replay(
        self,
        config: AdaptiveConfig,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any],
        log: Sequence[LogEntry],
    ) -> AdaptiveState:
        return log_replay(
            self.setup(config, seats, seed, bots),
            log,
            act=self.act,
            tick=self.tick,
            restore=self.restore,
            takeover=self.takeover,
        )

    # -- the staircase ---------------------------------------------------------------------

    def _after(self, state: AdaptiveState, outcome: Outcome[Any]) -> Outcome[AdaptiveState]:
        trials = tuple(self._stamp(trial, state.rung) for trial in outcome.trials)
        if outcome.rejected is not None:
            # The game is as it was; the refusal may still be a measurement the host stores,
            # so its trials are stamped, but levels move only on accepted play.
            return dataclasses.replace(outcome, state=state, trials=trials)
        if outcome.state is state.game and not outcome.trials:
            return dataclasses.replace(outcome, state=state)  # the host tells "nothing" by identity
        if not outcome.logged:
            # Unlogged motion is recomputed on replay, never replayed step by step, so the
            # levels must not move on it.
            moved = dataclasses.replace(state, game=outcome.state)
            return dataclasses.replace(outcome, state=moved, trials=trials)
        stairs = dict(state.stairs)
        for trial in outcome.trials:
            seat = stairs.get(trial.seat)
            correct = trial.data.get("correct")
            if seat is None or not isinstance(correct, bool):
                continue
            if not trial.data.get("plausible", True):
                continue  # a guess too fast to be a reaction says nothing about the level
            stairs[trial.seat] = dataclasses.replace(
                seat, staircase=seat.staircase.answered(correct=correct)
            )
        wanted = table_rung(stairs)
        game, rung, pending = outcome.state, state.rung, state.pending
        if wanted != rung:
            try:
                retuned = self._retune(game, self.ladder[wanted])
            except SettingError:
                retuned = None  # the rung clashes with a setting of this table: stay put
            if retuned is None:
                pending = wanted  # not now: a flip is being judged
            else:
                game, rung, pending = retuned, wanted, None
        history = state.history if rung == state.rung else [*state.history, rung]
        next_state = AdaptiveState(
            game=game, stairs=stairs, rung=rung, pending=pending, history=history
        )
        return dataclasses.replace(outcome, state=next_state, trials=trials)

    def _stamp(self, trial: Trial, rung: int) -> Trial:
        return dataclasses.replace(trial, data={**trial.data, "rung": rung})


def retune(state: TableT, step: Mapping[str, Any]) -> TableT:
    """A copy of ``state`` with one ladder rung's settings; SettingError if invalid. Each
    game decides *when* (its own ``retune`` may answer None) and which settings it keeps."""
    twin = state.clone()
    twin.config = dataclasses.replace(state.config, **step)
    return twin
