"""A child loads the stormy ship by its numbers (issue 20, items 8 and 10): each round she
picks the next card, reads that area's number on the drawn ship and drags her cargo onto it;
falling cargo stays whole on screen, and she catches what falls on her turn by tapping it:
once with a near miss (told "So close!") and then a tap at the rim of the catch target, further
from the piece than the old 40 px target reached."""

from __future__ import annotations

import contextlib
import math
import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.conftest import screenshot, teacher_sign_up
from tests.e2e.test_lobby import _create_class, _join_by_roster

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

GAME_TIMEOUT_S = 300
TAP_MS = 2000
PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1024, "height": 768}

# Every falling piece as drawn, in page pixels, with the canvas box: it must be inside.
FALLING = """() => {
  const rr = pageModules.riff_raff?.tablet, v = rr.view;
  const frame = v.frame, falling = new Set(v.catchable.map((c) => c.piece));
  const box = document.querySelector('.rr-canvas').getBoundingClientRect();
  return (frame ? frame.pieces : []).filter((p) => falling.has(p[0])).map((p) => {
    const at = rr.placeOf(p), c = rr.toCanvas(at[0], at[1]);
    return { id: p[0], x: p[1], page: [box.left + c[0], box.top + c[1]],
             box: [box.left, box.top, box.right, box.bottom],
             radius: rr.catchRadius(v.pieces[String(p[0])].shape) };
  });
}"""


# Where a falling piece is drawn now (the interpolated frame the tablet hit-tests), in page
# pixels, with its catch radius and the canvas box.
DRAWN = """(id) => {
  const rr = pageModules.riff_raff?.tablet, frame = rr.shown();
  const p = frame && frame.pieces.find((q) => q[0] === id);
  if (!p || !rr.view.catchable.some((c) => c.piece === id)) return null;
  const box = document.querySelector('.rr-canvas').getBoundingClientRect();
  const at = rr.placeOf(p), c = rr.toCanvas(at[0], at[1]);
  return { page: [box.left + c[0], box.top + c[1]], box: [box.left, box.top, box.right, box.bottom],
           radius: rr.catchRadius(rr.view.pieces[String(id)].shape) };
}"""
# The catch target before issue 20: a tap this far from a piece did nothing.
OLD_CATCH_RADIUS_PX = 40
AREAS = range(1, 11)


def _still(tablet: Page, piece: int) -> dict[str, Any] | None:
    """The piece where it is drawn once it has (nearly) stopped moving: landed in the sea,
    still catchable. None if it was caught or lost meanwhile."""
    before = tablet.evaluate(DRAWN, piece)
    for _ in range(40):
        tablet.wait_for_timeout(100)
        now = tablet.evaluate(DRAWN, piece)
        if before is None or now is None:
            return None
        if abs(now["page"][0] - before["page"][0]) + abs(now["page"][1] - before["page"][1]) < 1:
            return dict(now)
        before = now
    return None


def _toward_centre(drawn: dict[str, Any], distance: float) -> tuple[float, float]:
    """A point ``distance`` px from the drawn piece, toward the canvas centre (so inside it)."""
    (x, y), (left, top, right, bottom) = drawn["page"], drawn["box"]
    dx, dy = (left + right) / 2 - x, (top + bottom) / 2 - y
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    return x + dx / length * distance, y + dy / length * distance


# Pieces tapped near, still and catchable, without a near miss told, before that fails: a
# busy machine's browser can draw a piece a frame on from where the test saw it, once; a
# page that never tells a near miss fails every time.
UNTOLD_NEAR_MISSES = 3


