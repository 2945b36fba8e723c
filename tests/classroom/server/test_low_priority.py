"""The builds' low CPU priority: a thread of their own at the set niceness, the worker's own
thread (and so every purge) left at the site's."""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

import pytest

from classroom.server.low_priority import low_priority_run, low_priority_set

if TYPE_CHECKING:
    from collections.abc import Iterator


def _niceness() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


@pytest.fixture
def niceness_reset() -> Iterator[None]:
    yield
    low_priority_set(niceness=0)


def test_the_work_runs_lowered_on_its_own_thread_and_the_caller_stays(niceness_reset: None) -> None:
    caller = _niceness()
    low_priority_set(niceness=7)
    seen = low_priority_run(lambda: (threading.get_ident(), _niceness()))
    assert seen[0] != threading.get_ident()
    assert seen[1] == min(19, caller + 7)
    assert _niceness() == caller


def test_the_work_s_error_reaches_the_caller(niceness_reset: None) -> None:
    low_priority_set(niceness=19)

    def broken() -> None:
        raise LookupError("no such export")

    with pytest.raises(LookupError, match="no such export"):
        low_priority_run(broken)


def test_with_no_niceness_set_the_work_runs_inline() -> None:
    assert low_priority_run(threading.get_ident) == threading.get_ident()


@pytest.mark.parametrize("niceness", [-1, 20])
def test_a_niceness_out_of_range_is_refused(niceness: int) -> None:
    with pytest.raises(ValueError, match="0-19"):
        low_priority_set(niceness=niceness)
