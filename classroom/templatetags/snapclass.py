"""Small template helpers used across pages."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext as _

from classroom.gamesite import labels
from classroom.gamesite.labels import colour_words, game_name, kind_label, level_label

if TYPE_CHECKING:
    from collections.abc import Mapping

    from classroom.analytics.measures import Measures
    from classroom.gamesite.contract import Measure
    from classroom.selectors.certainty import Certainty

register = template.Library()


@register.filter
def get_item(mapping: Mapping[Any, Any] | None, key: Any) -> Any:
    """``{{ tiles|get_item:table.pk }}``: look a key up in a dict."""
    if not mapping:
        return None
    return mapping.get(key)


@register.filter
def level_name(level: str) -> str:
    """``{{ trial.level|level_name }}``: a game level in the teacher's language."""
    return level_label(level)


@register.simple_tag
def colour_safe_note() -> str:
    """``{% colour_safe_note %}``: beside results played on the colour-safe palette."""
    return labels.colour_safe_note()


@register.simple_tag
def colour_safe_class_help() -> str:
    """``{% colour_safe_class_help %}``: the class page's help on colour-safe students."""
    return labels.colour_safe_class_help()


@register.filter(name="game_name")
def game_name_filter(game: str) -> str:
    """``{{ assignment.game|game_name }}``: a game's name in the page's language."""
    return game_name(game)


@register.filter
def trial_kind_name(kind: str) -> str:
    """``{{ kind|trial_kind_name }}``: a kind of trial in the teacher's language."""
    return kind_label(kind)


@register.filter
def colour_word(colour: str, language: str) -> str:
    """``{{ card.word|colour_word:session.language }}``: the word as the child read it."""
    return colour_words(language=language).get(colour, colour)


@register.filter
def measure_cell(measures: Measures | None, measure: Measure) -> str:
    """``{{ m|measure_cell:measure }}``: one of a game's measures as its tables write it
    ("72 %", "640 ms", "1.25", or "—" when it does not apply)."""
    return _measure_text(None if measures is None else measure.cell(measures), measure)


def _measure_text(value: float | None, measure: Measure) -> str:
    if value is None:
        return "—"
    shown = formats.number_format(value, measure.decimals)
    if measure.unit == "%":
        return f"{shown} %"
    if measure.unit == "ms":
        return f"{shown} ms"
    if measure.unit == "pts":
        return _("%(points)s pts") % {"points": shown}
    return shown


@register.filter
def sure_cell(certainty: Certainty | None) -> str:
    """``{{ c|sure_cell }}``: a figure with its 95 % interval, "412 ms (380-450)", or under
    its measure's minimum "needs more play (4 of 12)", a time with no right answer to take it
    from "no right answer to time"; "—" for no figure."""
    if certainty is None:
        return "—"
    if certainty.no_right_answer:
        return format_html('<span class="needs-play">{}</span>', _("no right answer to time"))
    short = certainty.enough.message()
    if short is not None:
        message, params = short
        return format_html('<span class="needs-play">{}</span>', _(message) % params)
    text = _measure_text(certainty.value, certainty.measure)
    interval = certainty.interval
    if certainty.value is None or interval is None:
        return text
    decimals = certainty.measure.decimals
    # Rounded first: number_format cuts the digits off, which would pull an upper bound in.
    low = formats.number_format(round(interval.low, decimals), decimals)
    high = formats.number_format(round(interval.high, decimals), decimals)
    return format_html('{} <span class="interval">({}–{})</span>', text, low, high)  # noqa: RUF001


@register.filter
def in_set(value: Any, members: Any) -> bool:
    """``{{ point.game|in_set:signal_games }}``: membership, for a ``with`` block."""
    return bool(members) and value in members


@register.filter
def percent(share: float | None) -> str:
    """``{{ f.alone_rate|percent }}``: a share (0-1) as whole percent, "42 %"; "—" for none."""
    if share is None:
        return "—"
    return f"{formats.number_format(100 * share, 0)} %"


@register.filter
def points(difference: float | None) -> str:
    """``{{ f.difference|points }}``: a difference of two shares in whole percentage points,
    signed, "+12 pts"; "—" for none."""
    if difference is None:
        return "—"
    shown = formats.number_format(abs(100 * difference), 0)
    sign = "−" if round(100 * difference) < 0 else "+"  # noqa: RUF001 (the minus sign)
    return _("%(points)s pts") % {"points": f"{sign}{shown}"}
