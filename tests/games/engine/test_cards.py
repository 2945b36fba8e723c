"""A card a player's input names, read by every game's actions with the same sentences."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from games.commotion.actions import ACTIONS as COMMOTION
from games.engine.cards import CARD_REFUSALS
from games.palm_strike.actions import ACTIONS as PALM_STRIKE

if TYPE_CHECKING:
    from games.engine.actions import ActionSchema

NAMING_A_CARD = [
    (PALM_STRIKE, {"kind": "choose"}),
    (COMMOTION, {"kind": "play", "source": "tableau", "pile": 0}),
]


@pytest.mark.parametrize(("actions", "given"), NAMING_A_CARD, ids=["palm_strike", "commotion"])
def test_a_card_index_is_refused_with_the_shared_sentences(
    actions: ActionSchema[Any], given: dict[str, Any]
) -> None:
    assert actions.read(given) == CARD_REFUSALS.missing
    assert actions.read({**given, "card": "two"}) == CARD_REFUSALS.wrong
    assert actions.read({**given, "card": 64}) == CARD_REFUSALS.out_of_range
