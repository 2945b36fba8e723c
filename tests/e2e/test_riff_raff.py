"""Two students and a bot load the rocking ship to the end: drags, rotations and catches."""

from __future__ import annotations

import contextlib
import sqlite3
import time
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.conftest import PROJECTOR, screenshot, teacher_sign_up
from tests.e2e.test_lobby import _create_class, _join_by_roster

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

GAME_TIMEOUT_S = 150
TAP_MS = 2000


def _create_riff_raff_session(teacher: Page) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label="Riff Raff")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 3 Otters")
    teacher.get_by_label("Players per table").fill("3")
    teacher.get_by_label("Wave strength").fill("1")
    teacher.get_by_label("Catch window (seconds)").fill("3")
    teacher.get_by_label("Cargo pieces per player").fill("4")
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def _canvas_point(tablet: Page, x: float, y: float, *, ship: bool) -> tuple[float, float]:
    """Page coordinates of a point given in ship (turned with the ship) or world coordinates."""
    point = tablet.evaluate(
        """([x, y, ship]) => {
            const a = ship ? pageModules.riff_raff?.tablet.shipAngle() : 0;
            const wx = x * Math.cos(a) - y * Math.sin(a), wy = x * Math.sin(a) + y * Math.cos(a);
            const [cx, cy] = pageModules.riff_raff?.tablet.toCanvas(wx, wy);
            const box = document.querySelector('.rr-canvas').getBoundingClientRect();
            return [box.left + cx, box.top + cy];
        }""",
        [x, y, ship],
    )
    return float(point[0]), float(point[1])


def _turn(tablet: Page, *, careful: bool) -> str:
    """Whatever this tablet's student should do now. Returns the phase seen."""
    view: dict[str, Any] = tablet.evaluate("pageModules.riff_raff?.tablet.view")
    phase = view["phase"]
    me = view["you"]
    controls = tablet.locator("[data-controls] button")
    if phase == "choosing" and not view["chosen"][str(me)]:
        cards = sorted(view["cards_left"])
        pick = cards[-1] if careful else cards[0]
        tablet.locator("[data-controls]").get_by_role("button", name=str(pick), exact=True).tap(
            timeout=TAP_MS
        )
    elif phase in ("captain_tie", "order_tie", "declaring") and controls.count():
        if view.get("tie_chooser") == me or view.get("captain") == me or view["active"] == me:
            controls.first.tap(timeout=TAP_MS)
    elif phase == "placing" and view["active"] == me and view["drop_zone"]:
        zone = view["drop_zone"]
        x = (zone["x_min"] + zone["x_max"]) / 2 if careful else zone["x_max"] - 1
        start = _canvas_point(tablet, x, zone["y"] + 30, ship=True)
        end = _canvas_point(tablet, x, zone["y"] + 10, ship=True)
        if not careful:
            tablet.get_by_role("button", name="Turn right").tap(timeout=TAP_MS)  # a tilted drop
        tablet.mouse.move(*start)
        tablet.mouse.down()
        tablet.mouse.move(*end, steps=6)
        tablet.mouse.up()
        tablet.wait_for_timeout(250)
    elif phase == "catching" and view["active"] == me:
        falling = {entry["piece"] for entry in view["catchable"]}
        frame = tablet.evaluate("pageModules.riff_raff?.tablet.view.frame")
        for piece_id, x, y, _angle in frame["pieces"]:
            if piece_id in falling:
                tablet.wait_for_timeout(400)  # a child needs a moment to see it
                tablet.mouse.click(*_canvas_point(tablet, x, y, ship=False))
                break
    return str(phase)


