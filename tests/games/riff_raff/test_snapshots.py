"""Riff Raff's checkpoints: at each placement the log keeps a snapshot of every body, and
replay restores it, so a restart never rests on float replay alone."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import pytest

from games.engine.replay import log_replay
from games.riff_raff.bots import BOT_LEVELS
from games.riff_raff.config import Config
from games.riff_raff.rules import (
    STEP_MS,
    act,
    next_deadline,
    replay,
    restore,
    setup,
    state_fingerprint,
    tick,
    view,
)
from games.riff_raff.ship import AREAS, Ship
from games.riff_raff.state import ShipLine

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from games.engine.contract import Event, Outcome
    from games.riff_raff.state import State

Entry = tuple[str, int | None, "Mapping[str, Any] | None", int]
SEATS = [0, 1, 2]
BOTS = {1: BOT_LEVELS["quick"], 2: BOT_LEVELS["gentle"]}
CALM = Config(wave_strength=0.0, pieces_per_player=4, piece_shapes="boxes")
YARD_END = -42.0  # a crate dropped here (area 5) tips into the sea


def _seat_move(rnd: random.Random, state: State, seat: int) -> dict[str, Any] | None:
    seen = view(state, seat)
    if seen["phase"] == "choosing" and not seen["chosen"][str(seat)]:
        return {"kind": "choose_card", "card": rnd.choice(seen["cards_left"])}
    if seen["phase"] == "captain_tie" and seen["tie_chooser"] == seat:
        return {"kind": "pick_captain", "seat": rnd.choice(seen["tied"])}
    if seen["phase"] == "order_tie" and seen["captain"] == seat:
        return {"kind": "order", "seats": [rnd.choice(seen["tied"])]}
    if seen["active"] != seat:
        return None
    if seen["phase"] == "declaring":
        return {"kind": "declare", "pieces": rnd.choice([1, 2])}
    if seen["phase"] == "placing":
        zone = seen["drop_zone"]
        return {"kind": "drop", "x": rnd.uniform(zone["x_min"], zone["x_max"]), "angle": 0.1}
    if seen["phase"] == "catching" and seen["catchable"]:
        return {"kind": "catch", "piece": seen["catchable"][0]["piece"], "rt_ms": 400}
    return None


def _payload(outcome: Outcome[State]) -> dict[str, Any] | None:
    """What the host logs with a tick."""
    return None if outcome.checkpoint is None else {"checkpoint": outcome.checkpoint}


@dataclass
class Played:
    config: Config
    seed: int
    live: State
    log: list[Entry]
    drops: int


def play(seed: int, wave: float) -> Played:
    """A table run as the host runs it: a tick about every 16 ms, then now and then an input
    of seat 0; logged ticks carry their checkpoint."""
    config = Config(wave_strength=wave, pieces_per_player=4)
    live = setup(config, SEATS, seed, BOTS)
    rnd = random.Random(seed)
    log: list[Entry] = []
    now = drops = 0
    while live.phase != "game_over" or next_deadline(live) is not None:
        assert now < 900_000, "the game did not end"
        now += STEP_MS if rnd.random() < 0.9 else rnd.randint(1, 40)
        outcome = tick(live, now)
        if outcome.logged:
            log.append(("tick", None, _payload(outcome), now))
        else:
            assert outcome.checkpoint is None
        live = outcome.state
        drops += _drops(outcome.events)
        move = _seat_move(rnd, live, 0) if rnd.random() < 0.1 else None
        if move is not None and (outcome := act(live, 0, move, now)).accepted:
            assert outcome.checkpoint is None  # inputs are logged as sent
            log.append(("act", 0, move, now))
            live = outcome.state
            drops += _drops(outcome.events)
    return Played(config, seed, live, log, drops)


def _drops(events: Sequence[Event]) -> int:
    return sum(event.kind == "drop" for event in events)


def _replay(played: Played, log: Sequence[Entry]) -> State:
    return replay(played.config, SEATS, played.seed, BOTS, log)


def _checkpoints(log: Sequence[Entry]) -> list[int]:
    """Indexes of the log entries that carry a checkpoint."""
    return [i for i, (kind, _seat, payload, _now) in enumerate(log) if kind == "tick" and payload]


def _aboard(entry: Entry) -> bool:
    """Whether the entry's checkpoint has a piece still in the simulation."""
    assert entry[2] is not None
    return any(not piece["sunk"] for piece in entry[2]["checkpoint"]["pieces"])


@pytest.fixture(scope="module", params=[(11, 0.6), (4, 0.3)], ids=["rough", "swell"])
def played(request: pytest.FixtureRequest) -> Played:
    seed, wave = request.param
    return play(seed, wave)


