"""collectstatic's storage: the site's scripts import each other by their hashed names."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage

from classroom.web.static_files import CompressedManifestStaticFilesStorage

if TYPE_CHECKING:
    from pathlib import Path

FILES = {
    "js/game.js": (
        'import { fmt } from "./lib/format.js";\nimport * as sound from "./lib/sound.js";\n'
    ),
    "js/lib/format.js": "export function fmt(t) { return t; }\n",
    "js/lib/sound.js": "export const played = [];\n",
    # Another package's script, naming a file it does not ship (as htmx's extensions do).
    "vendor/ext.js": 'import htmx from "./htmx";\n',
}


def _collect(tmp_path: Path) -> CompressedManifestStaticFilesStorage:
    source = FileSystemStorage(location=tmp_path / "source")
    for name, text in FILES.items():
        source.save(name, ContentFile(text.encode()))
    target = CompressedManifestStaticFilesStorage(location=tmp_path / "static")
    paths = {name: (source, name) for name in FILES}
    for name in FILES:
        with source.open(name) as handle:
            target.save(name, handle)
    for _name, _hashed, processed in target.post_process(paths):
        assert not isinstance(processed, Exception), processed
    return target


def test_a_script_imports_the_hashed_names_its_page_loads(tmp_path: Path) -> None:
    storage = _collect(tmp_path)
    game = storage.stored_name("js/game.js")
    with storage.open(game) as handle:
        text = handle.read().decode()
    imported = re.findall(r'from "([^"]+)"', text)
    assert imported == [
        "./" + storage.stored_name("js/lib/format.js").removeprefix("js/"),
        "./" + storage.stored_name("js/lib/sound.js").removeprefix("js/"),
    ]
    assert all(re.search(r"\.[0-9a-f]{12}\.js$", name) for name in imported), imported


def test_other_packages_scripts_are_served_as_they_come(tmp_path: Path) -> None:
    storage = _collect(tmp_path)
    with storage.open(storage.stored_name("vendor/ext.js")) as handle:
        assert handle.read().decode() == FILES["vendor/ext.js"]
