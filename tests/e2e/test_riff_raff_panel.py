"""Riff Raff's side panel on a tablet held either way (issue 45), in English and in Chinese:
at a full table (four, the most the game seats) every card and choice button lies whole on the
screen without scrolling, the rotate buttons say what they do, and every tap on the ship that
cannot be played now is answered in the same event with what to do instead, in a bubble that
lies inside the screen and covers neither the instruction line, the buttons to tap nor the
ship."""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.conftest import screenshot, teacher_sign_up, warmup_skip
from tests.e2e.test_commotion_layout import _inside
from tests.e2e.test_lobby import _create_class, _join_by_roster
from tests.e2e.test_riff_raff_ship import _drag_onto_number

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
SIZES = (("landscape", LANDSCAPE), ("portrait", PORTRAIT))
# A full table: the most the game seats (games/riff_raff/spec.py), the most rows on the panel.
PLAYERS = 4
WAIT_S = 150
TAP_MS = 2000
TOUCH_MIN_PX = 44

# Every button of the panel (cards, 1 or 2, names, rotate), as the child's finger meets it.
BUTTONS = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const side = document.querySelector('.rr-side');
  return {
    screen: [0, 0, innerWidth, innerHeight],
    sideScrolls: side.scrollHeight > side.clientHeight + 1,
    ship: box(document.querySelector('.rr-canvas')),
    buttons: [...document.querySelectorAll('[data-controls] button')].map((b) => {
      const r = b.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { name: b.textContent, box: box(b), tappable: !!hit && b.contains(hit) };
    }),
  };
}"""

# Every tap on the ship, seen by the document after the page's own handler ran (the same
# event): the phase, whether the answer was showing, its words and where it lies beside what it
# must not cover. The pop-in is finished first, so the box is the bubble's full size.
RECORD_TAPS = """() => {
  window.rrTaps = [];
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  document.addEventListener('pointerdown', (event) => {
    const canvas = document.querySelector('.rr-canvas');
    if (event.target !== canvas) return;
    const rr = pageModules.riff_raff.tablet, v = rr.view;
    const bubble = document.querySelector('[data-feedback]');
    const shown = !bubble.hidden;
    if (shown) bubble.getAnimations().forEach((a) => a.finish());
    window.rrTaps.push({
      phase: v.phase, you: v.you, active: v.active, mine: v.active === v.you,
      chosen: !!(v.chosen && v.chosen[String(v.you)]), dragging: !!rr.dragging,
      shown, text: bubble.textContent.trim(),
      whole: bubble.scrollHeight <= bubble.clientHeight + 1
        && bubble.scrollWidth <= bubble.clientWidth + 1,
      orientation: innerWidth > innerHeight ? 'landscape' : 'portrait',
      bubble: box(bubble), screen: [0, 0, innerWidth, innerHeight],
      status: box(document.querySelector('[data-status]')), ship: box(canvas),
      buttons: [...document.querySelectorAll('[data-controls] button')].map(box),
    });
  });
}"""


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _check_buttons(tablet: Page, where: str) -> int:
    """The ship and every button of the panel whole on screen, buttons finger-sized and not
    covered."""
    seen: dict[str, Any] = tablet.evaluate(BUTTONS)
    assert not seen["sideScrolls"], f"{where}: the panel scrolls {seen}"
    # The ship, with all ten numbers, whole on screen too (the buttons did not push it out).
    assert _inside(seen["ship"], seen["screen"]), f"{where}: the ship is cut {seen['ship']}"
    for button in seen["buttons"]:
        label = f"{where}: button {button['name']!r}"
        assert _inside(button["box"], seen["screen"]), f"{label} is off screen {button['box']}"
        width, height = button["box"][2] - button["box"][0], button["box"][3] - button["box"][1]
        assert min(width, height) >= TOUCH_MIN_PX, f"{label} is too small {button['box']}"
        assert button["tappable"], f"{label}: a tap at its middle hits something else"
    return len(seen["buttons"])


def _each_way(tablet: Page, check: Callable[[str], None]) -> None:
    for name, size in SIZES:
        tablet.set_viewport_size(size)
        check(name)
    tablet.set_viewport_size(LANDSCAPE)


def _tap_the_ship(tablet: Page) -> None:
    """A tap on the sky over the ship, where no cargo is."""
    box = tablet.locator(".rr-canvas").bounding_box()
    assert box is not None
    tablet.touchscreen.tap(box["x"] + box["width"] * 0.12, box["y"] + box["height"] * 0.12)


def _drop_in_the_sky(tablet: Page) -> None:
    box = tablet.locator(".rr-canvas").bounding_box()
    assert box is not None
    tablet.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.3)
    tablet.mouse.down()
    tablet.mouse.move(box["x"] + box["width"] * 0.9, box["y"] + box["height"] * 0.1, steps=4)
    tablet.mouse.up()


def _later_round_checked(checked: dict[str, int]) -> bool:
    return all(f"cards, round 2, {orientation}" in checked for orientation, _size in SIZES)


def _create_table(teacher: Page, players: int) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label="Riff Raff")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    teacher.get_by_label("Players per table").fill(str(players))
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


@pytest.mark.timeout(WAIT_S + 60)
@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_every_button_fits_and_every_tap_on_the_ship_is_answered_both_ways(
    teacher_page: Page, open_tablet: Callable[..., Page], language: str
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, f"ms-rr-panel-{language}")
    _create_class(teacher)
    code = _create_table(teacher, PLAYERS)
    ava = open_tablet(LANDSCAPE)
    _join_by_roster(ava, code, "Ava")
    # The game page in the tablet's language from here on (the join pages are the same).
    site = ava.url.split("/play/")[0]
    ava.context.add_cookies([{"name": "django_language", "value": language, "url": site}])
    teacher.get_by_role("button", name="Start").click()
    ava.wait_for_function(
        "() => pageModules.riff_raff?.tablet?.view?.phase === 'choosing'", timeout=10000
    )
    labels: dict[str, Any] = ava.evaluate(
        "() => JSON.parse(document.getElementById('rr-labels').textContent)"
    )
    assert len(ava.evaluate("() => pageModules.riff_raff.tablet.view.players")) == PLAYERS
    ava.evaluate(RECORD_TAPS)

    checked: dict[str, int] = {}
    tapped: set[tuple[str, str, int | None]] = set()
    turned = False
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        view: dict[str, Any] = ava.evaluate("() => pageModules.riff_raff.tablet.view")
        phase, me = view["phase"], view["you"]
        if phase == "game_over" or (turned and _later_round_checked(checked) and len(tapped) > 1):
            break
        with contextlib.suppress(PlaywrightTimeoutError):
            if phase == "choosing" and not view["chosen"][str(me)]:
                key = f"cards, round {view['round']}"

                def cards(orientation: str, key: str = key) -> None:
                    checked[f"{key}, {orientation}"] = _check_buttons(ava, f"{key}, {orientation}")
                    # The ship cannot be played now: the answer says to tap a card.
                    _tap_the_ship(ava)

                _each_way(ava, cards)
                if view["round"] == 1:
                    screenshot(ava, f"riff-raff-panel-{language}-landscape")
                card = min(view["cards_left"])  # the lowest card: Ava loads last, and waits
                ava.locator("[data-controls]").get_by_role(
                    "button", name=str(card), exact=True
                ).tap(timeout=TAP_MS)
            elif phase == "placing" and view["active"] == me:

                def rotate(orientation: str) -> None:
                    checked[f"rotate, {orientation}"] = _check_buttons(
                        ava, f"rotate, {orientation}"
                    )

                _each_way(ava, rotate)
                before = ava.evaluate("() => pageModules.riff_raff.tablet.angle")
                ava.get_by_role("button", name=labels["turn_left"], exact=True).tap(timeout=TAP_MS)
                # Turned counterclockwise: the top of the piece leans to the left.
                assert ava.evaluate("() => pageModules.riff_raff.tablet.angle") > before
                ava.get_by_role("button", name=labels["turn_right"], exact=True).tap(timeout=TAP_MS)
                if not turned:
                    # Dropped in the sky: the answer says where it goes, by the ship's number.
                    _drop_in_the_sky(ava)
                    expect(ava.locator("[data-feedback]")).to_have_text(
                        labels["drop_on"].replace("%(n)s", str(view["area"]))
                    )
                turned = True
                _drag_onto_number(ava, view["area"])
                ava.wait_for_function(
                    "() => pageModules.riff_raff.tablet.view.phase !== 'placing'"
                    f" || pageModules.riff_raff.tablet.view.to_place < {view['to_place']}",
                    timeout=4000,
                )
            elif phase in ("captain_tie", "order_tie", "declaring") and me in (
                view["tie_chooser"],
                view["captain"] if phase == "order_tie" else None,
                view["active"] if phase == "declaring" else None,
            ):
                ava.locator("[data-controls] button").first.tap(timeout=TAP_MS)
            elif phase != "catching" and (phase, view["active"]) not in {
                (p, a) for p, _o, a in tapped
            }:
                # Someone else's turn, or the sea rolls: a tap on the ship, each way round.
                orientation, size = SIZES[len(tapped) % 2]
                ava.set_viewport_size(size)
                _tap_the_ship(ava)
                tapped.add((phase, orientation, view["active"]))
                ava.set_viewport_size(LANDSCAPE)
        ava.wait_for_timeout(50)

    taps: list[dict[str, Any]] = ava.evaluate("() => window.rrTaps")
    for orientation, _size in SIZES:
        assert f"cards, round 1, {orientation}" in checked, checked
        assert f"rotate, {orientation}" in checked, checked
    # A later round: the panel with the played cards face up under every name.
    assert _later_round_checked(checked), f"no later round's cards were checked: {checked}"
    assert checked["cards, round 1, landscape"] == 10
    assert {tap["orientation"] for tap in taps if tap["phase"] != "choosing"} == {
        "landscape",
        "portrait",
    }, taps
    for tap in taps:
        where = f"{tap['orientation']}, {tap['phase']}: {tap['text']!r}"
        if tap["dragging"]:
            continue  # Ava's own piece in hand: the tap picked it up
        assert tap["shown"], f"a tap on the ship got no answer ({where})"
        assert tap["text"], f"a tap on the ship got an empty answer ({where})"
        if tap["phase"] == "choosing" and not tap["chosen"]:
            assert tap["text"] == labels["tap_card"], where
        assert tap["whole"], f"the answer is cut short ({where})"
        assert _inside(tap["bubble"], tap["screen"]), f"the answer is off screen ({where}) {tap}"
        assert not _overlap(tap["bubble"], tap["status"]), f"it covers the instruction ({where})"
        assert not _overlap(tap["bubble"], tap["ship"]), f"it covers the ship ({where})"
        for button in tap["buttons"]:
            assert not _overlap(tap["bubble"], button), f"it covers a button ({where})"


# The header's parts as drawn: name and table, the instruction, the round, and in practice the
# level and "I'm done".
HEADER = """() => [...document.querySelectorAll('.ps-me, .ps-status, .ps-level, .practice-bar')]
  .map((el) => {
    const r = el.getBoundingClientRect();
    const box = [r.left, r.top, r.right, r.bottom];
    return { part: el.className, text: el.textContent.trim(), box };
  })"""


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_first_practice_game_fits_with_its_level_and_done_button_both_ways(
    teacher_page: Page, open_tablet: Callable[..., Page], language: str
) -> None:
    """A child's first Riff Raff is often practice with a robot: the level and "I'm done"
    share the header with the instruction and the round, and none runs under another (the
    Chinese round and level did at 1024 x 768)."""
    from tests.e2e.test_practice import _open_practice_by_code

    teacher = teacher_page
    teacher_sign_up(teacher, f"ms-rr-practice-{language}")
    _create_class(teacher)
    teacher.get_by_role("link", name="Practice").click()
    code = _open_practice_by_code(teacher)
    chen = open_tablet(LANDSCAPE, language)
    chen.goto(f"/practice/sign-in/{code}/")
    chen.get_by_role("button", name="Chen").click()
    card = chen.locator(".practice-game", has_text="驚濤駭浪" if language != "en" else "Riff Raff")
    card.get_by_role("button").first.click()
    warmup_skip(chen)
    chen.wait_for_function(
        "() => pageModules.riff_raff?.tablet?.view?.phase === 'choosing'", timeout=10000
    )
    chen.wait_for_function("() => !document.querySelector('[data-adaptive-level]').hidden")

    def fits(orientation: str) -> None:
        where = f"practice, {orientation}"
        parts: list[dict[str, Any]] = chen.evaluate(HEADER)
        assert len(parts) == 4, parts
        screen = [0.0, 0.0, *chen.evaluate("() => [innerWidth, innerHeight]")]
        for index, part in enumerate(parts):
            assert _inside(part["box"], screen), f"{where}: {part} is off screen"
            for other in parts[index + 1 :]:
                assert not _overlap(part["box"], other["box"]), f"{where}: {part} on {other}"
        assert _check_buttons(chen, where) == 10
        screenshot(chen, f"riff-raff-practice-{language}-{orientation}")

    _each_way(chen, fits)
