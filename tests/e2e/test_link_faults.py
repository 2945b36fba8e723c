"""A tablet's link fails and heals: a Wi-Fi drop, and the server gone and back.

Two tablets reach the site through a TCP relay (tests/e2e/relay.py) that the test freezes or
takes down; the teacher's console is connected straight. The tablet must notice a silent link
by itself (its heartbeat, or at once from a tap the server does not answer), the server must
drop the silent socket so the console tells the truth, the tablet must be back the moment the
server answers (not when its backoff says), a tap made while the link was down must be
answered at once, and count exactly once when it is kept, never when it is a race.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.cluster.processes import embedded_site, free_port
from tests.e2e.conftest import LAPTOP, TABLET, screenshot, teacher_sign_up
from tests.e2e.relay import Relay
from tests.faults.live import kill_all, palm_strike

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.e2e

STUDENTS = ["Ava", "Ben"]
PORTRAIT = {"width": TABLET["height"], "height": TABLET["width"]}
# Each tablet's page language (its browser's) and orientation: the offline answers are looked
# at in both languages and both orientations.
TABLETS = {"Ava": ("en", TABLET), "Ben": ("zh-TW", PORTRAIT)}
RACE = {
    "en": "The tablet is offline, so this tap cannot count.",
    "zh-TW": "平板沒有連線，所以這一下不能算。",
}
KEPT = {
    "en": "The tablet is offline. Your tap is kept and sent when it is back.",
    "zh-TW": "平板沒有連線。你這一下先存起來，連回來就會送出。",
}
GREETING = {"en": "Hi, {name}!", "zh-TW": "嗨，{name}！"}
# The brief's bounds: the tablet's overlay and the console's "disconnected" within 6 s of a
# Wi-Fi drop (the design: 3 s on the tablet, 4 s + a 1 s closing handshake on the server).
SHOWN_WITHIN_MS = 6000
# Only to end a broken test: healing is asserted by what happened, not by how fast.
HEAL_TIMEOUT_MS = 20_000


@pytest.fixture
def relay(live_url: str) -> Iterator[Relay]:
    relay = Relay(int(live_url.rsplit(":", 1)[1]))
    yield relay
    relay.close()


def _class_and_session(teacher: Page, username: str, *, window_s: str = "") -> str:
    teacher_sign_up(teacher, username)
    teacher.get_by_role("link", name="New class").click()
    teacher.get_by_label("Class name").fill("Year 2 Owls")
    teacher.get_by_label("Student names").fill("\n".join(STUDENTS))
    teacher.get_by_role("button", name="Save").click()
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Game", exact=True).select_option(label="Palm Strike")
    teacher.get_by_label("Class", exact=True).select_option(label="Year 2 Owls")
    teacher.get_by_label("Players per table").fill("2")
    teacher.get_by_label("Flip pacing").select_option("tap")
    if window_s:
        teacher.get_by_label("Response window (seconds)").fill(window_s)
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def _playing(
    browser: Browser,
    relay: Relay,
    teacher: Page,
    username: str,
    *,
    window_s: str = "",
    tablets_as: dict[str, tuple[str, dict[str, int]]] | None = None,
) -> list[Page]:
    """Both tablets (through the relay) at the started game, each with its first view, in
    English and landscape unless ``tablets_as`` says {name: (locale, viewport)}."""
    code = _class_and_session(teacher, username, window_s=window_s)
    tablets = []
    for name in STUDENTS:
        locale, viewport = (tablets_as or {}).get(name, ("en", TABLET))
        context = browser.new_context(
            base_url=relay.url,
            viewport=viewport,
            has_touch=True,
            device_scale_factor=1,
            locale=locale,
        )
        tablet = context.new_page()
        tablet.goto(f"/join/{code}/")
        tablet.get_by_role("button", name=name).click()
        expect(tablet.get_by_text(GREETING[locale].format(name=name))).to_be_visible()
        tablets.append(tablet)
    expect(teacher.get_by_text("2 connected")).to_be_visible()
    teacher.get_by_role("button", name="Start", exact=True).click()
    for tablet in tablets:
        tablet.wait_for_function(
            "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view",
            timeout=15_000,
        )
    expect(teacher.get_by_text("2 connected")).to_be_visible(timeout=10_000)
    return tablets


def _flipper(tablets: list[Page]) -> Page:
    """The tablet whose turn it is to flip (its Flip button shows)."""
    for tablet in tablets:
        if tablet.locator("[data-flip-button]").is_visible():
            return tablet
    raise AssertionError("nobody may flip")


def _link_log(tablet: Page) -> list[dict[str, Any]]:
    log: list[dict[str, Any]] = tablet.evaluate("pageModules.table_socket?.links[0].log")
    return log


def _flips_in_log(database: Path, session_code: str) -> list[str]:
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT entry.client_id FROM classroom_actionlogentry AS entry"
            " JOIN classroom_table AS t ON t.id = entry.table_id"
            " JOIN classroom_gamesession AS s ON s.id = t.session_id"
            " WHERE s.code = ? AND entry.kind = 'act'",
            (session_code,),
        ).fetchall()
    return [str(cid) for (cid,) in rows]


def _teacher(browser: Browser, live_url: str) -> Page:
    page = browser.new_context(base_url=live_url, viewport=LAPTOP).new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    return page


def test_a_wifi_drop_shows_on_the_tablet_and_the_console_and_heals_by_itself(
    browser: Browser, live_url: str, relay: Relay, server_env: dict[str, str]
) -> None:
    teacher = _teacher(browser, live_url)
    tablets = _playing(browser, relay, teacher, "ms-wifi")
    code = teacher.get_by_label("Session code").inner_text().strip()
    flipper = _flipper(tablets)
    overlay = flipper.locator("[data-reconnecting]")
    expect(overlay).to_be_hidden()

    relay.freeze()
    dropped = time.monotonic()
    # Tapped on a dead link: the frame leaves the page and is held on the way. Unanswered,
    # it tells the tablet at once that the link is down, and the child that it is kept.
    flipper.locator("[data-flip-button]").dispatch_event("pointerdown")
    expect(overlay).to_be_visible(timeout=SHOWN_WITHIN_MS)
    overlay_s = time.monotonic() - dropped
    expect(flipper.locator("[data-offline-answer]")).to_have_text(KEPT["en"])
    # The other tablet, with nothing tapped, notices by its heartbeat.
    other = next(tablet for tablet in tablets if tablet is not flipper)
    expect(other.locator("[data-reconnecting]")).to_be_visible(timeout=SHOWN_WITHIN_MS)
    # The stale table is dimmed under the overlay.
    assert flipper.locator("[data-table-socket]").get_attribute("data-link-lost") is not None
    screenshot(flipper, "tablet-wifi-drop-reconnecting")
    expect(teacher.get_by_text("0 connected")).to_be_visible(timeout=SHOWN_WITHIN_MS)
    console_s = time.monotonic() - dropped
    print(f"Wi-Fi drop: overlay after {overlay_s:.2f} s, console after {console_s:.2f} s")

    relay.thaw()
    for tablet in tablets:
        expect(tablet.locator("[data-reconnecting]")).to_be_hidden(timeout=HEAL_TIMEOUT_MS)
    expect(teacher.get_by_text("2 connected")).to_be_visible(timeout=HEAL_TIMEOUT_MS)
    for tablet in tablets:
        tablet.wait_for_function(
            "pageModules.palm_strike?.tablet.view.flip === 1", timeout=HEAL_TIMEOUT_MS
        )
    assert flipper.locator("[data-table-socket]").get_attribute("data-link-lost") is None
    database = Path(server_env["DATABASE_URL"].removeprefix("sqlite:///"))
    # The flip was resent after the reconnect (and maybe also arrived late on the dead link):
    # the log has it once.
    flips = _flips_in_log(database, code)
    assert len(flips) == 1, flips
    # The tapping tablet doubted the link from its unanswered tap; the heartbeat then found it
    # gone, as it did for the tablet that had not tapped.
    seen = [entry["what"] for entry in _link_log(flipper) if entry["what"] in ("doubt", "lost")]
    assert seen[:1] == ["doubt"], _link_log(flipper)
    lost = [entry for entry in _link_log(flipper) if entry["what"] == "lost"]
    assert lost, _link_log(flipper)
    assert lost[0]["detail"] == "silent", _link_log(flipper)
    lost = [entry for entry in _link_log(other) if entry["what"] == "lost"]
    assert lost, _link_log(other)
    assert lost[0]["detail"] == "silent", _link_log(other)
    teacher.context.close()
    for tablet in tablets:
        tablet.context.close()


def test_back_at_once_when_the_server_answers_and_a_tap_made_meanwhile_counts_once(
    browser: Browser, live_url: str, relay: Relay, server_env: dict[str, str]
) -> None:
    teacher = _teacher(browser, live_url)
    # The other way round from the slap test: Ava in 中文 and landscape, Ben in English and
    # portrait.
    tablets = _playing(
        browser,
        relay,
        teacher,
        "ms-restart",
        tablets_as={"Ava": ("zh-TW", TABLET), "Ben": ("en", PORTRAIT)},
    )
    code = teacher.get_by_label("Session code").inner_text().strip()
    flipper = _flipper(tablets)
    locale = "zh-TW" if flipper is tablets[0] else "en"

    relay.go_down()
    expect(flipper.locator("[data-reconnecting]")).to_be_visible(timeout=SHOWN_WITHIN_MS)
    flipper.locator("[data-flip-button]").dispatch_event("pointerdown")  # made while down
    # Answered before the tap's handler returned: kept, and sent when the tablet is back.
    assert flipper.locator("[data-offline-answer]").is_visible()
    expect(flipper.locator("[data-offline-answer]")).to_have_text(KEPT[locale])
    _answer_inside(flipper)
    screenshot(flipper, f"tablet-offline-kept-{locale}-{_orientation(flipper)}")
    # Down long enough for the backoff to grow past a second (0.5, 1, 2, 4 s ceilings).
    flipper.wait_for_function(
        "pageModules.table_socket?.links[0].log.filter(e => e.what === 'backoff').length >= 4",
        timeout=HEAL_TIMEOUT_MS,
    )
    up_at = float(flipper.evaluate("performance.now()"))
    relay.come_up()
    for tablet in tablets:
        expect(tablet.locator("[data-reconnecting]")).to_be_hidden(timeout=HEAL_TIMEOUT_MS)
        tablet.wait_for_function(
            "pageModules.palm_strike?.tablet.view.flip === 1", timeout=HEAL_TIMEOUT_MS
        )

    log = _link_log(flipper)
    opened = next(e for e in log if e["what"] == "open" and e["at"] > up_at)
    attempt = [e for e in log if e["what"] == "attempt" and e["at"] <= opened["at"]][-1]
    backoffs = [e for e in log if e["what"] == "backoff" and e["at"] <= up_at]
    print(
        f"server back: tablet reconnected after {opened['at'] - up_at:.0f} ms"
        f" (attempt by {attempt['detail']}; the backoff then was {backoffs[-1]['detail']} ms)"
    )
    # The backoff was cut short by the probe: the attempt that got in was the probe's, while
    # the backoff it replaced would have slept for more than a second.
    assert attempt["detail"] == "probe", log
    assert int(backoffs[-1]["detail"]) > 1000, log
    database = Path(server_env["DATABASE_URL"].removeprefix("sqlite:///"))
    flips = _flips_in_log(database, code)
    assert len(flips) == 1, flips
    teacher.context.close()
    for tablet in tablets:
        tablet.context.close()


def test_a_slap_on_a_link_gone_quiet_is_answered_at_once_and_never_counts(
    browser: Browser, live_url: str, relay: Relay, server_env: dict[str, str]
) -> None:
    """The issue's finding: a slap made while the Wi-Fi is down got 4 s of silence, then "did
    not count". The link goes quiet with a card open (the heartbeat has not noticed yet); both
    children slap. Each tablet says at once, from the unanswered tap and not from the
    heartbeat, that the slap cannot count; once the server has closed the silent sockets and
    the link is back, the action log holds no slap."""
    teacher = _teacher(browser, live_url)
    tablets = _playing(browser, relay, teacher, "ms-quiet", window_s="5", tablets_as=TABLETS)
    code = teacher.get_by_label("Session code").inner_text().strip()
    _flipper(tablets).locator("[data-flip-button]").dispatch_event("pointerdown")
    for tablet in tablets:
        tablet.wait_for_function(
            "pageModules.palm_strike?.tablet.view.flip === 1"
            " && pageModules.palm_strike.tablet.onset !== null",
            timeout=HEAL_TIMEOUT_MS,
        )

    relay.freeze()
    for tablet in tablets:
        tablet.locator(".slap-target").dispatch_event("pointerdown")
    for tablet, name in zip(tablets, STUDENTS, strict=True):
        locale = TABLETS[name][0]
        expect(tablet.locator("[data-offline-answer]")).to_have_text(RACE[locale])
        log = _link_log(tablet)
        sent = next(e for e in log if e["what"] == "act")
        told = next(e for e in log if e["what"] == "told")
        first = next(e for e in log if e["what"] in ("doubt", "lost"))
        print(f"{name}: slap on a quiet link answered after {told['at'] - sent['at']} ms")
        # Said because the tap went unanswered, not 3 s later by the heartbeat.
        assert first["what"] == "doubt", log
        assert first["at"] <= told["at"], log
        assert told["detail"] == "race", log
        # Looked at in both orientations: turned while the answer shows.
        for _turn in range(2):
            _answer_inside(tablet)
            screenshot(tablet, f"tablet-offline-race-{locale}-{_orientation(tablet)}")
            size = tablet.viewport_size
            assert size is not None
            tablet.set_viewport_size({"width": size["height"], "height": size["width"]})

    # The server closes the silent sockets (4 s): the frames held on the way go with them.
    expect(teacher.get_by_text("0 connected")).to_be_visible(timeout=SHOWN_WITHIN_MS)
    relay.thaw()
    for tablet in tablets:
        tablet.wait_for_function(
            "pageModules.table_socket?.links[0].opens === 2", timeout=HEAL_TIMEOUT_MS
        )
        expect(tablet.locator("[data-reconnecting]")).to_be_hidden(timeout=HEAL_TIMEOUT_MS)
    database = Path(server_env["DATABASE_URL"].removeprefix("sqlite:///"))
    # The flip only: neither slap was sent again, and the ones held on the way were dropped.
    assert len(_flips_in_log(database, code)) == 1
    teacher.context.close()
    for tablet in tablets:
        tablet.context.close()


def _orientation(page: Page) -> str:
    size = page.viewport_size
    assert size is not None
    return "landscape" if size["width"] > size["height"] else "portrait"


def _answer_inside(page: Page) -> None:
    """The answer lies inside the viewport and clear of the "Reconnecting…" pill."""
    box = page.locator("[data-offline-answer]").bounding_box()
    pill = page.locator("[data-reconnecting]").bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    assert box["x"] >= 0
    assert box["y"] >= 0
    assert box["x"] + box["width"] <= size["width"]
    assert box["y"] + box["height"] <= size["height"]
    if pill is not None:
        assert box["y"] + box["height"] <= pill["y"], (box, pill)


def test_the_console_notices_its_own_lost_link_and_comes_back_live(
    browser: Browser, live_url: str, relay: Relay
) -> None:
    """The teacher's laptop loses its Wi-Fi: the console says "Reconnecting…" instead of
    showing a stale class, and once the link is back it is live again (a tablet joining
    shows up)."""
    teacher = _teacher(browser, relay.url)
    code = _class_and_session(teacher, "ms-console")
    overlay = teacher.locator("[data-reconnecting]")
    expect(teacher.get_by_text("0 connected")).to_be_visible()
    teacher.wait_for_timeout(1500)  # a ping or two answered: the heartbeat runs

    relay.freeze()
    dropped = time.monotonic()
    expect(overlay).to_be_visible(timeout=SHOWN_WITHIN_MS)
    print(f"console's own link lost: overlay after {time.monotonic() - dropped:.2f} s")
    relay.thaw()
    expect(overlay).to_be_hidden(timeout=HEAL_TIMEOUT_MS)

    context = browser.new_context(
        base_url=live_url, viewport=TABLET, has_touch=True, device_scale_factor=1
    )
    tablet = context.new_page()
    tablet.goto(f"/join/{code}/")
    tablet.get_by_role("button", name=STUDENTS[0]).click()
    expect(teacher.get_by_text("1 connected")).to_be_visible(timeout=HEAL_TIMEOUT_MS)
    context.close()
    teacher.context.close()


def _answering(port: int) -> float:
    """When (monotonic ms) the restarted server first answered a request at ``port``."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            url = f"http://127.0.0.1:{port}/healthz"
            with urllib.request.urlopen(url, timeout=10):
                return time.monotonic() * 1000
        except OSError:
            time.sleep(0.02)
    raise AssertionError("the restarted server never answered")


