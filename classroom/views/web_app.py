"""The web app manifest and the service worker, both at fixed addresses a browser asks for."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING
from urllib.parse import urljoin

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.views.decorators.http import require_GET

from classroom.web.app_manifest import cache_name, precache_urls, web_app_manifest

if TYPE_CHECKING:
    from django.http import HttpRequest


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    response = JsonResponse(
        web_app_manifest(),
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )
    response["Vary"] = "Cookie, Accept-Language"  # the description follows the language
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    urls = precache_urls()
    body = render_to_string(
        "pwa/service_worker.js",
        {
            "cache_json": json.dumps(cache_name(urls)),
            "urls_json": json.dumps(list(urls), indent=2),
            "static_prefix_json": json.dumps(urljoin("/", settings.STATIC_URL)),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    # The worker lives at the root, so its scope may be the whole site.
    response["Service-Worker-Allowed"] = "/"
    # Browsers compare the worker byte for byte on each visit; never serve a stale copy.
    response["Cache-Control"] = "no-cache"
    return response
