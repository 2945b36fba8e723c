"""The language a WebSocket's page is shown in, chosen the way LocaleMiddleware chooses."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header

if TYPE_CHECKING:
    from collections.abc import Mapping


def language_from_scope(scope: Mapping[str, Any]) -> str:
    """Cookie first (the language switcher), then the browser's Accept-Language."""
    cookie = scope.get("cookies", {}).get(settings.LANGUAGE_COOKIE_NAME)
    candidates = [cookie] if cookie else []
    headers = dict(scope.get("headers", []))
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    candidates += [code for code, _quality in parse_accept_lang_header(accept) if code != "*"]
    for candidate in candidates:
        try:
            return translation.get_supported_language_variant(candidate)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE
