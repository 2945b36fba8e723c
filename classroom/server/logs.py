"""Log lines a school's collector can read: time, level, logger and the request or socket.

Every line says when (UTC, to the millisecond), how bad, which logger and, while a request or a
WebSocket is being handled, which one (``req-…`` or ``ws-…``; ``-`` outside both). The id is
set once per ASGI connection (``log_ids_app`` around the whole application in
``classroom/asgi.py``) in a context variable, so it follows the request's work onto the
threads ``sync_to_async`` lends it, and comes back to the browser as ``X-Request-ID`` so a
teacher's "it broke at 10:02" can be matched to its line.

``LOG_FORMAT=json`` writes the same fields as one JSON object a line. ``SENTRY_DSN`` sends
errors to Sentry; unset, ``sentry_sdk`` is never imported.
"""

from __future__ import annotations

import json
import logging
import secrets
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, MutableMapping

    Scope = MutableMapping[str, Any]
    Message = MutableMapping[str, Any]
    Receive = Callable[[], Awaitable[Message]]
    Send = Callable[[Message], Awaitable[None]]
    ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOG_FORMATS = ("text", "json")
NO_ID = "-"
REQUEST_ID_HEADER = b"x-request-id"

_log_id: ContextVar[str] = ContextVar("snapclass_log_id", default=NO_ID)


def log_id_new(*, kind: str) -> str:
    """A short id, unique enough to find one connection's lines in a day's log."""
    return f"{kind}-{secrets.token_hex(4)}"


def log_id_current() -> str:
    return _log_id.get()


def log_id_set(*, log_id: str) -> None:
    """Marks the current context (a connection's task, or a test) with ``log_id``."""
    _log_id.set(log_id)


def log_ids_app(app: ASGIApp) -> ASGIApp:
    """The ASGI application, with each HTTP request and WebSocket given its log id."""

    async def with_log_id(scope: Scope, receive: Receive, send: Send) -> None:
        kind = {"http": "req", "websocket": "ws"}.get(scope["type"])
        if kind is None:
            await app(scope, receive, send)
            return
        log_id = log_id_new(kind=kind)
        # Each connection runs in a task of its own, whose context dies with it: nothing to
        # reset afterwards.
        _log_id.set(log_id)
        if kind == "ws":
            await app(scope, receive, send)
            return

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers.append((REQUEST_ID_HEADER, log_id.encode()))
                message = {**message, "headers": headers}
            await send(message)

        await app(scope, receive, send_with_id)

    return with_log_id


class LogIdFilter(logging.Filter):
    """Puts the current request's or socket's id on every record (``record.log_id``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.log_id = _log_id.get()
        return True


def _time(record: logging.LogRecord) -> str:
    moment = datetime.fromtimestamp(record.created, tz=UTC)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _log_id_of(record: logging.LogRecord) -> str:
    # A record that reached the formatter past the filter (a handler added elsewhere).
    return str(getattr(record, "log_id", None) or _log_id.get())


class TextFormatter(logging.Formatter):
    """``2026-12-06T01:30:00.123Z WARNING django.request req-3f9a1c2b Not Found: /x``."""

    def format(self, record: logging.LogRecord) -> str:
        line = (
            f"{_time(record)} {record.levelname} {record.name} {_log_id_of(record)} "
            f"{record.getMessage()}"
        )
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            line = f"{line}\n{self.formatStack(record.stack_info)}"
        return line


class JsonFormatter(logging.Formatter):
    """One JSON object a line: ``time``, ``level``, ``logger``, ``message``, and the id as
    ``request_id`` or ``socket_id``; a traceback as ``exception``."""

    def format(self, record: logging.LogRecord) -> str:
        fields: dict[str, Any] = {
            "time": _time(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        log_id = _log_id_of(record)
        if log_id.startswith("req-"):
            fields["request_id"] = log_id
        elif log_id.startswith("ws-"):
            fields["socket_id"] = log_id
        if record.exc_info:
            fields["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            fields["stack"] = self.formatStack(record.stack_info)
        return json.dumps(fields, ensure_ascii=False, default=str)


def log_formatter_path(log_format: str) -> str:
    """The dotted path of the formatter for ``LOG_FORMAT`` (for ``LOGGING``), or ValueError."""
    if log_format not in LOG_FORMATS:
        raise ValueError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}, not {log_format!r}")
    return f"{__name__}.{'JsonFormatter' if log_format == 'json' else 'TextFormatter'}"


def error_reports_start(*, dsn: str) -> bool:
    """Sends errors (and error log lines) to Sentry at ``dsn``; with no DSN, does nothing.

    Returns whether Sentry was started. ``sentry_sdk`` is imported only here, only with a DSN.
    No personal data is sent: no cookies, user names or addresses.
    """
    if not dsn:
        return False
    import sentry_sdk

    sentry_sdk.init(dsn=dsn, send_default_pii=False)
    return True
