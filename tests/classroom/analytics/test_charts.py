"""Charts: one line per kind of trial where a game has several, named in the legend."""

from __future__ import annotations

from classroom.analytics.charts import Series, line_chart

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
