"""Rate limits against guessing: login passwords and session codes.

Counted in the default cache with django-ratelimit; a request over the limit is refused with
a readable message and changes nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django_ratelimit.core import get_usage

if TYPE_CHECKING:
    from django.http import HttpRequest

LOGIN_RATE_PER_IP = "20/m"
LOGIN_RATE_PER_USERNAME = "8/5m"
JOIN_CODE_MISS_RATE = "12/m"


def login_attempt_allowed(request: HttpRequest) -> bool:
    """Count one login attempt; False when this client or username has tried too often."""
    limited = False
    for key, rate in (("ip", LOGIN_RATE_PER_IP), ("post:username", LOGIN_RATE_PER_USERNAME)):
        usage = get_usage(request, group="login", key=key, rate=rate, increment=True)
        limited = limited or bool(usage and usage["should_limit"])
    return not limited


def join_code_guesses_exhausted(request: HttpRequest) -> bool:
    usage = get_usage(request, group="join-code", key="ip", rate=JOIN_CODE_MISS_RATE)
    return bool(usage and usage["should_limit"])


def join_code_miss_count(request: HttpRequest) -> None:
    """Count a code that matched no session; right codes are never limited."""
    get_usage(request, group="join-code", key="ip", rate=JOIN_CODE_MISS_RATE, increment=True)
