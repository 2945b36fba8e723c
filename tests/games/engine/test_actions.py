"""What a player is told when a field of an input cannot be read: FieldRefusals."""

from __future__ import annotations

from games.engine.actions import FieldRefusals


def test_one_sentence_for_every_fault() -> None:
    said = FieldRefusals.one("Say a colour.")
    assert said == FieldRefusals(
        missing="Say a colour.", wrong="Say a colour.", out_of_range="Say a colour."
    )


def test_one_sentence_but_for_a_field_left_out() -> None:
    said = FieldRefusals.one("Point at the ship.", missing="The point is missing.")
    assert said == FieldRefusals(
        missing="The point is missing.",
        wrong="Point at the ship.",
        out_of_range="Point at the ship.",
    )
