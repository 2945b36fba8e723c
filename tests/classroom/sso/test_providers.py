"""The sign-in presets read from the environment: what each turns on, and what stops the site."""

from __future__ import annotations

import pytest

from classroom.sso.providers import (
    allowed_domains_parse,
    sign_in_apps_from_environment,
    sign_in_buttons,
    sign_in_origins,
)

ALL = {
    "SSO_PROVIDERS": "google, microsoft,oidc",
    "SSO_ALLOWED_DOMAINS": "school.edu",
    "SSO_GOOGLE_CLIENT_ID": "g-id",
    "SSO_GOOGLE_CLIENT_SECRET": "g-secret",
    "SSO_MICROSOFT_CLIENT_ID": "m-id",
    "SSO_MICROSOFT_CLIENT_SECRET": "m-secret",
    "SSO_MICROSOFT_TENANT": "0d1e2f",
    "SSO_OIDC_CLIENT_ID": "o-id",
    "SSO_OIDC_CLIENT_SECRET": "o-secret",
    "SSO_OIDC_SERVER_URL": "https://id.school.edu/realms/staff",
}


def test_nothing_set_turns_nothing_on() -> None:
    assert sign_in_apps_from_environment({}) == []
    assert sign_in_apps_from_environment({"SSO_PROVIDERS": " "}) == []


def test_each_preset_points_at_its_provider() -> None:
    apps = {app["provider_id"]: app for app in sign_in_apps_from_environment(ALL)}
    assert list(apps) == ["google", "microsoft", "oidc"]
    assert apps["google"]["settings"]["server_url"] == "https://accounts.google.com"
    assert apps["google"]["settings"]["auth_params"] == {
        "prompt": "select_account",
        "hd": "school.edu",
    }
    assert (
        apps["microsoft"]["settings"]["server_url"]
        == "https://login.microsoftonline.com/0d1e2f/v2.0"
    )
    # Entra's optional claims are in its ID token only.
    assert apps["microsoft"]["settings"]["fetch_userinfo"] is False
    assert "xms_edov" in apps["microsoft"]["settings"]["verified_claims"]
    assert apps["oidc"]["settings"]["server_url"] == "https://id.school.edu/realms/staff"
    assert (apps["oidc"]["client_id"], apps["oidc"]["secret"]) == ("o-id", "o-secret")
    assert all(app["settings"]["oauth_pkce_enabled"] for app in apps.values())


def test_google_gets_no_domain_hint_with_several_domains() -> None:
    env = {**ALL, "SSO_PROVIDERS": "google", "SSO_ALLOWED_DOMAINS": "a.edu,b.edu"}
    (app,) = sign_in_apps_from_environment(env)
    assert "hd" not in app["settings"]["auth_params"]


def test_buttons_name_the_provider_or_say_school_account() -> None:
    buttons = sign_in_buttons(sign_in_apps_from_environment(ALL))
    assert [(b.provider_id, b.name) for b in buttons] == [
        ("google", "Google"),
        ("microsoft", "Microsoft"),
        ("oidc", ""),
    ]
    named = sign_in_buttons(sign_in_apps_from_environment({**ALL, "SSO_OIDC_NAME": "Keycloak"}))
    assert named[2].name == "Keycloak"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"SSO_PROVIDERS": "google,facebook"}, "SSO_PROVIDERS: facebook is not one of"),
        ({"SSO_ALLOWED_DOMAINS": ""}, "SSO_ALLOWED_DOMAINS is needed"),
        ({"SSO_GOOGLE_CLIENT_SECRET": ""}, "SSO_GOOGLE_CLIENT_SECRET is needed"),
        ({"SSO_MICROSOFT_TENANT": " "}, "SSO_MICROSOFT_TENANT is needed"),
        ({"SSO_OIDC_SERVER_URL": ""}, "SSO_OIDC_SERVER_URL is needed"),
    ],
)
def test_a_missing_or_wrong_setting_is_named(change: dict[str, str], said: str) -> None:
    with pytest.raises(ValueError, match=said):
        sign_in_apps_from_environment({**ALL, **change})


def test_domains_are_read_lower_case_without_at_signs() -> None:
    assert allowed_domains_parse(" School.EDU, @staff.school.edu ,, @ ") == [
        "school.edu",
        "staff.school.edu",
    ]


def test_the_providers_origins_are_listed_once() -> None:
    apps = sign_in_apps_from_environment(
        {**ALL, "SSO_OIDC_SERVER_URL": "https://accounts.google.com/"}
    )
    assert sign_in_origins(apps) == [
        "https://accounts.google.com",
        "https://login.microsoftonline.com",
    ]
