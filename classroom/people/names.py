"""Display names and nicknames: trimmed, printable, and of a sensible visible length."""

from __future__ import annotations

import unicodedata

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

# Invisible characters that still count as "text" but would let two names look identical
# or reorder what a teacher reads: bidi overrides and isolates.
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# Joiners and variation selectors build one emoji out of several code points.
_JOINERS = frozenset("\u200d\ufe0e\ufe0f")


def visible_length(text: str) -> int:
    """Characters a reader sees: combining marks and emoji joiners do not add one."""
    return sum(
        1
        for char in text
        if char not in _JOINERS and unicodedata.category(char) not in {"Mn", "Me"}
    )


def display_name_clean(raw: str, *, max_length: int) -> str:
    """A name as it will be stored, or a ValidationError saying what is wrong with it."""
    name = unicodedata.normalize("NFC", raw).strip()
    for char in name:
        category = unicodedata.category(char)
        if category in {"Cc", "Cs", "Co", "Cn"} or char in _BIDI_CONTROLS or char in "\u2028\u2029":
            raise ValidationError(
                _("Names can only use letters, numbers, spaces and emoji."), code="control"
            )
    # Zero-width spaces, soft hyphens and the like would let "Mi\u200ba" pose as "Mia".
    name = "".join(char for char in name if char in _JOINERS or unicodedata.category(char) != "Cf")
    name = " ".join(name.split())
    length = visible_length(name)
    if length == 0:
        raise ValidationError(_("Please type a name."), code="empty")
    if length > max_length:
        raise ValidationError(
            _("Names can be at most %(max)d characters long.") % {"max": max_length},
            code="too_long",
        )
    return name


def name_key(name: str) -> str:
    """The form two names are compared in: 'Mia' and 'MIA' are the same name."""
    return unicodedata.normalize("NFKC", name).casefold()
