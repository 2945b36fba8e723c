"""Every tap on a Commotion tablet is answered, and the answer lies where it can be read (issue
45): fully on screen in both orientations, over neither the instruction line, the centre piles
nor the child's own cards; a tap that cannot play anything says at once what to tap instead.

The page is the site's own game page for a real seat; its table socket is answered by a small
host in the test that runs the real engine on an arranged table, so the cards are known.
"""

from __future__ import annotations

import itertools
import json
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import expect

from games.commotion.rules import act, view
from tests.e2e.conftest import screenshot, teacher_sign_up
from tests.e2e.test_lobby import _create_class, _join_by_roster
from tests.games.commotion.support import GO, arranged, filler, n, pile

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Page, WebSocketRoute

    from games.commotion.state import State

pytestmark = pytest.mark.e2e

ORIENTATIONS = {
    "landscape": {"width": 1024, "height": 768},
    "portrait": {"width": 768, "height": 1024},
}
ME = 0
# Each test's teacher signs up on the same server.
TEACHERS = itertools.count(1)
WRONG_CARD, RIGHT_CARD = 0, 1  # red 5 fits no pile; blue 2 fits the START pile


def _table() -> State:
    """Ava's row: a red 5 (fits nowhere), a blue 2 (fits the START pile), fillers; a stock."""
    return arranged(
        {ME: [n(ME, "red", 5), n(ME, "blue", 2), *filler(ME, 3)], 1: filler(1, 5)},
        centre=[pile(1, "green", 1)],
        refills={ME: filler(ME, 4, colour="green"), 1: filler(1, 4, colour="green")},
        stocks={ME: filler(ME, 6, colour="red", high=11)},
    )


class TableHost:
    """The table's socket, answered with the real engine's views and refusals."""

    def __init__(self) -> None:
        self.state = _table()
        self.version = 1
        self.countdown = False
        # What the view says beyond the engine's (the host's own fields, a round's scores).
        self.extra: dict[str, Any] = {}
        self.sockets: list[WebSocketRoute] = []
        self.acts: list[dict[str, Any]] = []

    def accept(self, ws: WebSocketRoute) -> None:
        self.sockets.append(ws)
        ws.on_message(lambda message: self._message(ws, message))
        self.send_view()

    def send_view(self) -> None:
        seen = view(self.state, ME)
        seen.update(paused=False, ended=False, game_ms=GO + 100)
        if self.countdown:
            seen.update(phase="countdown", go_at_ms=GO + 60_000, playable=[])
        seen.update(self.extra)
        self.version += 1
        frame = {"type": "state", "version": self.version, "view": seen, "events": []}
        for ws in self.sockets:
            ws.send(json.dumps(frame))

    def _message(self, ws: WebSocketRoute, message: str | bytes) -> None:
        frame = json.loads(message)
        if frame["type"] == "ping":
            ws.send(json.dumps({"type": "pong", "seq": frame["seq"]}))
        elif frame["type"] == "act":
            self.acts.append(frame["action"])
            outcome = act(self.state, ME, frame["action"], GO + 200)
            if outcome.rejected is not None:
                answer = {"code": "rejected", "message": outcome.rejected}
                ws.send(json.dumps({"type": "error", "seq": frame["seq"], **answer}))
            else:
                ws.send(json.dumps({"type": "ack", "seq": frame["seq"], "version": self.version}))
                self.state = outcome.state
                self.send_view()


# The answer's box once its pop-in is over, beside what it must not cover.
MEASURE = """async () => {
  const bubble = document.querySelector('[data-feedback]');
  await Promise.all(bubble.getAnimations().map((a) => a.finished));
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const all = (selector) => [...document.querySelectorAll(selector)].map(box);
  return {
    text: bubble.textContent, shown: !bubble.hidden, bubble: box(bubble),
    status: box(document.querySelector('[data-status]')),
    piles: all('[data-centre] .cm-pile'), cards: all('[data-tableau] .cm-pick, [data-waste] > *'),
    width: innerWidth, height: innerHeight,
  };
}"""


def _inside(inner: list[float], outer: list[float]) -> bool:
    return all(inner[i] >= outer[i] - 0.5 for i in (0, 1)) and all(
        inner[i] <= outer[i] + 0.5 for i in (2, 3)
    )


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _check_answer(tablet: Page, expected: str, where: str) -> None:
    bubble = tablet.locator("[data-feedback]")
    expect(bubble).to_have_text(expected)
    seen: dict[str, Any] = tablet.evaluate(MEASURE)
    box = seen["bubble"]
    assert seen["shown"], f"{where}: no answer shown"
    screen = [0.0, 0.0, float(seen["width"]), float(seen["height"])]
    assert _inside(box, screen), f"{where}: the answer is off screen {seen}"
    assert not _overlap(box, seen["status"]), f"{where}: covers the instruction line {seen}"
    for other in seen["piles"] + seen["cards"]:
        assert not _overlap(box, other), f"{where}: covers a card {other}: {seen}"


def _answered_here(
    tablet: Page, host: TableHost, tap: Callable[[], None], words: str, where: str
) -> None:
    """A tap answered by the tablet itself: nothing goes to the server, the words show at once."""
    sent = len(host.acts)
    tap()
    _check_answer(tablet, words, where)
    assert len(host.acts) == sent, f"{where}: sent to the server {host.acts[sent:]}"
    _wait_hidden(tablet)


def _wait_hidden(tablet: Page) -> None:
    expect(tablet.locator("[data-feedback]")).to_be_hidden()


@pytest.fixture
def seated(teacher_page: Page, new_tablet: Callable[[], Page]) -> tuple[Page, TableHost]:
    """Ava at a Commotion table (with a bot), her table socket answered by ``TableHost``."""
    teacher = teacher_page
    teacher_sign_up(teacher, f"ms-commotion-answers-{next(TEACHERS)}")
    _create_class(teacher)
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label="Commotion")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.get_by_label("Session code").inner_text().strip()
    host = TableHost()
    tablet = new_tablet()
    tablet.route_web_socket("**/ws/play/*/table/**", host.accept)
    _join_by_roster(tablet, code, "Ava")
    teacher.get_by_role("button", name="Start").click()
    expect(tablet.locator("[data-tableau] .cm-pick")).to_have_count(5, timeout=10_000)
    return tablet, host


def test_every_answer_lies_on_screen_clear_of_the_instruction_line_and_the_cards(
    seated: tuple[Page, TableHost],
) -> None:
    tablet, host = seated
    cards = tablet.locator("[data-tableau] .cm-pick")
    for name, size in ORIENTATIONS.items():
        tablet.set_viewport_size(size)
        # A pile tapped with no card picked up: pick a card first.
        _answered_here(
            tablet,
            host,
            lambda: tablet.locator(".cm-pile").first.tap(),
            "Tap one of your cards first, then a pile.",
            f"{name}, pile first",
        )
        # Another player's cards: not yours to play.
        _answered_here(
            tablet,
            host,
            lambda: tablet.locator(".cm-opponent").first.tap(),
            "Those are another player's cards. Tap yours, at the bottom.",
            f"{name}, another's cards",
        )
        # The stock while a card of the row fits: play that first.
        _answered_here(
            tablet,
            host,
            lambda: tablet.locator("[data-stock]").tap(),
            "A card in your row fits a pile: play it first!",
            f"{name}, stock",
        )
        # A wrong play: the server's own words, where they can be read.
        cards.nth(WRONG_CARD).tap()
        tablet.locator(".cm-pile").first.tap()
        _check_answer(tablet, "That pile needs a 2 first.", f"{name}, wrong play")
        # Timed like any play (static/js/commotion_times.js), not sent as 0.
        assert host.acts[-1]["rt_ms"] > 0, host.acts[-1]
        screenshot(tablet, f"commotion-answer-{name}")
        _wait_hidden(tablet)
    # Before GO every tap is told to wait, a card as much as a pile.
    host.countdown = True
    host.send_view()
    for name, size in ORIENTATIONS.items():
        tablet.set_viewport_size(size)
        _answered_here(tablet, host, lambda: cards.nth(RIGHT_CARD).tap(), "Wait for GO!", name)
        _answered_here(
            tablet, host, lambda: tablet.locator(".cm-pile").first.tap(), "Wait for GO!", name
        )


# Round 1 scored: Ava still had 12 cards to clear, the robot called OUT.
ROUND_ONE = [
    {"round": 1, "seat": 0, "centre_cards": 2, "refill_left": 12, "out_bonus": 0,
     "round_score": -22, "total": -22},
    {"round": 1, "seat": 1, "centre_cards": 4, "refill_left": 0, "out_bonus": 5,
     "round_score": 9, "total": 9},
]  # fmt: skip


@pytest.mark.parametrize(
    "when",
    [
        {"phase": "playing", "round": 2, "rounds": ROUND_ONE},
        {
            "phase": "round_over",
            "round": 1,
            "rounds": ROUND_ONE,
            "out_by": 1,
            "next_round_at_ms": GO + 8000,
        },
    ],
    ids=["mid-round", "between rounds"],
)
def test_a_game_the_teacher_ends_early_is_shown_unfinished(
    seated: tuple[Page, TableHost], when: dict[str, Any]
) -> None:
    """No scores of an unfinished game, no winner: only that it stopped before the end."""
    tablet, host = seated
    host.extra = {**when, "ended": True}
    host.send_view()
    over = tablet.locator("[data-over]")
    expect(over).to_be_visible()
    expect(over).to_contain_text("The game stopped before the end.")
    expect(over).to_contain_text("Nobody wins this time.")
    expect(over).not_to_contain_text("wins!")
    expect(tablet.locator(".cm-scores")).to_have_count(0)
    screenshot(tablet, "commotion-ended-early")
