"""Network faults against a real Daphne: dropped sockets, repeated and reordered frames.

- a tablet's TCP connection dies mid-flip and the tablet comes back 1-10 s later, sending the
  unanswered flip again (what table_socket.js does);
- the same input arrives twice and inputs arrive with their numbers out of order;
- the teacher's console loses its socket and reconnects.

One Daphne serves the whole module; each test plays in a session of its own.
"""

from __future__ import annotations

import asyncio
import socket
import struct
import time
from typing import TYPE_CHECKING, Any

import pytest

from tests.cluster.processes import embedded_site
from tests.faults.live import Tablet, action_log, kill_all, login_cookie, palm_strike, table_tablet

if TYPE_CHECKING:
    from collections.abc import Iterator

    from tests.cluster.processes import Site

TAP = {"flip_pacing": "tap", "response_window_s": 1.0}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, int]]:
    site = embedded_site(tmp_path_factory.mktemp("network"))
    port = site.start()
    yield site, port
    kill_all(site)


def _no_tracebacks(site: Site) -> None:
    tail = site.log_tail()
    assert "Traceback" not in tail, tail


def _is_state(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "state"


async def _seated(port: int, prepared: dict[str, Any]) -> tuple[Tablet, Tablet]:
    """(the tablet whose turn it is to flip, the other one), both with their first view."""
    code = prepared["code"]
    tablets = [table_tablet(port, code, seat["token"]) for seat in prepared["seats"]]
    views = []
    for tablet in tablets:
        await tablet.open()
        views.append((await tablet.wait_for(_is_state))["view"])
    active = views[0]["active_seat"]
    mover = next(t for t, view in zip(tablets, views, strict=True) if view["you"] == active)
    other = next(t for t in tablets if t is not mover)
    return mover, other


async def _flip_when_my_turn(tablet: Tablet, name: str, stop: asyncio.Event) -> None:
    """The other child: flips whenever it is their turn, so the table moves on meanwhile."""
    flipped: set[int] = set()
    seq = 100
    while not stop.is_set():
        states = tablet.states()
        view = states[-1]["view"] if states else None
        if (
            view is not None
            and view["phase"] == "waiting_flip"
            and view["active_seat"] == view["you"]
            and view["flip"] not in flipped
        ):
            flipped.add(view["flip"])
            seq += 1
            await tablet.send(
                {"type": "act", "seq": seq, "action": {"kind": "flip"}, "cid": f"{name}:{seq}"}
            )
        await asyncio.sleep(0.02)


def _hard_drop(tablet: Tablet) -> None:
    """Pull the plug at once: RST, and whatever the kernel had not sent yet is lost."""
    sock = tablet.raw_socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    tablet.drop()


async def _until(condition: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


async def _dropped_mid_flip(
    site: Site, port: int, prepared: dict[str, Any], when: str, away_s: float
) -> dict[str, Any]:
    mover, other = await _seated(port, prepared)
    table = prepared["seats"][0]["table"]
    stop = asyncio.Event()
    partner = asyncio.ensure_future(_flip_when_my_turn(other, "other", stop))
    flip = {"type": "act", "seq": 1, "action": {"kind": "flip"}, "cid": "mover-page:1"}
    version_before = mover.version
    if when != "lost_on_the_way":
        # On loopback a written frame reaches the server at once, so a frame lost on the way
        # is played by not writing it: the tablet counts it as sent, the server never saw it.
        await mover.send(flip)
    if when == "after_applied":
        # The server has applied it (the other tablet sees the card); the ack is never read.
        await other.wait_for(lambda frame: _is_state(frame) and frame["view"]["flip"] >= 1)
    _hard_drop(mover)
    await asyncio.sleep(away_s)
    applied_while_away = [cid for _seq, _kind, cid in action_log(site, table)].count("mover-page:1")

    known_before_return = other.version
    back = await Tablet(url=mover.url, cookie=mover.cookie, origin=mover.origin).open()
    joined = await back.wait_for(_is_state)
    await back.send(flip)  # the unanswered input, sent again as it was
    ack = await back.wait_for(lambda frame: frame.get("type") in {"ack", "error"})
    stop.set()
    await partner
    # Both tablets settle on the newest version of the table: one per entry of its log.
    await _until(
        lambda: back.version == other.version == len(action_log(site, table)),
        5,
        "the tablets to reach the table's current version",
    )
    log = action_log(site, table)
    for tablet in (back, other):
        await tablet.close()
    return {
        "applied_while_away": applied_while_away,
        "version_before": version_before,
        "known_before_return": known_before_return,
        "joined": joined,
        "ack": ack,
        "log": log,
    }


@pytest.mark.timeout(90)
@pytest.mark.parametrize(
    ("when", "away_s"),
    [("lost_on_the_way", 1.0), ("after_applied", 4.0), ("right_after_send", 10.0)],
)
def test_a_tablet_dropped_mid_flip_comes_back_and_the_flip_counts_once(
    served: tuple[Site, int], when: str, away_s: float
) -> None:
    """The socket dies with the flip lost on the way, right after it leaves (it may or may
    not arrive), or after the server applied it (the ack is lost). Back after 1-10 s, the
    tablet gets the table as it is now, sends the flip again with the same client id and is
    acknowledged; the flip is in the log exactly once, applied whichever way it went."""
    site, port = served
    prepared = palm_strike(site, players=2, table_size=2, settings=TAP)
    result = asyncio.run(_dropped_mid_flip(site, port, prepared, when, away_s))

    print(f"flip applied before the tablet came back: {bool(result['applied_while_away'])}")
    cids = [cid for _seq, _kind, cid in result["log"] if cid]
    assert cids.count("mover-page:1") == 1, result["log"]
    assert len(cids) == len(set(cids)), result["log"]
    assert result["ack"]["type"] == "ack", result["ack"]
    assert result["ack"]["seq"] == 1
    if when == "after_applied":
        assert result["applied_while_away"] == 1
    if when == "lost_on_the_way":
        assert result["applied_while_away"] == 0
    # It comes back to the table as it is now, not as it left it.
    assert result["joined"]["version"] >= result["known_before_return"]
    if result["applied_while_away"]:
        assert result["joined"]["version"] > result["version_before"]
        if away_s >= 4:
            # Its card closed and the other child flipped the next one meanwhile.
            assert result["joined"]["view"]["flip"] >= 2, result["joined"]["view"]
    _no_tracebacks(site)


async def _repeated_and_reordered(site: Site, port: int, prepared: dict[str, Any]) -> Any:
    mover, other = await _seated(port, prepared)
    table = prepared["seats"][0]["table"]
    start = len(mover.received)
    flip = {"type": "act", "seq": 7, "action": {"kind": "flip"}, "cid": "page:7"}
    await mover.send(flip)
    await mover.send(flip)  # the very same frame again
    state = await mover.wait_for(lambda f: _is_state(f) and f["view"]["flip"] == 1, after=start)
    slap = {
        "type": "act",
        "seq": 3,  # an older number than the flip's: numbers are ids, not an order
        "action": {"kind": "slap", "flip": state["view"]["flip"], "rt_ms": 420},
        "cid": "page:3",
    }
    await mover.send(slap)
    await mover.send(slap)
    await mover.send({**slap, "seq": 5, "cid": "page:5"})  # a second slap: refused
    await mover.send({"type": "ping", "seq": 2})
    await mover.send({"type": "sync", "seq": 1})

    def answers() -> list[dict[str, Any]]:
        # Acks, errors, pongs, and the sync's answer: a view with no events (broadcast
        # changes always carry theirs).
        return [
            received.frame
            for received in mover.received[start:]
            if received.frame.get("type") in {"ack", "error", "pong"}
            or (_is_state(received.frame) and not received.frame["events"])
        ]

    await _until(lambda: len(answers()) >= 7, 5, "an answer to every frame")
    await asyncio.sleep(0.3)  # anything more than one answer each would show by now
    log = action_log(site, table)
    for tablet in (mover, other):
        await tablet.close()
    return answers(), log


@pytest.mark.timeout(60)
def test_repeated_and_reordered_frames_are_each_answered_and_applied_once(
    served: tuple[Site, int],
) -> None:
    """A flip sent twice and a slap sent twice (same client ids) are acknowledged twice each
    with the same version and stored once; numbers out of order are answered by number; a
    second slap on the same card is refused; ping and sync are answered."""
    site, port = served
    prepared = palm_strike(site, players=2, table_size=2, settings=TAP)
    answers, log = asyncio.run(_repeated_and_reordered(site, port, prepared))

    acks = [frame for frame in answers if frame["type"] == "ack"]
    errors = [frame for frame in answers if frame["type"] == "error"]
    pongs = [frame for frame in answers if frame["type"] == "pong"]
    syncs = [frame for frame in answers if frame["type"] == "state"]
    assert sorted(ack["seq"] for ack in acks) == [3, 3, 7, 7], answers
    flip_versions = {ack["version"] for ack in acks if ack["seq"] == 7}
    slap_versions = {ack["version"] for ack in acks if ack["seq"] == 3}
    assert len(flip_versions) == 1, acks  # the repeat changed nothing
    assert len(slap_versions) == 1, acks
    assert min(slap_versions) > min(flip_versions)
    assert [(e["seq"], e["code"]) for e in errors] == [(5, "rejected")], errors
    assert pongs == [{"type": "pong", "seq": 2}]
    assert len(syncs) == 1, answers
    assert len(answers) == 7, answers
    stored = [cid for _seq, _kind, cid in log if cid]
    assert stored == ["page:7", "page:3"], log
    _no_tracebacks(site)


async def _console_reconnects(site: Site, port: int, prepared: dict[str, Any]) -> Any:
    cookie = login_cookie(site, prepared["teacher"])
    console = Tablet(
        url=f"ws://127.0.0.1:{port}/ws/sessions/{prepared['session']}/console/",
        cookie=cookie,
        origin=f"http://127.0.0.1:{port}",
    )
    first = (await (await console.open()).wait_for(lambda f: f["type"] == "html"))["html"]
    _hard_drop(console)
    # While the console is away two tablets sit down and the first card is flipped.
    mover, other = await _seated(port, prepared)
    await mover.send({"type": "act", "seq": 1, "action": {"kind": "flip"}, "cid": "m:1"})
    await other.wait_for(lambda frame: _is_state(frame) and frame["view"]["flip"] == 1)
    await asyncio.sleep(1.0)
    again = Tablet(url=console.url, cookie=cookie, origin=console.origin)
    second = (await (await again.open()).wait_for(lambda f: f["type"] == "html"))["html"]
    # Live again: a tablet leaving reaches the reconnected console.
    mark = len(again.received)
    await other.close()
    third = (
        await again.wait_for(
            lambda f: f["type"] == "html" and "1 connected" in f["html"], after=mark
        )
    )["html"]
    await mover.close()
    await again.close()
    return first, second, third


@pytest.mark.timeout(60)
def test_the_teacher_console_reconnects_and_gets_the_current_page(
    served: tuple[Site, int],
) -> None:
    """The console's socket is cut; meanwhile tablets connect and a card is flipped. The
    reconnected console gets the console fragment as it is now, and live updates again."""
    site, port = served
    prepared = palm_strike(site, players=2, table_size=2, settings=TAP)
    first, second, third = asyncio.run(_console_reconnects(site, port, prepared))

    for html in (first, second, third):
        assert 'id="console-live"' in html
    assert "0 connected" in first
    assert "Waiting for the first tablet to connect" in first
    assert "2 connected" in second
    assert "Flip 1" in second
    assert "1 connected" in third
    _no_tracebacks(site)
