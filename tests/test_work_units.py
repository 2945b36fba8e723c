"""The suite's xdist work units: a file stays on one worker, and the tests that start real
server processes share one unit, so they run one after another."""

from __future__ import annotations

from tests.conftest import _work_unit


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
