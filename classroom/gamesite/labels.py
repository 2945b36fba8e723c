"""Names the pages give games, levels and kinds of trial, asked of each game's site module.

The colour words are here too: the Stroop stimulus, printed in the session's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from classroom.gamesite import game_site_get, game_sites

if TYPE_CHECKING:
    from collections.abc import Iterable


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
    for site in game_sites():
        if (name := site.level_name(level)) is not None:
            return name
    return level or _("Unknown level")


def kind_label(kind: str) -> str:
    """What one kind of trial is called on the teachers' pages."""
    for site in game_sites():
        if (name := site.kind_names().get(kind)) is not None:
            return name
    return kind


def game_name(game: str) -> str:
    """A game's name in the page's language (a game no longer registered shows its slug)."""
    site = game_site_get(game)
    return _(site.spec.name) if site is not None else game


def game_choices() -> list[tuple[str, str]]:
    """Every game as a form offers it: (slug, name in the active language), in the registry's
    order."""
    return [(site.slug, _(site.spec.name)) for site in game_sites()]


def game_names(*, colour_stimulus: bool = False, colour_symbols: bool = False) -> str:
    """The names of the games with the asked-for trait, as a list in a sentence."""
    names = [
        _(site.spec.name)
        for site in game_sites()
        if (site.colour_stimulus or not colour_stimulus)
        and (site.colour_symbols or not colour_symbols)
    ]
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {
        "names": pgettext("between names in a list", ", ").join(names[:-1]),
        "last": names[-1],
    }


def palette_help() -> str:
    """The session form's help for its palette choice."""
    return _(
        "Colour-vision-safe colours stay apart for every kind of colour vision; %(games)s "
        "also mark each colour with a shape. Single students can have them on the class page."
    ) % {"games": game_names(colour_symbols=True)}


def language_help() -> str:
    """The session form's help for the language of the game's words."""
    return _(
        "%(game)s's colour words appear in this language on every tablet, whatever language "
        "the tablet shows its buttons in."
    ) % {"game": game_names(colour_stimulus=True)}


def colour_safe_note() -> str:
    """Beside results played on the colour-safe palette."""
    return _(
        "Played with colours that stay apart for every kind of colour vision. In %(games)s the "
        "colour is what the child reacts to, so compare these reaction times and accuracies "
        "with their other colour-safe results rather than with results on the standard colours."
    ) % {"games": game_names(colour_stimulus=True)}


def colour_safe_class_help() -> str:
    """The class page's help for the colour-safe column."""
    return _(
        "Colour-vision-safe colours: the student's tablet uses colours that stay apart for "
        "every kind of colour vision, in every game. Their %(games)s results are marked, since "
        "colour is what they react to."
    ) % {"games": game_names(colour_stimulus=True)}


def watch_scene(game: str) -> dict[str, Any] | None:
    """What a teacher page needs to draw a game's tables live, for games drawn on a canvas."""
    site = game_site_get(game)
    return site.watch_scene() if site is not None and site.watch_scene is not None else None


@dataclass(frozen=True)
class MeasureHeads:
    """What a table or chart of sessions of some games calls its figures, and whether it has
    d' at all: one game's own measure names, or names that fit several games."""

    # The median time of right responses ("Median RT", "Time to play", "Catch time").
    speed: str
    # The rate ("Accuracy", "Spotting rate", "Catch rate / Stayed aboard").
    rate: str
    # The rate in a sentence or beside a trend arrow ("accuracy", "spotting rate", "rate").
    rate_word: str
    # d' means something only in a game with signal and noise trials.
    dprime: bool
    # The names are one game's own (else they fit several games, and say so in a title).
    one_game: bool = False


def measure_heads(games: Iterable[str]) -> MeasureHeads:
    """The heads of a table or chart showing sessions of ``games`` (slugs, repeats allowed):
    one game's own names; several games (or none) share names that fit them all."""
    sites = [site for slug in dict.fromkeys(games) if (site := game_site_get(slug)) is not None]
    dprime = any(site.signal_detection for site in sites)
    if len(sites) == 1:
        site = sites[0]
        rate = site.rate_label
        # A game of several kinds names each kind's rate in its head; a trend is of one kind.
        word = _("rate") if site.mixed_kinds else rate.lower()
        return MeasureHeads(str(site.speed_measure.label), rate, word, dprime, one_game=True)
    return MeasureHeads(_("Median time"), _("Accuracy or rate"), _("rate"), dprime)
