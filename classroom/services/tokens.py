"""Secret tokens for badges and seats."""

from __future__ import annotations

import secrets


def token_new() -> str:
    """A 32-character URL-safe secret (192 bits)."""
    return secrets.token_urlsafe(24)
