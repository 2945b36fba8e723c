"""Badge tokens never reach a log: Daphne's access log, runserver's, Django's warnings."""

from __future__ import annotations

import datetime
import io
import logging
from typing import TYPE_CHECKING, Any

import pytest
from daphne.cli import CommandLineInterface
from django.test import Client

from classroom.web.access_log import BadgeTokenFilter, RedactingAccessLogGenerator, path_redact

if TYPE_CHECKING:
    from classroom.models import SchoolClass

TOKEN = "s3cr3t-Badge_Token"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (f"GET /b/{TOKEN}/", "GET /b/[badge]/"),
        (f"/b/{TOKEN}/", "/b/[badge]/"),
        (f'"GET /b/{TOKEN}/ HTTP/1.1"', '"GET /b/[badge]/ HTTP/1.1"'),
        (f"WSCONNECT /b/{TOKEN}", "WSCONNECT /b/[badge]"),
        ("GET /join/ABC234/", "GET /join/ABC234/"),
        ("GET /static/b/logo.svg", "GET /static/b/logo.svg"),
    ],
)
def test_badge_paths_are_redacted_and_nothing_else(line: str, expected: str) -> None:
    assert path_redact(line) == expected


def test_daphnes_access_log_entries_are_redacted() -> None:
    stream = io.StringIO()
    log = RedactingAccessLogGenerator(stream)
    details = {"client": "10.0.0.5:5000", "method": "GET", "path": f"/b/{TOKEN}/"}
    log("http", "complete", {**details, "status": 302, "size": 0})
    now = datetime.datetime.now(tz=datetime.UTC)
    log.write_entry(host="10.0.0.5", date=now, request=f"GET /b/{TOKEN}/")
    assert TOKEN not in stream.getvalue()
    assert stream.getvalue().count("/b/[badge]/") == 2


def test_the_daphne_command_uses_the_redacting_access_log(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Run daphne's own command line up to the point where it builds its server.
    built: dict[str, Any] = {}

    class NoServer:
        abort_start = False

        def __init__(self, **kwargs: Any) -> None:
            built.update(kwargs)

        def run(self) -> None:
            pass

    cli = CommandLineInterface()
    cli.server_class = NoServer
    cli.run(["-b", "127.0.0.1", "-p", "0", "classroom.asgi:application"])
    access_log = built["action_logger"]
    assert isinstance(access_log, RedactingAccessLogGenerator)
    access_log(
        "http",
        "complete",
        {"client": "10.0.0.5:1", "method": "GET", "path": f"/b/{TOKEN}/", "status": 302, "size": 0},
    )
    out = capsys.readouterr().out
    assert "GET /b/[badge]/" in out
    assert TOKEN not in out


def test_an_old_badge_is_not_written_into_djangos_warnings(
    caplog: pytest.LogCaptureFixture, school_class: SchoolClass
) -> None:
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = Client().get(f"/b/{TOKEN}/")
    assert response.status_code == 404
    messages = [record.getMessage() for record in caplog.records]
    assert any("/b/[badge]/" in message for message in messages)
    assert not any(TOKEN in message for message in messages)


def test_runservers_access_log_is_filtered() -> None:
    # manage.py runserver (daphne's) logs "HTTP %(method)s %(path)s …" with a dict of details.
    assert any(
        isinstance(f, BadgeTokenFilter) for f in logging.getLogger("django.channels.server").filters
    )
    details = {"method": "GET", "path": f"/b/{TOKEN}/", "status": 302}
    record = logging.LogRecord(
        "django.channels.server", logging.INFO, __file__, 1,
        "HTTP %(method)s %(path)s %(status)s", (details,), None,
    )  # fmt: skip
    assert BadgeTokenFilter().filter(record)
    assert record.getMessage() == "HTTP GET /b/[badge]/ 302"
