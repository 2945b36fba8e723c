"""Config dataclasses the engine layer's tests declare settings on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.engine.settings import setting, validate_settings


@dataclass(frozen=True)
class Demo:
    loud: bool = setting(False, label="Loud")
    rounds: int = setting(3, label="Rounds", help="How many rounds.", minimum=1, maximum=9)
    speed: float = setting(1.5, label="Speed", minimum=0.5, maximum=3.0, step=0.5)
    colour: str = setting("red", label="Colour", choices=(("red", "Red"), ("blue", "Blue")))
    # A plain field is not a setting: it is not listed, stored or accepted from values.
    internal: str = "not-a-setting"

    def __post_init__(self) -> None:
        validate_settings(self)


@dataclass(frozen=True)
class Loose:
    """Same kind of fields, but nothing validates on construction."""

    size: float = setting(1.0, label="Size", minimum=0.0, maximum=10.0)
    mode: Literal["a", "b"] = setting("a", label="Mode", choices=(("a", "A"), ("b", "B")))
