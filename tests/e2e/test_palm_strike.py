"""Three tablets play a whole Palm Strike game; reaction times are measured to the frame."""

from __future__ import annotations

import json
import sqlite3
import statistics
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import FloatRect, Page, expect

from games.palm_strike.cards import PlayerCard, PublicCard
from games.palm_strike.rules import matches
from tests.e2e.conftest import screenshot, teacher_sign_up

if TYPE_CHECKING:
    from collections.abc import Callable

pytestmark = pytest.mark.e2e

ONE_FRAME_MS = 17
GAME_TIMEOUT_S = 150


@dataclass
class Player:
    name: str
    delay_ms: int
    page: Page
    offset_ms: float = 0.0  # python monotonic ms - page performance.now()
    seat: int | None = None


def _page_offset(page: Page) -> float:
    before = time.monotonic() * 1000
    page_now = float(page.evaluate("performance.now()"))
    after = time.monotonic() * 1000
    return (before + after) / 2 - page_now


def _card(data: dict[str, Any]) -> PlayerCard | PublicCard:
    if data["type"] == "public":
        return PublicCard(bg=data["bg"], word=data["word"], ink=data["ink"])
    return PlayerCard(bg=data["bg"], pic=data["pic"], motif=data.get("motif", "cat"))


def has_match(view: dict[str, Any]) -> bool:
    public = _card(view["public"])
    return any(
        matches(public, _card(card), view["level"])  # type: ignore[arg-type]
        for player in view["players"]
        for card in player["cards"]
    )


def slap_matches(tablet: Page, *, slaps: int, seconds: float, flips: int = 0) -> int:
    """Slap the matching flips a child sees, a moment after each appears, until ``slaps``
    were slapped and ``flips`` flips seen (or ``seconds`` pass); how many were slapped."""
    slapped: set[int] = set()
    seen: set[int] = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and (len(slapped) < slaps or len(seen) < flips):
        view = tablet.evaluate("pageModules.palm_strike?.tablet.view")
        flip = int(view.get("flip") or 0)
        if view.get("window_closes_ms") and flip not in seen and view.get("public"):
            seen.add(flip)
            if has_match(view):
                tablet.wait_for_timeout(300)
                tablet.locator(f'[data-flip="{flip}"]').tap()
                slapped.add(flip)
        tablet.wait_for_timeout(30)
    return len(slapped)


def _create_auto_session(teacher: Page, level: str, *, team: bool = False) -> str:
    teacher.goto("/sessions/new/")
    teacher.get_by_label("Players per table").fill("3")
    teacher.get_by_label("Matching level").select_option(level)
    teacher.get_by_label("Cards per player").select_option("3")
    teacher.get_by_label("Response window (seconds)").fill("1.5")
    teacher.get_by_label("Flip pacing").select_option("auto")
    teacher.get_by_label("Auto-flip every (seconds)").fill("2")
    teacher.get_by_label("Points target").fill("0")  # one round: the game ends in time
    if team:
        teacher.get_by_label("Team mode (whole class)").check()
        teacher.get_by_label("Team mode ends").select_option("first_to_five")
    teacher.get_by_role("button", name="Create session").click()
    return teacher.get_by_label("Session code").inner_text().strip()


def _join(code: str, players: list[Player]) -> None:
    for player in players:
        player.page.goto(f"/join/{code}/")
        player.page.get_by_label("Your name").fill(player.name)
        player.page.get_by_role("button", name="Join").click()
        expect(player.page.get_by_text(f"Hi, {player.name}!")).to_be_visible()


def _sleep_until(due_ms: float) -> None:
    time.sleep(max(0.0, due_ms - time.monotonic() * 1000) / 1000)


def _tap_middle(page: Page, box: FloatRect) -> None:
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _measure_input_latency(page: Page, samples: int = 8) -> float:
    """How long a scripted touch takes to become a pointerdown event in headless Chromium."""
    page.evaluate(
        "window.__probe = [];"
        "document.addEventListener('pointerdown', e => window.__probe.push(e.timeStamp), true)"
    )
    box = page.locator(".ps-top").bounding_box()
    assert box is not None
    lags = []
    for _ in range(samples):
        sent = float(page.evaluate("performance.now()"))
        page.touchscreen.tap(box["x"] + 5, box["y"] + 5)
        received = float(page.evaluate("window.__probe[window.__probe.length - 1]"))
        lags.append(received - sent)
    return statistics.median(lags)


