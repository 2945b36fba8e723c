"""The session each join code opened, remembered per process, the oldest forgotten first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from classroom.pages import code_sessions
from classroom.pages.code_sessions import code_session_hint, code_session_remember

if TYPE_CHECKING:
    import pytest


def test_a_code_is_remembered_with_its_latest_session() -> None:
    assert code_session_hint("NEVER9") is None
    code_session_remember("ABC234", 7)
    assert code_session_hint("ABC234") == 7
    code_session_remember("ABC234", 8)  # the code was given out again
    assert code_session_hint("ABC234") == 8


def test_past_the_limit_the_least_recently_remembered_code_goes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(code_sessions, "REMEMBERED", 2)
    monkeypatch.setattr(code_sessions, "_sessions", type(code_sessions._sessions)())
    code_session_remember("AAAAA2", 1)
    code_session_remember("BBBBB2", 2)
    code_session_remember("AAAAA2", 1)  # seen again: now the most recent
    code_session_remember("CCCCC2", 3)
    assert code_session_hint("BBBBB2") is None
    assert code_session_hint("AAAAA2") == 1
    assert code_session_hint("CCCCC2") == 3
