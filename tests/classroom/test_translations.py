"""Every UI string has a Traditional Chinese translation, compiled into the committed .mo."""

from __future__ import annotations

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

LOCALE = Path(__file__).resolve().parents[2] / "classroom" / "locale" / "zh_Hant" / "LC_MESSAGES"


def _po_entries() -> list[tuple[str, str, str | None]]:
    """(msgid, msgstr, msgctxt) of the .po file; plural entries give their first form."""
    entries: list[tuple[str, str, str | None]] = []
    text = (LOCALE / "django.po").read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        current = ""
        for line in block.splitlines():
            match = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[0\])?) (".*")$', line)
            if match:
                current = match.group(1).replace("[0]", "")
                fields[current] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and current:
                fields[current] += ast.literal_eval(line)
        if fields.get("msgid"):
            entries.append((fields["msgid"], fields.get("msgstr", ""), fields.get("msgctxt")))
    return entries


def test_every_message_is_translated() -> None:
    entries = _po_entries()
    assert len(entries) > 150
    untranslated = [msgid for msgid, msgstr, _context in entries if not msgstr.strip()]
    assert untranslated == []


def test_compiled_catalog_matches_the_po_file() -> None:
    with (LOCALE / "django.mo").open("rb") as mo_file:
        catalog = gettext.GNUTranslations(mo_file)
    stale = [
        msgid
        for msgid, msgstr, context in _po_entries()
        if "%(counter)s" not in msgid
        and (catalog.pgettext(context, msgid) if context else catalog.gettext(msgid)) != msgstr
    ]
    assert stale == [], "run `make messages` to recompile django.mo"


@pytest.mark.django_db
def test_pages_render_in_traditional_chinese() -> None:
    client = Client(headers={"accept-language": "zh-TW,zh;q=0.9"})
    page = client.get(reverse("join")).content.decode()
    assert "加入遊戲" in page
    assert 'lang="zh-Hant"' in page
