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

# static/js/lib/offline_inputs.js: a tap the server has not answered by then means the link
# is down.
ANSWER_WITHIN_MS = 200

NOT_COUNTED = "The tablet was offline, so that tap did not count."
RACE = "The tablet is offline, so this tap cannot count."
KEPT = "The tablet is offline. Your tap is kept and sent when it is back."
HARNESS = (
    """async (url) => {
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
  const answer = document.createElement("p");
  answer.hidden = true;
  answer.setAttribute("data-offline-answer", "");
  answer.dataset.race = RACE_TEXT;
  answer.dataset.kept = KEPT_TEXT;
  document.body.appendChild(answer);
  window.errors = [];
  window.views = [];
  window.tableSocket = tableSocket;
  window.table = tableSocket.connectTable(root, {
    onState: (view) => window.views.push(view),
    onError: (frame) => window.errors.push(frame),
  });
}""".replace("NOT_COUNTED_TEXT", json.dumps(NOT_COUNTED))
    .replace("RACE_TEXT", json.dumps(RACE))
    .replace("KEPT_TEXT", json.dumps(KEPT))
)


# The page's own hashed address of heartbeat.js, turned into table_socket.js's.
SCRIPT_URL = """() => document.querySelector("link[href*='/heartbeat.']").href
    .replace(/heartbeat\\.[0-9a-f]+\\.js$/, "table_socket.js")"""


class Server:
    """The scripted table server: every connection and every frame it got."""

    def __init__(self) -> None:
        self.connections: list[WebSocketRoute] = []
        self.frames: list[tuple[int, dict[str, Any]]] = []
        self.on_act: Callable[[int, WebSocketRoute, dict[str, Any]], None] = lambda *_: None
        # A link that takes frames and answers none (a Wi-Fi that has gone quiet).
        self.deaf = False
        # The first view goes as the socket opens, or only when the test sends it (a join
        # that waits on a busy database).
        self.view_at_once = True

    def accept(self, ws: WebSocketRoute) -> None:
        number = len(self.connections)
        self.connections.append(ws)
        ws.on_message(lambda message: self._message(number, ws, message))
        if self.view_at_once:
            self.first_view(ws)

    def first_view(self, ws: WebSocketRoute) -> None:
        ws.send(json.dumps({"type": "state", "version": 1, "view": {"n": 1}, "events": []}))

    def _message(self, number: int, ws: WebSocketRoute, message: str | bytes) -> None:
        frame = json.loads(message)
        self.frames.append((number, frame))
        if self.deaf:
            return
        if frame["type"] == "ping":
            ws.send(json.dumps({"type": "pong", "seq": frame["seq"]}))
        elif frame["type"] == "act":
            self.on_act(number, ws, frame)

    def acts(self) -> list[tuple[int, dict[str, Any]]]:
        return [(number, frame) for number, frame in self.frames if frame["type"] == "act"]


def _tablet_open(
    browser: Browser, live_url: str, *, virtual_clock: bool = False, joined: bool = True
) -> tuple[Page, Server]:
    """A tablet page with the harness connected to a scripted server (its first view in,
    unless not ``joined``: then the server holds it until the test sends it)."""
    context = browser.new_context(
        base_url=live_url, viewport=TABLET, has_touch=True, device_scale_factor=1
    )
    page = context.new_page()
    if virtual_clock:
        page.clock.install()
    server = Server()
    server.view_at_once = joined
    page.route_web_socket("**/ws/test/**", server.accept)
    page.goto("/join/")
    # Polled by interval: a virtual clock holds back animation frames.
    page.wait_for_function("pageModules.live !== undefined", polling=50)
    page.evaluate(HARNESS, page.evaluate(SCRIPT_URL))
    if joined:
        page.wait_for_function("window.views.length === 1", polling=50)
    else:
        page.wait_for_function("window.tableSocket.links[0].opens === 1", polling=50)
    return page, server


