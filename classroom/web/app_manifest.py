"""The installable web app: its manifest, and what the service worker keeps on the tablet.

Tablets on a school network lose the connection now and then; with the stylesheet, scripts and
pictures cached, a page that reloads during a wobble still draws at once. Pages themselves and
the WebSockets always go to the network: they are live, and a stale lobby is worse than none.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache
from typing import Any

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

THEME_COLOUR = "#5b3cc4"  # --brand in snapclass.css
BACKGROUND_COLOUR = "#f7f4ee"  # --paper
# base.html includes this partial, so the worker precaches exactly the htmx files pages load.
HTMX_PARTIAL = "_htmx_script.html"
# Django's language codes are lower case; BCP 47 writes the script with a capital.
HTML_LANG = {"zh-hant": "zh-Hant"}
_SCRIPT_SRC = re.compile(r'<script[^>]*\ssrc="([^"]+)"')


def web_app_manifest() -> dict[str, Any]:
    """The manifest in the request's language; a tablet installs it from the join page."""
    return {
        "name": "Snapclass",
        "short_name": "Snapclass",
        "description": _("Reaction games for the classroom"),
        "lang": HTML_LANG.get(get_language(), get_language()),
        "start_url": reverse("join"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [
            {"src": static("img/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {
                "src": static("img/icon-maskable.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "maskable",
            },
        ],
    }


@lru_cache(maxsize=1)
def precache_urls() -> tuple[str, ...]:
    """Every file of the project's static folder and the htmx scripts, by their served URLs
    (hashed names under the manifest storage, so a new release is a new set of URLs)."""
    own = {path for path, _storage in finders.FileSystemFinder().list([".*", "*~"])}
    urls = [staticfiles_storage.url(path) for path in sorted(own)]
    urls += _SCRIPT_SRC.findall(render_to_string(HTMX_PARTIAL))
    return tuple(dict.fromkeys(urls))


def cache_name(urls: tuple[str, ...]) -> str:
    """Names the cache after its contents: a release with other files starts a new cache."""
    digest = hashlib.sha256("\n".join(urls).encode()).hexdigest()[:16]
    return f"snapclass-static-{digest}"
