"""The Outcome and Event types of the engine contract."""

from __future__ import annotations

import pytest

from games.engine.contract import Event, Outcome


def test_outcome_without_rejection_is_accepted() -> None:
    outcome = Outcome(state={"turn": 1}, events=(Event("flip"),))
    assert outcome.accepted is True
    assert outcome.rejected is None
    assert outcome.trials == ()


@pytest.mark.parametrize("reason", ["Not your turn.", ""])
def test_outcome_with_rejection_is_not_accepted(reason: str) -> None:
    state = {"turn": 1}
    outcome = Outcome(state=state, rejected=reason)
    assert outcome.accepted is False
    assert outcome.state is state


def test_event_data_defaults_to_an_empty_mapping() -> None:
    assert Event("flip").data == {}
    assert Event("flip").data is not Event("flip").data
