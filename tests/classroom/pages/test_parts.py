"""A socket's parts cache: what its keys count, and what it draws again."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import pytest
from django.utils import translation

from classroom.models import Seat
from classroom.pages.parts import PartCache, part_key
from classroom.services.seats import seat_join_guest

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import GameSession


@dataclasses.dataclass(frozen=True)
class _Line:
    name: str
    score: int


def test_keys_of_equal_values_are_equal_and_any_change_shows() -> None:
    shown = {"lines": [_Line("Ava", 3)], "flip": 4}
    assert part_key(shown) == part_key({"lines": [_Line("Ava", 3)], "flip": 4})
    assert part_key(shown) != part_key({"lines": [_Line("Ava", 4)], "flip": 4})
    assert part_key(shown) != part_key({"lines": [_Line("Ava", 3)], "flip": 5})


def test_values_that_compare_equal_but_render_differently_have_different_keys() -> None:
    assert part_key(1) != part_key(True)
    assert part_key(1) != part_key(1.0)


def test_an_object_the_key_cannot_see_into_is_refused() -> None:
    with pytest.raises(TypeError, match="object"):
        part_key([object()])


@pytest.mark.django_db
def test_a_seat_counts_with_its_annotations_and_its_loaded_table(
    make_session: Callable[..., GameSession],
) -> None:
    session = make_session()
    seat_join_guest(session=session, nickname="Ava")
    seat = Seat.objects.select_related("table").get(session=session)
    again = Seat.objects.select_related("table").get(pk=seat.pk)
    assert part_key(seat) == part_key(again)
    again.connected = True  # type: ignore[attr-defined]  # as seats_with_presence annotates
    assert part_key(seat) != part_key(again)
    assert again.table is not None
    again.connected = seat.__dict__.get("connected")  # type: ignore[attr-defined]
    again.table.number += 1
    assert part_key(seat) != part_key(again)


def _drawn(cache: PartCache, parts: dict[str, object]) -> list[str]:
    with cache.drawing():
        return [
            cache.part(("part", name), shows, lambda name=name: f"<{name}>")
            for name, shows in parts.items()
        ]


def test_a_part_is_drawn_again_only_when_what_it_shows_or_the_language_changed() -> None:
    cache = PartCache()
    assert _drawn(cache, {"a": 1, "b": 1}) == ["<a>", "<b>"]
    assert cache.rendered == 2
    _drawn(cache, {"a": 1, "b": 2})
    assert cache.rendered == 3
    _drawn(cache, {"a": 1, "b": 2})
    assert cache.rendered == 3
    with translation.override("zh-hant"):
        _drawn(cache, {"a": 1, "b": 2})
    assert cache.rendered == 5


def test_parts_the_last_render_did_not_draw_are_forgotten() -> None:
    cache = PartCache()
    _drawn(cache, {"a": 1, "b": 1})
    _drawn(cache, {"a": 1})
    _drawn(cache, {"a": 1, "b": 1})
    assert cache.rendered == 3  # "b" was drawn again


def test_a_failed_render_keeps_the_last_complete_one() -> None:
    cache = PartCache()
    _drawn(cache, {"a": 1})

    def fail() -> str:
        raise RuntimeError

    with pytest.raises(RuntimeError), cache.drawing():
        cache.part(("part", "a"), 2, fail)
    assert _drawn(cache, {"a": 1}) == ["<a>"]
    assert cache.rendered == 1  # still kept from the render before the failed one
