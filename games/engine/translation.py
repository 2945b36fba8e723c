"""Marking the sentences engines show (labels, refusals) for translation, without Django."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """Mark a label for translation without importing Django (xgettext finds the call)."""
    return message
