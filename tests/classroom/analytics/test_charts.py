"""Charts: one line per kind of trial where a game has several, named in the legend."""

from __future__ import annotations

import re

from classroom.analytics import charts
from classroom.analytics.charts import Series, bar_chart, line_chart

LEGEND_ENTRY = 'class="legend reactive activate-serie"'


def test_one_line_has_no_legend() -> None:
    chart = line_chart(
        title="Accuracy", labels=["3/3", "10/3"], series=[Series("Accuracy", [80, 90])], unit="%"
    )
    assert chart.title == "Accuracy"
    assert chart.svg.count(LEGEND_ENTRY) == 0
    assert "80 %" in chart.svg


def test_each_kind_is_a_line_named_in_the_legend() -> None:
    chart = line_chart(
        title="Accuracy",
        labels=["3/3", "10/3"],
        series=[Series("Catches", [75, 80]), Series("Placements", [60, None])],
        unit="%",
    )
    assert chart.svg.count(LEGEND_ENTRY) == 2
    assert "Catches" in chart.svg
    assert "Placements" in chart.svg


def test_the_learning_line_joins_the_legend() -> None:
    chart = line_chart(
        title="Median correct reaction time",
        labels=["3/3", "10/3"],
        series=[Series("Catches", [600, 450])],
        unit="ms",
        fitted=[600.0, 450.0],
        fitted_title="Learning line",
    )
    assert chart.svg.count(LEGEND_ENTRY) == 2
    assert "Learning line" in chart.svg


def test_a_lone_kind_of_trial_is_still_named_in_full() -> None:
    # A student whose only Riff Raff trials were placements: the chart must still say so.
    chart = line_chart(
        title="Accuracy",
        labels=["3/3", "10/3"],
        series=[Series("Placements (stayed on board)", [60, 80])],
        unit="%",
    )
    assert chart.svg.count(LEGEND_ENTRY) == 1
    assert "Placements (stayed on board)" in chart.svg  # not cut short


# Under the Content-Security-Policy ----------------------------------------------------------


def _all_kinds() -> list[str]:
    from classroom.analytics.charts import bar_chart, histogram, rt_bins

    return [
        str(line_chart(title="RT", labels=["a"], series=[Series("RT", [1])], unit="ms").svg),
        str(
            line_chart(
                title="RT", labels=["a", "b"], series=[Series("x", [1, 2]), Series("y", [2, 1])],
                unit="ms", fitted=[1, 2], fitted_title="trend",
            ).svg
        ),
        str(bar_chart(title="Hits", labels=["a", "b"], values=[1, 2], unit="").svg),
        str(histogram(title="RTs", bins=rt_bins([300, 420, 450])).svg),
    ]  # fmt: skip


def test_charts_carry_no_inline_style_or_script() -> None:
    for svg in _all_kinds():
        assert "<style" not in svg
        assert "<script" not in svg
        assert ' style="' not in svg
        assert 'class="pygal-chart' in svg


def test_the_learning_line_is_marked_for_its_dashes() -> None:
    lines, fitted = _all_kinds()[0], _all_kinds()[1]
    assert 'class="pygal-chart pygal-line"' in lines
    assert "fitted" not in lines
    assert 'class="series fitted serie-2 ' in fitted


def test_the_static_chart_stylesheet_is_what_pygal_would_inline() -> None:
    from pathlib import Path

    from django.conf import settings

    from classroom.analytics.charts import chart_stylesheet

    path = Path(settings.BASE_DIR) / "static" / "css" / "charts.css"
    # After a pygal or STYLE change, write chart_stylesheet() into the file again.
    assert path.read_text() == chart_stylesheet()
    assert ".pygal-line .series.fitted{stroke-width:2;stroke-dasharray:8,6}" in path.read_text()
    assert "#chart-" not in path.read_text()


def test_a_rate_chart_of_zeros_keeps_the_whole_percent_scale() -> None:
    # Nothing caught: pygal alone wrote its axis "0 %, 0 %, … 1 %, 1 %".
    chart = bar_chart(title="Catch rate by level", labels=["Wave 1.0"], values=[0], unit="%")
    assert ">100 %<" in chart.svg
    assert ">1 %<" not in chart.svg


def test_a_rate_line_chart_labels_its_axis_above_every_point() -> None:
    # Catches at 0 %, placements at 75 %: pygal alone topped the axis at "60 %", under the point.
    chart = line_chart(
        title="Catch rate / Stayed aboard",
        labels=["12/01/2026"],
        series=[Series("Catches", [0]), Series("Placements", [75])],
        unit="%",
    )
    assert ">100 %<" in chart.svg


def test_the_same_lines_are_drawn_once_and_each_chart_keeps_an_id_of_its_own() -> None:
    lines = [Series("Median correct RT", [612.0, None, 580.5])]

    def drawn() -> charts.Chart:
        return line_chart(
            title="Median correct RT", labels=["1 Mar", "8 Mar", "15 Mar"], series=lines, unit="ms"
        )

    charts._line_svg.cache_clear()
    first, second = drawn(), drawn()
    assert charts._line_svg.cache_info().hits == 1
    ids = [re.findall(r'id="(chart-[0-9a-f-]{36})"', chart.svg) for chart in (first, second)]
    assert len(ids[0]) == len(ids[1]) == 1
    assert ids[0] != ids[1]
    assert first.svg.replace(ids[0][0], "") == second.svg.replace(ids[1][0], "")
