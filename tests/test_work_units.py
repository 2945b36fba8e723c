"""The suite's xdist work units: a file stays on one worker, and the tests that start real
server processes share one unit, so they run one after another."""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING

from tests import conftest
from tests.conftest import (
    _LONG_FILES,
    _PACED_FILES,
    _PROCESS_UNIT,
    _FileScheduling,
    _start_order,
    _work_unit,
)

if TYPE_CHECKING:
    import pytest


def test_a_files_tests_share_its_unit_parametrized_or_not() -> None:
    ids = [
        "tests/e2e/test_accessibility.py::test_page[welcome-en]",
        "tests/e2e/test_accessibility.py::test_page[signup-zh-hant]",
        "tests/e2e/test_accessibility.py::test_focus",
    ]
    assert {_work_unit(nodeid) for nodeid in ids} == {"tests/e2e/test_accessibility.py"}


def test_files_elsewhere_are_units_of_their_own() -> None:
    assert _work_unit("tests/games/test_core.py::test_defaults") != _work_unit(
        "tests/games/test_rng.py::test_copy"
    )


def test_cluster_fault_and_soak_tests_share_one_unit() -> None:
    ids = [
        "tests/cluster/test_restart.py::test_a",
        "tests/faults/test_flood.py::test_b[embedded]",
        "tests/soak/test_soak.py::test_c",
    ]
    assert len({_work_unit(nodeid) for nodeid in ids}) == 1
    assert _work_unit(ids[0]) != _work_unit("tests/e2e/test_lobby.py::test_d")


class _Worker:
    """What the scheduler needs of an xdist worker: the tests it was sent."""

    def __init__(self) -> None:
        self.sent: list[int] = []

    def send_runtest_some(self, indexes: list[int]) -> None:
        self.sent.extend(indexes)


def _scheduler(collection: list[str], workers: int) -> tuple[_FileScheduling, list[_Worker]]:
    scheduler = object.__new__(_FileScheduling)  # without xdist's config: only the queue
    scheduler.workqueue = OrderedDict()
    scheduler.assigned_work = {}
    scheduler.registered_collections = {}
    nodes = [_Worker() for _ in range(workers)]
    for node in nodes:
        scheduler.assigned_work[node] = {}  # type: ignore[index]
        scheduler.registered_collections[node] = collection  # type: ignore[index]
    for nodeid in collection:
        scheduler.workqueue.setdefault(_work_unit(nodeid), {})[nodeid] = False
    return scheduler, nodes


def _take(scheduler: _FileScheduling, node: _Worker, collection: list[str]) -> str:
    """The unit a worker gets when it asks for more."""
    before = len(node.sent)
    scheduler._assign_work_unit(node)  # type: ignore[arg-type]
    return _work_unit(collection[node.sent[before]])


def test_the_first_worker_takes_the_paced_units_and_the_others_the_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    paced = ["tests/e2e/test_long_game.py", "tests/e2e/test_longer_game.py"]
    monkeypatch.setattr(conftest, "_PACED_FILES", frozenset(paced))
    collection = [
        "tests/cluster/test_restart.py::test_a",
        "tests/e2e/test_lobby.py::test_b",
        "tests/e2e/test_tablet.py::test_c",
        f"{paced[0]}::test_d",
        "tests/games/test_core.py::test_e",
        f"{paced[1]}::test_f",
    ]
    scheduler, (first, second, third) = _scheduler(collection, 3)
    assert _take(scheduler, first, collection) == _PROCESS_UNIT
    assert _take(scheduler, second, collection) == "tests/e2e/test_lobby.py"
    assert _take(scheduler, first, collection) == paced[0]
    assert _take(scheduler, third, collection) == "tests/e2e/test_tablet.py"
    # A busy lane with nothing of its own left helps the paced one, and the other way round.
    assert _take(scheduler, second, collection) == "tests/games/test_core.py"
    assert _take(scheduler, third, collection) == paced[1]


def test_with_nothing_paced_the_first_worker_takes_the_rest_in_order() -> None:
    collection = [f"tests/games/test_{name}.py::test_x" for name in "abc"]
    scheduler, (first, second) = _scheduler(collection, 2)
    assert _take(scheduler, first, collection) == "tests/games/test_a.py"
    assert _take(scheduler, second, collection) == "tests/games/test_b.py"
    assert _take(scheduler, first, collection) == "tests/games/test_c.py"


def test_the_paced_and_long_files_exist() -> None:
    # A renamed file would quietly leave the paced lane, or start among the short files.
    root = Path(__file__).resolve().parents[1]
    assert all((root / path).is_file() for path in _PACED_FILES)
    assert all((root / path).is_file() for path in _LONG_FILES)


def test_the_long_files_start_before_the_short_ones_after_the_browser_files() -> None:
    root = Path(__file__).resolve().parents[1]
    paths = [
        "tests/classroom/test_a_short_one.py",
        _LONG_FILES[1],
        "tests/e2e/test_lobby.py",
        _LONG_FILES[0],
        "tests/cluster/test_restart.py",
    ]
    items = [
        SimpleNamespace(path=root / path, config=SimpleNamespace(rootpath=root)) for path in paths
    ]
    ordered = sorted(items, key=_start_order)  # type: ignore[arg-type]
    assert [item.path.relative_to(root).as_posix() for item in ordered] == [
        "tests/cluster/test_restart.py",
        "tests/e2e/test_lobby.py",
        _LONG_FILES[0],
        _LONG_FILES[1],
        "tests/classroom/test_a_short_one.py",
    ]
