"""Rebuilding a table from its seed and its action log: every engine's ``replay``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from games.engine.actions import ActionInput
    from games.engine.contract import LogEntry, Outcome

StateT = TypeVar("StateT")
StateT_co = TypeVar("StateT_co", covariant=True)


def log_replay(
    state: StateT,
    log: Sequence[LogEntry],
    *,
    act: Callable[[StateT, int, ActionInput, int], Outcome[StateT]],
    tick: Callable[[StateT, int], Outcome[StateT]],
    restore: Callable[[StateT, Mapping[str, Any]], StateT] | None = None,
    takeover: Callable[[StateT, int, str, int], Outcome[StateT]] | None = None,
) -> StateT:
    """Apply a table's log to ``state`` (just set up): every engine's ``replay``.

    Entries are ``("act", seat, action, now_ms)`` and ``("tick", None, payload, now_ms)``; a
    refused input in the log is refused again and changes nothing. A tick's stored
    ``{"checkpoint": ...}`` goes to ``restore`` with the state after that tick (engines
    without checkpoints pass no ``restore``, and their ticks have no payload). A ``("bot",
    seat, {"bot": level}, now_ms)`` entry goes to ``takeover``.
    """
    for kind, seat, action, now_ms in log:
        if kind == "tick":
            state = tick(state, now_ms).state
            checkpoint = action.get("checkpoint") if action is not None else None
            if checkpoint is not None and restore is not None:
                state = restore(state, checkpoint)
        elif kind == "act" and seat is not None and action is not None:
            state = act(state, seat, action, now_ms).state
        elif kind == "bot" and seat is not None and action is not None and takeover is not None:
            state = takeover(state, seat, str(action.get("bot", "")), now_ms).state
        else:
            raise ValueError(f"not a log entry: {(kind, seat, action, now_ms)!r}")
    return state


class Replay(Protocol[StateT_co]):
    """A game's ``replay``: the state after ``setup`` and every log entry, in order."""

    def __call__(
        self,
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any] | None,
        log: Sequence[LogEntry],
    ) -> StateT_co: ...


def replayer(
    *,
    setup: Callable[[Any, Sequence[int], int, Mapping[int, Any] | None], StateT],
    act: Callable[[StateT, int, ActionInput, int], Outcome[StateT]],
    tick: Callable[[StateT, int], Outcome[StateT]],
    takeover: Callable[[StateT, int, str, int], Outcome[StateT]],
    restore: Callable[[StateT, Mapping[str, Any]], StateT] | None = None,
) -> Replay[StateT]:
    """Every game's ``replay``, made from its rules: rebuild a table from its seed and its
    log (see :func:`log_replay`); a tick's logged checkpoint goes to ``restore``."""

    def replay(
        config: Any,
        seats: Sequence[int],
        seed: int,
        bots: Mapping[int, Any] | None,
        log: Sequence[LogEntry],
    ) -> StateT:
        return log_replay(
            setup(config, seats, seed, bots),
            log,
            act=act,
            tick=tick,
            restore=restore,
            takeover=takeover,
        )

    return replay
