"""The serving process's launcher: Daphne on uvloop unless told otherwise, and a clear refusal
of a loop it cannot have."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.request
from typing import TYPE_CHECKING

import pytest

from classroom.server.serve import EventLoopChoiceError, event_loop_install
from tests.cluster.processes import free_port
from tests.served_site import ROOT, served

if TYPE_CHECKING:
    from pathlib import Path


def _event_loop_of(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/_diagnostics/", timeout=10) as answer:
        return str(json.load(answer)["event_loop"])


def test_the_server_runs_on_uvloop(tmp_path: Path) -> None:
    with served(tmp_path, SNAPCLASS_DIAGNOSTICS="1") as port:
        assert _event_loop_of(port) == "uvloop"


def test_snapclass_event_loop_asyncio_keeps_pythons_own_loop(tmp_path: Path) -> None:
    with served(tmp_path, SNAPCLASS_DIAGNOSTICS="1", SNAPCLASS_EVENT_LOOP="asyncio") as port:
        assert _event_loop_of(port) == "asyncio"


def test_an_unknown_loop_stops_the_launcher_with_a_message(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "classroom.server.serve", "-p", str(free_port()),
         "classroom.asgi:application"],
        cwd=ROOT, env={"PATH": "/usr/bin:/bin", "SNAPCLASS_EVENT_LOOP": "tokio"},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip

    assert done.returncode == 1
    assert "SNAPCLASS_EVENT_LOOP is 'tokio': it must be one of uvloop, asyncio" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_choice_after_daphnes_loop_exists_is_refused_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "daphne.server", object())
    policy = asyncio.get_event_loop_policy()

    with pytest.raises(EventLoopChoiceError, match=r"before importing daphne\.server"):
        event_loop_install(choice="uvloop")

    assert asyncio.get_event_loop_policy() is policy


def test_an_unknown_choice_is_refused_and_changes_nothing() -> None:
    policy = asyncio.get_event_loop_policy()

    with pytest.raises(EventLoopChoiceError, match="must be one of uvloop, asyncio"):
        event_loop_install(choice="trio")

    assert asyncio.get_event_loop_policy() is policy


def test_uvloop_on_windows_is_refused_with_the_way_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    policy = asyncio.get_event_loop_policy()

    with pytest.raises(EventLoopChoiceError, match="SNAPCLASS_EVENT_LOOP=asyncio"):
        event_loop_install(choice="uvloop")

    assert asyncio.get_event_loop_policy() is policy
