"""A tablet whose page is hidden (another tab or a notification in front) gets a couple of
frames a second, or none: the card it shows may never have had a first frame to time from.
A slap on it is still sent and answered, and stored without a reaction time with the reason;
when the page is shown again it asks the server for the table as it is now."""

from __future__ import annotations

import json
import sqlite3
import time
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.conftest import screenshot, teacher_sign_up
from tests.e2e.test_palm_strike import Player
from tests.e2e.test_palm_strike_play import _answer_after, _join, _session, _start, _touch, _view

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Page

pytestmark = pytest.mark.e2e

# The page as a browser keeps it behind another tab: no animation frame comes, the document
# says it is hidden. Every frame the page sends is kept in window.__sent.
HIDE = """() => {
  window.__sent = [];
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    window.__sent.push(JSON.parse(data));
    return send.call(this, data);
  };
  window.__frame = window.requestAnimationFrame;
  window.requestAnimationFrame = () => 0;
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
  document.dispatchEvent(new Event('visibilitychange'));
}"""

SHOW = """() => {
  window.requestAnimationFrame = window.__frame;
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
  document.dispatchEvent(new Event('visibilitychange'));
}"""


def _stored_flip(database: str, name: str, flip: int) -> dict[str, Any] | None:
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT trial.data FROM classroom_trial AS trial"
            " JOIN classroom_seat AS seat ON seat.id = trial.seat_id"
            " WHERE trial.kind = 'palm_strike.flip' AND seat.name = ?",
            (name,),
        ).fetchall()
    found = [json.loads(raw) for (raw,) in rows]
    return next((data for data in found if data["flip"] == flip), None)


def test_a_slap_on_a_hidden_page_is_answered_and_stored_without_an_rt(
    teacher_page: Page, open_tablet: Callable[..., Page], server_env: dict[str, str]
) -> None:
    teacher_sign_up(teacher_page, "ms-hidden")
    code = _session(teacher_page, players=2, auto=3.0, window=2.5)
    hana = Player("Hana", 0, open_tablet())
    _join(code, hana.page, "Hana")
    _start(teacher_page, [hana])  # a robot takes the table's other seat
    page = hana.page

    page.evaluate(HIDE)
    before = int(_view(page).get("flip") or 0)
    page.wait_for_function(
        f"() => {{ const t = pageModules.palm_strike?.tablet;"
        f" return t.view.phase === 'open' && t.view.flip > {before}"
        f" && t.shownFlip === t.view.flip; }}",
        timeout=10000,
    )
    flip = int(_view(page)["flip"])
    assert page.evaluate("pageModules.palm_strike?.tablet.onset") is None
    answer = _answer_after(page, _touch(page, f'[data-flip="{flip}"]'))
    screenshot(page, "palm-hidden-page-answered")

    slaps = [f for f in page.evaluate("window.__sent") if f.get("type") == "act"]
    assert [frame["action"] for frame in slaps] == [
        {"kind": "slap", "flip": flip, "rtt_ms": slaps[0]["action"]["rtt_ms"], "untimed": "hidden"}
    ]
    assert answer["text"], answer

    database = server_env["DATABASE_URL"].removeprefix("sqlite:///")
    deadline = time.monotonic() + 15
    stored = _stored_flip(database, "Hana", flip)
    while stored is None and time.monotonic() < deadline:
        time.sleep(0.2)
        stored = _stored_flip(database, "Hana", flip)
    assert stored is not None, f"flip {flip} of Hana never stored"
    assert stored["response"] == "slap"
    assert stored["rt_ms"] is None
    assert stored["untimed"] == "hidden"

    # Shown again: the page asks for the table as it is now, and draws the flips it missed.
    sent = len(page.evaluate("window.__sent"))
    page.evaluate(SHOW)
    page.wait_for_function(f"window.__sent.slice({sent}).some(f => f.type === 'sync')")
    page.wait_for_function(
        f"pageModules.palm_strike?.tablet.view.flip > {flip}"
        " && pageModules.palm_strike?.tablet.onset !== null",
        timeout=10000,
    )
    screenshot(page, "palm-hidden-page-shown-again")
