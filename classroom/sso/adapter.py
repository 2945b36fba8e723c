"""allauth's hooks, held to what the school allows: only its domains' addresses, vouched for by
the provider, sign in; such an address links to the teacher account that has it, or makes one.

Every refusal goes back to the log-in page with a message saying why; nothing of allauth's own
pages (its sign-up form, its error page) is reached.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, NoReturn

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.utils import user_username
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from allauth.socialaccount.providers.base import AuthError
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import User
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from classroom.sso.identity import email_domain_allowed, email_vouched, provider_claims

if TYPE_CHECKING:
    from allauth.socialaccount.models import SocialLogin
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.http import HttpRequest, HttpResponse


logger = logging.getLogger(__name__)


def sign_in_refused(request: HttpRequest, message: str) -> HttpResponse:
    """Back to the log-in page, which shows ``message``."""
    messages.error(request, message)
    return redirect("login")


def _refuse(request: HttpRequest, message: str) -> NoReturn:
    raise ImmediateHttpResponse(sign_in_refused(request, message))


def _teachers_with_email(email: str) -> list[User]:
    return list(User.objects.filter(email__iexact=email).order_by("pk")[:2])


class SchoolSignInAdapter(DefaultSocialAccountAdapter):  # type: ignore[misc]
    def pre_social_login(self, request: HttpRequest, sociallogin: SocialLogin) -> None:
        provider = sociallogin.provider
        claims = provider_claims(sociallogin.account.extra_data)
        email = str(claims.get("email") or "").strip().lower()
        verified_claims = provider.app.settings.get("verified_claims", ["email_verified"])
        if not email or not email_vouched(claims=claims, verified_claims=verified_claims):
            _refuse(
                request,
                _(
                    "%(provider)s did not give a verified e-mail address for this account, "
                    "so it cannot sign in here."
                )
                % {"provider": provider.name},
            )
        domains = settings.SSO_ALLOWED_DOMAINS
        if not email_domain_allowed(email=email, domains=domains):
            _refuse(
                request,
                _(
                    "%(email)s is not an address of this school (%(domains)s), so it cannot "
                    "sign in here. Sign in with your school account."
                )
                % {"email": email, "domains": ", ".join(domains)},
            )
        user: AbstractBaseUser | None = sociallogin.user if sociallogin.is_existing else None
        if user is None:
            # A teacher who signed up with this address: linked once, by the provider's word
            # that the address is this person's (checked above).
            teachers = _teachers_with_email(email)
            if len(teachers) > 1:
                _refuse(
                    request,
                    _(
                        "More than one teacher account here has this e-mail address. Ask "
                        "whoever runs Snapclass at your school to sort it out."
                    ),
                )
            user = teachers[0] if teachers else None
        if user is not None and not user.is_active:
            _refuse(request, _("This teacher account is turned off."))
        if user is not None and not sociallogin.is_existing:
            sociallogin.connect(request, user)

    def is_open_for_signup(self, request: HttpRequest, sociallogin: SocialLogin) -> bool:
        # The allowed domains decide, checked in pre_social_login.
        return True

    def is_auto_signup_allowed(self, request: HttpRequest, sociallogin: SocialLogin) -> bool:
        return True

    def populate_user(self, request: HttpRequest, sociallogin: SocialLogin, data: Any) -> Any:
        user = super().populate_user(request, sociallogin, data)
        email = str(data.get("email") or "").strip().lower()
        # The teacher's name on the site is their school address, unless it is taken or too
        # long for a user name (allauth then makes one up from it).
        taken = User.objects.filter(username__iexact=email).exists()
        if email and len(email) <= 150 and not taken:
            user_username(user, email)
        return user

    def on_authentication_error(
        self,
        request: HttpRequest,
        provider: Any,
        error: str | None = None,
        exception: Exception | None = None,
        extra_context: dict[str, Any] | None = None,
    ) -> None:
        if error == AuthError.CANCELLED:
            _refuse(
                request,
                _("Signing in with %(provider)s was cancelled.") % {"provider": provider.name},
            )
        # The school's administrator reads why here (a wrong secret, an expired one, a
        # redirect URI the provider does not know); the teacher sees only that it failed.
        logger.warning("sign-in with %s failed: %s %r", provider.sub_id, error, exception)
        _refuse(
            request,
            _("Signing in with %(provider)s did not work. Please try again.")
            % {"provider": provider.name},
        )


class TeacherAccountAdapter(DefaultAccountAdapter):  # type: ignore[misc]
    """allauth's account side, used only under its social sign-in."""

    def add_message(self, *args: Any, **kwargs: Any) -> None:
        # The site's own pages say what happened; allauth's "Successfully signed in as …"
        # would be a message the password log-in never shows.
        return

    def respond_user_inactive(self, request: HttpRequest, user: AbstractBaseUser) -> HttpResponse:
        return sign_in_refused(request, _("This teacher account is turned off."))