@pytest.mark.timeout(240)
def test_a_tablet_is_back_within_a_second_of_a_killed_server_answering_again(
    browser: Browser, tmp_path: Path
) -> None:
    """The embedded server is killed (-9) and started again on its port after 4 s: the
    tablet is back about as soon as the new process answers, not when its backoff says."""
    site = embedded_site(tmp_path)
    port = free_port()
    site.start(port)
    try:
        prepared = palm_strike(site, players=2, table_size=2, settings={"flip_pacing": "tap"})
        code, token = prepared["code"], prepared["seats"][0]["token"]
        context = browser.new_context(viewport=TABLET, has_touch=True, device_scale_factor=1)
        url = f"http://127.0.0.1:{port}"
        context.add_cookies([{"name": f"seat_{code}", "value": token, "url": url}])
        tablet = context.new_page()
        tablet.goto(f"{url}/play/{code}/")
        tablet.wait_for_function(
            "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view",
            timeout=30_000,
        )
        tablet.wait_for_function("pageModules.table_socket?.links[0].opens === 1")

        site.kill(port)
        time.sleep(4)  # the backoff grows meanwhile: its next sleep may be 2-4 s
        starting = threading.Thread(target=site.start, args=(port,))
        starting.start()
        answered = _answering(port)
        offset = _page_offset(tablet)
        starting.join()
        tablet.wait_for_function("pageModules.table_socket?.links[0].opens === 2", timeout=30_000)
        log = _link_log(tablet)
        opened = [e for e in log if e["what"] == "open"][-1]
        attempt = [e for e in log if e["what"] == "attempt" and e["at"] <= opened["at"]][-1]
        delay_ms = opened["at"] + offset - answered
        print(f"kill -9 + restart: tablet back {delay_ms:.0f} ms after the server answered")
        # Generous for a loaded machine; the backoff alone could have slept for 4 s.
        assert delay_ms < 2500, (delay_ms, attempt, log)
        context.close()
    finally:
        kill_all(site)


def _page_offset(page: Page) -> float:
    """Python's monotonic ms minus the page's performance.now()."""
    before = time.monotonic() * 1000
    page_now = float(page.evaluate("performance.now()"))
    return (before + time.monotonic() * 1000) / 2 - page_now
