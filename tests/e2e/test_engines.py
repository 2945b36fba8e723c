"""The other browser engines a school's tablets run: WebKit (what every iPad's Safari is) and
Firefox, beside the Chromium of the rest of the browser tests. A short smoke test, run by
``make test`` on every change: a WebKit tablet and a Firefox tablet join one table of each
game, play a few real taps and drags, and every input is answered by the server, no
JavaScript error is met, and a tap's ``event.timeStamp`` is on ``performance.now()``'s clock
(the reaction times' one clock, docs/architecture.md). The teacher's pages stay in Chromium.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.conftest import (
    ARTIFACTS,
    HOW_TO_PLAY_OFF_SCRIPT,
    _free_port,
    settings_fill,
    teacher_sign_up,
)
from tests.e2e.engine_drivers import engine_tablets, missing_engines

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from playwright.sync_api import Page

    from tests.e2e.engine_drivers import EngineTablet

pytestmark = pytest.mark.e2e

# Bounds on waiting for a page and for a game's inputs, wide for a busy CI machine: a passing
# run takes a few seconds each.
PLAY_TIMEOUT_S = 60


@pytest.fixture(scope="module")
def tablets() -> Iterator[list[EngineTablet]]:
    missing = missing_engines()
    if missing:
        packages = ", ".join(missing)
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the engine tests: Debian packages missing: {packages}")
        pytest.skip(f"the other engines are not installed here (Debian packages: {packages})")
    yield from engine_tablets(_free_port(), _free_port())


def _session(teacher: Page, game: str, settings: dict[str, str]) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game").select_option(label=game)
    teacher.get_by_label("Players per table").fill("2")
    settings_fill(teacher, settings)
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def _wait(tablet: EngineTablet, body: str, what: str, timeout_s: float = 40) -> Any:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            value = tablet.run(body)
        except Exception:  # a page between two documents: look again
            value = None
        if value:
            return value
        time.sleep(0.1)
    errors = tablet.run("return window.__engine.errors;") + tablet.errors()
    raise AssertionError(f"{tablet.name}: {what} did not happen in {timeout_s} s; errors: {errors}")


def _join(tablet: EngineTablet, live_url: str, code: str, name: str) -> None:
    tablet.open(f"{live_url}/join/{code}/")
    tablet.run(
        f"{HOW_TO_PLAY_OFF_SCRIPT} const field = document.querySelector('input[name=nickname]');"
        f" field.value = '{name}'; field.form.requestSubmit();"
    )
    _wait(tablet, f"return document.body.innerText.includes('Hi, {name}!')", "joining")


def _centre(tablet: EngineTablet, selector: str, index: int = 0) -> tuple[float, float] | None:
    box = tablet.run(
        f"const el = document.querySelectorAll({selector!r})[{index}];"
        " if (!el) return null; const r = el.getBoundingClientRect();"
        " return r.width ? [r.x + r.width / 2, r.y + r.height / 2] : null;"
    )
    return (float(box[0]), float(box[1])) if box else None


def _tap(tablet: EngineTablet, selector: str, index: int = 0) -> None:
    point = _centre(tablet, selector, index)
    if point is not None:
        tablet.tap(*point)


def _view(tablet: EngineTablet, game: str) -> Any:
    return tablet.run(f"return window.__engine.modules.{game}?.tablet?.view ?? null;")


# One step of play a child would make now, per game; each returns nothing and may do nothing.


def _palm_strike(tablet: EngineTablet, view: dict[str, Any]) -> None:
    flip = view.get("flip")
    slapped = tablet.run(
        "return window.__engine.sent.filter(f => f.type === 'act').map(f => f.action.flip);"
    )
    if view["phase"] != "open" or not view.get("public") or flip in slapped:
        return
    shown = tablet.run("return window.__engine.modules.palm_strike.tablet.onset !== null;")
    if shown:
        _tap(tablet, f'[data-flip="{flip}"]')


def _commotion(tablet: EngineTablet, view: dict[str, Any]) -> None:
    if view["phase"] != "playing":
        return
    if view["you_can_out"]:
        _tap(tablet, "[data-out]")
    elif view["playable"]:
        option = view["playable"][0]
        if option["source"] == "waste":
            _tap(tablet, "[data-waste] .cm-pick")
        else:
            _tap(tablet, "[data-tableau] .cm-pick", option["card"])
        if len(option["piles"]) > 1:
            pile = option["piles"][0]
            _tap(tablet, ".cm-new-pile" if pile == -1 else ".cm-pile", max(pile, 0))
    elif tablet.run("return document.querySelector('[data-stock]')?.ariaDisabled !== 'true';"):
        _tap(tablet, "[data-stock]")
    time.sleep(0.3)


def _ship_point(tablet: EngineTablet, x: float, y: float) -> tuple[float, float]:
    point = tablet.run(
        "const t = window.__engine.modules.riff_raff.tablet; const a = t.shipAngle();"
        f" const x = {x}, y = {y};"
        " const [cx, cy] = t.toCanvas(x * Math.cos(a) - y * Math.sin(a),"
        "                             x * Math.sin(a) + y * Math.cos(a));"
        " const box = document.querySelector('.rr-canvas').getBoundingClientRect();"
        " return [box.left + cx, box.top + cy];"
    )
    return float(point[0]), float(point[1])


def _riff_raff(tablet: EngineTablet, view: dict[str, Any]) -> None:
    phase, me = view["phase"], view["you"]
    if phase == "choosing" and not view["chosen"][str(me)]:
        pick = str(sorted(view["cards_left"])[-1])
        index = tablet.run(
            "return [...document.querySelectorAll('[data-controls] button')]"
            f".findIndex(b => b.textContent.trim() === {pick!r});"
        )
        if index >= 0:
            _tap(tablet, "[data-controls] button", index)
    elif phase in ("captain_tie", "order_tie", "declaring"):
        if me in (view.get("tie_chooser"), view.get("captain"), view["active"]):
            _tap(tablet, "[data-controls] button")
    elif phase == "placing" and view["active"] == me and view["drop_zone"]:
        zone = view["drop_zone"]
        x = (zone["x_min"] + zone["x_max"]) / 2
        start, end = _ship_point(tablet, x, zone["y"] + 30), _ship_point(tablet, x, zone["y"] + 10)
        steps = [(start[0] + (end[0] - start[0]) * i / 6, start[1] + (end[1] - start[1]) * i / 6)
                 for i in range(7)]  # fmt: skip
        tablet.drag(steps)
    elif phase == "catching" and view["active"] == me:
        falling = {entry["piece"] for entry in view["catchable"]}
        for piece, x, y, _angle in view["frame"]["pieces"]:
            if piece in falling:
                point = tablet.run(
                    "const t = window.__engine.modules.riff_raff.tablet;"
                    f" const [cx, cy] = t.toCanvas({x}, {y});"
                    " const box = document.querySelector('.rr-canvas').getBoundingClientRect();"
                    " return [box.left + cx, box.top + cy];"
                )
                tablet.tap(float(point[0]), float(point[1]))
                break
    time.sleep(0.25)


GAMES: list[tuple[str, str, dict[str, str], Callable[[EngineTablet, Any], None], set[str], int]] = [
    # (module, label, settings, a step of play, the inputs each tablet must have had
    # answered (at least), how many)
    (
        "palm_strike",
        "Palm Strike",
        {
            "Cards per player": "3",
            "Points target": "0",
            "Flip pacing": "auto",
            "Auto-flip every (seconds)": "2",
            "Response window (seconds)": "1.5",
        },
        _palm_strike,
        {"slap"},
        2,
    ),
    ("commotion", "Commotion", {"Refill pile": "6", "Target score": "5"}, _commotion, set(), 4),
    (
        "riff_raff",
        "Riff Raff",
        {"Wave strength": "1", "Catch window (seconds)": "3", "Cargo pieces per player": "4"},
        _riff_raff,
        {"drop"},
        2,
    ),
]

# Every input the page sent, and whether the server answered it (an ack, or a refusal with
# its seq: both are an answer the child sees).
INPUTS = """
const answered = new Set(window.__engine.received
  .filter(f => f.type === 'ack' || f.type === 'error').map(f => f.seq));
