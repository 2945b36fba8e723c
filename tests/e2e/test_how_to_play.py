"""How to play (issue 45): a child's first game of each game starts with a short demo of its
core move, Skip closes it, the next game does not show it (per student on the server, per
tablet for guests), the "?" plays it again, and the teacher shows it on the projector before
Start. Screenshots of every game's demo in both orientations and languages."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PROJECTOR, screenshot, settings_fill, teacher_sign_up
from tests.e2e.test_palm_strike_play import _join as _join_as_guest

if TYPE_CHECKING:
    from collections.abc import Callable

    from playwright.sync_api import Browser

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/shots/how-to-play")  # noqa: S108 - screenshots for the notes, not secrets
LANDSCAPE = {"width": 1024, "height": 768}
PORTRAIT = {"width": 768, "height": 1024}
GAMES = {"palm_strike": "Palm Strike", "commotion": "Commotion", "riff_raff": "Riff Raff"}
# The tests' tablets never start the demo by themselves (conftest.HOW_TO_PLAY_OFF_SCRIPT);
# these tablets are new ones that do.
DEMO_ON = 'try { localStorage.removeItem("snapclass.how-to-play.auto"); } catch (error) {}'
SHOWN = "pageModules.how_to_play?.shown"
# True, with the demo held at its step, when one is showing; false when none is.
HOLD_IF_SHOWING = (
    "() => { if (document.querySelector('[data-how-to-play]').hidden) return false;"
    f" {SHOWN}.seek({SHOWN}.step); return true; }}"
)


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))
    screenshot(page, f"how-to-play-{name}")


def _new_tablet(
    open_tablet: Callable[..., Page], viewport: dict[str, int] = LANDSCAPE, language: str = "en"
) -> Page:
    page = open_tablet(viewport, language=language)
    page.context.add_init_script(DEMO_ON)
    return page


def _session(teacher: Page, game: str, *, school_class: str = "", **fields: str) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game", exact=True).select_option(label=GAMES[game])
    expect(teacher.locator("#game-settings legend")).to_contain_text(GAMES[game])
    if school_class:
        teacher.get_by_label("Class", exact=True).select_option(label=school_class)
    teacher.get_by_label("Players per table").fill(fields.pop("players", "2"))
    settings_fill(teacher, fields)
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def _wait_for_game(page: Page, game: str, number: int = 1) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-play-game]')"
        f" && document.querySelector('[data-play-game]').dataset.playGame === '{number}'"
        f" && pageModules.{game}?.tablet && pageModules.{game}.tablet.view",
        timeout=15000,
    )


def _demo(page: Page) -> dict[str, object]:
    return dict(page.evaluate(f"() => ({{ ...{SHOWN}, seek: undefined }})"))


def test_a_students_first_game_shows_the_demo_and_the_next_does_not(
    teacher_page: Page, open_tablet: Callable[..., Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "htp-class")
    teacher.goto("/classes/new/")
    teacher.get_by_label("Class name").fill("Year 2 Owls")
    teacher.get_by_label("Student names").fill("Ava\nBen")
    teacher.get_by_role("button", name="Save").click()
    code = _session(teacher, "palm_strike", school_class="Year 2 Owls", **{
        "Matching level": "advanced",
    })  # fmt: skip
    ava = _new_tablet(open_tablet)
    ava.goto(f"/join/{code}/")
    ava.get_by_role("button", name="Ava").click()
    expect(ava.get_by_text("Hi, Ava!")).to_be_visible()
    teacher.get_by_role("button", name="Start").click()
    _wait_for_game(ava, "palm_strike")

    # First play: the demo, at the table's level, scheduled under 20 s.
    overlay = ava.locator("[data-how-to-play]")
    expect(overlay).to_be_visible()
    expect(overlay.locator("[data-htp-caption]")).to_have_text("Look at the big card.")
    demo = _demo(ava)
    assert demo["demo"] == "palm_strike"
    plan = demo["plan"]
    assert isinstance(plan, dict)
    assert plan["total"] < 20_000, plan
    assert [step["key"] for step in plan["steps"]] == ["look", "match", "slap", "quiet"]
    ava.evaluate(f"{SHOWN}.seek(1)")
    expect(overlay.locator("[data-htp-caption]")).to_have_text(
        "The word names the picture's colour. Its letters are the card's colour. A match!"
    )
    expect(overlay.locator(".htp-the-match")).to_be_visible()
    ava.evaluate(f"{SHOWN}.seek(2)")
    expect(overlay.locator("[data-htp-caption]")).to_have_text(
        "Slap the big card, not your own card!"
    )

    # Skip closes it; the table is there to play.
    overlay.get_by_role("button", name="Skip").click()
    expect(overlay).to_be_hidden()
    expect(ava.locator(".slap-target, [data-flip-button]").first).to_be_attached()

    # "?" plays it again.
    ava.get_by_role("button", name="How to play").click()
    expect(overlay).to_be_visible()
    assert _demo(ava)["plays"] == 2
    ava.keyboard.press("Escape")
    expect(overlay).to_be_hidden()

    # The next game (Play again loads it on the tablet): no demo by itself.
    teacher.get_by_role("button", name="Play again").click()
    _wait_for_game(ava, "palm_strike", number=2)
    assert _demo(ava)["plays"] == 0
    expect(overlay).to_be_hidden()

    # Ben, a latecomer in game 2: his first game of Palm Strike, so his tablet shows it.
    ben = _new_tablet(open_tablet)
    ben.goto(f"/join/{code}/")
    ben.get_by_role("button", name="Ben").click()
    _wait_for_game(ben, "palm_strike", number=2)
    expect(ben.locator("[data-how-to-play]")).to_be_visible()


def test_a_guest_tablet_shows_each_games_demo_once(
    teacher_page: Page, open_tablet: Callable[..., Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "htp-guest")
    code = _session(teacher, "commotion")
    tablet = _new_tablet(open_tablet, PORTRAIT)
    _join_as_guest(code, tablet, "Kit")
    teacher.get_by_role("button", name="Start").click()
    _wait_for_game(tablet, "commotion")
    overlay = tablet.locator("[data-how-to-play]")
    expect(overlay).to_be_visible()
    expect(overlay.locator("[data-htp-caption]")).to_have_text(
        "A START card opens a pile in the middle."
    )
    assert _demo(tablet)["plan"]["total"] < 20_000  # type: ignore[index]
    overlay.get_by_role("button", name="Skip").click()
    expect(overlay).to_be_hidden()

    teacher.get_by_role("button", name="Play again").click()
    _wait_for_game(tablet, "commotion", number=2)
    assert _demo(tablet)["plays"] == 0
    expect(overlay).to_be_hidden()


def test_the_teacher_shows_how_to_play_on_the_projector_before_start(
    browser: Browser, live_url: str, teacher_page: Page
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "htp-teacher")
    _session(teacher, "riff_raff")
    console_url = teacher.url

    # No projector open: the console plays it on its own screen.
    teacher.get_by_role("button", name="Show how to play").click()
    overlay = teacher.locator("[data-how-to-play]")
    expect(overlay).to_be_visible()
    expect(overlay.locator("[data-htp-caption]")).to_have_text("Pick a number card.")
    plan = teacher.evaluate(f"{SHOWN}.plan")
    assert plan["total"] < 20_000, plan
    overlay.get_by_role("button", name="Skip").click()
    expect(overlay).to_be_hidden()

    # The projector open in the same browser: it plays there, and the console says so.
    projector = teacher.context.new_page()
    projector.set_viewport_size(PROJECTOR)
    projector.goto(console_url.rstrip("/") + "/projector/")
    projector.wait_for_function(f"() => {SHOWN} !== undefined")
    teacher.get_by_role("button", name="Show how to play").click()
    expect(projector.locator("[data-how-to-play]")).to_be_visible()
    expect(teacher.locator("[data-htp-note]")).to_have_text("Playing on the projector.")
    expect(overlay).to_be_hidden()
    _shot(teacher, "console-show-how-to-play")
    projector.evaluate(f"{SHOWN}.seek(1)")
    _shot(projector, "projector-riff-raff-place")
    projector.get_by_role("button", name="Skip").click()
    expect(projector.locator("[data-how-to-play]")).to_be_hidden()

    # On the projector itself, in Chinese.
    zh = browser.new_context(base_url=live_url, viewport=PROJECTOR)
    zh.add_cookies(
        [
            *teacher.context.cookies(),
            {"name": "django_language", "value": "zh-hant", "url": live_url},
        ]
    )
    zh_page = zh.new_page()
    zh_page.goto(console_url.rstrip("/") + "/projector/")
    zh_page.get_by_role("button", name="播放怎麼玩").click()
    expect(zh_page.locator("[data-htp-caption]")).to_have_text("選一張數字牌。")
    _shot(zh_page, "projector-riff-raff-pick-zh")
    zh.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_games_demo_in_both_orientations_and_languages(
    game: str, teacher_page: Page, open_tablet: Callable[..., Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, f"htp-shots-{game.replace('_', '-')}")
    tablets: list[tuple[str, Page]] = []
    for language in ("en", "zh-hant"):
        fields = {"players": "2"}
        if game == "palm_strike":
            # Colour words in the children's language, as a teacher would set them.
            fields["Colour words in"] = "zh-hant" if language == "zh-hant" else "en"
            fields["Matching level"] = "beginner" if language == "en" else "intermediate"
        code = _session(teacher, game, **fields)
        for orientation, viewport in (("landscape", LANDSCAPE), ("portrait", PORTRAIT)):
            page = _new_tablet(open_tablet, viewport, language)
            _join_as_guest(code, page, f"{orientation[:4].title()}{language[:2].title()}", language)
            tablets.append((f"{game}-{orientation}-{language[:2]}", page))
        teacher.get_by_role("button", name="Start").click()
    for name, page in tablets:
        _wait_for_game(page, game)
        # Each tablet started its demo by itself at its first view; one whose demo has ended
        # while the others were photographed plays it again from its "?". A demo still
        # showing is held where it is in the same call, so it cannot end between the look and
        # the hold.
        if not page.evaluate(HOLD_IF_SHOWING):
            page.get_by_role(
                "button", name="怎麼玩" if name.endswith("-zh") else "How to play"
            ).click()
        expect(page.locator("[data-how-to-play]")).to_be_visible()
        steps = page.evaluate(f"{SHOWN}.plan.steps.map(s => s.key)")
        for index, key in enumerate(steps):
            page.evaluate(f"{SHOWN}.seek({index})")
            # The stage and its caption inside the screen, the Skip button too.
            for part in ("[data-htp-stage]", "[data-htp-caption]", "[data-htp-skip]"):
                box = page.locator(part).bounding_box()
                size = page.viewport_size
                assert box is not None
                assert size is not None
                assert box["x"] >= 0, (name, key, part, box)
                assert box["y"] >= 0, (name, key, part, box)
                assert box["x"] + box["width"] <= size["width"], (name, key, part, box)
                assert box["y"] + box["height"] <= size["height"], (name, key, part, box)
            _shot(page, f"{name}-{index + 1}-{key}")
