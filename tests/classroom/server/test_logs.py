"""Every log line has its time, level, logger and request or socket id; JSON on request; Sentry
only with a DSN."""

from __future__ import annotations

import io
import json
import logging
import os
import re
from typing import TYPE_CHECKING, Any

import pytest
from channels.testing import HttpCommunicator

from classroom.asgi import application
from classroom.server.logs import (
    JsonFormatter,
    error_reports_start,
    log_formatter_path,
    log_ids_app,
)
from tests.classroom.test_settings import _run_manage

if TYPE_CHECKING:
    import subprocess
    from collections.abc import Iterator

TEXT_LINE = re.compile(
    r"^(?P<time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z) (?P<level>[A-Z]+) (?P<logger>\S+) "
    r"(?P<log_id>\S+) (?P<message>.*)$"
)


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the site's configured console handler writes, meanwhile."""
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    assert isinstance(handler, logging.StreamHandler)
    stream = io.StringIO()
    previous = handler.setStream(stream)
    yield stream
    handler.setStream(previous)


async def _not_found() -> dict[str, Any]:
    communicator = HttpCommunicator(
        application, "GET", "/no-such-page/", headers=[(b"host", b"testserver")]
    )
    response: dict[str, Any] = await communicator.get_response(timeout=10)
    assert response["status"] == 404
    return response


def _request_id(response: dict[str, Any]) -> str:
    return dict(response["headers"])[b"x-request-id"].decode()


def _lines_about(stream: io.StringIO, text: str) -> list[str]:
    return [line for line in stream.getvalue().splitlines() if text in line]


async def test_a_requests_log_line_has_the_time_level_logger_and_its_request_id(
    console: io.StringIO,
) -> None:
    response = await _not_found()
    request_id = _request_id(response)
    assert re.fullmatch(r"req-[0-9a-f]{8}", request_id)

    [line] = _lines_about(console, "Not Found: /no-such-page/")
    fields = TEXT_LINE.match(line)
    assert fields is not None, line
    assert fields["level"] == "WARNING"
    assert fields["logger"] == "django.request"
    assert fields["log_id"] == request_id
    assert fields["message"] == "Not Found: /no-such-page/"


async def test_two_requests_get_two_ids(console: io.StringIO) -> None:
    first, second = await _not_found(), await _not_found()
    assert _request_id(first) != _request_id(second)


async def test_a_sockets_log_lines_carry_its_socket_id(console: io.StringIO) -> None:
    async def consumer(scope: Any, receive: Any, send: Any) -> None:
        logging.getLogger("classroom.sockets.test").warning("socket says hello")

    async def nothing() -> dict[str, Any]:
        return {}

    async def ignore(message: Any) -> None:
        return None

    await log_ids_app(consumer)({"type": "websocket", "path": "/ws/"}, nothing, ignore)

    [line] = _lines_about(console, "socket says hello")
    fields = TEXT_LINE.match(line)
    assert fields is not None, line
    assert re.fullmatch(r"ws-[0-9a-f]{8}", fields["log_id"])
    assert fields["logger"] == "classroom.sockets.test"


def test_a_line_outside_any_request_says_so() -> None:
    stream = io.StringIO()
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    copy = logging.StreamHandler(stream)
    copy.setFormatter(handler.formatter)
    for log_filter in handler.filters:
        copy.addFilter(log_filter)
    logger = logging.getLogger("classroom.tests.outside")
    logger.addHandler(copy)
    try:
        logger.warning("between requests")
    finally:
        logger.removeHandler(copy)
    fields = TEXT_LINE.match(stream.getvalue().strip())
    assert fields is not None, stream.getvalue()
    assert fields["log_id"] == "-"


async def test_json_lines_carry_the_same_fields(console: io.StringIO) -> None:
    handler = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    text_formatter = handler.formatter
    handler.setFormatter(JsonFormatter())
    try:
        response = await _not_found()
    finally:
        handler.setFormatter(text_formatter)

    [line] = _lines_about(console, "Not Found: /no-such-page/")
    record = json.loads(line)
    assert record["level"] == "WARNING"
    assert record["logger"] == "django.request"
    assert record["message"] == "Not Found: /no-such-page/"
    assert record["request_id"] == _request_id(response)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", record["time"])


def _env(**overrides: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"LOG_FORMAT", "SENTRY_DSN", "LOG_LEVEL"}
    }
    return {**env, "DJANGO_SETTINGS_MODULE": "classroom.settings", **overrides}


def _python(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Runs ``code`` in a fresh process set up with the site's settings (``manage.py shell``)."""
    return _run_manage("shell", "--no-startup", "--no-imports", "-c", code, env=env)


def test_log_format_json_gives_one_json_object_a_line_even_for_a_traceback() -> None:
    code = (
        "import logging\n"
        "try:\n    1 / 0\n"
        "except ZeroDivisionError:\n    logging.getLogger('classroom.x').exception('two\\nlines')"
    )
    result = _python(code, _env(LOG_FORMAT="json"))
    assert result.returncode == 0, result.stderr
    [line] = result.stderr.splitlines()
    record = json.loads(line)
    assert record["level"] == "ERROR"
    assert record["logger"] == "classroom.x"
    assert record["message"] == "two\nlines"
    assert "ZeroDivisionError" in record["exception"]
    assert "request_id" not in record
    assert "socket_id" not in record


def test_an_unknown_log_format_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="LOG_FORMAT must be one of text, json, not 'xml'"):
        log_formatter_path("xml")


def test_without_a_dsn_sentry_is_neither_imported_nor_started() -> None:
    assert error_reports_start(dsn="") is False
    result = _python("import sys; print('sentry_sdk' in sys.modules)", _env())
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_with_a_dsn_sentry_is_started() -> None:
    # A DSN on a closed local port: nothing is sent (no error happens), and none could arrive.
    code = "import sentry_sdk; print(sentry_sdk.is_initialized())"
    result = _python(code, _env(SENTRY_DSN="http://key@127.0.0.1:9/1"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "True"
