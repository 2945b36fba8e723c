"""The deployment kit's systemd units (deploy/systemd), read as systemd reads them and moved from
a school's paths to this checkout, so tests start exactly what the units would."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "deploy" / "systemd"
ENV_EXAMPLE = ROOT / "deploy" / "snapclass.env.example"
# Where the units expect the site (docs/deploy.md), and where the backups go.
SITE = "/srv/snapclass"
BACKUPS = "/var/backups/snapclass"


def unit_text(name: str) -> str:
    return (UNITS / name).read_text(encoding="utf-8")


def unit_values(text: str, key: str) -> list[str]:
    """Every value of ``key`` in a unit, its continuation lines (a trailing backslash) joined."""
    lines: list[str] = []
    for raw in text.splitlines():
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1] + " " + raw.strip()
        else:
            lines.append(raw.strip())
    prefix = f"{key}="
    return [line.removeprefix(prefix) for line in lines if line.startswith(prefix)]


def here(text: str, *, backups: Path | None = None) -> str:
    """A unit's text with the school's paths replaced by this checkout's: its Python's bin
    folder for the virtualenv (the tests' interpreter, whatever VENV it came from)."""
    text = text.replace(f"{SITE}/.venv/bin/", f"{Path(sys.executable).parent}/")
    text = text.replace(SITE, str(ROOT))
    if backups is not None:
        text = text.replace(BACKUPS, str(backups))
    return text


def exec_starts(name: str, *, instance: str = "", backups: Path | None = None) -> list[list[str]]:
    """The unit's ExecStart command lines, here, with %i as ``instance``."""
    text = here(unit_text(name), backups=backups)
    return [shlex.split(line.replace("%i", instance)) for line in unit_values(text, "ExecStart")]


def environment_file(path: Path) -> dict[str, str]:
    """NAME=value lines as systemd's EnvironmentFile= reads the kit's (comments skipped)."""
    values = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, value = line.partition("=")
        values[name.strip()] = value.strip()
    return values
