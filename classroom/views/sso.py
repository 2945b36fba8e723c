"""The addresses allauth's sign-in flow may send a teacher to, all back to the log-in page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from classroom.sso.adapter import sign_in_refused

if TYPE_CHECKING:
    from django.http import HttpRequest, HttpResponse


@require_GET
def sign_in_stopped(request: HttpRequest) -> HttpResponse:
    """Where allauth would show its own pages (its sign-up form, "cancelled", "account
    inactive"): the adapter refuses before any of them, so this is reached only by hand."""
    return sign_in_refused(request, _("Signing in with your school account did not finish."))
