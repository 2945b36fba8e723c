"""Badge tokens stay out of the logs.

A badge's QR code is a URL, ``/b/<token>/``, and whoever has the token is that child. Three
places would write it down: Daphne's access log (``daphne.access.AccessLogGenerator``, which
the ``daphne`` command writes straight to a stream, not through ``logging``), the access log of
``manage.py runserver`` (logger ``django.channels.server``) and Django's own "Not Found: …"
warnings for an old badge (logger ``django.request``). Each gets the path with the token
replaced by ``[badge]``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from daphne.access import AccessLogGenerator

# A path segment "b" at the start of a path (after a space or quote in a log line).
_BADGE_PATH = re.compile(r"(?:(?<=^)|(?<=[\s\"']))/b/[^/\s\"'?#]+")
REDACTED = "/b/[badge]"


def path_redact(text: str) -> str:
    return _BADGE_PATH.sub(REDACTED, text)


def _redact(value: Any) -> Any:
    return path_redact(value) if isinstance(value, str) else value


class BadgeTokenFilter(logging.Filter):
    """Rewrites a record's message and arguments; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = path_redact(record.msg)
        if isinstance(record.args, dict):
            record.args = {key: _redact(value) for key, value in record.args.items()}
        elif isinstance(record.args, tuple):
            record.args = tuple(_redact(value) for value in record.args)
        return True


class RedactingAccessLogGenerator(AccessLogGenerator):  # type: ignore[misc]
    def write_entry(self, host: Any, date: Any, request: str, **kwargs: Any) -> None:
        super().write_entry(host, date, path_redact(request), **kwargs)


def access_log_redact_install() -> None:
    """Make the ``daphne`` command's access log redact badge paths.

    Daphne's command line builds its access logger after importing the application, from the
    name ``daphne.cli.AccessLogGenerator``; the application's import (``classroom.asgi``)
    points that name here first. Outside the ``daphne`` command this changes nothing.
    """
    import daphne.cli

    daphne.cli.AccessLogGenerator = RedactingAccessLogGenerator
