"""Rate limits against guessing: login passwords, join and practice codes, sign-ups.

Counted in the default cache with django-ratelimit (fixed windows). Only misses count: a
failed login, a code that matched nothing. A right password or code never adds to a count, so
a class typing the right code all at once is never slowed.

What a count keys on decides who a limit can lock out, so each one keys on the client's real
address (``classroom.web.client_address``: behind a trusted proxy, the proxy's X-Forwarded-For),
never on a shared proxy's:

- Join and practice codes: 12 misses a minute per tablet (its address plus its browser's CSRF
  cookie, which every form page sets), so behind a school's one public address a mistyping
  child slows only their own tablet; and 60 a minute per address, as a backstop against a
  guesser who drops or forges the cookie. Over either, codes from that tablet are not checked
  for the rest of the minute: a guesser learns nothing, and nobody else is affected.
- Login: 8 failures per username *and address* in 5 minutes (a stranger elsewhere cannot
  lock the owner out), 20 failures a minute per address (one guesser trying many names), and
  a slower global backstop of 100 failures an hour per username (a guesser with many
  addresses), which holds only at addresses the teacher has not signed in from (the last 20,
  kept 90 days): guessers elsewhere never keep a teacher out where they work.
- Sign-up: 10 attempts an hour per address. Sharing a class by a colleague's name counts in
  the same limit (both tell whether an account exists), and 10 an hour per teacher.
- Password reset: as many requests an hour per address as sign-ups, since each may send a
  mail.

A request over a limit is refused with a readable message and changes nothing.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.cache import cache
from django_ratelimit.core import get_usage

from classroom.web.client_address import client_address_from_request, client_address_from_scope

if TYPE_CHECKING:
    from django.http import HttpRequest

LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS = "8/5m"
LOGIN_FAILURES_PER_ADDRESS = "20/m"
LOGIN_FAILURES_PER_USERNAME = "100/h"
# The status of a page refused because its tablet guessed too many join codes.
TOO_MANY_GUESSES = 429
JOIN_CODE_MISS_RATE = "12/m"  # per tablet: address + browser
JOIN_CODE_MISS_RATE_PER_ADDRESS = "60/m"


def _over(group: str, rate: str, value: str, *, increment: bool) -> bool:
    """Whether ``value`` has used up ``rate`` in ``group`` (a limit of 8 allows 8 misses,
    then refuses); counts one more first if asked."""
    usage = get_usage(
        None, group=group, key=lambda _group, _request: value, rate=rate, increment=increment
    )
    if usage is None:
        return False
    count, limit = usage["count"], usage["limit"]
    return bool(count > limit if increment else count >= limit)


# Login ---------------------------------------------------------------------------------------


# Where each username last signed in: the backstop per username spares these addresses.
KNOWN_ADDRESSES_KEPT = 20
KNOWN_ADDRESSES_FOR_S = 90 * 24 * 3600


def _login_username(request: HttpRequest) -> str:
    return str(request.POST.get("username", "")).strip().casefold()


def _known_addresses_key(username: str) -> str:
    return "login-known:" + hashlib.sha256(username.encode()).hexdigest()


def _login_keys(request: HttpRequest, *, backstop: bool = True) -> list[tuple[str, str, str]]:
    address = client_address_from_request(request)
    username = _login_username(request)
    keys = [
        ("login-user-address", LOGIN_FAILURES_PER_USERNAME_AND_ADDRESS, f"{username}|{address}"),
        ("login-address", LOGIN_FAILURES_PER_ADDRESS, address),
    ]
    if backstop:
        keys.append(("login-user", LOGIN_FAILURES_PER_USERNAME, username))
    return keys


def login_attempt_allowed(request: HttpRequest) -> bool:
    """False when this client (or this username, everywhere but where it signed in before)
    has failed too often lately."""
    known = cache.get(_known_addresses_key(_login_username(request)), [])
    backstop = client_address_from_request(request) not in known
    return not any(
        _over(group, rate, value, increment=False)
        for group, rate, value in _login_keys(request, backstop=backstop)
    )


def login_failure_count(request: HttpRequest) -> None:
    """Count one failed login; a right password never counts."""
    for group, rate, value in _login_keys(request):
        _over(group, rate, value, increment=True)


def login_success_remember(request: HttpRequest) -> None:
    """The teacher signed in from here: a guesser's backstop never keeps them out here."""
    key = _known_addresses_key(_login_username(request))
    address = client_address_from_request(request)
    known = [other for other in cache.get(key, []) if other != address]
    cache.set(key, [address, *known][:KNOWN_ADDRESSES_KEPT], KNOWN_ADDRESSES_FOR_S)


# Join and practice codes --------------------------------------------------------------------


def _code_keys(address: str, browser: str) -> list[tuple[str, str, str]]:
    return [
        ("join-code-tablet", JOIN_CODE_MISS_RATE, f"{address}|{browser}"),
        ("join-code-address", JOIN_CODE_MISS_RATE_PER_ADDRESS, address),
    ]


def _request_code_keys(request: HttpRequest) -> list[tuple[str, str, str]]:
    browser = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    return _code_keys(client_address_from_request(request), browser)


def _scope_code_keys(scope: dict[str, Any]) -> list[tuple[str, str, str]]:
    browser = scope.get("cookies", {}).get(settings.CSRF_COOKIE_NAME, "")
    return _code_keys(client_address_from_scope(scope), browser)


def join_code_guesses_exhausted(request: HttpRequest) -> bool:
    return any(
        _over(group, rate, value, increment=False)
        for group, rate, value in _request_code_keys(request)
    )


def join_code_miss_count(request: HttpRequest) -> None:
    """Count a code that matched no session; right codes are never counted."""
    for group, rate, value in _request_code_keys(request):
        _over(group, rate, value, increment=True)


def join_code_guesses_exhausted_for_scope(scope: dict[str, Any]) -> bool:
    """The same limit for a socket that names a code (sync: call it off the event loop)."""
    return any(
        _over(group, rate, value, increment=False) for group, rate, value in _scope_code_keys(scope)
    )


def join_code_miss_count_for_scope(scope: dict[str, Any]) -> None:
    for group, rate, value in _scope_code_keys(scope):
        _over(group, rate, value, increment=True)


# Sign-up ------------------------------------------------------------------------------------


def signup_attempt_allowed(request: HttpRequest) -> bool:
    """Count one sign-up attempt; False when this address has tried too often this hour."""
    return not _over(
        "signup-address",
        f"{settings.SIGNUPS_PER_ADDRESS_PER_HOUR}/h",
        client_address_from_request(request),
        increment=True,
    )


def class_share_attempt_allowed(request: HttpRequest) -> bool:
    """Count one look-up of a colleague's account by name, in the sign-up limit of this
    address and in the same limit per teacher; False when either is used up."""
    rate = f"{settings.SIGNUPS_PER_ADDRESS_PER_HOUR}/h"
    address = client_address_from_request(request)
    over = [
        _over("signup-address", rate, address, increment=True),
        _over("class-share-teacher", rate, str(request.user.pk), increment=True),
    ]
    return not any(over)


# Password reset ------------------------------------------------------------------------------


def password_reset_attempt_allowed(request: HttpRequest) -> bool:
    """Count one password reset asked for; False when this address has asked too often this
    hour (as many as sign-ups): each one may send a mail."""
    return not _over(
        "password-reset-address",
        f"{settings.SIGNUPS_PER_ADDRESS_PER_HOUR}/h",
        client_address_from_request(request),
        increment=True,
    )
