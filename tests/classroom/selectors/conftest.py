from __future__ import annotations

import pytest

from classroom.selectors import class_figures, verdicts


class WallClock:
    """The wall clock the selectors' caches read, set by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> WallClock:
    """One clock for the school's pool (``verdicts``) and the class's figures during a lesson
    (``class_figures``)."""
    clock = WallClock()
    monkeypatch.setattr(verdicts, "_clock", clock)
    monkeypatch.setattr(class_figures, "_clock", clock)
    return clock
