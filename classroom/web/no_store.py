"""``Cache-Control: no-store`` on every page the site renders.

Teacher pages show children's names and results, tablet pages a child's name and seat: no
browser cache, shared tablet or proxy should keep a copy after the page is gone. Static files
never get here (WhiteNoise answers them earlier, with its long cache); a response that says
how it may be cached (the service worker, downloads) keeps what it says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.deprecation import MiddlewareMixin

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponseBase


class NoStoreMiddleware(MiddlewareMixin):
    # MiddlewareMixin: sync and async alike, so async views are not pushed onto a thread.
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not response.has_header("Cache-Control"):
            response["Cache-Control"] = "no-store"
        return response
