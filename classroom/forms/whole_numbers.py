"""Whole numbers typed or posted by a browser (ids, table numbers, option values).

``str.isdigit()`` is true for "²" and "٣", which ``int()`` then refuses or reads as another
digit; and a 30-digit id overflows the database's integer. Only ASCII digits, and few enough to
fit a 64-bit column, are a number here; anything else is "not a number" and changes nothing.
"""

from __future__ import annotations

import re

_WHOLE_NUMBER = re.compile(r"[0-9]{1,18}")


def whole_number_parse(raw: str) -> int | None:
    """``raw`` as a non-negative int, or None when it is not plainly one."""
    return int(raw) if _WHOLE_NUMBER.fullmatch(raw) else None
