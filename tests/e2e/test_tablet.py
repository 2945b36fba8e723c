"""The student's tablet: an installable app with a service worker, the screen kept awake during
play, fingers-sized controls, and game pages that fit portrait and landscape without scrolling."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from playwright.sync_api import expect

from tests.e2e.classroom_site import new_tablet_context
from tests.e2e.conftest import screenshot
from tests.e2e.site_pages import GAME_PAGES, STUDENT_PAGES, SitePage, opened

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.e2e.classroom_site import Site

# The first test also builds the module's classroom (tests/e2e/classroom_site.py): 60-120 s
# with the other worker's browser running, so its limit is twice the suite's 180 s.
pytestmark = [pytest.mark.e2e, pytest.mark.timeout(360)]

PORTRAIT = {"width": 768, "height": 1024}
LANDSCAPE = {"width": 1024, "height": 768}
ORIENTATIONS = {"portrait": PORTRAIT, "landscape": LANDSCAPE}
MIN_TARGET_PX = 44
EDGE_PX = 16  # UI.md: nothing important within 16 px of an edge


def test_the_manifest_has_what_an_install_needs(classroom_site: Site, browser: Browser) -> None:
    context = new_tablet_context(browser, classroom_site.url)
    page = context.new_page()
    page.goto("/join/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    assert href
    response = page.request.get(href)
    assert response.ok
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(response.text())
    assert manifest["name"] == "Snapclass"
    assert manifest["short_name"]
    assert manifest["start_url"] == "/join/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#")
    assert manifest["background_color"].startswith("#")
    assert {icon["purpose"] for icon in manifest["icons"] if "purpose" in icon} == {"maskable"}
    for icon in manifest["icons"]:
        assert icon["sizes"] == "any"
        served = page.request.get(icon["src"])
        assert served.ok, icon
        assert served.headers["content-type"] == icon["type"] == "image/svg+xml"
    context.close()


def test_the_service_worker_controls_the_page_after_a_reload_and_serves_static_files(
    classroom_site: Site, browser: Browser
) -> None:
    context = new_tablet_context(browser, classroom_site.url)
    page = context.new_page()
    page.goto("/join/")
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == classroom_site.url + "/"
    worker = page.request.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["service-worker-allowed"] == "/"

    statics: dict[str, bool] = {}
    page.on("response", lambda r: statics.update({r.url: r.from_service_worker}))
    main = page.reload()
    assert main is not None
    assert not main.from_service_worker  # pages always come from the network
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    stylesheet = page.locator("link[rel=stylesheet]").first.get_attribute("href")
    assert stylesheet
    # The hashed name from the staticfiles manifest, precached on install, served from cache.
    assert "/static/css/snapclass." in stylesheet
    assert stylesheet.endswith(".css")
    assert stylesheet != "/static/css/snapclass.css"
    assert statics[classroom_site.url + stylesheet] is True
    cached = page.evaluate(
        "href => caches.keys().then(keys => caches.open(keys[0]))"
        ".then(cache => cache.match(href)).then(hit => !!hit)",
        stylesheet,
    )
    assert cached
    context.close()


WAKE_LOCK_SPY = """
window.__wakeLock = { requests: 0, sentinels: [] };
Object.defineProperty(navigator, 'wakeLock', { configurable: true, value: {
    request(type) {
        window.__wakeLock.requests += 1;
        const sentinel = new EventTarget();
        sentinel.type = type;
        sentinel.release = () => Promise.resolve();
        window.__wakeLock.sentinels.push(sentinel);
        return Promise.resolve(sentinel);
    },
}});
"""


@pytest.mark.parametrize("site_page", GAME_PAGES, ids=lambda page: page.name)
def test_a_game_page_keeps_the_screen_awake(
    classroom_site: Site, browser: Browser, site_page: SitePage
) -> None:
    context = classroom_site.context_for(site_page.who)
    context.add_init_script(WAKE_LOCK_SPY)
    with opened(classroom_site, browser, site_page, "en") as page:
        page.wait_for_function("window.__wakeLock.requests === 1")
        assert page.evaluate("window.__wakeLock.sentinels[0].type") == "screen"
        # The browser drops the lock when the tablet is put aside; back on the page, it is
        # asked for again.
        page.evaluate("window.__wakeLock.sentinels[0].dispatchEvent(new Event('release'))")
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        page.wait_for_function("window.__wakeLock.requests === 2")


# Every control a finger can reach: its box, and where it sits on the screen.
CONTROLS = """() => [...document.querySelectorAll(
    'button, a[href], input:not([type=hidden]), select, textarea, [role=button], [tabindex]'
)].filter(el => el.checkVisibility() && !el.classList.contains('skip-link')).map(el => {
    const box = el.getBoundingClientRect();
    return { what: el.outerHTML.slice(0, 100), width: box.width, height: box.height,
             left: box.left, top: box.top, right: innerWidth - box.right,
             bottom: innerHeight - box.bottom };
})"""
TOUCH_PAGES = [page for page in STUDENT_PAGES if page.name != "resume"]


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("site_page", TOUCH_PAGES, ids=lambda page: page.name)
def test_every_control_on_a_student_page_is_big_enough_for_a_finger(
    classroom_site: Site, browser: Browser, site_page: SitePage, orientation: str
) -> None:
    with opened(classroom_site, browser, site_page, "en") as page:
        page.set_viewport_size(ORIENTATIONS[orientation])
        page.wait_for_timeout(300)  # a frame or two for the game to lay out again
        controls = page.evaluate(CONTROLS)
    assert controls, "no controls at all"
    small = [c for c in controls if min(c["width"], c["height"]) < MIN_TARGET_PX]
    assert not small, small


@pytest.mark.parametrize("orientation", ORIENTATIONS)
@pytest.mark.parametrize("site_page", GAME_PAGES, ids=lambda page: page.name)
def test_a_game_fits_the_tablet_without_scrolling(
    classroom_site: Site, browser: Browser, site_page: SitePage, orientation: str
) -> None:
    with opened(classroom_site, browser, site_page, "en") as page:
        page.set_viewport_size(ORIENTATIONS[orientation])
        page.wait_for_timeout(500)
        screenshot(page, f"tablet-{site_page.name}-{orientation}")
        overflow = page.evaluate(
            "() => [document.scrollingElement.scrollWidth - innerWidth,"
            " document.scrollingElement.scrollHeight - innerHeight]"
        )
        controls = page.evaluate(CONTROLS)
    assert overflow == [0, 0], f"the page scrolls by {overflow} px"
    near_edge = [c for c in controls if min(c["left"], c["top"], c["right"], c["bottom"]) < EDGE_PX]
    assert not near_edge, near_edge


def test_game_surfaces_take_no_double_tap_zoom_or_text_selection(
    classroom_site: Site, browser: Browser
) -> None:
    for site_page in GAME_PAGES:
        with opened(classroom_site, browser, site_page, "en") as page:
            surface = page.locator(".ps, .cm, .rr").first
            expect(surface).to_have_css("user-select", "none")
            expect(surface).to_have_css("touch-action", "manipulation")
            expect(page.locator("body")).to_have_css("touch-action", "manipulation")
