"""Every page, in English and in 繁體中文, has no axe-core violations; the teacher's pages
work from the keyboard with a focus ring that can be seen."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.e2e.axe_audit import axe_violations, describe
from tests.e2e.conftest import ARTIFACTS, screenshot
from tests.e2e.site_pages import HTML_LANG, PAGES, SitePage, in_each_language, opened

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.e2e.classroom_site import Site

# The first test also builds the module's classroom (tests/e2e/classroom_site.py): 60-120 s
# with the other worker's browser running, so its limit is twice the suite's 180 s.
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(360)]


@pytest.mark.parametrize("site_page", PAGES, ids=lambda page: page.name)
def test_the_page_has_no_accessibility_violations_in_either_language(
    classroom_site: Site, browser: Browser, site_page: SitePage
) -> None:
    found = {}
    for language, page in in_each_language(classroom_site, browser, site_page):
        expect(page.locator("html")).to_have_attribute("lang", HTML_LANG[language])
        violations = axe_violations(page)
        if violations:
            ARTIFACTS.mkdir(exist_ok=True)
            report = ARTIFACTS / f"axe-{site_page.name}-{language}.json"
            report.write_text(json.dumps(violations, indent=1, ensure_ascii=False))
            found[language] = describe(violations)
    assert not found, "\n".join(f"[{language}]\n{what}" for language, what in found.items())


# The focused element, and whether a ring shows: an outline of 2 px or more, not cut off by an
# ancestor that hides its overflow (a ring drawn outside a clipped box is never seen).
FOCUS_PROBE = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    const width = parseFloat(style.outlineWidth);
    const reach = Math.max(0, parseFloat(style.outlineOffset) + width);
    let clipped = false;
    for (let up = el.parentElement; up && reach > 0; up = up.parentElement) {
        const upStyle = getComputedStyle(up);
        if (upStyle.overflowX === 'visible' && upStyle.overflowY === 'visible') continue;
        const frame = up.getBoundingClientRect();
        clipped ||= box.left - reach < frame.left || box.top - reach < frame.top
            || box.right + reach > frame.right || box.bottom + reach > frame.bottom;
    }
    return {
        what: el.outerHTML.slice(0, 120),
        ring: style.outlineStyle !== 'none' && width >= 2 && !clipped,
        onScreen: box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0
            && box.top < innerHeight && box.left < innerWidth,
    };
}"""
KEYBOARD_PAGES = [page for page in PAGES if page.name in ("class-detail", "console-lobby")]


@pytest.mark.parametrize("site_page", KEYBOARD_PAGES, ids=lambda page: page.name)
def test_the_teacher_tabs_through_the_page_and_always_sees_the_focus(
    classroom_site: Site, browser: Browser, site_page: SitePage
) -> None:
    with opened(classroom_site, browser, site_page, "en") as page:
        stops: list[dict[str, object]] = []
        for _ in range(60):
            page.keyboard.press("Tab")
            focused = page.evaluate(FOCUS_PROBE)
            if focused is None or (stops and focused["what"] == stops[0]["what"]):
                break  # past the last control, or round to the first again
            stops.append(focused)
            if len(stops) == 12:
                screenshot(page, f"focus-{site_page.name}")  # a ring mid-page, to look at
        assert "skip-link" in str(stops[0]["what"]), "the first Tab goes to 'Skip to content'"
        assert len(stops) >= 8, stops
        unseen = [stop["what"] for stop in stops if not (stop["ring"] and stop["onScreen"])]
        assert not unseen, unseen
        # Every control that acts on the class or session can be reached, not only links.
        assert sum("<button" in str(stop["what"]) for stop in stops) >= 3, stops
