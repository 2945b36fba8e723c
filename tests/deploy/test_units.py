"""The kit's systemd units: systemd accepts them as a school installs them (with this checkout's
paths), the web processes run with the Makefile's Daphne flags, every manage.py command line in
them parses, and deploy/haproxy.cfg is what ``manage.py haproxy_config`` writes."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command, get_commands, load_command_class

from classroom.server.daphne_limits import (
    DAPHNE_TIMEOUT_ARGS,
    LISTEN_BACKLOG,
    WS_MAX_BYTES,
    daphne_serve_args,
)
from classroom.server.haproxy import haproxy_check
from tests.deploy.units import ROOT, UNITS, exec_starts, here, unit_text
from tests.services import require

UNIT_NAMES = sorted(path.name for path in UNITS.iterdir())
# What systemd-analyze is asked about: each unit, the web template as an instance.
VERIFIED = [name.replace("@.", "@8001.") for name in UNIT_NAMES]


def _verify(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["systemd-analyze", "verify", *(str(folder / name) for name in VERIFIED)],
        capture_output=True, text=True, check=False, cwd=folder,
    )  # fmt: skip


def test_the_kit_has_the_units_the_docs_install() -> None:
    assert UNIT_NAMES == [
        "snapclass-backup.service",
        "snapclass-backup.timer",
        "snapclass-cleanup.service",
        "snapclass-cleanup.timer",
        "snapclass-migrate.service",
        "snapclass-web@.service",
        "snapclass-worker.service",
        "snapclass.target",
    ]


def test_systemd_accepts_every_unit_without_a_warning(tmp_path: Path) -> None:
    require("systemd-analyze")
    for name in UNIT_NAMES:
        (tmp_path / name).write_text(here(unit_text(name), backups=tmp_path))

    done = _verify(tmp_path)

    assert (done.returncode, done.stderr) == (0, ""), done.stderr


def test_systemd_analyze_refuses_a_unit_whose_program_is_missing(tmp_path: Path) -> None:
    # The check above can fail: the units moved to a checkout that is not there (not
    # /srv/snapclass itself, which a machine that followed docs/deploy.md has).
    require("systemd-analyze")
    nowhere = tmp_path / "nowhere"
    for name in UNIT_NAMES:
        (tmp_path / name).write_text(unit_text(name).replace("/srv/snapclass", str(nowhere)))

    done = _verify(tmp_path)

    assert done.returncode != 0
    assert f"{nowhere}/.venv/bin/python is not executable" in done.stderr


def test_the_web_processes_run_with_the_makefiles_daphne_flags() -> None:
    (command,) = exec_starts("snapclass-web@.service", instance="8001")
    assert Path(command[0]).name == "python"
    assert command[1:3] == ["-m", "classroom.server.serve"]  # Daphne on uvloop
    assert command[3:5] == ["-v", "0"]  # HAProxy logs every request
    assert command[5:-1] == daphne_serve_args("127.0.0.1", 8001)
    assert command[-1] == "classroom.asgi:application"

    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(rf"^LISTEN_BACKLOG := {LISTEN_BACKLOG}$", makefile, re.MULTILINE)
    assert re.search(rf"^WS_MAX_BYTES := {WS_MAX_BYTES}$", makefile, re.MULTILINE)
    timeouts = re.search(r"^DAPHNE_TIMEOUTS := ((?:.*\\\n)*.*)$", makefile, re.MULTILINE)
    assert timeouts is not None
    assert timeouts.group(1).replace("\\\n", " ").split() == DAPHNE_TIMEOUT_ARGS


@pytest.mark.parametrize("name", [name for name in UNIT_NAMES if name.endswith(".service")])
def test_every_manage_py_line_of_a_unit_parses(name: str) -> None:
    for command in exec_starts(name, instance="8001"):
        if not command[1:2] or not command[1].endswith("manage.py"):
            continue
        subcommand, *args = command[2:]
        found = load_command_class(get_commands()[subcommand], subcommand)
        found.create_parser("manage.py", subcommand).parse_args(args)  # exits on a bad flag


def test_the_kits_haproxy_configuration_is_the_commands(settings: Any, tmp_path: Path) -> None:
    settings.ALLOWED_HOSTS = ["snapclass.school.example"]
    written = io.StringIO()
    call_command("haproxy_config", stdout=written)

    shipped = (ROOT / "deploy" / "haproxy.cfg").read_text(encoding="utf-8")
    assert written.getvalue() == shipped, "regenerate it: deploy/manage haproxy_config"
    assert "bind :443 ssl crt /etc/haproxy/certs/snapclass.pem" in shipped
    assert "server p2 127.0.0.1:8002" in shipped

    require("haproxy")
    pem = tmp_path / "snapclass.pem"
    subprocess.run(
        [ROOT / "deploy" / "tls-self-signed", "snapclass.school.example", pem], check=True
    )
    config = tmp_path / "haproxy.cfg"
    config.write_text(shipped.replace("/etc/haproxy/certs/snapclass.pem", str(pem)))
    haproxy_check(config)
