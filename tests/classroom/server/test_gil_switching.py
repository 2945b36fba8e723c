"""A server process lets another thread have the GIL within 1 ms (see the module)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from classroom.server.gil_switching import SWITCH_INTERVAL_S, gil_switch_interval_set

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _interval_restored() -> Iterator[None]:
    before = sys.getswitchinterval()
    yield
    sys.setswitchinterval(before)


def test_a_server_process_switches_threads_every_millisecond(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("SNAPCLASS_SWITCH_INTERVAL_S", raising=False)
    sys.setswitchinterval(0.005)
    assert gil_switch_interval_set() == pytest.approx(SWITCH_INTERVAL_S)
    assert sys.getswitchinterval() == pytest.approx(0.001)


def test_a_benchmark_may_set_another_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SNAPCLASS_SWITCH_INTERVAL_S", "0.005")
    assert gil_switch_interval_set() == pytest.approx(0.005)


def test_the_application_sets_it_when_it_loads() -> None:
    # A process of its own: what loading classroom.asgi (Daphne's application) leaves.
    env = {key: value for key, value in os.environ.items() if key != "SNAPCLASS_SWITCH_INTERVAL_S"}
    loaded = subprocess.run(
        [sys.executable, "-c", "import classroom.asgi, sys; print(sys.getswitchinterval())"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert float(loaded.stdout.split()[-1]) == pytest.approx(SWITCH_INTERVAL_S)
