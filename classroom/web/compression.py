"""Pages sent gzip-compressed, but for the few whose body holds a sign-in secret (BREACH).

BREACH reads a secret out of a compressed HTTPS response by its length, when the attacker can
put a guess into the same body and have the victim's browser fetch it again and again. Every
page here is compressed by Django's ``GZipMiddleware``, which adds up to 100 random bytes to
each response ("Heal the Breach"), because what a page body may hold is safe to compress:

- the CSRF token in forms is masked anew for every response (Django), so no two responses
  carry the same bytes for it;
- the teacher's session and a tablet's seat token are cookies, never in a body;
- the cookies are ``SameSite=Lax``: another site cannot have the browser fetch a page with
  them in the background, the thousands of requests an attack needs.

A page that shows a secret which lets someone in (a child's badge address, a live join code,
a class's practice code) is not compressed all the same: :func:`uncompressed` marks it
``Cache-Control: no-store, no-transform``, which this middleware and HAProxy both honour.
docs/operations.md lists those pages.
"""

from __future__ import annotations

from functools import wraps
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from django.http import HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.utils.cache import patch_cache_control

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.http import HttpRequest

P = ParamSpec("P")
R = TypeVar("R", bound=HttpResponseBase)


def uncompressed_response(response: R) -> R:
    """``response`` (a page with a sign-in secret in its body) goes out as it is: no
    compression here or on the way, and no copy kept."""
    patch_cache_control(response, no_store=True, no_transform=True)
    return response


def uncompressed(view: Callable[P, R]) -> Callable[P, R]:
    """The view's every response is a page with a sign-in secret in its body."""

    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        return uncompressed_response(view(*args, **kwargs))

    return wrapped


def _no_transform(response: HttpResponseBase) -> bool:
    directives = response.get("Cache-Control", "").lower().replace(" ", "").split(",")
    return "no-transform" in directives


class PageCompressionMiddleware(GZipMiddleware):
    """Django's gzip (with its random padding), for every response that allows it. Static
    files never get here (WhiteNoise answers them earlier, with its precompressed copies), and
    downloads stream as they are: Django would gzip each chunk of an async stream on its own."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if response.streaming or _no_transform(response):
            return response
        compressed: HttpResponseBase = super().process_response(request, response)
        return compressed
