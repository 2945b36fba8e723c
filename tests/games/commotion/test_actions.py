"""Reading inputs off the wire: typed actions or readable refusals."""

from __future__ import annotations

from typing import Any

import pytest

from games.commotion.actions import (
    ExtraAction,
    OutAction,
    PlayAction,
    TurnAction,
    parse_action,
)


def test_the_four_kinds() -> None:
    assert parse_action({"kind": "turn"}) == TurnAction()
    assert parse_action({"kind": "out"}) == OutAction()
    assert parse_action({"kind": "extra", "ignored": 1}) == ExtraAction()
    play = {
        "kind": "play",
        "source": "tableau",
        "card": 2,
        "pile": 3,
        "pile_size": 5,
        "rt_ms": 640,
        "rtt_ms": 35,
    }
    assert parse_action(play) == PlayAction(
        source="tableau", card=2, pile=3, pile_size=5, rt_ms=640, rtt_ms=35
    )


def test_play_defaults() -> None:
    # The waste's card number is ignored; a new pile has no size; unknown times are 0.
    parsed = parse_action(
        {"kind": "play", "source": "waste", "card": 4, "pile": -1, "pile_size": 9}
    )
    assert parsed == PlayAction(source="waste", card=0, pile=-1, pile_size=-1, rt_ms=0, rtt_ms=0)
    parsed = parse_action({"kind": "play", "source": "tableau", "card": 0, "pile": 2})
    assert parsed == PlayAction(source="tableau", card=0, pile=2, pile_size=-1, rt_ms=0, rtt_ms=0)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (None, "That move could not be read."),
        ("turn", "That move could not be read."),
        ({"kind": "slap"}, "That move is not part of this game."),
        ({}, "That move is not part of this game."),
        ({"kind": "play"}, "Say whether the card comes from your row or your waste."),
        ({"kind": "play", "source": "tableau", "pile": 0}, "The card number is missing."),
        ({"kind": "play", "source": "waste"}, "The pile number is missing."),
        (
            {"kind": "play", "source": "tableau", "card": 1.0, "pile": 0},
            "The card number must be a whole number.",
        ),
        (
            {"kind": "play", "source": "tableau", "card": 0, "pile": 64},
            "The pile number is out of range.",
        ),
        (
            {"kind": "play", "source": "tableau", "card": 0, "pile": 0, "pile_size": -2},
            "The pile size is out of range.",
        ),
        (
            {"kind": "play", "source": "tableau", "card": 0, "pile": 0, "rt_ms": False},
            "The reaction time must be a whole number.",
        ),
        (
            {"kind": "play", "source": "tableau", "card": 0, "pile": 0, "rtt_ms": 60_001},
            "The round-trip time is out of range.",
        ),
    ],
)
def test_refusals(raw: Any, reason: str) -> None:
    assert parse_action(raw) == reason
