"""Request types and small response helpers shared by the views."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import User
    from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through django-htmx's middleware."""

    htmx: HtmxDetails


class TeacherRequest(HtmxHttpRequest):
    """A request to a ``login_required`` teacher view: ``user`` is a signed-in teacher."""

    user: User


def site_url(request: HttpRequest) -> str:
    """The site's address as this request reached it (scheme and host), for links in mails."""
    return request.build_absolute_uri("/").rstrip("/")
