"""`manage.py check --deploy` names each trap of a school's installation by its id, and says
nothing once it is set right."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from django.core.checks import run_checks

from classroom.server.deploy_checks import EXAMPLE_SECRET_KEY
from tests.classroom.test_settings import _clean_env, _run_manage

if TYPE_CHECKING:
    from pytest_django.fixtures import SettingsWrapper

RIGHT = {
    "SECRET_KEY_GENERATED": False,
    "TRUSTED_PROXIES": ["127.0.0.1"],
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
    "REDIS_URL": "redis://127.0.0.1:6379/0",
    "TIME_ZONE": "Asia/Taipei",
    "SIGNUP": "invite",
}


def _deploy_ids() -> set[str]:
    return {
        message.id
        for message in run_checks(include_deployment_checks=True)
        if message.id and message.id.startswith("snapclass.")
    }


@pytest.fixture
def right(settings: SettingsWrapper) -> SettingsWrapper:
    for name, value in RIGHT.items():
        setattr(settings, name, value)
    return settings


def test_a_site_set_right_has_no_warning_of_ours(right: SettingsWrapper) -> None:
    assert _deploy_ids() == set()


def test_the_example_files_stand_in_key_is_named(right: SettingsWrapper) -> None:
    right.SECRET_KEY = EXAMPLE_SECRET_KEY
    assert _deploy_ids() == {"snapclass.W001"}


def test_the_checks_run_only_for_deploy(settings: SettingsWrapper) -> None:
    settings.SECRET_KEY_GENERATED = True
    settings.SIGNUP = "open"
    assert not [m for m in run_checks() if m.id and m.id.startswith("snapclass.")]


@pytest.mark.parametrize(
    ("name", "wrong", "check_id"),
    [
        ("SECRET_KEY_GENERATED", True, "snapclass.W001"),
        ("TRUSTED_PROXIES", [], "snapclass.W002"),
        ("TIME_ZONE", "UTC", "snapclass.W003"),
        ("TIME_ZONE", "Etc/UTC", "snapclass.W003"),
        ("SIGNUP", "open", "snapclass.W004"),
    ],
)
def test_each_trap_set_wrong_is_named(
    right: SettingsWrapper, name: str, wrong: object, check_id: str
) -> None:
    setattr(right, name, wrong)
    assert _deploy_ids() == {check_id}


@pytest.mark.parametrize(
    "behind",
    [
        pytest.param({"SECURE_PROXY_SSL_HEADER": None}, id="redis-only"),
        pytest.param({"REDIS_URL": ""}, id="https-only"),
    ],
)
def test_either_sign_of_a_proxy_asks_for_trusted_proxies(
    right: SettingsWrapper, behind: dict[str, object]
) -> None:
    right.TRUSTED_PROXIES = []
    for name, value in behind.items():
        setattr(right, name, value)
    assert _deploy_ids() == {"snapclass.W002"}


def test_one_process_on_plain_http_needs_no_trusted_proxies(right: SettingsWrapper) -> None:
    # The classroom laptop: `make run`, no proxy in front, the peer is the tablet.
    right.TRUSTED_PROXIES = []
    right.SECURE_PROXY_SSL_HEADER = None
    right.REDIS_URL = ""
    assert _deploy_ids() == set()


SIGN_IN_APP = {"provider_id": "oidc", "name": "School", "client_id": "c", "secret": "s"}


def test_single_sign_on_over_plain_http_is_named(right: SettingsWrapper) -> None:
    right.SOCIALACCOUNT_PROVIDERS = {"openid_connect": {"APPS": [SIGN_IN_APP]}}
    assert _deploy_ids() == set()
    right.SECURE_PROXY_SSL_HEADER = None
    right.REDIS_URL = ""
    right.TRUSTED_PROXIES = []
    assert _deploy_ids() == {"snapclass.W005"}
    right.SOCIALACCOUNT_PROVIDERS = {"openid_connect": {"APPS": []}}
    assert _deploy_ids() == set()


def test_the_environment_reaches_the_checks() -> None:
    """Each trap set wrong through the environment, as on a server (the same names as
    deploy/snapclass.env.example); tests/classroom/test_settings.py sets them right."""
    env = {**_clean_env(), "DEBUG": "0", "ALLOWED_HOSTS": "snapclass.example", "HTTPS": "1"}
    result = _run_manage("check", "--deploy", env=env)
    named = result.stdout + result.stderr
    for check_id in ("snapclass.W001", "snapclass.W002", "snapclass.W003", "snapclass.W004"):
        assert check_id in named, named


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("SIGNUP", "everyone", "SIGNUP: 'everyone' is not one of open, invite, domain"),
        ("SIGNUP", "domain", "SIGNUP=domain: set SIGNUP_DOMAINS to the school's e-mail domains"),
        ("SCHOOL_DAY_ENDS", "4pm", "SCHOOL_DAY_ENDS: '4pm' is not a time of day such as 16:00"),
        ("SSO_PROVIDERS", "facebook", "SSO_PROVIDERS: facebook is not one of google,"),
    ],
)
def test_a_bad_value_stops_the_site_naming_it(name: str, value: str, said: str) -> None:
    result = _run_manage("check", env={**_clean_env(), name: value})
    assert result.returncode != 0
    assert said in result.stderr
