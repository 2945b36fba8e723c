"""The site's side of each game: ``game_site(slug)`` for every game in ``games.registry``.

A game's site module is ``classroom.gamesite.<slug>`` with a ``SITE`` (a ``GameSite``); it is
found by the game's slug, so adding a game adds no line here.
"""

from __future__ import annotations

import functools
import importlib

from classroom.gamesite.contract import GameSite
from games.registry import game_registry

__all__ = ["GameSite", "game_site", "game_site_get", "game_sites"]


@functools.cache
def _sites() -> dict[str, GameSite]:
    sites = {}
    for slug in game_registry():
        site = importlib.import_module(f"classroom.gamesite.{slug}").SITE
        if not isinstance(site, GameSite) or site.slug != slug:
            raise TypeError(f"classroom.gamesite.{slug}.SITE is not the GameSite of {slug!r}")
        sites[slug] = site
    return sites


def game_sites() -> list[GameSite]:
    """Every game's site, in the registry's order."""
    return list(_sites().values())


def game_site_get(slug: str) -> GameSite | None:
    return _sites().get(slug)


def game_site(slug: str) -> GameSite:
    """The site of the game ``slug`` (a ``KeyError`` for a game that is not registered)."""
    return _sites()[slug]
