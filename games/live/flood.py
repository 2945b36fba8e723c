"""Flood control for one socket: a token bucket, pure (time comes in as an argument)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class TokenBucket:
    """``capacity`` frames at once, refilled at ``rate`` per second.

    ``take`` answers whether a frame may pass; ``strikes`` counts refusals so that sustained
    abuse can be told from a child tapping fast.
    """

    capacity: float = 30.0
    rate: float = 15.0
    tokens: float = 30.0
    updated_ms: int | None = None
    strikes: int = 0

    def take(self, now_ms: int) -> bool:
        if self.updated_ms is not None:
            elapsed = max(0, now_ms - self.updated_ms) / 1000
            self.tokens = min(self.capacity, self.tokens + elapsed * self.rate)
        self.updated_ms = now_ms
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False


@dataclass
class Cooldown:
    """Who was closed for flooding, and until when they are refused again at once.

    A client that ignores the close and reconnects in a loop would otherwise cost a database
    lookup and presence writes per attempt; during the cooldown it costs a handshake only.
    Keys are whatever identifies the client (the seat token); entries expire by themselves.
    """

    seconds: float = 10.0
    _until: dict[str, int] | None = None

    def start(self, key: str, now_ms: int) -> None:
        until = self._entries()
        until[key] = now_ms + int(self.seconds * 1000)
        if len(until) > 1000:  # forget the expired ones now and then
            for stale in [k for k, end in until.items() if end <= now_ms]:
                del until[stale]

    def active(self, key: str, now_ms: int) -> bool:
        end = self._entries().get(key)
        return end is not None and now_ms < end

    def _entries(self) -> dict[str, int]:
        if self._until is None:
            self._until = {}
        return self._until