return window.__engine.sent.filter(f => f.type === 'act')
  .map(f => [f.action.kind, answered.has(f.seq)]);
"""

ALL_ANSWERED = INPUTS.replace("return window.__engine.sent", "const inputs = window.__engine.sent")
ALL_ANSWERED += "return inputs.every(([_kind, answer]) => answer);"


def _played_enough(inputs: list[list[Any]], kinds: set[str], count: int) -> bool:
    done = [kind for kind, answer in inputs if answer]
    return len(done) >= count and kinds <= set(done)


@pytest.mark.timeout(420)
def test_webkit_and_firefox_tablets_play_every_game(
    tablets: list[EngineTablet], teacher_page: Page, live_url: str
) -> None:
    teacher_sign_up(teacher_page, "ms-engines")
    ARTIFACTS.mkdir(exist_ok=True)
    for module, label, settings, step, kinds, count in GAMES:
        code = _session(teacher_page, label, settings)
        for tablet in tablets:
            _join(tablet, live_url, code, tablet.name.capitalize())
        teacher_page.get_by_role("button", name="Start").click()
        for tablet in tablets:
            _wait(tablet, f"return window.__engine.modules.{module}?.tablet?.view", label)
        deadline = time.monotonic() + PLAY_TIMEOUT_S
        playing = list(tablets)
        while playing and time.monotonic() < deadline:
            for tablet in list(playing):
                view = _view(tablet, module)
                if view is not None and view["phase"] != "game_over":
                    step(tablet, view)
                if _played_enough(tablet.run(INPUTS), kinds, count):
                    playing.remove(tablet)
        for tablet in tablets:
            tablet.screenshot(ARTIFACTS / f"engine-{tablet.name}-{module}.png")
            inputs = tablet.run(INPUTS)
            assert _played_enough(inputs, kinds, count), (tablet.name, label, inputs)
            # Every input answered (the last one may still be on its way: it gets a moment).
            _wait(tablet, ALL_ANSWERED, f"an answer to every {label} input")
            downs = tablet.run("return window.__engine.downs;")
            assert downs, (tablet.name, label)
            for stamp, now in downs:
                # On performance.now()'s clock: at or before the moment the listener ran, and
                # not long before (an epoch or other clock would be far off).
                assert 0 <= now - stamp < 1000, (tablet.name, label, stamp, now)
            errors = tablet.run("return window.__engine.errors;") + tablet.errors()
            assert errors == [], (tablet.name, label, errors)
