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
