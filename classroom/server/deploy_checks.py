"""The traps of a school's installation that Django's own checks miss, as system checks run by
`manage.py check --deploy` (each with an id a school can look up in docs/operations.md).

Behind a proxy means HTTPS=1 (TLS ends at HAProxy, which tells the scheme in
X-Forwarded-Proto) or REDIS_URL set (several processes, which only HAProxy puts behind one
address); either way every request's peer is the proxy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core import checks

if TYPE_CHECKING:
    from collections.abc import Sequence

    from django.apps import AppConfig

# The names of UTC itself in the time zone database; a school whose local time is UTC names its
# own zone (e.g. Atlantic/Reykjavik), so the warning still means "never set".
UTC_NAMES = frozenset(
    {"UTC", "Etc/UTC", "Etc/UCT", "UCT", "Universal", "Etc/Universal", "Zulu", "Etc/Zulu"}
)


def _behind_proxy() -> bool:
    return bool(settings.SECURE_PROXY_SSL_HEADER) or bool(getattr(settings, "REDIS_URL", ""))


# deploy/snapclass.env.example's stand-in for the key: long and varied enough for Django's own
# check, and public, so a server that kept it signs with a key anyone can read.
EXAMPLE_SECRET_KEY = "replace-with-the-output-of-the-command-above-and-keep-it-secret"  # noqa: S105

_KEY_HINT = (
    "Set SECRET_KEY in the environment file to 50 or more random characters: "
    "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
)


@checks.register(checks.Tags.security, deploy=True)
def secret_key_check(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[checks.CheckMessage]:
    if settings.SECRET_KEY_GENERATED:
        problem = (
            "SECRET_KEY is not set: a key was generated into .secret_key in this checkout, so "
            "every copy of the site signs sessions with a different key and a new checkout "
            "signs every teacher out."
        )
    elif settings.SECRET_KEY == EXAMPLE_SECRET_KEY:
        problem = (
            "SECRET_KEY is still the example's stand-in: it is public, so anyone could forge "
            "a teacher's sign-in."
        )
    else:
        return []
    return [checks.Warning(problem, hint=_KEY_HINT, id="snapclass.W001")]


@checks.register(checks.Tags.security, deploy=True)
def trusted_proxies_check(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[checks.CheckMessage]:
    if settings.TRUSTED_PROXIES or not _behind_proxy():
        return []
    return [
        checks.Warning(
            "TRUSTED_PROXIES is empty while the site runs behind a proxy (HTTPS or REDIS_URL "
            "is set): every request seems to come from the proxy, so the whole school is one "
            "address to the sign-in and sign-up limits and the socket cap.",
            hint="Set TRUSTED_PROXIES to the proxy's address, e.g. 127.0.0.1 for HAProxy on "
            "the same machine.",
            id="snapclass.W002",
        )
    ]


@checks.register(deploy=True)
def time_zone_check(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[checks.CheckMessage]:
    if settings.TIME_ZONE not in UTC_NAMES:
        return []
    return [
        checks.Warning(
            f"TIME_ZONE is {settings.TIME_ZONE}: dates on pages and in exports, and the end of "
            "the school day, are in UTC, so a lesson near midnight UTC is dated the wrong day.",
            hint="Set TIME_ZONE to the school's zone, e.g. Europe/London or Asia/Taipei.",
            id="snapclass.W003",
        )
    ]


@checks.register(checks.Tags.security, deploy=True)
def signup_check(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[checks.CheckMessage]:
    if settings.SIGNUP != "open":
        return []
    return [
        checks.Warning(
            "SIGNUP is open: anyone who reaches the site can make a teacher account.",
            hint="Set SIGNUP=invite (or SIGNUP=domain with SIGNUP_DOMAINS) to close open sign-up.",
            id="snapclass.W004",
        )
    ]


@checks.register(checks.Tags.security, deploy=True)
def sign_in_https_check(
    app_configs: Sequence[AppConfig] | None, **kwargs: Any
) -> list[checks.CheckMessage]:
    apps = settings.SOCIALACCOUNT_PROVIDERS["openid_connect"]["APPS"]
    if not apps or settings.SECURE_PROXY_SSL_HEADER:
        return []
    return [
        checks.Warning(
            "Single sign-on is on (SSO_PROVIDERS) while HTTPS is off: the sign-in's return "
            "address is plain http://, which Google and Microsoft refuse for a server, and the "
            "provider's code would cross the network readable.",
            hint="Serve the site over HTTPS behind the proxy and set HTTPS=1 (docs/deploy.md).",
            id="snapclass.W005",
        )
    ]