def _pause(page: Page) -> None:
    """From here on the page's time moves only when the test moves it (a second on from now:
    Playwright's Python takes the time in seconds)."""
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)


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


def test_inputs_made_while_the_link_is_down_are_answered_at_once_and_kept_or_dropped(
    tablet: tuple[Page, Server],
) -> None:
    """The link drops with one input unanswered; three more are made while it is down. Each
    is answered at once: the slap (a race) cannot count and is never sent; the flips are kept
    and, after the reconnect, sent again in order as they were. One the game can no longer
    take is told to the child as not counted (kindly, not as the game's own refusal)."""
    page, server = tablet
    answer = page.locator("[data-offline-answer]")

    def first_link_drops(number: int, ws: WebSocketRoute, frame: dict[str, Any]) -> None:
        if number == 0:
            ws.close(code=1011, reason="gone")
        elif len([n for n, _frame in server.acts() if n == 1]) == 2:
            # The second flip, made offline: the game moved on meanwhile.
            message = "Not your turn."
            error = {"type": "error", "code": "rejected", "message": message, "seq": frame["seq"]}
            ws.send(json.dumps(error))
        else:
            ws.send(json.dumps({"type": "ack", "seq": frame["seq"], "version": 2}))

    server.on_act = first_link_drops
    page.evaluate("window.table.act({kind: 'flip'})")
    page.wait_for_function("window.tableSocket.links[0].log.some(e => e.what === 'lost')")
    # Made while the link is down (the first attempt waits 250 ms at least); each answered
    # before the call returns.
    told = page.evaluate("""() => {
        const answer = () => document.querySelector("[data-offline-answer]");
        const told = [];
        window.table.act({kind: 'slap', flip: 1, rt_ms: 400});
        told.push(answer().hidden ? "" : answer().textContent);
        window.table.act({kind: 'flip'});
        told.push(answer().hidden ? "" : answer().textContent);
        window.table.act({kind: 'catch', piece: 3, rt_ms: 500});
        told.push(answer().hidden ? "" : answer().textContent);
        return {told, down: !document.querySelector("[data-reconnecting]").hidden};
    }""")
    assert told == {"told": [RACE, KEPT, RACE], "down": True}
    expect(answer).to_be_visible()
    page.wait_for_function("window.errors.length === 1", timeout=15_000)
    expect(page.locator("[data-reconnecting]")).to_be_hidden()

    before, *_ = (frame for number, frame in server.acts() if number == 0)
    after = [frame for number, frame in server.acts() if number == 1]
    assert [frame["action"]["kind"] for frame in after] == ["flip", "flip"]
    assert after[0] == before
    assert len({frame["cid"] for frame in after}) == 2
    log = page.evaluate("window.tableSocket.links[0].log")
    assert [e["what"] for e in log if e["what"].startswith("offline-")] == [
        "offline-dropped",
        "offline-kept",
        "offline-dropped",
    ]
    (error,) = page.evaluate("window.errors")
    assert error["message"] == NOT_COUNTED
    assert error["code"] == "rejected"


