"""Palm Strike's answer bubbles (issue 45): every tap gets one, a tap on a thing that cannot be
played now (a card in a hand, another player, the deck) says what to tap instead, and every
bubble lies inside the screen, off the instruction line and off every card, on a landscape
(1024 x 768) and a portrait (768 x 1024) tablet."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import screenshot, teacher_sign_up
from tests.e2e.test_palm_strike_play import _overlap

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}

# Every answer the tablet shows, measured once its pop-in has ended: its words, the time from
# the tap before it, and the boxes of the bubble, the instruction lines, every card on the
# screen and the thing the tap was on.
WATCH = """() => {
  window.__answers = [];
  window.__tap = null;
  const rect = el => { const r = el.getBoundingClientRect();
                       return {x: r.x, y: r.y, width: r.width, height: r.height}; };
  const drawn = el => el.checkVisibility({visibilityProperty: true});
  document.addEventListener('pointerdown', e => {
    const thing = e.target.closest('.pcard, .opponent, .ps-deck, .slap-target');
    window.__tap = {t: e.timeStamp, box: thing ? rect(thing) : null};
  }, true);
  const bubble = document.querySelector('[data-feedback]');
  new MutationObserver(() => {
    if (bubble.hidden) return;
    const shown = performance.now();
    const tap = window.__tap;
    const text = bubble.querySelector('[data-feedback-text]').textContent;
    Promise.all(bubble.getAnimations().map(a => a.finished)).catch(() => null).then(() => {
      window.__answers.push({
        text, latency_ms: tap ? shown - tap.t : null, tapped: tap ? tap.box : null,
        bubble: rect(bubble),
        lines: [...document.querySelectorAll('.ps-status, .ps-prompt')].filter(drawn)
          .filter(el => el.textContent.trim()).map(rect),
        cards: [...document.querySelectorAll('.pcard')].filter(drawn).map(rect),
        viewport: {width: innerWidth, height: innerHeight},
      });
    });
  }).observe(bubble, {attributes: true, attributeFilter: ['hidden']});
}"""


def _tap(page: Page, selector: str) -> dict[str, Any]:
    """Touch the middle of ``selector``; the answer that touch got, measured."""
    count = int(page.evaluate("window.__answers.length"))
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_function(f"window.__answers.length > {count}", timeout=4000)
    return dict(page.evaluate(f"window.__answers[{count}]"))


def _assert_placed(answer: dict[str, Any]) -> None:
    bubble, viewport = answer["bubble"], answer["viewport"]
    assert bubble["width"] > 0, answer
    assert bubble["height"] > 0, answer
    assert bubble["x"] >= 0, answer
    assert bubble["y"] >= 0, answer
    assert bubble["x"] + bubble["width"] <= viewport["width"], answer
    assert bubble["y"] + bubble["height"] <= viewport["height"], answer
    for line in answer["lines"]:
        assert not _overlap(bubble, line), ("covers the instruction line", answer)
    for card in [*answer["cards"], *([answer["tapped"]] if answer["tapped"] else [])]:
        assert not _overlap(bubble, card), ("covers a card", answer)


def _view(page: Page) -> dict[str, Any]:
    return dict(page.evaluate("pageModules.palm_strike?.tablet.view"))


def test_every_tap_is_answered_in_a_bubble_that_covers_nothing_in_both_orientations(
    teacher_page: Page, open_tablet: Callable[..., Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-answers")
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label="Palm Strike")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_label("Cards per player").select_option("3")
    teacher.get_by_label("Response window (seconds)").fill("5")
    teacher.get_by_role("button", name="Create session").click()
    code = teacher.get_by_label("Session code").inner_text().strip()
    tablets = {"Ava": open_tablet(LANDSCAPE), "Ben": open_tablet(PORTRAIT)}
    for name, page in tablets.items():
        page.goto(f"/join/{code}/")
        page.get_by_label("Your name").fill(name)
        page.get_by_role("button", name="Join").click()
        expect(page.get_by_text(f"Hi, {name}!")).to_be_visible()
    teacher.get_by_role("button", name="Start").click()
    for page in tablets.values():
        page.wait_for_function(
            "pageModules.palm_strike?.tablet?.view?.phase === 'waiting_flip'", timeout=8000
        )
        page.evaluate(WATCH)

    answers: list[tuple[str, dict[str, Any]]] = []
    flipper_seat = _view(tablets["Ava"])["active_seat"]
    flipper = next(p for p in tablets.values() if _view(p)["you"] == flipper_seat)
    other = next(p for p in tablets.values() if p is not flipper)
    flipper_name = next(n for n, p in tablets.items() if p is flipper)

    # Before the first card: the flipper is told to flip, the other whose turn it is.
    answers.append(("own card, my turn", _tap(flipper, ".ps-hand .pcard")))
    assert answers[-1][1]["text"] == "Your turn: tap Flip!"
    answers.append(("own card, their turn", _tap(other, ".ps-hand .pcard")))
    assert answers[-1][1]["text"] == f"{flipper_name} flips next: wait for the card"
    answers.append(("another's card", _tap(other, ".opponent .pcard")))

    flipper.locator("[data-flip-button]").tap()
    for page in tablets.values():
        page.wait_for_function("pageModules.palm_strike?.tablet.view.phase === 'open'")
    # A card is open: a tap on your own card (what a 7-year-old does) or another's points at
    # the big card.
    for name, page in tablets.items():
        answers.append((f"{name}: own card, card open", _tap(page, ".ps-hand .pcard")))
        assert answers[-1][1]["text"] == "To slap, tap the big card"
        answers.append((f"{name}: another's card, card open", _tap(page, ".opponent .pcard")))
        assert answers[-1][1]["text"] == "To slap, tap the big card"
    screenshot(tablets["Ben"], "palm-answers-portrait-own-card")
    screenshot(tablets["Ava"], "palm-answers-landscape-own-card")
    flip = _view(flipper)["flip"]
    for name, page in tablets.items():
        answers.append((f"{name}: slap", _tap(page, f'[data-flip="{flip}"]')))
    for name, page in tablets.items():
        page.wait_for_function("pageModules.palm_strike?.tablet.view.window_closes_ms === null")
        answers.append((f"{name}: too late", _tap(page, f'[data-flip="{flip}"]')))

    for what, answer in answers:
        assert answer["text"], what
        _assert_placed(answer)
    print(  # for the notes: `pytest -s tests/e2e/test_palm_strike_answers.py`
        "tap to answer, ms: "
        + ", ".join(
            f"{what} {answer['latency_ms']:.0f} ({answer['text']})" for what, answer in answers
        )
    )
