"""Reading whole-number fields of a player's input, with the game's own refusal wording."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping


class ActionRefusal(Exception):
    """An input that cannot be read; the message is what the player sees."""


@dataclass(frozen=True)
class FieldMessages:
    """Per field name: what to say when it is missing, not a whole number, or out of range."""

    missing: Mapping[str, str]
    not_whole: Mapping[str, str]
    out_of_range: Mapping[str, str]

    def whole(
        self, raw: Mapping[str, Any], name: str, low: int, high: int, default: int | None
    ) -> int:
        """``raw[name]`` as a whole number in ``low..high``; ``default`` when absent (None:
        required). Raises :class:`ActionRefusal`."""
        if name not in raw or raw[name] is None:
            if default is not None:
                return default
            raise ActionRefusal(self.missing[name])
        value = raw[name]
        # JSON true/false would pass as int in Python; they are not numbers here.
        if isinstance(value, bool) or not isinstance(value, int):
            raise ActionRefusal(self.not_whole[name])
        if not low <= value <= high:
            raise ActionRefusal(self.out_of_range[name])
        return value
