"""Production settings pass Django's deployment checks; the default is not DEBUG."""

from __future__ import annotations

import importlib.util
import os
import secrets
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:
    from types import ModuleType

    import pytest

ROOT = Path(__file__).resolve().parents[2]
# Variables the settings module reads; a test controls all of them.
SETTINGS_ENV = (
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "HTTPS",
    "DATABASE_URL",
    "REDIS_URL",
    "STATIC_ROOT",
    "TIME_ZONE",
    "LOG_LEVEL",
    "TRUSTED_PROXIES",
    "SIGNUP",
    "SIGNUP_DOMAINS",
    "SCHOOL_DAY_ENDS",
    "EMAIL_HOST",
    "EMAIL_PORT",
    "EMAIL_USE_TLS",
)


def _clean_env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in SETTINGS_ENV}
    env["DJANGO_SETTINGS_MODULE"] = "classroom.settings"
    return env


def _run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_production_settings_pass_the_deploy_check() -> None:
    env = {
        **_clean_env(),
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "snapclass.example",
        "HTTPS": "1",
        "TRUSTED_PROXIES": "127.0.0.1",
        "TIME_ZONE": "Europe/London",
        "SIGNUP": "invite",
    }
    result = _run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_deploy_check_does_fail_without_https() -> None:
    # Control: the check above is not vacuous. Plain HTTP leaves cookies insecure.
    env = {
        **_clean_env(),
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "snapclass.example",
        "HTTPS": "0",
    }
    result = _run_manage("check", "--deploy", "--fail-level", "WARNING", env=env)
    assert result.returncode != 0
    assert "SESSION_COOKIE_SECURE" in result.stderr + result.stdout


def test_debug_is_off_in_the_running_settings() -> None:
    assert settings.DEBUG is False


def _load_settings_fresh() -> ModuleType:
    """Execute classroom/settings.py again, under the current environment."""
    spec = importlib.util.spec_from_file_location(
        "classroom_settings_fresh", ROOT / "classroom" / "settings.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_debug_is_false_by_default_without_any_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("DEBUG", "HTTPS", "ALLOWED_HOSTS"):
        monkeypatch.delenv(name, raising=False)
    module = _load_settings_fresh()
    assert module.DEBUG is False
    assert module.HTTPS is False
    assert module.SECURE_SSL_REDIRECT is False
    assert module.ALLOWED_HOSTS == ["127.0.0.1", "localhost", "[::1]"]
    assert module.STORAGES["staticfiles"]["BACKEND"].endswith(
        "CompressedManifestStaticFilesStorage"
    )


def test_debug_flag_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEBUG", "1")
    assert _load_settings_fresh().DEBUG is True
    monkeypatch.setenv("DEBUG", "no")
    assert _load_settings_fresh().DEBUG is False


def test_https_hardens_cookies_and_transport(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS", "1")
    module = _load_settings_fresh()
    assert module.SESSION_COOKIE_SECURE is True
    assert module.CSRF_COOKIE_SECURE is True
    assert module.SECURE_SSL_REDIRECT is True
    assert module.SECURE_HSTS_SECONDS >= 60 * 60 * 24 * 365


def test_the_default_socket_cap_holds_a_school_behind_one_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A school's NAT puts several classes behind one address. Each tablet holds one socket
    (its lobby or its game) and two for a moment while its page changes (the next game, a
    reload); each class's console and projector hold one each, and one watch socket per
    Riff Raff table each (32 tablets at tables of 2: 16 tables)."""
    monkeypatch.delenv("SOCKETS_PER_ADDRESS", raising=False)
    classes, tablets, tables = 8, 32, 16
    per_class = 2 * tablets + 2 + 2 * tables
    assert classes * per_class <= _load_settings_fresh().SOCKETS_PER_ADDRESS  # 784


def test_mail_goes_to_the_console_unless_a_mail_server_is_set(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS"):
        monkeypatch.delenv(name, raising=False)
    assert _load_settings_fresh().EMAIL_BACKEND.endswith("console.EmailBackend")
    monkeypatch.setenv("EMAIL_HOST", "smtp.school.example")
    monkeypatch.setenv("EMAIL_PORT", "2525")
    monkeypatch.setenv("EMAIL_USE_TLS", "0")
    module = _load_settings_fresh()
    assert module.EMAIL_BACKEND.endswith("smtp.EmailBackend")
    assert (module.EMAIL_HOST, module.EMAIL_PORT, module.EMAIL_USE_TLS) == (
        "smtp.school.example",
        2525,
        False,
    )


def test_signup_domains_are_read_plainly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SIGNUP", "domain")
    monkeypatch.setenv("SIGNUP_DOMAINS", " School.example, @staff.school.example ,")
    assert _load_settings_fresh().SIGNUP_DOMAINS == ("school.example", "staff.school.example")