def test_every_placement_logs_a_checkpoint_of_every_body(played: Played) -> None:
    indexes = _checkpoints(played.log)
    assert played.drops > 5
    assert len(indexes) == played.drops  # each drop ends in one checkpoint: stayed or fell
    state = setup(played.config, SEATS, played.seed, BOTS)
    for index, entry in enumerate(played.log):
        state = log_replay(state, [entry], act=act, tick=tick, restore=restore)
        if index in indexes:
            payload = entry[2]
            assert payload is not None
            checkpoint = payload["checkpoint"]
            world = state.ship.world()
            assert [piece["id"] for piece in checkpoint["pieces"]] == world.pieces()
            for body in (checkpoint["ship"], *checkpoint["pieces"]):
                assert {"position", "angle", "velocity", "angular_velocity"} <= set(body)
            assert {"steps", "roll_phase", "roll_step", "still_steps"} <= set(checkpoint)
            assert checkpoint == world.snapshot()  # what the world holds, exactly
            assert json.loads(json.dumps(checkpoint)) == checkpoint  # plain JSON


def test_replaying_the_log_with_its_checkpoints_gives_the_live_game(played: Played) -> None:
    final = _replay(played, played.log)
    assert state_fingerprint(final) == state_fingerprint(played.live)
    assert final.ship.world().snapshot() == played.live.ship.world().snapshot()
    assert view(final, 0) == view(played.live, 0)
    # The checkpoints are part of the ship's history, live and replayed alike.
    checkpoints = [call for call in played.live.ship.calls if call[0] == "checkpoint"]
    assert len(checkpoints) == played.drops


def test_a_json_round_trip_of_the_log_keeps_the_replay_identical(played: Played) -> None:
    stored = [cast("Entry", tuple(entry)) for entry in json.loads(json.dumps(played.log))]
    assert stored == played.log  # floats come back exactly
    final = _replay(played, stored)
    assert state_fingerprint(final) == state_fingerprint(played.live)
    assert final.ship.world().snapshot() == played.live.ship.world().snapshot()


