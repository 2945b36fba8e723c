"""How a random Riff Raff class plays, for the contract test (tests/games/harness.py):
every piece is in exactly one place, nobody sees another seat's pick before the reveal,
trials are well formed.

Physics is slow, so tables are small (4 pieces each) and example counts modest."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hypothesis import strategies as st

from games.riff_raff.bots import BOT_LEVELS
from games.riff_raff.config import Config
from games.riff_raff.rules import STEP_MS, view
from tests.games.harness import Play

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Iterator

    from games.engine.contract import Outcome
    from games.riff_raff.bots import BotSkill
    from games.riff_raff.state import State


Table = tuple[Config, list[int], int, dict[int, "BotSkill"]]

JUNK: list[Any] = [
    None,
    {"kind": "dance"},
    {"kind": "drop", "x": "left"},
    {"kind": "catch", "piece": True},
    {"kind": "order", "seats": []},
    {"kind": "declare", "pieces": 5},
]


@st.composite
def tables(draw: st.DrawFn) -> Table:
    seats = draw(st.lists(st.integers(0, 15), min_size=2, max_size=4, unique=True))
    bot_seats = draw(st.sets(st.sampled_from(seats)))
    config = Config(
        wave_strength=draw(st.sampled_from([0.0, 0.3, 0.8])),
        catch_window_s=draw(st.sampled_from([1.0, 2.5])),
        pieces_per_player=4,
        piece_shapes=draw(st.sampled_from(["mixed", "boxes"])),
        bot_skill=draw(st.sampled_from(["gentle", "steady", "quick"])),
    )
    seed = draw(st.integers(0, 2**32))
    return config, seats, seed, dict.fromkeys(bot_seats, BOT_LEVELS["steady"])


def _sensible(rnd: random.Random, seen: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """What a player who follows their view might do now (None: nothing to do)."""
    phase = seen["phase"]
    if phase == "choosing" and not seen["chosen"][str(seat)]:
        return {"kind": "choose_card", "card": rnd.choice(seen["cards_left"])}
    if phase == "captain_tie" and seen["tie_chooser"] == seat:
        return {"kind": "pick_captain", "seat": rnd.choice(seen["tied"])}
    if phase == "order_tie" and seen["captain"] == seat:
        tied = list(seen["tied"])
        rnd.shuffle(tied)
        return {"kind": "order", "seats": tied[: rnd.randint(1, len(tied))]}
    if seen["active"] != seat:
        return None
    if phase == "declaring":
        return {"kind": "declare", "pieces": rnd.choice([1, 2])}
    if phase == "placing":
        zone = seen["drop_zone"]
        x = rnd.choice([zone["x_min"], zone["x_max"], rnd.uniform(zone["x_min"], zone["x_max"])])
        mine = next(p for p in seen["players"] if p["seat"] == seat)
        piece = rnd.choice(mine["supply"])["id"]
        return {"kind": "drop", "piece": piece, "x": x, "angle": rnd.uniform(-0.5, 0.5)}
    if phase == "catching" and seen["catchable"]:
        piece = rnd.choice(seen["catchable"])["piece"]
        return {"kind": "catch", "piece": piece, "rt_ms": rnd.randint(0, 1500), "rtt_ms": 30}
    return None


def _blind(rnd: random.Random) -> Any:
    """An input at the wrong moment, from the wrong seat, or unreadable, on purpose."""
    return rnd.choice(
        [
            {"kind": "choose_card", "card": rnd.randint(1, 10)},
            {"kind": "pick_captain", "seat": rnd.randint(0, 15)},
            {"kind": "order", "seats": [rnd.randint(0, 15)]},
            {"kind": "declare", "pieces": rnd.choice([1, 2])},
            {"kind": "drop", "piece": rnd.randint(0, 70), "x": rnd.uniform(-70, 70)},
            {"kind": "catch", "piece": rnd.randint(0, 70), "rt_ms": rnd.randint(0, 900)},
            rnd.choice(JUNK),
        ]
    )


def _next_input(
    rnd: random.Random, state: State, humans: list[int]
) -> tuple[int, str, int | None, Any]:
    """(time passing, "act" / "tick" / "deadline", seat, action)."""
    dt = rnd.choice([0, STEP_MS, STEP_MS, 40, 300, 1500])
    roll = rnd.random()
    if not humans or roll < 0.2:
        return dt, "deadline", None, None
    if roll < 0.3:
        return dt, "tick", None, None
    seat = rnd.choice(humans) if rnd.random() < 0.97 else 99
    if seat in state.players and rnd.random() < 0.85:
        action = _sensible(rnd, view(state, seat), seat)
        if action is not None:
            return dt, "act", seat, action
    return dt, "act", seat, _blind(rnd)


def _check_pieces(state: State, caught: set[int]) -> None:
    """Every piece is in exactly one place: a supply, the ship (or falling), or caught."""
    supplies = [p.id for player in state.players.values() for p in player.supply]
    on_ship = state.ship.world().pieces()
    places = supplies + on_ship + sorted(caught)
    assert sorted(places) == sorted(state.cargo)
    falling = {f.piece.id for f in state.falling}
    assert falling <= set(on_ship)
    for piece_id in on_ship:
        assert state.ship.world().owner_of(piece_id) == state.cargo[piece_id].owner


def _check_secrets(state: State) -> None:
    """While seats are still picking, no view shows a pick but the viewer's own."""
    if state.phase != "choosing":
        return
    for viewer in (None, *state.seats):
        seen = view(state, viewer)
        assert seen["revealed"] is None
        assert seen["your_card"] == (state.chosen.get(viewer) if viewer is not None else None)


def _secrets(state: State, viewer: int | None) -> Iterator[State]:
    """While seats are still picking: the table with another seat's pick changed."""
    if state.phase != "choosing":
        return
    for other, card in state.chosen.items():
        if other == viewer:
            continue
        swapped = state.clone()
        spare = [c for c in swapped.players[other].cards if c != card]
        swapped.chosen[other] = spare[0]
        yield swapped


def _check_trials(outcome: Outcome[State], state: State, bots: dict[int, BotSkill]) -> None:
    for trial in outcome.trials:
        data = trial.data
        assert trial.seat in state.seats
        assert trial.seat not in bots
        assert data["bot"] is False
        assert data["congruent"] is None
        assert data["level"] == f"wave_{round(state.config.wave_strength * 10)}"
        assert 1 <= data["area"] <= 10
        if trial.kind == "riff_raff.placement":
            assert data["target"] is None
            assert data["responded"] is True
            assert data["rt_ms"] is None
        else:
            assert trial.kind == "riff_raff.catch"
            assert data["target"] is True
            assert data["correct"] is data["responded"]
            if not data["responded"]:
                assert data["rt_ms"] is None
                assert data["plausible"] is True


def _checker() -> Callable[[Outcome[State], Table], None]:
    caught: set[int] = set()

    def check(outcome: Outcome[State], table: Table) -> None:
        _check_trials(outcome, outcome.state, table[3])
        caught.update(e.data["piece"] for e in outcome.events if e.kind == "caught")
        _check_pieces(outcome.state, caught)
        _check_secrets(outcome.state)

    return check


PLAY = Play(
    tables=tables(),
    next_input=_next_input,
    examples=20,
    lengths=(20, 300),
    over=lambda state: state.phase == "game_over",
    secrets=_secrets,
    checker=_checker,
    junk=tuple(JUNK),
)
