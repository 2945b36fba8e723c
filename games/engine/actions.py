"""A player's input: the base of every game's actions, how a plain dict or a decoded frame
becomes one, and what a player is told when it cannot.

Each game declares its actions once, as msgspec Structs in its ``actions.py``; the wire
(``games.live.protocol``) unions them, and :class:`ActionSchema` reads the action log's plain
dicts against the same Structs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Generic, TypeVar

import msgspec

from games.engine.translation import gettext_noop

if TYPE_CHECKING:
    from collections.abc import Callable


class GameAction(msgspec.Struct, tag_field="kind", forbid_unknown_fields=True):
    """One player input, tagged by ``kind``: the base of every game's action Structs.

    A game's action is declared once, with its bounds as ``msgspec.Meta``: the wire decodes a
    tablet's frame straight into it (strictly: unknown fields, wrong types and values out of
    range are refused), and the engine reads a plain dict (a replayed log entry, a test) into
    it through ``ActionSchema``, which answers with the game's own sentences.
    """

    # Fields a plain dict (a test, a tool; never the wire) may leave out, and what they then
    # mean. The wire still requires them of a tablet.
    plain_defaults: ClassVar[Mapping[str, Any]] = {}


# What ``act`` takes: a decoded action, or its plain JSON form (``{"kind": ..., ...}``) as the
# action log stores it.
ActionInput = GameAction | Mapping[str, Any]


ActionT = TypeVar("ActionT", bound=GameAction)

# Timings a tablet measures, as any game's actions bound them (ms).
ReactionMs = Annotated[int, msgspec.Meta(ge=0, le=60_000)]
RoundTripMs = Annotated[int, msgspec.Meta(ge=0, le=10_000)]

UNREADABLE = gettext_noop("That move could not be read.")
NOT_THIS_GAME = gettext_noop("That move is not part of this game.")


@dataclass(frozen=True)
class FieldRefusals:
    """What to tell a player whose input has this field missing, of the wrong type (a text
    for a number, 1.5 for a whole number, true for a number), or out of its range.

    Whole constant sentences, not templates, so each is found and translated as it stands.
    """

    missing: str
    wrong: str
    out_of_range: str

    @classmethod
    def one(cls, message: str, *, missing: str | None = None) -> FieldRefusals:
        """The same sentence whatever is wrong with the field (but ``missing``, when given,
        for a field left out)."""
        return cls(missing=missing or message, wrong=message, out_of_range=message)


# The timings every game's actions carry (``ReactionMs``, ``RoundTripMs``): every schema
# answers for them.
TIMING_REFUSALS: Mapping[str, FieldRefusals] = {
    "rt_ms": FieldRefusals(
        missing=gettext_noop("The reaction time is missing."),
        wrong=gettext_noop("The reaction time must be a whole number."),
        out_of_range=gettext_noop("The reaction time is out of range."),
    ),
    "rtt_ms": FieldRefusals(
        missing=gettext_noop("The round-trip time is missing."),
        wrong=gettext_noop("The round-trip time must be a whole number."),
        out_of_range=gettext_noop("The round-trip time is out of range."),
    ),
}

# How msgspec says what is wrong (msgspec.ValidationError's text).
_MISSING_FIELD = re.compile(r"Object missing required field `(?P<name>[^`]+)`")
_AT_FIELD = re.compile(r" - at `\$\.(?P<name>\w+)")
_OUT_OF_RANGE = re.compile(r"Expected `[^`]+` (?:>=|<=|>|<|of length)")


@dataclass(frozen=True)
class ActionSchema(Generic[ActionT]):
    """One game's actions (msgspec Structs, see :class:`GameAction`) and the
    sentences that tell a player why an input cannot be read.

    :meth:`read` is the one way an input becomes an action: a decoded action of this game is
    taken as it is; a plain dict (the action log, a test) is converted with msgspec against
    the same Structs. Whether the move is allowed *now* is the rules' business.
    """

    kinds: tuple[type[ActionT], ...]
    # Per field name, what to say when msgspec refuses it (the timings, ``rt_ms`` and
    # ``rtt_ms``, are answered for every game: ``TIMING_REFUSALS``).
    refusals: Mapping[str, FieldRefusals]
    # The checks a Struct cannot state (a list naming a seat twice, a bound narrower than the
    # wire's), and normalising (a field that is ignored in some case): the action to play, or
    # the sentence refusing it.
    finish: Callable[[ActionT], ActionT | str] | None = None

    @cached_property
    def _said(self) -> dict[str, FieldRefusals]:
        return {**self.refusals, **TIMING_REFUSALS}

    @cached_property
    def _by_kind(self) -> dict[str, type[ActionT]]:
        return {str(kind.__struct_config__.tag): kind for kind in self.kinds}

    def tags(self) -> tuple[str, ...]:
        """The ``kind`` of every action of the game."""
        return tuple(self._by_kind)

    def read(self, raw: object) -> ActionT | str:
        """The action ``raw`` is, or a short sentence saying why it cannot be read.

        A plain dict is read as the engine always has: keys that are not a field of its
        action are ignored, and a null counts as left out (the wire is stricter: it refuses
        both before the engine sees anything).
        """
        if isinstance(raw, GameAction):
            if not isinstance(raw, self.kinds):
                return NOT_THIS_GAME
            action: ActionT = raw
        else:
            if not isinstance(raw, Mapping):
                return UNREADABLE
            kind = raw.get("kind")
            cls = self._by_kind.get(kind) if isinstance(kind, str) else None
            if cls is None:
                return NOT_THIS_GAME
            given = {
                name: value
                for name in cls.__struct_fields__
                if (value := raw.get(name)) is not None
            }
            try:
                action = msgspec.convert({**cls.plain_defaults, **given, "kind": kind}, cls)
            except msgspec.ValidationError as error:
                return self._refusal(str(error))
        return self.finish(action) if self.finish is not None else action

    def _refusal(self, error: str) -> str:
        """The game's sentence for msgspec's ``error``."""
        missing = _MISSING_FIELD.match(error)
        if missing is not None:
            said = self._said.get(missing["name"])
            return said.missing if said is not None else UNREADABLE
        at = _AT_FIELD.search(error)
        said = self._said.get(at["name"]) if at is not None else None
        if said is None:
            return UNREADABLE
        return said.out_of_range if _OUT_OF_RANGE.match(error) else said.wrong


def action_plain(action: ActionInput) -> dict[str, Any]:
    """The JSON form of an input, as the action log stores it (``kind`` and every field)."""
    if isinstance(action, GameAction):
        plain: dict[str, Any] = msgspec.to_builtins(action)
        return plain
    return dict(action)
