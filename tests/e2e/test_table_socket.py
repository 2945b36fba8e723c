"""table_socket.js against a scripted server (Playwright's WebSocket routing), in Chromium.

The page is a real page of the site (so heartbeat.js and the probe address are the real
ones) with a game root added by hand; the table's socket is answered by the test, which can
say "pending", refuse to store, or drop the link at the moment it wants.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from games.live.round_trip import PROBE_SEQ_BASE
from tests.e2e.conftest import TABLET

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from playwright.sync_api import Browser, Page, WebSocketRoute

pytestmark = pytest.mark.e2e

NOT_COUNTED = "The tablet was offline, so that tap did not count."
HARNESS = """async (url) => {
  const tableSocket = await import(url);
  const root = document.createElement("div");
  root.dataset.tableSocket = "/ws/test/table/";
  root.dataset.seatCode = "TEST42";
  root.dataset.seatToken = "token";
  document.body.appendChild(root);
  const overlay = document.createElement("div");
  overlay.hidden = true;
  overlay.textContent = "Reconnecting…";
  overlay.setAttribute("data-reconnecting", "");
  document.body.appendChild(overlay);
  const saving = document.createElement("p");
  saving.hidden = true;
  saving.setAttribute("data-saving", "");
  saving.dataset.notCounted = NOT_COUNTED_TEXT;
  saving.textContent = "Saving…";
  document.body.appendChild(saving);
  window.errors = [];
  window.views = [];
  window.tableSocket = tableSocket;
  window.table = tableSocket.connectTable(root, {
    onState: (view) => window.views.push(view),
    onError: (frame) => window.errors.push(frame),
  });
}""".replace("NOT_COUNTED_TEXT", json.dumps(NOT_COUNTED))


# The page's own hashed address of heartbeat.js, turned into table_socket.js's.
SCRIPT_URL = """() => document.querySelector("link[href*='/heartbeat.']").href
    .replace(/heartbeat\\.[0-9a-f]+\\.js$/, "table_socket.js")"""


class Server:
    """The scripted table server: every connection and every frame it got."""

    def __init__(self) -> None:
        self.connections: list[WebSocketRoute] = []
        self.frames: list[tuple[int, dict[str, Any]]] = []
        self.on_act: Callable[[int, WebSocketRoute, dict[str, Any]], None] = lambda *_: None

    def accept(self, ws: WebSocketRoute) -> None:
        number = len(self.connections)
        self.connections.append(ws)
        ws.on_message(lambda message: self._message(number, ws, message))
        ws.send(json.dumps({"type": "state", "version": 1, "view": {"n": 1}, "events": []}))

    def _message(self, number: int, ws: WebSocketRoute, message: str | bytes) -> None:
        frame = json.loads(message)
        self.frames.append((number, frame))
        if frame["type"] == "ping":
            ws.send(json.dumps({"type": "pong", "seq": frame["seq"]}))
        elif frame["type"] == "act":
            self.on_act(number, ws, frame)

    def acts(self) -> list[tuple[int, dict[str, Any]]]:
        return [(number, frame) for number, frame in self.frames if frame["type"] == "act"]


def _tablet_open(
    browser: Browser, live_url: str, *, virtual_clock: bool = False
) -> tuple[Page, Server]:
    """A tablet page with the harness connected to a scripted server (its first view in)."""
    context = browser.new_context(
        base_url=live_url, viewport=TABLET, has_touch=True, device_scale_factor=1
    )
    page = context.new_page()
    if virtual_clock:
        page.clock.install()
    server = Server()
    page.route_web_socket("**/ws/test/**", server.accept)
    page.goto("/join/")
    # Polled by interval: a virtual clock holds back animation frames.
    page.wait_for_function("pageModules.live !== undefined", polling=50)
    page.evaluate(HARNESS, page.evaluate(SCRIPT_URL))
    page.wait_for_function("window.views.length === 1", polling=50)
    return page, server


@pytest.fixture
def tablet(browser: Browser, live_url: str) -> Iterator[tuple[Page, Server]]:
    page, server = _tablet_open(browser, live_url)
    yield page, server
    page.context.close()


def test_saving_shows_while_the_server_is_still_storing_an_input(
    tablet: tuple[Page, Server],
) -> None:
    page, server = tablet
    saving = page.locator("[data-saving]")

    def pending_then_later(_number: int, ws: WebSocketRoute, frame: dict[str, Any]) -> None:
        ws.send(json.dumps({"type": "pending", "seq": frame["seq"], "reason": "saving"}))

    server.on_act = pending_then_later
    page.evaluate("window.table.act({kind: 'flip'})")
    expect(saving).to_be_visible()
    (_number, act), *_ = server.acts()
    server.connections[-1].send(json.dumps({"type": "ack", "seq": act["seq"], "version": 2}))
    expect(saving).to_be_hidden()
    assert page.evaluate("window.errors") == []


def test_an_input_the_server_could_not_store_is_kept_and_sent_again(
    tablet: tuple[Page, Server],
) -> None:
    page, server = tablet
    saving = page.locator("[data-saving]")

    def not_saved_once(_number: int, ws: WebSocketRoute, frame: dict[str, Any]) -> None:
        if len(server.acts()) == 1:
            message = "That did not reach the server. Try again."
            error = {"type": "error", "code": "not_saved", "message": message, "seq": frame["seq"]}
            ws.send(json.dumps(error))
        else:
            ws.send(json.dumps({"type": "ack", "seq": frame["seq"], "version": 2}))

    server.on_act = not_saved_once
    page.evaluate("window.table.act({kind: 'flip'})")
    expect(saving).to_be_visible()
    expect(saving).to_be_hidden(timeout=10_000)  # sent again, and stored this time
    first, second = (frame for _number, frame in server.acts())
    assert first == second  # the very same input: its client id makes the server apply it once
    assert page.evaluate("window.errors") == []  # the child was never told "try again"


def test_inputs_made_while_the_link_is_down_are_sent_after_the_reconnect(
    tablet: tuple[Page, Server],
) -> None:
    """The link drops with one input unanswered; two more are made while it is down. After
    the reconnect all three are sent again, in order, as they were. The one the game can no
    longer take is told to the child as not counted (kindly, not as the game's own refusal)."""
    page, server = tablet

    def first_link_drops(number: int, ws: WebSocketRoute, frame: dict[str, Any]) -> None:
        if number == 0:
            ws.close(code=1011, reason="gone")
        elif frame["action"]["kind"] == "slap":
            message = "Too late: that card has already closed."
            error = {"type": "error", "code": "rejected", "message": message, "seq": frame["seq"]}
            ws.send(json.dumps(error))
        else:
            ws.send(json.dumps({"type": "ack", "seq": frame["seq"], "version": 2}))

    server.on_act = first_link_drops
    page.evaluate("window.table.act({kind: 'flip'})")
    page.wait_for_function("window.tableSocket.links[0].log.some(e => e.what === 'lost')")
    # Made while the link is down (the first attempt waits 250 ms at least).
    down = page.evaluate("""() => {
        window.table.act({kind: 'slap', flip: 1, rt_ms: 400});
        window.table.act({kind: 'flip'});
        return !document.querySelector("[data-reconnecting]").hidden;
    }""")
    assert down
    page.wait_for_function("window.errors.length === 1", timeout=15_000)
    expect(page.locator("[data-reconnecting]")).to_be_hidden()

    before, *_ = (frame for number, frame in server.acts() if number == 0)
    after = [frame for number, frame in server.acts() if number == 1]
    assert [frame["action"]["kind"] for frame in after] == ["flip", "slap", "flip"]
    assert after[0] == before
    assert len({frame["cid"] for frame in after}) == 3
    (error,) = page.evaluate("window.errors")
    assert error["message"] == NOT_COUNTED
    assert error["code"] == "rejected"


def test_a_probed_page_answers_each_probe_and_pings_only_when_it_hears_nothing(
    browser: Browser, live_url: str
) -> None:
    """On a virtual clock. For 20 s the scripted server probes every 2 s, as the real one does
    (games/live/heartbeat.py): the page answers each probe at once and sends no ping of its own
    (a ping, its pong, a probe and its answer were most of a school's frames on the server).
    Then it only answers pings: the page pings after each quiet spell (static/js/lib/heartbeat.js
    QUIET_PING_MS). The link is never taken for lost."""
    page, server = _tablet_open(browser, live_url, virtual_clock=True)
    socket = server.connections[0]

    def pings(*, answers: bool) -> list[int]:
        seqs = [frame["seq"] for _n, frame in server.frames if frame["type"] == "ping"]
        return [seq for seq in seqs if (seq >= PROBE_SEQ_BASE) == answers]

    own_before = len(pings(answers=False))
    for second in range(20):
        if second % 2 == 0:
            socket.send(json.dumps({"type": "probe", "seq": PROBE_SEQ_BASE + second}))
        page.clock.run_for(1000)
        page.wait_for_timeout(20)  # the page's answer reaches the scripted server
    assert pings(answers=True) == [PROBE_SEQ_BASE + second for second in range(0, 20, 2)]
    assert len(pings(answers=False)) == own_before

    for _ in range(20):
        page.clock.run_for(1000)
        page.wait_for_timeout(20)  # the scripted server's pong reaches the page
    own = len(pings(answers=False)) - own_before
    # A ping 2.5 s after the last frame heard (checked every 250 ms; the pong comes back at
    # the end of the virtual second it went in): one every 2.5-3 s.
    assert 6 <= own <= 8, own
    assert len(server.connections) == 1
    assert not page.evaluate("window.tableSocket.links[0].log.some(e => e.what === 'lost')")
    page.context.close()