def test_a_tap_the_server_does_not_answer_is_answered_within_300_ms(
    browser: Browser, live_url: str
) -> None:
    """On a virtual clock. The link goes quiet (frames go out, nothing comes back) and the
    heartbeat has not noticed yet: a slap is answered "cannot count" 200 ms after the tap, not
    a moment before, with the overlay, and the link is in doubt but not dropped. The server
    was only busy: its next frame clears the doubt with no reconnect, and the slap is never
    sent again. A flip on the next quiet link is answered "kept"; that link is really gone, so
    the heartbeat drops it 3 s on and the flip goes again after the reconnect."""
    page, server = _tablet_open(browser, live_url, virtual_clock=True)
    answer = page.locator("[data-offline-answer]")
    overlay = page.locator("[data-reconnecting]")
    _pause(page)
    server.deaf = True
    page.evaluate("window.table.act({kind: 'slap', flip: 1, rt_ms: 400})")
    page.clock.run_for(ANSWER_WITHIN_MS - 1)
    log = page.evaluate("window.tableSocket.links[0].log")
    assert page.evaluate("document.querySelector('[data-offline-answer]').hidden"), log
    page.clock.run_for(1)
    expect(answer).to_have_text(RACE)
    expect(overlay).to_be_visible()
    log = page.evaluate("window.tableSocket.links[0].log")
    assert [e["what"] for e in log if e["what"] in ("doubt", "lost")] == ["doubt"]

    # Busy, not gone: the heartbeat's next ping is answered, and the doubt clears on it.
    server.deaf = False
    for _ in range(40):
        if page.evaluate("document.querySelector('[data-reconnecting]').hidden"):
            break
        page.clock.run_for(250)
        page.wait_for_timeout(20)  # the ping reaches the scripted server and its pong comes
    expect(overlay).to_be_hidden()
    log = page.evaluate("window.tableSocket.links[0].log")
    assert [e["what"] for e in log if e["what"] in ("doubt", "heard", "lost")] == [
        "doubt",
        "heard",
    ]
    assert page.evaluate("window.tableSocket.links[0].opens") == 1

    server.deaf = True
    page.evaluate("window.table.act({kind: 'flip'})")
    page.clock.run_for(ANSWER_WITHIN_MS)
    expect(answer).to_have_text(KEPT)
    # Gone: nothing is heard, and the heartbeat drops the link.
    page.clock.run_for(3500)
    log = page.evaluate("window.tableSocket.links[0].log")
    assert [e["detail"] for e in log if e["what"] == "lost"] == ["silent"], log
    server.deaf = False
    server.on_act = lambda _n, ws, frame: ws.send(
        json.dumps({"type": "ack", "seq": frame["seq"], "version": 2})
    )
    for _ in range(40):
        if page.evaluate("window.tableSocket.links[0].opens") == 2:
            break
        page.clock.run_for(250)
        page.wait_for_timeout(20)  # the probe and the handshake reach the scripted server
    assert page.evaluate("window.tableSocket.links[0].opens") == 2
    expect(overlay).to_be_hidden()
    page.wait_for_function("document.querySelector('[data-saving]').hidden", polling=50)
    kinds = [(n, frame["action"]["kind"]) for n, frame in server.acts()]
    # The slap went once, into the quiet link; the flip into the quiet link and again after.
    assert kinds == [(0, "slap"), (0, "flip"), (1, "flip")]
    page.context.close()


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


def test_a_join_that_waits_on_the_database_is_waited_for_then_held_to_the_heartbeat(
    browser: Browser, live_url: str
) -> None:
    """A class joining a busy school: the socket opens at once, but its first view comes
    seconds later, and until then the server reads nothing (it answers no ping). The page
    waits for the view instead of taking the quiet link for lost and reconnecting (each
    reconnect would cost the busy server another join); from the view on, the heartbeat
    holds the link as ever."""
    page, server = _tablet_open(browser, live_url, virtual_clock=True, joined=False)
    _pause(page)
    server.deaf = True
    for _ in range(32):  # 8 s of joining
        page.clock.run_for(250)
        page.wait_for_timeout(10)
    log = page.evaluate("window.tableSocket.links[0].log")
    assert not [entry for entry in log if entry["what"] == "lost"], log
    assert len(server.connections) == 1
    expect(page.locator("[data-reconnecting]")).to_be_hidden()

    server.deaf = False
    server.first_view(server.connections[0])
    page.wait_for_function("window.views.length === 1", polling=50)
    # Joined: a link that then goes quiet is lost within the heartbeat's 3.5 s.
    server.deaf = True
    page.clock.run_for(3500)
    log = page.evaluate("window.tableSocket.links[0].log")
    assert [entry["detail"] for entry in log if entry["what"] == "lost"] == ["silent"], log
    page.context.close()
