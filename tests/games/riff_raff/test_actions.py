"""Reading Riff Raff inputs from the wire: every kind, and readable refusals for the rest."""

from __future__ import annotations

from typing import Any

import pytest

from games.riff_raff.actions import (
    Catch,
    ChooseCard,
    Declare,
    Drop,
    Order,
    PickCaptain,
    parse_action,
)


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        ({"kind": "choose_card", "card": 1}, ChooseCard(1)),
        ({"kind": "choose_card", "card": 10, "extra": "ignored"}, ChooseCard(10)),
        ({"kind": "pick_captain", "seat": 2}, PickCaptain(2)),
        ({"kind": "order", "seats": [3]}, Order([3])),
        ({"kind": "order", "seats": [2, 0, 1]}, Order([2, 0, 1])),
        ({"kind": "declare", "pieces": 2}, Declare(2)),
        (
            {"kind": "drop", "piece": 4, "x": -12.5, "angle": 0.25},
            Drop(piece=4, x=-12.5, angle=0.25),
        ),
        ({"kind": "drop", "x": 30}, Drop(x=30.0, angle=0.0)),
        ({"kind": "drop", "piece": None, "x": 1.5, "angle": None}, Drop(x=1.5, angle=0.0)),
        ({"kind": "catch", "piece": 7, "rt_ms": 410, "rtt_ms": 35}, Catch(7, 410, 35)),
        ({"kind": "catch", "piece": 7}, Catch(7, 0, 0)),
    ],
)
def test_every_kind_is_read(raw: dict[str, Any], parsed: object) -> None:
    assert parse_action(raw) == parsed


def test_a_drop_point_is_a_float() -> None:
    parsed = parse_action({"kind": "drop", "x": 30})
    assert isinstance(parsed, Drop)
    assert isinstance(parsed.x, float)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (None, "That move could not be read."),
        ([1, 2], "That move could not be read."),
        ({}, "That move is not part of this game."),
        ({"kind": "slap"}, "That move is not part of this game."),
        ({"kind": "choose_card"}, "The card number is missing."),
        ({"kind": "choose_card", "card": 0}, "Cards go from 1 to 10."),
        ({"kind": "choose_card", "card": 11}, "Cards go from 1 to 10."),
        ({"kind": "choose_card", "card": "5"}, "The card number must be a whole number."),
        ({"kind": "choose_card", "card": True}, "The card number must be a whole number."),
        ({"kind": "choose_card", "card": 5.0}, "The card number must be a whole number."),
        ({"kind": "pick_captain"}, "The seat is missing."),
        ({"kind": "pick_captain", "seat": -1}, "There is no such seat."),
        ({"kind": "order", "seats": []}, "Name the tied players who go first."),
        ({"kind": "order", "seats": 2}, "Name the tied players who go first."),
        ({"kind": "order", "seats": ["a"]}, "Name the tied players who go first."),
        ({"kind": "order", "seats": [True]}, "Name the tied players who go first."),
        ({"kind": "order", "seats": [1, 1]}, "A player is named twice."),
        ({"kind": "declare", "pieces": 3}, "Say whether you place 1 or 2 pieces."),
        ({"kind": "declare", "pieces": 0}, "Say whether you place 1 or 2 pieces."),
        ({"kind": "declare"}, "Say whether you place 1 or 2 pieces."),
        ({"kind": "drop"}, "The drop point is missing."),
        ({"kind": "drop", "x": "10"}, "The drop point must be a number on the ship."),
        ({"kind": "drop", "x": True}, "The drop point must be a number on the ship."),
        ({"kind": "drop", "x": float("inf")}, "The drop point must be a number on the ship."),
        ({"kind": "drop", "x": 501.0}, "The drop point must be a number on the ship."),
        ({"kind": "drop", "x": 1.0, "angle": "flat"}, "The angle must be a number of radians."),
        ({"kind": "drop", "x": 1.0, "angle": 7.5}, "The angle must be a number of radians."),
        (
            {"kind": "drop", "x": 1.0, "angle": float("nan")},
            "The angle must be a number of radians.",
        ),
        ({"kind": "drop", "x": 1.0, "piece": -1}, "There is no such cargo piece."),
        ({"kind": "drop", "x": 1.0, "piece": "3"}, "The cargo piece must be a whole number."),
        ({"kind": "catch"}, "The cargo piece is missing."),
        ({"kind": "catch", "piece": 1, "rt_ms": -5}, "The reaction time is out of range."),
        ({"kind": "catch", "piece": 1, "rt_ms": 1.5}, "The reaction time must be a whole number."),
        ({"kind": "catch", "piece": 1, "rtt_ms": 60_001}, "The round-trip time is out of range."),
    ],
)
def test_unreadable_inputs_are_refused_with_a_sentence(raw: Any, message: str) -> None:
    assert parse_action(raw) == message
