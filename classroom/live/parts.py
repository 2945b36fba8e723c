"""The parts of a live page one socket last drew, so a redraw renders only what changed.

A console redraws once a second while its tables play, and one render of all its tables cost
about 25 ms of the one thread every socket's rendering shares. Its template marks each part
(the toolbar, a table's card) with ``{% livepart %}`` (``classroom.templatetags.live_parts``),
naming what the part shows; a socket's ``PartCache`` keeps each part's HTML with a key made
of those values and the language, and draws it again only when the key differs. A page
rendered without a cache (every HTTP view) renders each part as always, so both give the
same HTML.

Each socket has a cache of its own: what one page drew never reaches another teacher's.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import decimal
import uuid
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db.models import Model
from django.utils import translation
from django.utils.functional import Promise

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Iterator

# The context variable a socket's render puts its ``PartCache`` in.
CACHE_VARIABLE = "live_parts"

# Values that stand for themselves in a key (compared with ==).
_PLAIN = (
    str,
    int,  # and bool
    float,
    type(None),
    datetime.date,
    datetime.time,
    datetime.timedelta,
    decimal.Decimal,
    uuid.UUID,
)


def part_key(value: Any) -> Any:
    """A comparable copy of everything ``value`` holds: equal keys, equal renders.

    A model instance counts with every value it loaded (fields and annotations, such as a
    seat's ``connected``) and the related rows loaded with it; a dataclass with its fields.
    Any other kind of object raises ``TypeError``: a part must say plainly what it shows,
    never an object whose changes the key could miss.
    """
    if type(value) is str:
        return value
    if isinstance(value, _PLAIN):
        return (type(value), value)  # 1, 1.0 and True are equal but render differently
    if isinstance(value, Promise):
        return str(value)  # a lazy translation, in the language of the render
    if isinstance(value, Model):
        loaded = tuple(
            (name, part_key(field))
            for name, field in value.__dict__.items()
            if not name.startswith("_")
        )
        related = tuple((name, part_key(row)) for name, row in value._state.fields_cache.items())
        return (type(value), loaded, related)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return (type(value), tuple(part_key(getattr(value, field.name)) for field in fields))
    if isinstance(value, Mapping):
        return (dict, tuple((part_key(k), part_key(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (list, tuple(part_key(item) for item in value))
    if isinstance(value, (set, frozenset)):
        return (set, frozenset(part_key(item) for item in value))
    raise TypeError(f"a live part cannot be keyed on a {type(value).__name__}")


class PartCache:
    """One socket's parts: their key and HTML as last drawn, by slot (a name and an id)."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, tuple[Any, str]] = {}
        # The parts of the render in progress, in the order drawn (None: no render going on).
        self._drawing: dict[Hashable, tuple[Any, str]] | None = None
        self.rendered = 0  # parts rendered, not taken from the cache (for tests and benches)

    @contextlib.contextmanager
    def drawing(self) -> Iterator[None]:
        """One render of the page: parts it does not draw are forgotten after it."""
        self._drawing = {}
        try:
            yield
            self._kept = self._drawing
        finally:
            self._drawing = None

    def part(self, slot: Hashable, shows: Any, render: Callable[[], str]) -> str:
        """The part's HTML: kept from the last render if it shows the same, else drawn."""
        key = (translation.get_language(), part_key(shows))
        kept = self._kept.get(slot)
        if kept is not None and kept[0] == key:
            html = kept[1]
        else:
            html = render()
            self.rendered += 1
        if self._drawing is not None:
            self._drawing[slot] = (key, html)
        return html

    def latest(self) -> dict[Hashable, str]:
        """The last complete render's parts, by slot, in the order drawn."""
        return {slot: html for slot, (_key, html) in self._kept.items()}
