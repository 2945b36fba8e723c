"""No teacher's word on a child's screen (issue 45): no "Stroop", wave numbers, stock counts,
code names ("Turn 3 (42)") or words for the teacher in what a tablet shows: the tablet and
practice templates, the strings of the tablet scripts, each game's tablet words, its tagline
(the practice page) and the names of its levels (the practice level badge)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import translation

from classroom.gamesite import game_sites
from classroom.gamesite.ladder_labels import rung_label

ROOT = Path(__file__).resolve().parents[2]

JARGON = {
    "Stroop": re.compile(r"Stroop"),
    "a wave number": re.compile(r"Wave (\d|%\()"),
    "a stock count": re.compile(r"stock by"),
    "a code name": re.compile(r"Turn \S+ \(\S+\)"),
    "words for the teacher": re.compile(r"teacher can choose"),
}
# A count in brackets glued to a word by a tablet script ("Turn 3" + " (42)").
GLUED_COUNT = re.compile(r"""["']\s\(["']\s*\+""")

CHILD_TEMPLATES = sorted(
    [*(ROOT / "templates/play").rglob("*.html"), *(ROOT / "templates/practice").rglob("*.html")]
)
# The scripts of a tablet (the teacher's pages have their own: live.js, settings_form.js …).
TABLET_SCRIPTS = [
    *(
        ROOT / "static/js" / name
        for name in (
            "palm_strike.js",
            "palm_strike_hints.js",
            "commotion.js",
            "commotion_layout.js",
            "riff_raff.js",
            "riff_raff_scene.js",
            "colour_symbols.js",
            "adaptive_level.js",
            "wake_lock.js",
        )
    ),
    *sorted((ROOT / "static/js/lib").glob("*.js")),
]
STRING = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`""")


def _seat() -> Any:
    table = SimpleNamespace(roster=[{"name": "Ava"}, {"name": "Ben"}], number=1)
    return SimpleNamespace(session=SimpleNamespace(language="en"), table=table, name="Ava")


def _words(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [word for item in value.values() for word in _words(item)]
    if isinstance(value, list | tuple):
        return [word for item in value for word in _words(item)]
    return [str(value)]


def _game_texts() -> list[tuple[str, str]]:
    texts = []
    with translation.override("en"):
        for site in game_sites():
            spec = site.spec
            words = [
                *_words(site.tablet_labels(seat=_seat(), settings={})),
                str(spec.tagline),
                *(rung_label(game=spec.slug, rung=rung) for rung in range(len(spec.ladder))),
            ]
            texts.append((spec.slug, "\n".join(words)))
    return texts


def _sources() -> list[tuple[str, str]]:
    texts = [(path.relative_to(ROOT).as_posix(), path.read_text()) for path in CHILD_TEMPLATES]
    for path in TABLET_SCRIPTS:
        source = path.read_text()
        strings = "\n".join(match.group(0)[1:-1] for match in STRING.finditer(source))
        glued = "Turn 1 (1)" if GLUED_COUNT.search(source) else ""
        texts.append((path.relative_to(ROOT).as_posix(), strings + "\n" + glued))
    return texts


def _cases() -> list[Any]:
    cases = []
    for name, text in [*_sources(), *_game_texts()]:
        for jargon in JARGON:
            cases.append(pytest.param(name, text, jargon, id=f"{name}-{jargon}"))
    return cases


def test_the_tablet_scripts_and_templates_are_all_read() -> None:
    assert len(CHILD_TEMPLATES) >= 15
    assert all(path.is_file() for path in TABLET_SCRIPTS)


@pytest.mark.parametrize(("name", "text", "jargon"), _cases())
def test_no_jargon_on_a_childs_screen(name: str, text: str, jargon: str) -> None:
    found = JARGON[jargon].findall(text)
    assert not found, f"{name} shows a child {jargon}: {found}"
