"""deploy/snapclass.env.example names every setting the site reads from its environment, each
with a line saying what it is, and sets what a school's server must set."""

from __future__ import annotations

import ast
import secrets
from typing import TYPE_CHECKING

from classroom.server.deploy_checks import EXAMPLE_SECRET_KEY
from tests.classroom.test_settings import _clean_env, _run_manage
from tests.deploy.units import ENV_EXAMPLE, ROOT, environment_file

if TYPE_CHECKING:
    from pathlib import Path

# Read by the site but only ever set by its tests (docs/development.md).
TEST_ONLY = {"SNAPCLASS_TEST_DB"}
# Read through a library rather than os.environ (dj_database_url.config()).
READ_BY_LIBRARIES = {"DATABASE_URL"}


def _names_read(folder: Path) -> set[str]:
    """Every NAME in os.environ.get("NAME"), os.environ["NAME"], os.getenv("NAME") and the
    settings' readers (_env_flag("NAME"), any _env_…("NAME")) under ``folder``."""
    names = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            key: ast.expr | None = None
            if isinstance(node, ast.Call) and node.args:
                called = ast.unparse(node.func)
                if called in {"os.environ.get", "os.getenv", "os.environ.setdefault"} or (
                    called.startswith("_env_")
                ):
                    key = node.args[0]
            elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
                key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):
                names.add(key.value)
    return names


def _documented() -> dict[str, str]:
    """NAME -> the comment above it (its "# " lines), for NAME=… and #NAME=… lines."""
    found = {}
    comment: list[str] = []
    for line in ENV_EXAMPLE.read_text(encoding="utf-8").splitlines():
        name, equals, _value = line.removeprefix("#").partition("=")
        if equals and name.isupper() and " " not in name:
            found[name] = " ".join(comment)
            comment = []
        elif line.startswith("# "):
            comment.append(line.removeprefix("# "))
        else:
            comment = []
    return found


def test_every_setting_the_site_reads_is_in_the_example() -> None:
    read = _names_read(ROOT / "classroom") | _names_read(ROOT / "games")
    assert "TRUSTED_PROXIES" in read  # the scan finds what settings.py reads

    documented = _documented()
    wanted = (read | READ_BY_LIBRARIES) - TEST_ONLY - {"DJANGO_SETTINGS_MODULE"}
    assert sorted(wanted - set(documented)) == [], f"add them to {ENV_EXAMPLE.name}"
    # Each says what it is and what it is when left out.
    undescribed = [name for name, comment in documented.items() if "(default: " not in comment]
    assert undescribed == []


def test_the_example_sets_what_a_schools_server_must() -> None:
    values = environment_file(ENV_EXAMPLE)

    assert values["HTTPS"] == "1"
    assert values["TRUSTED_PROXIES"] == "127.0.0.1"
    assert values["DATABASE_URL"].startswith("postgres://")
    assert values["REDIS_URL"].startswith("redis://")
    assert values["TIME_ZONE"] != "UTC"
    assert values["SIGNUP"] == "invite"
    assert values["EMAIL_HOST"]  # invitations and password resets go by mail
    # The key is the one line a school must change (step 4): the check names it until then.
    assert values["SECRET_KEY"] == EXAMPLE_SECRET_KEY
    # Nothing a shell and systemd would read differently (deploy/manage sources the file).
    for name, value in values.items():
        assert not set(value) & set("\"' $\\`"), name


def test_the_example_passes_the_deploy_check() -> None:
    """Django's deployment checks and Snapclass's own find nothing to say about a server set up
    from the example with its own key, as docs/deploy.md's step 4 says."""
    env = _clean_env() | environment_file(ENV_EXAMPLE) | {"SECRET_KEY": secrets.token_urlsafe(50)}
    result = _run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_example_copied_unchanged_is_told_to_set_its_key() -> None:
    env = _clean_env() | environment_file(ENV_EXAMPLE)
    result = _run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    assert "snapclass.W001" in result.stderr + result.stdout
    assert "still the example's stand-in" in result.stderr + result.stdout
