"""Where collectstatic puts the site's static files: hashed names, compressed copies
(whitenoise), and the site's own scripts' imports rewritten to those hashed names.

The scripts under ``static/js`` are ES modules that import each other by relative address
(``./lib/format.js``). Rewritten, a page and every module it imports come from the same
release and stay cached for good; unrewritten, an import would fetch the unhashed copy, which
a tablet may hold from an earlier release, and a module both named by a page and imported
would run twice. Other packages' scripts (htmx's extensions) are served as they come: their
imports name files they do not ship.
"""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles.storage import HashedFilesMixin
from whitenoise import storage

# Django's own patterns for ES module imports and exports (the ones its
# support_js_module_import_aggregation switch adds for every script, htmx's too).
_AGGREGATION: tuple[str, tuple[Any, ...]] = HashedFilesMixin._js_module_import_aggregation_patterns  # type: ignore[attr-defined]


class CompressedManifestStaticFilesStorage(storage.CompressedManifestStaticFilesStorage):  # type: ignore[misc]  # untyped
    """Whitenoise's storage, with the imports of ``static/js`` rewritten to hashed names."""

    patterns = (
        *storage.CompressedManifestStaticFilesStorage.patterns,
        ("js/*.js", _AGGREGATION[1]),
    )
