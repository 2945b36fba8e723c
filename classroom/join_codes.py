"""Six-character session codes that children can read off a projector and type."""

from __future__ import annotations

import secrets

# No 0/O, 1/I/L: nothing a child could misread.
JOIN_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
JOIN_CODE_LENGTH = 6


def join_code_generate() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def join_code_normalize(raw: str) -> str:
    """What a child typed, as a code: upper case, without spaces or dashes."""
    return "".join(raw.split()).replace("-", "").upper()


def join_code_is_well_formed(code: str) -> bool:
    return len(code) == JOIN_CODE_LENGTH and all(char in JOIN_CODE_ALPHABET for char in code)
