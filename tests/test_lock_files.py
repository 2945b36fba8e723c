"""The lock files (requirements/, written by `make lock`) give what pyproject.toml asks, under
each supported Python, with a hash on every pin and no package index named."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

if TYPE_CHECKING:
    from packaging.markers import Marker

ROOT = Path(__file__).resolve().parent.parent
RUN_LOCK = ROOT / "requirements" / "run.txt"
DEV_LOCK = ROOT / "requirements" / "dev.txt"
SUPPORTED_PYTHONS = ("3.11", "3.12", "3.13")
STALE = "pyproject.toml and {lock} disagree: run `make lock` and commit requirements/"


@dataclass(frozen=True)
class Pin:
    name: str
    version: Version
    marker: Marker | None
    hashes: tuple[str, ...]
    via_pyproject: bool

    def applies(self, python: str) -> bool:
        return self.marker is None or self.marker.evaluate(_environment(python))


def _environment(python: str) -> dict[str, str]:
    # CPython on Linux, the platform the site is served from; the lock covers every platform.
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "platform_machine": "x86_64",
        "extra": "",
    }


def _pins(lock: Path) -> list[Pin]:
    """One pin per requirement line, with the hashes and `# via` notes that follow it."""
    pins: list[Pin] = []
    for block in re.split(r"\n(?=[A-Za-z0-9])", lock.read_text()):
        if block.startswith("#"):
            continue
        head, _, rest = block.partition(" \\\n")
        requirement = Requirement(head)
        (specifier,) = requirement.specifier
        pins.append(
            Pin(
                name=canonicalize_name(requirement.name),
                version=Version(specifier.version),
                marker=requirement.marker,
                hashes=tuple(re.findall(r"--hash=(sha256:[0-9a-f]{64})", rest)),
                via_pyproject="snapclass (pyproject.toml)" in rest,
            )
        )
    return pins


def _asked(*, extras: bool) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    asked = [Requirement(line) for line in project["dependencies"]]
    if extras:
        asked += [Requirement(line) for line in project["optional-dependencies"]["dev"]]
    return asked


LOCKS = [pytest.param(RUN_LOCK, False, id="run"), pytest.param(DEV_LOCK, True, id="dev")]


@pytest.mark.parametrize(("lock", "extras"), LOCKS)
@pytest.mark.parametrize("python", SUPPORTED_PYTHONS)
def test_the_lock_pins_every_requirement_at_an_allowed_version(
    lock: Path, extras: bool, python: str
) -> None:
    pinned = {pin.name: pin.version for pin in _pins(lock) if pin.applies(python)}
    for requirement in _asked(extras=extras):
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} is not pinned: " + STALE.format(lock=lock.name)
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"{requirement} but {name}=={pinned[name]} is pinned: " + STALE.format(lock=lock.name)
        )


@pytest.mark.parametrize(("lock", "extras"), LOCKS)
def test_the_lock_pins_nothing_pyproject_no_longer_asks(lock: Path, extras: bool) -> None:
    asked = {canonicalize_name(requirement.name) for requirement in _asked(extras=extras)}
    direct = {pin.name for pin in _pins(lock) if pin.via_pyproject}
    assert direct <= asked, f"{sorted(direct - asked)}: " + STALE.format(lock=lock.name)


@pytest.mark.parametrize("lock", [RUN_LOCK, DEV_LOCK], ids=["run", "dev"])
def test_every_pin_has_hashes_and_no_index_is_named(lock: Path) -> None:
    text = lock.read_text()
    assert all(pin.hashes for pin in _pins(lock))
    # Options such as --index-url or --find-links would tie an install to one host.
    assert not re.search(r"^\s*-(?!-hash=)", text, flags=re.MULTILINE)
    assert "://" not in text


def test_the_sites_packages_are_pinned_alike_in_both_locks() -> None:
    dev = {(pin.name, pin.marker and str(pin.marker)): pin.version for pin in _pins(DEV_LOCK)}
    for pin in _pins(RUN_LOCK):
        assert dev[(pin.name, pin.marker and str(pin.marker))] == pin.version, pin.name