@pytest.mark.timeout(GAME_TIMEOUT_S + 60)
def test_two_students_and_a_bot_load_the_ship_to_the_end(
    teacher_page: Page, new_tablet: Callable[[], Page], server_env: dict[str, str]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-riff-raff")
    _create_class(teacher)
    class_url = teacher.url
    code = _create_riff_raff_session(teacher)
    tablets = {name: new_tablet() for name in ("Ava", "Ben")}
    for name, tablet in tablets.items():
        _join_by_roster(tablet, code, name)
    session_path = teacher.url
    teacher.get_by_role("button", name="Start").click()
    for tablet in tablets.values():
        expect(tablet.get_by_role("img", name="The ship and its cargo")).to_be_visible(timeout=8000)
        tablet.wait_for_function(
            "pageModules.riff_raff?.tablet && pageModules.riff_raff?.tablet.view"
        )
    # The projector draws the same ship, live, from its own watch socket.
    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(session_path.rstrip("/") + "/projector/")
    expect(projector.get_by_role("img", name="The ship of table 1")).to_be_visible(timeout=8000)
    view = tablets["Ava"].evaluate("pageModules.riff_raff?.tablet.view")
    assert len(view["players"]) == 3  # two students and a bot

    deadline = time.monotonic() + GAME_TIMEOUT_S
    seen: set[str] = set()
    shot = placing_shot = False
    while time.monotonic() < deadline:
        phases = set()
        for name, tablet in tablets.items():
            # A timeout: the ship moved on under the finger; look again next time round.
            with contextlib.suppress(PlaywrightTimeoutError):
                phases.add(_turn(tablet, careful=name == "Ava"))
        seen |= phases
        if not placing_shot and tablets["Ava"].evaluate(
            "(v => v.phase === 'placing' && v.active === v.you)(pageModules.riff_raff?.tablet.view)"
        ):
            screenshot(tablets["Ava"], "riff-raff-placing")  # the next piece waits at the dock
            placing_shot = True
        if "game_over" in phases:
            break
        if (
            not shot
            and tablets["Ava"].evaluate("pageModules.riff_raff?.tablet.view.frame.pieces.length")
            >= 3
        ):
            screenshot(tablets["Ava"], "riff-raff-tablet")
            screenshot(projector, "riff-raff-projector")
            shot = True
        tablets["Ava"].wait_for_timeout(60)
    assert "game_over" in seen, f"the game did not end in time; phases seen: {sorted(seen)}"
    assert {"choosing", "placing"} <= seen
    for tablet in tablets.values():
        expect(tablet.locator("[data-over]")).to_be_visible(timeout=5000)
    screenshot(tablets["Ava"], "riff-raff-over")
    assert (
        tablets["Ava"].evaluate("pageModules.riff_raff?.tablet.motionFrames") > 50
    )  # motion was streamed
    watched = projector.evaluate(
        "document.querySelector('[data-rr-watch]').riffRaffScene.motionFrames"
    )
    assert watched > 50  # and reached the projector too
    projector.close()
    expect(teacher.locator(".game-tile-status")).to_contain_text("Game over", timeout=5000)
    screenshot(teacher, "riff-raff-console")

    database = server_env["DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(database) as connection:
        kinds = dict(
            connection.execute(
                "SELECT kind, COUNT(*) FROM classroom_trial WHERE game = 'riff_raff' GROUP BY kind"
            ).fetchall()
        )
    assert kinds.get("riff_raff.placement", 0) >= 4, kinds

    # The reports show catches and placements apart (a placement has no reaction time).
    teacher.goto(class_url)
    teacher.get_by_role("link", name="Progress").click()
    expect(teacher.get_by_role("heading", name="Class progress")).to_be_visible()
    expect(teacher.get_by_text("Placements (stayed on board)").first).to_be_visible()
    screenshot(teacher, "riff-raff-class-overview")
    # The first of her links: her row of the progress table (the verdicts name her again).
    teacher.get_by_role("link", name="Ava").first.click()
    expect(teacher.locator(".summary-sentence").first).to_be_visible()
    # Every student placed cargo; catches appear only if something fell on their turn.
    expect(teacher.get_by_text("Placements (stayed on board)").first).to_be_visible()
    screenshot(teacher, "riff-raff-student-progress")


def test_a_calm_ship_is_not_painted_every_frame_and_stands_still_with_reduced_motion(
    teacher_page: Page, open_tablet: Callable[..., Page]
) -> None:
    """While nothing moves but the sea, the waves are painted about 15 times a second, not at
    the display's 60 (a tablet's battery and a console of many ships pay for every paint);
    with reduced motion the sea stands still and a calm ship is not painted again at all."""
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-riff-raff-calm")
    _create_class(teacher)
    code = _create_riff_raff_session(teacher)
    ava, ben = open_tablet(motion="reduce"), open_tablet()
    _join_by_roster(ava, code, "Ava")
    _join_by_roster(ben, code, "Ben")
    teacher.get_by_role("button", name="Start").click()
    tablets = {"reduced motion": ava, "motion": ben}
    for tablet in tablets.values():
        expect(tablet.get_by_role("img", name="The ship and its cargo")).to_be_visible(timeout=8000)
        tablet.wait_for_function(
            "pageModules.riff_raff?.tablet && pageModules.riff_raff?.tablet.view"
        )
    # Cards are being chosen: nothing has been dropped, so the ship lies still.
    assert ava.evaluate("pageModules.riff_raff?.tablet.view.phase") == "choosing"
    ava.wait_for_timeout(500)  # the first paints after the page loaded
    before = {
        name: t.evaluate("pageModules.riff_raff?.tablet.paints") for name, t in tablets.items()
    }
    ava.wait_for_timeout(2000)
    painted = {
        name: t.evaluate("pageModules.riff_raff?.tablet.paints") - before[name]
        for name, t in tablets.items()
    }
    print(f"paints in 2 s of a calm ship: {painted}")
    assert ava.evaluate("pageModules.riff_raff?.tablet.view.phase") == "choosing", painted
    assert painted["reduced motion"] <= 2, painted
    # About 15 a second for two seconds; at least a few, so the sea still moves.
    assert 10 <= painted["motion"] <= 40, painted
