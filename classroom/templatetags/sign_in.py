"""``{% sign_in_buttons as buttons %}``: the school's sign-in providers for the log-in page
(none unless SSO_PROVIDERS is set)."""

from __future__ import annotations

from typing import Any, cast

from django import template
from django.conf import settings

from classroom.sso.providers import SignInButton, sign_in_buttons

register = template.Library()


@register.simple_tag(name="sign_in_buttons")
def sign_in_buttons_tag() -> list[SignInButton]:
    apps = settings.SOCIALACCOUNT_PROVIDERS["openid_connect"]["APPS"]
    return sign_in_buttons(cast("list[dict[str, Any]]", apps))
