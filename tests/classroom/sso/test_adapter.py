"""The sign-in hooks on what a provider answered (the whole flow runs against a real provider in
tests/e2e/test_sign_in_sso.py): who is linked, who is refused, and what the log-in page shows."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

import pytest
from allauth.core.context import request_context
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import get_adapter
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.test import RequestFactory
from django.urls import reverse

from classroom.sso.providers import sign_in_apps_from_environment

if TYPE_CHECKING:
    from collections.abc import Iterator

    from allauth.socialaccount.models import SocialLogin
    from django.http import HttpRequest
    from django.test import Client
    from pytest_django.fixtures import SettingsWrapper

ENV = {
    "SSO_PROVIDERS": "oidc,microsoft",
    "SSO_ALLOWED_DOMAINS": "school.edu",
    "SSO_OIDC_CLIENT_ID": "id",
    "SSO_OIDC_CLIENT_SECRET": "secret",
    "SSO_OIDC_SERVER_URL": "https://id.school.edu",
    "SSO_MICROSOFT_CLIENT_ID": "id",
    "SSO_MICROSOFT_CLIENT_SECRET": "secret",
    "SSO_MICROSOFT_TENANT": "school.edu",
}


@pytest.fixture
def sign_in_on(settings: SettingsWrapper) -> SettingsWrapper:
    settings.SOCIALACCOUNT_PROVIDERS = {
        "openid_connect": {"APPS": sign_in_apps_from_environment(ENV)}
    }
    settings.SSO_ALLOWED_DOMAINS = ["school.edu"]
    return settings


@pytest.fixture
def request_(db: None, sign_in_on: SettingsWrapper) -> Iterator[HttpRequest]:
    request = RequestFactory().get("/accounts/oidc/oidc/login/callback/")
    request.session = SessionStore()
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]
    with request_context(request):
        yield request


def _answered(request: HttpRequest, claims: dict[str, Any], provider: str = "oidc") -> SocialLogin:
    provider_ = get_adapter().get_provider(request, provider)
    return provider_.sociallogin_from_response(request, {"id_token": {"sub": "42", **claims}})


def _refusal(request: HttpRequest, sociallogin: SocialLogin) -> str:
    with pytest.raises(ImmediateHttpResponse) as refused:
        get_adapter().pre_social_login(request, sociallogin)
    assert refused.value.response["Location"] == reverse("login")
    return " ".join(str(message) for message in get_messages(request))


def test_a_vouched_address_links_the_teacher_who_has_it(request_: HttpRequest) -> None:
    teacher = User.objects.create_user("mr-bob", "Bob@School.edu", "pw-12345678")
    login = _answered(request_, {"email": "bob@school.edu", "email_verified": True})
    get_adapter().pre_social_login(request_, login)
    assert SocialAccount.objects.get(uid="42").user == teacher
    assert login.is_existing
    # Linking leaves the teacher's password as it was.
    teacher.refresh_from_db()
    assert teacher.check_password("pw-12345678")


def test_an_address_nobody_has_makes_no_link(request_: HttpRequest) -> None:
    login = _answered(request_, {"email": "new@school.edu", "email_verified": True})
    get_adapter().pre_social_login(request_, login)
    assert not login.is_existing
    assert not SocialAccount.objects.exists()


def test_an_unvouched_address_links_nobody(request_: HttpRequest) -> None:
    User.objects.create_user("mr-bob", "bob@school.edu", "pw")
    said = _refusal(request_, _answered(request_, {"email": "bob@school.edu"}))
    assert "did not give a verified e-mail address" in said
    assert not SocialAccount.objects.exists()


def test_entra_vouches_with_xms_edov(request_: HttpRequest) -> None:
    teacher = User.objects.create_user("ms-lin", "lin@school.edu", "pw")
    login = _answered(request_, {"email": "lin@school.edu", "xms_edov": True}, "microsoft")
    get_adapter().pre_social_login(request_, login)
    assert SocialAccount.objects.get(uid="42").user == teacher


def test_another_domain_is_refused_by_name(request_: HttpRequest) -> None:
    said = _refusal(
        request_, _answered(request_, {"email": "eve@gmail.com", "email_verified": True})
    )
    assert "eve@gmail.com is not an address of this school (school.edu)" in said


def test_two_accounts_with_the_address_link_neither(request_: HttpRequest) -> None:
    User.objects.create_user("bob-1", "bob@school.edu", "pw")
    User.objects.create_user("bob-2", "BOB@school.edu", "pw")
    said = _refusal(
        request_, _answered(request_, {"email": "bob@school.edu", "email_verified": True})
    )
    assert "More than one teacher account" in said
    assert not SocialAccount.objects.exists()


def test_a_turned_off_account_is_refused(request_: HttpRequest) -> None:
    User.objects.create_user("mr-bob", "bob@school.edu", "pw", is_active=False)
    said = _refusal(
        request_, _answered(request_, {"email": "bob@school.edu", "email_verified": True})
    )
    assert "turned off" in said


def test_a_new_teacher_is_named_by_their_address(request_: HttpRequest) -> None:
    login = _answered(request_, {"email": "Ann@school.edu", "email_verified": True})
    user = get_adapter().populate_user(request_, login, {"email": "Ann@school.edu"})
    assert user.username == "ann@school.edu"


def test_the_log_in_page_has_no_sign_in_buttons_unless_set(client: Client, db: None) -> None:
    assert "sign-in-providers" not in client.get(reverse("login")).content.decode()


def test_the_log_in_page_has_a_button_per_provider(client: Client, sign_in_on: None) -> None:
    page = html.unescape(client.get(reverse("login")).content.decode())
    assert 'action="/accounts/oidc/oidc/login/"' in page
    assert "Sign in with your school account" in page
    assert "Sign in with Microsoft" in page


def test_allauths_step_before_the_provider_is_the_sites_page(
    client: Client, sign_in_on: None, db: None
) -> None:
    client.cookies["django_language"] = "zh-hant"
    response = client.get("/accounts/oidc/microsoft/login/")
    page = html.unescape(response.content.decode())
    assert response.status_code == 200
    assert 'class="card"' in page
    assert "使用 Microsoft 帳號登入" in page


@pytest.mark.parametrize(
    "name", ["socialaccount_signup", "socialaccount_login_cancelled", "account_inactive"]
)
def test_allauths_other_pages_go_back_to_log_in(client: Client, db: None, name: str) -> None:
    response = client.get(reverse(name), follow=True)
    assert response.redirect_chain == [(reverse("login"), 302)]
    assert "did not finish" in response.content.decode()


def test_allauths_own_account_pages_are_not_routed(client: Client, db: None) -> None:
    for path in ("/accounts/3rdparty/", "/accounts/email/", "/accounts/social/connections/"):
        assert client.get(path).status_code == 404
