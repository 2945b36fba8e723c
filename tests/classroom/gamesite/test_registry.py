"""Every registered game has a site module that fulfils the contract, and nothing else names it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.utils import translation

from classroom.gamesite import game_site, game_site_get, game_sites
from classroom.gamesite.contract import PRACTICE_SOLO, PRACTICE_WITH_BOTS, TILE_PARTIALS, GameSite
from games.registry import game_registry

SLUGS = list(game_registry())
ROOT = Path(__file__).resolve().parents[3]


def test_every_game_has_a_site_and_no_site_is_without_a_game() -> None:
    assert [site.slug for site in game_sites()] == SLUGS
    assert game_site_get("chess") is None
    with pytest.raises(KeyError):
        game_site("chess")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_site_fulfils_the_contract(slug: str) -> None:
    site = game_site(slug)
    assert isinstance(site, GameSite)
    assert site.spec is game_registry()[slug]
    with translation.override("en"):
        assert site.level_name("") is None
        assert site.level_name("no_such_level") is None
        kinds = site.kind_names()
        assert kinds
        assert all(kind.startswith(f"{slug}.") and name for kind, name in kinds.items())
        assert site.spec.ladder
        assert all(site.step_label(step) for step in site.spec.ladder)
    assert set(site.practice_settings) <= {PRACTICE_SOLO, PRACTICE_WITH_BOTS}
    assert PRACTICE_WITH_BOTS in site.practice_settings
    for settings in site.practice_settings.values():
        site.spec.config(dict(settings))  # a setting the game refuses raises here
    assert site.count_field
    assert site.round_breaks
    assert site.measures
    keys = [measure.key for measure in site.measures]
    assert len(set(keys)) == len(keys)
    assert site.headline in keys
    # d' and c only where a response could be withheld on a non-match (noise trials).
    assert ("dprime" in keys) == site.signal_detection == ("criterion" in keys)
    for measure in site.measures:
        assert measure.label
        assert measure.meaning
        assert measure.unit in {"", "%", "pts", "ms"}
    assert site.trial_columns
    get_template(f"{site.trials_template}#head")
    get_template(f"{site.trials_template}#row")


@pytest.mark.parametrize("slug", SLUGS)
def test_the_site_templates_define_every_partial(slug: str) -> None:
    site = game_site(slug)
    assert site.tile_template.startswith(f"gamesite/{slug}/")
    for name in TILE_PARTIALS:
        get_template(site.tile_partials()[name])
    assert (site.watch_scene is None) == (site.watch_template == "")
    if site.watch_template:
        get_template(f"{site.watch_template}#assets")
        get_template(f"{site.watch_template}#canvas")


# The one file outside the games' own that names them: the registry, the one list of games.
STILL_NAMING = {"games/registry.py"}


def _own(path: str, slug: str) -> bool:
    """Is ``path`` one of the files of the game ``slug`` (which may name it)? Its folders,
    its play page, and the site modules and scripts named after it (``<slug>.py``,
    ``<slug>_seed.py``, ``<slug>.js``, ``<slug>_scene.js`` …)."""
    folder, _, name = path.rpartition("/")
    return (
        path.startswith((f"games/{slug}/", f"templates/gamesite/{slug}/"))
        or path == f"templates/play/{slug}.html"
        or (
            folder in {"classroom/gamesite", "static/js"}
            and (name.startswith((f"{slug}.", f"{slug}_")))
        )
    )


def test_no_file_outside_a_games_own_names_it() -> None:
    words = [(slug, {slug, str(spec.name)}) for slug, spec in game_registry().items()]
    named = re.compile("|".join(re.escape(word) for _slug, each in words for word in each))
    naming = set()
    for folder in ("classroom", "templates", "static", "games"):
        for path in (ROOT / folder).rglob("*"):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix not in {".py", ".html", ".js"} or "/migrations/" in relative:
                continue
            if "/locale/" in relative:
                continue
            found = {match.group(0) for match in named.finditer(path.read_text())}
            for slug, each in words:
                if found & each and not _own(relative, slug):
                    naming.add(relative)
    assert naming == STILL_NAMING