def _catch_at_the_edge(tablet: Page, piece: int, untold: list[int]) -> bool:
    """A near miss first (told as such), then a tap at the rim of the catch target, further
    out than the old 40 px target reached: caught."""
    drawn = _still(tablet, piece)
    if drawn is None:
        return False
    near = tablet.evaluate("() => pageModules.riff_raff?.tablet.nearMisses")
    tablet.mouse.click(*_toward_centre(drawn, drawn["radius"] * 1.6))
    try:
        tablet.wait_for_function(
            f"() => pageModules.riff_raff?.tablet.nearMisses > {near}", timeout=2000
        )
    except PlaywrightTimeoutError:
        # The piece came to rest late and its catch window closed before the tap (it may
        # still be drawn where it lies), or it was still moving (a busy machine's browser
        # drew no new frame between the two looks that found it still): nothing was there
        # to nearly miss. The game goes on with the next piece that falls. A piece still
        # catchable where it was tapped is a real failure.
        catchable = any(each["id"] == piece for each in tablet.evaluate(FALLING))
        now = tablet.evaluate(DRAWN, piece)
        if not catchable or now is None:
            return False
        if math.dist(now["page"], drawn["page"]) > drawn["radius"] / 2:
            return False
        untold.append(piece)
        if len(untold) < UNTOLD_NEAR_MISSES:
            return False
        raise
    expect(tablet.locator("[data-feedback]")).to_be_visible()
    rim = drawn["radius"] - 6
    assert rim > OLD_CATCH_RADIUS_PX, drawn
    tablet.mouse.click(*_toward_centre(drawn, rim))
    with contextlib.suppress(PlaywrightTimeoutError):
        tablet.wait_for_function(
            f"() => pageModules.riff_raff?.tablet.caught.includes({piece})", timeout=3000
        )
    return bool(tablet.evaluate(f"() => pageModules.riff_raff?.tablet.caught.includes({piece})"))


def _create_stormy_session(teacher: Page) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label="Riff Raff")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    # Two players (the child and a bot): a round is two placements, not three, and the
    # two-player variant's twenty rounds leave room for a catch after the tenth.
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_label("Wave strength").fill("1")
    teacher.get_by_label("Catch window (seconds)").fill("5")
    teacher.get_by_label("Cargo pieces per player").fill("16")
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def _drag_onto_number(tablet: Page, area: int) -> None:
    labels: list[dict[str, Any]] = tablet.evaluate(
        "() => pageModules.riff_raff?.tablet.areaLabels()"
    )
    assert sorted(label["area"] for label in labels) == list(range(1, 11))
    label = next(label for label in labels if label["area"] == area)
    box = tablet.evaluate(
        "() => { const b = document.querySelector('.rr-canvas').getBoundingClientRect();"
        " return [b.left, b.top]; }"
    )
    radius = tablet.evaluate("() => pageModules.riff_raff?.tablet.labelRadius()")
    # Onto the number's circle, a little above its middle (the area's surface is above it).
    x = box[0] + label["canvas"][0]
    y = box[1] + label["canvas"][1] - radius * 0.3
    tablet.mouse.move(x, y - 120)
    tablet.mouse.down()
    tablet.mouse.move(x, y, steps=8)
    tablet.mouse.up()


