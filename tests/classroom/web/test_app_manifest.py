"""The web app manifest and the service worker script, as the browser receives them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from classroom.web.app_manifest import cache_name, precache_urls

if TYPE_CHECKING:
    from django.test import Client


def test_the_manifest_names_the_app_and_starts_at_the_join_page(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Snapclass"
    assert manifest["start_url"] == "/join/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["lang"] == "en"
    assert [icon["src"] for icon in manifest["icons"]] == [
        "/static/img/favicon.svg",
        "/static/img/icon-maskable.svg",
    ]


def test_the_manifest_follows_the_language_cookie(client: Client) -> None:
    client.cookies["django_language"] = "zh-hant"
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["lang"] == "zh-Hant"
    assert manifest["description"] != "Reaction games for the classroom"


def test_the_service_worker_is_served_at_the_root_for_the_whole_site(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    assert json.dumps(cache_name(precache_urls())) in body
    assert '"/static/css/snapclass.css"' in body


def test_the_precache_holds_the_site_s_own_files_and_the_htmx_scripts_pages_load() -> None:
    urls = precache_urls()
    assert "/static/js/wake_lock.js" in urls
    assert "/static/img/favicon.svg" in urls
    htmx = [url for url in urls if "django_htmx" in url]
    assert htmx, urls
    assert all(url.endswith(".js") for url in htmx)
    assert len(urls) == len(set(urls))


def test_a_new_set_of_files_is_a_new_cache() -> None:
    assert cache_name(("/static/a.1.css",)) != cache_name(("/static/a.2.css",))
    assert cache_name(("/static/a.1.css",)).startswith("snapclass-static-")
