"""Names the pages give games, levels and kinds of trial, asked of each game's site module.

The colour words are here too: the Stroop stimulus, printed in the session's language.
Imports of ``classroom.gamesite`` are inside the functions: site modules import this one.
"""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext


def colour_words(*, language: str) -> dict[str, str]:
    """The words printed on public cards: short, heavy, in the session's language (the
    language the child reads, which the Stroop effect needs), whatever the page's language."""
    with translation.override(language):
        return {
            "red": pgettext("colour word on a card", "RED"),
            "yellow": pgettext("colour word on a card", "YELLOW"),
            "blue": pgettext("colour word on a card", "BLUE"),
            "green": pgettext("colour word on a card", "GREEN"),
            "purple": pgettext("colour word on a card", "PURPLE"),
        }


def level_label(level: str) -> str:
    """A level's name for teachers' pages (levels no game names show as they are)."""
    from classroom.gamesite import game_sites

    for site in game_sites():
        if (name := site.level_name(level)) is not None:
            return name
    return level or _("Unknown level")


def kind_label(kind: str) -> str:
    """What one kind of trial is called on the teachers' pages."""
    from classroom.gamesite import game_sites

    for site in game_sites():
        if (name := site.kind_names().get(kind)) is not None:
            return name
    return kind


def game_name(game: str) -> str:
    """A game's name in the page's language (a game no longer registered shows its slug)."""
    from classroom.gamesite import game_site_get

    site = game_site_get(game)
    return _(site.spec.name) if site is not None else game


def watch_scene(game: str) -> dict[str, Any] | None:
    """What a teacher page needs to draw a game's tables live, for games drawn on a canvas."""
    from classroom.gamesite import game_site_get

    site = game_site_get(game)
    return site.watch_scene() if site is not None and site.watch_scene is not None else None
