"""Server-rendered SVG charts (pygal) for the analytics pages.

No chart script is loaded (``js=[]``): the SVG is complete on its own, works offline and
prints. Every chart comes with the numbers it shows, for the page's text alternative.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pygal
from django.utils.safestring import SafeString, mark_safe
from pygal.style import Style

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

# The site's palette (static/css/snapclass.css), large type for a projector.
STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#2b2745",
    foreground_strong="#2b2745",
    foreground_subtle="#d9d4e8",
    colors=("#5b4bdb", "#e0803c", "#2f9e6e", "#c2417a"),
    font_family="system-ui, sans-serif",
    label_font_size=16,
    major_label_font_size=16,
    value_font_size=16,
    title_font_size=20,
    tooltip_font_size=16,
)

RT_BIN_MS = 100


@dataclass(frozen=True)
class Chart:
    """An SVG chart and a plain description of it, for ``<figure>`` and screen readers."""

    svg: SafeString
    title: str


def _config(**overrides: object) -> dict[str, object]:
    base: dict[str, object] = {
        "js": [],
        "disable_xml_declaration": True,
        "style": STYLE,
        # Drawn about this size on a laptop; the SVG scales, so its text stays readable.
        "width": 560,
        "height": 320,
        "show_legend": False,
        "allow_interruptions": True,
        "margin": 12,
        "x_label_rotation": 0,
        "truncate_label": -1,
        "print_values": False,
    }
    base.update(overrides)
    return base


def _render(chart: pygal.graph.graph.Graph) -> SafeString:
    # pygal escapes every label and value it writes; the SVG is safe to inline.
    svg: str = chart.render(is_unicode=True)
    return mark_safe(svg)  # noqa: S308


def _formatter(unit: str, decimals: int) -> Callable[[float | None], str]:
    def format_value(value: float | None) -> str:
        return "" if value is None else f"{value:.{decimals}f} {unit}".strip()

    return format_value


@dataclass(frozen=True)
class Series:
    """One line of a chart: its name in the legend, and a value per x label (None: a gap)."""

    title: str
    values: Sequence[float | None]


def line_chart(
    *,
    title: str,
    labels: Sequence[str],
    series: Sequence[Series],
    unit: str,
    decimals: int = 0,
    fitted: Sequence[float] | None = None,
    fitted_title: str = "",
) -> Chart:
    """Lines over sessions (gaps where a session has no value): usually one, one per kind of
    trial where a game has several; and optionally the student's fitted learning line, dashed.
    """
    # Lines that are not simply the chart's subject (kinds of trial) are named in the legend,
    # one a row and in full: "Placements (stayed on board)" says what its accuracy means.
    named = len(series) > 1 or any(line.title != title for line in series)
    chart = pygal.Line(
        **_config(
            title=title,
            dots_size=6,
            stroke_style={"width": 3},
            x_label_rotation=-20,
            show_legend=named or fitted is not None,
            legend_at_bottom=True,
            **({"legend_at_bottom_columns": 1, "truncate_legend": -1} if named else {}),
        )
    )
    chart.x_labels = list(labels)
    chart.value_formatter = _formatter(unit, decimals)
    for line in series:
        chart.add(line.title, list(line.values))
    if fitted is not None:
        chart.add(
            fitted_title,
            list(fitted),
            show_dots=False,
            stroke_style={"width": 2, "dasharray": "8, 6"},
        )
    return Chart(svg=_render(chart), title=title)


def bar_chart(
    *, title: str, labels: Sequence[str], values: Sequence[float | None], unit: str
) -> Chart:
    chart = pygal.Bar(**_config(title=title, print_values=True))
    chart.x_labels = list(labels)
    chart.value_formatter = _formatter(unit, 0)
    chart.add(title, list(values))
    return Chart(svg=_render(chart), title=title)


@dataclass(frozen=True)
class Bin:
    start_ms: int
    end_ms: int
    count: int


def rt_bins(rts: Sequence[int], *, width_ms: int = RT_BIN_MS) -> list[Bin]:
    """Counts of RTs in ``width_ms`` bins from the fastest to the slowest bin."""
    if not rts:
        return []
    first = min(rts) // width_ms
    last = max(rts) // width_ms
    counts = [0] * (last - first + 1)
    for rt in rts:
        counts[rt // width_ms - first] += 1
    return [
        Bin(start_ms=(first + index) * width_ms, end_ms=(first + index + 1) * width_ms, count=n)
        for index, n in enumerate(counts)
    ]


def histogram(*, title: str, bins: Sequence[Bin]) -> Chart:
    tallest = max((b.count for b in bins), default=1)
    step = max(1, math.ceil(tallest / 5))
    chart = pygal.Histogram(
        **_config(
            title=title,
            height=260,
            width=520,
            # Whole responses on the count axis, and a few round times under the bars.
            y_labels=list(range(0, tallest + step, step)),
            x_labels_major_every=max(1, len(bins) // 5),
            show_minor_x_labels=False,
        )
    )
    chart.x_labels = [b.start_ms for b in bins] + [bins[-1].end_ms] if bins else []
    chart.add(title, [(b.count, b.start_ms, b.end_ms) for b in bins])
    return Chart(svg=_render(chart), title=title)
