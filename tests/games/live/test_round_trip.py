from __future__ import annotations

import json

from games.live.round_trip import MAX_RTT_MS, PROBE_EVERY_MS, PROBE_SEQ_BASE, RoundTrip


def _seq(frame: str) -> int:
    decoded = json.loads(frame)
    assert decoded["type"] == "probe"
    return int(decoded["seq"])


def test_nothing_measured_is_a_round_trip_of_zero() -> None:
    assert RoundTrip().estimate_ms() == 0


def test_an_echo_of_a_probe_is_its_round_trip_and_not_a_ping() -> None:
    trip = RoundTrip()
    seq = _seq(trip.probe(1000))
    assert seq >= PROBE_SEQ_BASE
    assert trip.echoed(seq, 1042) is True
    assert trip.estimate_ms() == 42
    # The tablet's own pings are small numbers: answered as pings, nothing measured.
    assert trip.echoed(7, 1100) is False
    assert trip.estimate_ms() == 42


def test_the_estimate_is_the_median_of_recent_samples() -> None:
    trip = RoundTrip()
    for sent, took in enumerate([30, 32, 900, 31, 29]):
        seq = _seq(trip.probe(sent * PROBE_EVERY_MS))
        trip.echoed(seq, sent * PROBE_EVERY_MS + took)
    assert trip.estimate_ms() == 31  # one slow answer does not move it


def test_the_tablets_echo_cannot_be_answered_twice_or_before_it_was_asked() -> None:
    trip = RoundTrip()
    seq = _seq(trip.probe(0))
    assert trip.echoed(seq + 1, 5) is True  # a probe number, but never sent: ignored
    assert trip.estimate_ms() == 0
    trip.echoed(seq, 20)
    trip.echoed(seq, 5000)  # again, much later
    assert trip.estimate_ms() == 20


def test_a_round_trip_never_exceeds_the_wire_limit() -> None:
    trip = RoundTrip()
    seq = _seq(trip.probe(0))
    trip.echoed(seq, 60_000)
    assert trip.estimate_ms() == MAX_RTT_MS