@pytest.mark.alone
@pytest.mark.parametrize("level", ["beginner", "intermediate", "advanced"])
def test_three_tablets_play_a_whole_game_with_frame_accurate_reaction_times(
    teacher_page: Page, new_tablet: Callable[[], Page], server_env: dict[str, str], level: str
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, f"ms-rt-{level}")
    code = _create_auto_session(teacher, level)
    players = [Player("Ava", 420, new_tablet()), Player("Ben", 650, new_tablet()),
               Player("Cy", 880, new_tablet())]  # fmt: skip
    _join(code, players)
    teacher.get_by_role("button", name="Start").click()
    for player in players:
        expect(player.page.get_by_role("region", name="Your cards")).to_be_visible(timeout=5000)
        player.page.wait_for_function(
            "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view"
        )
        player.seat = int(player.page.evaluate("pageModules.palm_strike?.tablet.view.you"))
        player.offset_ms = _page_offset(player.page)
    latency = _measure_input_latency(players[0].page)
    for player in players[1:]:
        _measure_input_latency(player.page, samples=1)  # installs the probe listener
    latencies: list[float] = []

    expected: dict[tuple[str, int], float] = {}  # (name, flip) -> page-side delay at the tap
    handled_flip = 0
    deadline = time.monotonic() + GAME_TIMEOUT_S
    finished = False
    while time.monotonic() < deadline and not finished:
        view = players[0].page.evaluate("pageModules.palm_strike?.tablet.view")
        if view["phase"] == "game_over":
            finished = True
            break
        for player in players:
            choosing = player.page.evaluate("pageModules.palm_strike?.tablet.view.choice")
            if choosing:
                # Whose card (several players matched), or which of your cards.
                kind = ".player-choice" if choosing["reason"] == "player" else ".card-choice"
                choice = player.page.locator(kind).first.bounding_box(timeout=2000)
                if choice is not None:  # it wiggles, so tap where it is rather than wait
                    _tap_middle(player.page, choice)
        flip = int(view.get("flip") or 0)
        if view.get("window_closes_ms") is None or flip <= handled_flip or not view.get("public"):
            time.sleep(0.02)
            continue
        handled_flip = flip
        if not has_match(view):
            continue
        # Tap each tablet's slap target its scripted delay after that tablet's onset.
        plan = []
        for player in players:
            player.page.wait_for_function(
                f"pageModules.palm_strike?.tablet.shownFlip === {flip}"
                " && pageModules.palm_strike?.tablet.onset !== null"
            )
            onset = float(player.page.evaluate("pageModules.palm_strike?.tablet.onset"))
            plan.append((player.offset_ms + onset + player.delay_ms, onset, player))
        for due, onset, player in sorted(plan, key=lambda item: item[0]):
            _sleep_until(due)
            target = player.page.locator(f'[data-flip="{flip}"]')
            box = target.bounding_box()
            if box is None:
                continue
            sent = float(player.page.evaluate("performance.now()"))
            _tap_middle(player.page, box)
            # This tap's input latency: from the script's send to the pointerdown event.
            arrived = float(player.page.evaluate("window.__probe[window.__probe.length - 1]"))
            latencies.append(arrived - sent)
            expected[(player.name, flip)] = sent - onset + (arrived - sent)
        if len(expected) <= 3:
            time.sleep(0.3)  # let the "first!" / "too slow" feedback show
            screenshot(players[0].page, f"palm-strike-{level}-tablet-first")
            screenshot(players[1].page, f"palm-strike-{level}-tablet-second")

    assert finished, "the game did not end in time"
    view = players[0].page.evaluate("pageModules.palm_strike?.tablet.view")
    winners = view["winners"]
    assert len(winners) == 1
    winner = next(player for player in players if player.seat == winners[0])
    for player in players:
        title = player.page.locator("[data-over-title]")
        if player is winner:
            expect(title).to_have_text("You win!")
        else:
            expect(title).to_have_text(f"{winner.name} wins!")
    expect(teacher.locator(".game-table tr.is-winner")).to_contain_text(winner.name, timeout=10_000)
    screenshot(winner.page, f"palm-strike-{level}-winner")
    screenshot(teacher, f"palm-strike-{level}-console")

    database = server_env["DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(database) as connection:
        rows = connection.execute(
            "SELECT seat.name, trial.data FROM classroom_trial AS trial"
            " JOIN classroom_seat AS seat ON seat.id = trial.seat_id"
            " WHERE trial.kind = 'palm_strike.flip'"
        ).fetchall()
    recorded = {}
    for name, raw in rows:
        data = json.loads(raw)
        if data["response"] == "slap":
            recorded[(name, data["flip"])] = data["rt_ms"]
    errors = [abs(recorded[key] - want) for key, want in expected.items() if key in recorded]
    checked = len(errors)
    for key, want in expected.items():
        if key in recorded:
            assert abs(recorded[key] - want) <= ONE_FRAME_MS, (key, recorded[key], want)
    print(  # for the issue notes: `pytest -s tests/e2e/test_palm_strike.py`
        f"input latency median {statistics.median(latencies):.1f} ms (calibration {latency:.1f});"
        f" {checked} slaps; |recorded - expected| max {max(errors):.1f} ms,"
        f" median {statistics.median(errors):.1f} ms"
    )
    assert checked >= 6, f"only {checked} slaps were recorded: {expected} vs {recorded}"
    # Each student's RTs sit near their scripted delay. Loosely: the script's own sleep can
    # overshoot on a busy machine, and its timer may fire a millisecond early (419 ms for a
    # 420 ms delay was seen); the frame-accurate comparison is the one above.
    for player in players:
        rts = [rt for (name, _flip), rt in recorded.items() if name == player.name]
        assert rts, player.name
        assert -ONE_FRAME_MS <= statistics.median(rts) - player.delay_ms < 150, (player.name, rts)


def _claimable(view: dict[str, Any]) -> int | None:
    public = _card(view["public"])
    for index, card in enumerate(view["centre"]):
        if matches(public, _card(card), view["level"]):  # type: ignore[arg-type]
            return index
    return None


def test_three_tablets_play_team_mode_to_five_claims(
    teacher_page: Page, new_tablet: Callable[[], Page]
) -> None:
    teacher = teacher_page
    teacher_sign_up(teacher, "ms-team")
    code = _create_auto_session(teacher, "beginner", team=True)
    players = [Player("Ava", 450, new_tablet()), Player("Ben", 700, new_tablet()),
               Player("Cy", 950, new_tablet())]  # fmt: skip
    _join(code, players)
    teacher.get_by_role("button", name="Start").click()
    for player in players:
        player.page.wait_for_function(
            "pageModules.palm_strike?.tablet && pageModules.palm_strike?.tablet.view", timeout=5000
        )
        player.offset_ms = _page_offset(player.page)

    handled_flip = 0
    deadline = time.monotonic() + GAME_TIMEOUT_S
    while time.monotonic() < deadline:
        view = players[0].page.evaluate("pageModules.palm_strike?.tablet.view")
        if view["phase"] == "game_over":
            break
        flip = int(view.get("flip") or 0)
        if view.get("window_closes_ms") is None or flip <= handled_flip or not view.get("public"):
            time.sleep(0.02)
            continue
        handled_flip = flip
        index = _claimable(view)
        if index is None:
            continue
        for player in players:  # in order of their scripted delays: Ava is quickest
            player.page.wait_for_function(
                f"pageModules.palm_strike?.tablet.shownFlip === {flip}"
                " && pageModules.palm_strike?.tablet.onset !== null"
            )
            onset = float(player.page.evaluate("pageModules.palm_strike?.tablet.onset"))
            time.sleep(
                max(0.0, player.offset_ms + onset + player.delay_ms - time.monotonic() * 1000)
                / 1000
            )
            box = player.page.locator(".centre-card").nth(index).bounding_box()
            if box is not None:
                player.page.touchscreen.tap(
                    box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
                )

    view = players[0].page.evaluate("pageModules.palm_strike?.tablet.view")
    assert view["phase"] == "game_over"
    assert view["winners"] == [0]  # Ava, quickest to every claim
    assert view["claims"]["0"] >= 5
    expect(players[0].page.locator("[data-over-title]")).to_have_text("You win!")
    expect(players[1].page.locator("[data-over-title]")).to_have_text("Ava wins!")
    projector = teacher.context.new_page()
    projector.goto(teacher.url + "projector/")
    expect(projector.locator(".projector-claims li").first).to_contain_text("Ava")
    screenshot(projector, "palm-strike-team-projector")