@pytest.mark.timeout(GAME_TIMEOUT_S + 60)
def test_a_child_loads_each_numbered_area_and_catches_falling_cargo(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-riff-raff-ship")
    _create_class(teacher)
    code = _create_stormy_session(teacher)
    ava = new_tablet()
    errors: list[str] = []
    ava.on("pageerror", lambda error: errors.append(str(error)))
    _join_by_roster(ava, code, "Ava")
    teacher.get_by_role("button", name="Start").click()
    expect(ava.get_by_role("img", name="The ship and its cargo")).to_be_visible(timeout=8000)
    ava.wait_for_function(
        "() => pageModules.riff_raff?.tablet && pageModules.riff_raff?.tablet.view"
    )
    screenshot(ava, "riff-raff-ship-landscape")
    ava.set_viewport_size(PORTRAIT)
    ava.wait_for_timeout(300)
    screenshot(ava, "riff-raff-ship-portrait")
    ava.set_viewport_size(LANDSCAPE)

    dropped: list[int] = []
    phases: list[tuple[str, int | None, int]] = []
    falls_seen: set[int] = set()
    tapped: set[int] = set()
    edge_catches: list[int] = []
    untold: list[int] = []
    shots = {"falling": False}
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while time.monotonic() < deadline:
        view: dict[str, Any] = ava.evaluate("() => pageModules.riff_raff?.tablet.view")
        phase, me = view["phase"], view["you"]
        phases.append((phase, view["active"], view["round"]))
        if phase == "game_over" or view.get("ended"):
            break
        if len(set(dropped)) == len(AREAS) and edge_catches and phase == "choosing":
            break  # every area loaded and a catch at the rim: what this test is for
        for piece in ava.evaluate(FALLING):
            falls_seen.add(piece["id"])
            left, top, right, bottom = piece["box"]
            x, y = piece["page"]
            assert left <= x <= right, f"falling piece off screen {piece}"
            assert top <= y <= bottom, f"falling piece off screen {piece}"
            assert piece["radius"] >= 48
            if not shots["falling"]:
                screenshot(ava, "riff-raff-falling")
                shots["falling"] = True
            if view["active"] == me and piece["id"] not in tapped:
                tapped.add(piece["id"])
                if not edge_catches and _catch_at_the_edge(ava, piece["id"], untold):
                    edge_catches.append(piece["id"])
                    screenshot(ava, "riff-raff-edge-catch")
                    continue
                ava.wait_for_timeout(250)  # a child needs a moment to see it
                now_falling = [p for p in ava.evaluate(FALLING) if p["id"] == piece["id"]]
                if now_falling:
                    ava.mouse.click(*now_falling[0]["page"])
        with contextlib.suppress(PlaywrightTimeoutError):
            if phase == "choosing" and not view["chosen"][str(me)]:
                card = min(view["cards_left"])  # 1, 2, … 10: every area once
                ava.locator("[data-controls]").get_by_role(
                    "button", name=str(card), exact=True
                ).tap(timeout=TAP_MS)
            elif phase in ("captain_tie", "order_tie", "declaring") and view["active"] in (
                me,
                None,
            ):
                controls = ava.locator("[data-controls] button")
                if controls.count() and me in (
                    view["tie_chooser"],
                    view["captain"],
                    view["active"],
                ):
                    controls.first.tap(timeout=TAP_MS)
            elif phase == "placing" and view["active"] == me:
                _drag_onto_number(ava, view["area"])
                ava.wait_for_function(
                    "() => pageModules.riff_raff?.tablet.view.phase !== 'placing'"
                    f" || pageModules.riff_raff?.tablet.view.to_place < {view['to_place']}",
                    timeout=4000,
                )
                dropped.append(view["area"])
                if len(dropped) == 1:
                    screenshot(ava, "riff-raff-first-drop")
        ava.wait_for_timeout(50)
    changes = [p for i, p in enumerate(phases) if i == 0 or phases[i - 1] != p]
    assert sorted(set(dropped)) == list(AREAS), (dropped, changes[-4:], errors[:3])
    assert not errors, errors
    caught = ava.evaluate("() => pageModules.riff_raff?.tablet.caught")
    assert falls_seen, "nothing fell in a storm"
    assert caught, f"no catch: falls {sorted(falls_seen)}, tapped {sorted(tapped)}"
    # One piece was caught by a tap at the rim of its fingertip-sized target (item 8).
    assert edge_catches, f"no catch at the edge: falls {sorted(falls_seen)}, caught {caught}"
    # The smoothing follows the measured jitter, within its bounds.
    smoothing = ava.evaluate("() => pageModules.riff_raff?.tablet.smoothingMs")
    frames = ava.evaluate("() => pageModules.riff_raff?.tablet.motionFrames")
    print(f"smoothing {smoothing:.0f} ms after {frames} motion frames")
    assert 80 <= smoothing <= 300
    screenshot(ava, "riff-raff-end")
