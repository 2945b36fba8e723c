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
from typing import TYPE_CHECKING, Any

import msgspec
from django.db.models import Model
from django.utils import translation
from django.utils.functional import Promise

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable, Iterator

# The context variable a socket's render puts its ``PartCache`` in.
CACHE_VARIABLE = "live_parts"


def _loaded(value: Any) -> Any:
    """What the encoder cannot see into by itself: a model instance is every value it loaded
    (fields and annotations, such as a seat's ``connected``) with the related rows loaded
    with it; a lazy translation is its text in the language of the render."""
    if isinstance(value, Model):
        fields = {name: field for name, field in value.__dict__.items() if name[0] != "_"}
        return {"model": value._meta.label, "fields": fields, "related": value._state.fields_cache}
    if isinstance(value, Promise):
        return str(value)
    # Any other object: a part must say plainly what it shows, never an object whose
    # changes the key could miss.
    raise TypeError(f"a live part cannot be keyed on a {type(value).__name__}")


_encoder = msgspec.json.Encoder(enc_hook=_loaded)


def part_key(value: Any) -> bytes:
    """Everything ``value`` holds, as bytes: equal keys, equal renders.

    JSON by msgspec (in C: a table's part holds hundreds of values, and keying them in Python
    cost more than the projector's whole render): dataclasses by their fields, dicts, lists,
    numbers (1, 1.0 and true differ, as they render differently), dates; model instances and
    lazy translations through ``_loaded``.
    """
    return _encoder.encode(value)


class PartCache:
    """One socket's parts: their key and HTML as last drawn, by slot (a name and an id)."""

    def __init__(self) -> None:
        self._kept: dict[Hashable, tuple[tuple[str, bytes], str]] = {}
        # The parts of the render in progress (None: no render going on).
        self._drawing: dict[Hashable, tuple[tuple[str, bytes], str]] | None = None
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
