"""The server's collector: start-up objects frozen out of collections, young ones rarer."""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

from classroom.server.gc_tuning import YOUNG_THRESHOLD, gc_tune

if TYPE_CHECKING:
    from collections.abc import Iterator

import pytest


@pytest.fixture
def restore_gc() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restore_gc")
def test_tuning_freezes_what_is_loaded_and_raises_the_young_threshold() -> None:
    middle, old = gc.get_threshold()[1:]
    gc_tune()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold() == (YOUNG_THRESHOLD, middle, old)


@pytest.mark.usefixtures("restore_gc")
def test_a_benchmark_may_set_its_own_young_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SNAPCLASS_GC_YOUNG_THRESHOLD", "5000")
    gc_tune()
    assert gc.get_threshold()[0] == 5000
