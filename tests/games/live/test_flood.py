"""Flood control: the token bucket and the cooldown after a flood close."""

from __future__ import annotations

from games.live.flood import Cooldown, TokenBucket


def test_a_burst_passes_then_sustained_flooding_strikes() -> None:
    bucket = TokenBucket(capacity=3, rate=1, tokens=3)
    assert [bucket.take(0) for _ in range(5)] == [True, True, True, False, False]
    assert bucket.strikes == 2
    assert bucket.take(1000)  # one token back after a second


def test_a_cooldown_lasts_its_time_and_only_for_its_key() -> None:
    cooldown = Cooldown(seconds=10)
    cooldown.start("token-a", now_ms=1000)
    assert cooldown.active("token-a", now_ms=10_999)
    assert not cooldown.active("token-a", now_ms=11_000)
    assert not cooldown.active("token-b", now_ms=2000)


def test_expired_cooldowns_are_forgotten_when_many_pile_up() -> None:
    cooldown = Cooldown(seconds=1)
    for number in range(1001):
        cooldown.start(f"t{number}", now_ms=0)
    cooldown.start("late", now_ms=5000)
    assert cooldown.active("late", now_ms=5001)
    assert not cooldown.active("t1", now_ms=5001)
    assert len(cooldown._entries()) == 1
