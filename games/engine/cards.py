"""A card a player's input names: every game has cards, and a tablet names one by a number.

The wire type of an index into the cards a player is shown, and what a player is told when
the number cannot be read.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from games.engine.actions import FieldRefusals
from games.engine.translation import gettext_noop

# An index into the cards a player is shown (a hand, a row): more than anyone ever holds.
CardIndex = Annotated[int, msgspec.Meta(ge=0, le=63)]

# A game whose card numbers have a range a child knows says that instead of "out of range"
# (``dataclasses.replace(CARD_REFUSALS, out_of_range=...)``).
CARD_REFUSALS = FieldRefusals(
    missing=gettext_noop("The card number is missing."),
    wrong=gettext_noop("The card number must be a whole number."),
    out_of_range=gettext_noop("The card number is out of range."),
)