def test_replay_puts_the_bodies_where_the_logged_checkpoint_says(played: Played) -> None:
    """A perturbed checkpoint in the log is what the replayed bodies show: replay restores
    it rather than trusting the recomputed floats."""
    indexes = [i for i in _checkpoints(played.log) if _aboard(played.log[i])]
    index = indexes[len(indexes) // 2]
    kind, seat, payload, now = played.log[index]
    assert payload is not None
    checkpoint = copy.deepcopy(dict(payload["checkpoint"]))
    piece = next(p for p in checkpoint["pieces"] if not p["sunk"])
    piece["position"] = [piece["position"][0] + 0.75, piece["position"][1] + 0.25]
    piece["angle"] += 0.1
    piece["velocity"] = [3.0, -1.0]
    checkpoint["ship"]["angle"] += 0.01
    log = [*played.log[:index], (kind, seat, {"checkpoint": checkpoint}, now)]

    state = _replay(played, log)
    snapshot = state.ship.world().snapshot()
    shown = next(p for p in snapshot["pieces"] if p["id"] == piece["id"])
    for key in ("position", "angle", "velocity", "angular_velocity"):
        assert shown[key] == piece[key]
        assert snapshot["ship"][key] == checkpoint["ship"][key]
    # Without the checkpoint, float replay alone puts them where the live table had them.
    plain = _replay(played, [*played.log[:index], (kind, seat, None, now)])
    assert plain.ship.world().snapshot() == payload["checkpoint"]
    assert plain.ship.world().snapshot() != snapshot
    # The restored checkpoint is in the ship's history: rebuilding from it gives this world.
    history = ShipLine(state.ship.seed, state.ship.wave_strength, state.ship.calls)
    assert history.world().snapshot() == snapshot
    # And the table plays on from there (where to is physics: no claim on the outcome).
    _replay(played, [*log, *played.log[index + 1 :]])


def test_a_restored_world_goes_on_exactly_as_one_rebuilt_from_its_history(
    played: Played,
) -> None:
    index = _checkpoints(played.log)[1]
    kind, seat, payload, now = played.log[index]
    assert payload is not None
    checkpoint = copy.deepcopy(dict(payload["checkpoint"]))
    checkpoint["ship"]["angular_velocity"] = 0.05
    state = _replay(played, [*played.log[:index], (kind, seat, {"checkpoint": checkpoint}, now)])
    twin = ShipLine(state.ship.seed, state.ship.wave_strength, state.ship.calls)
    restored_world, rebuilt_world = state.ship.world(), twin.world()
    assert restored_world is not rebuilt_world
    restored_world.roll(60)
    rebuilt_world.roll(60)
    for _ in range(60):
        restored_world.step()
        rebuilt_world.step()
    assert restored_world.snapshot() == rebuilt_world.snapshot()


def test_a_malformed_checkpoint_is_refused_and_changes_nothing(played: Played) -> None:
    index = _checkpoints(played.log)[0]
    state = _replay(played, played.log[:index])
    state = tick(state, played.log[index][3]).state
    before = state_fingerprint(state), state.ship.world().snapshot()
    with pytest.raises(ValueError, match="not a ship snapshot"):
        restore(state, {"steps": 3, "ship": {}})
    assert (state_fingerprint(state), state.ship.world().snapshot()) == before


def _centre(area: int) -> float:
    zone = AREAS[area].zone
    return (zone.x_min + zone.x_max) / 2


def _until_waiting(state: State, now: int, log: list[Entry]) -> tuple[State, int]:
    while (deadline := next_deadline(state)) is not None and state.phase != "catching":
        outcome = tick(state, deadline)
        if outcome.logged:
            log.append(("tick", None, _payload(outcome), deadline))
        state, now = outcome.state, deadline
    return state, now


def test_a_placement_ended_by_a_catch_has_its_checkpoint_on_the_next_tick() -> None:
    """The last falling piece caught once the ship is still: the input ends the placement;
    its checkpoint is due at once and the very next tick logs it."""
    log: list[Entry] = []

    def do(state: State, seat: int, action: dict[str, Any], now: int) -> State:
        outcome = act(state, seat, action, now)
        assert outcome.rejected is None, outcome.rejected
        log.append(("act", seat, action, now))
        return outcome.state

    state = setup(CALM, [0, 1], 3)
    for seat in (0, 1):
        state = do(state, seat, {"kind": "choose_card", "card": 5}, 0)
    # A round-1 tie: seat 0, captain before round 1, settles it.
    state = do(state, 0, {"kind": "pick_captain", "seat": 1}, 0)
    first = state.active
    assert first is not None
    state = do(state, first, {"kind": "drop", "x": _centre(5), "angle": 0.0}, 0)
    state, now = _until_waiting(state, 0, log)
    second = state.active
    assert second is not None
    assert second != first
    state = do(state, second, {"kind": "declare", "pieces": 2}, now)
    state = do(state, second, {"kind": "drop", "x": YARD_END, "angle": 0.0}, now)
    state, now = _until_waiting(state, now, log)
    assert state.phase == "catching"
    while state.physics:  # the ship comes to rest; the piece is still catchable
        deadline = next_deadline(state)
        assert deadline is not None
        outcome = tick(state, deadline)
        assert outcome.checkpoint is None
        if outcome.logged:
            log.append(("tick", None, None, deadline))
        state, now = outcome.state, deadline
    [falling] = state.falling
    now += 100
    outcome = act(state, second, {"kind": "catch", "piece": falling.piece.id, "rt_ms": 500}, now)
    assert "turn_over" in [event.kind for event in outcome.events]
    assert outcome.checkpoint is None
    log.append(("act", second, {"kind": "catch", "piece": falling.piece.id, "rt_ms": 500}, now))
    state = outcome.state
    assert next_deadline(state) == now
    checkpointed = tick(state, now + 3)
    assert checkpointed.events == ()
    assert checkpointed.logged
    assert checkpointed.checkpoint == state.ship.world().snapshot()
    log.append(("tick", None, _payload(checkpointed), now + 3))
    live = checkpointed.state
    assert next_deadline(live) is None  # the next round's picks
    assert sum(entry[2] is not None for entry in log if entry[0] == "tick") == 2

    rebuilt = replay(CALM, [0, 1], 3, {}, log)
    assert state_fingerprint(rebuilt) == state_fingerprint(live)


def test_loading_a_worlds_own_snapshot_changes_nothing() -> None:
    """The premise of checkpoints: recording one on the live table leaves its physics
    bit-identical to a table that never took it."""
    worlds = [Ship(wave_strength=0.6, seed=5) for _ in range(2)]
    for ship in worlds:
        for piece_id, (shape, area) in enumerate([("keg", 2), ("crate", 3), ("plank", 5)]):
            refusal = ship.place(
                piece_id=piece_id, owner=0, shape=shape, area=area, x=_centre(area), angle=0.2
            )
            assert refusal is None
        ship.roll(120)
        for _ in range(40):
            ship.step()
    loaded, untouched = worlds
    loaded.load(json.loads(json.dumps(loaded.snapshot())))
    for _ in range(150):
        loaded.step()
        untouched.step()
        assert loaded.snapshot() == untouched.snapshot()
