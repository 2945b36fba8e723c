"""A page socket's renders with its parts cache: the same HTML as a full render, drawing again
only the parts that changed."""

from __future__ import annotations

import copy
import re
from typing import TYPE_CHECKING, Any

import pytest
from django.utils import translation

from classroom.hosting.engines import table_engine
from classroom.models import Seat, Table
from classroom.pages import fragments
from classroom.pages.parts import PartCache
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_start
from games.registry import game_get
from tests.classroom.trial_rows import trial_add

if TYPE_CHECKING:
    from collections.abc import Callable

    from classroom.models import GameSession

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "zh-hant")
CHART_ID = re.compile(r"chart-[0-9a-f-]{36}")


def _playing(make_session: Callable[..., GameSession]) -> tuple[GameSession, list[Table]]:
    session = make_session(players_per_table=4)
    for number in range(10):
        seat_join_guest(session=session, nickname=f"Kid {number}")
    session_start(session=session)
    return session, list(Table.objects.filter(session=session).order_by("number"))


def _views(session: GameSession, tables: list[Table]) -> dict[int, dict[str, Any]]:
    """Each table's teacher view at its start, as its host would give it."""
    spec = game_get(session.game)
    assert spec is not None
    views = {}
    for table in tables:
        engine, config = table_engine(
            spec=spec, settings=session.settings, adaptive=False, roster=table.roster
        )
        state = engine.replay(config, tuple(range(len(table.roster))), table.seed, {}, [])
        view = engine.view(state, None)
        view["recent_trials"] = {}
        view["paused"] = False
        views[table.pk] = view
    return views


def _moved(views: dict[int, dict[str, Any]], table: Table) -> dict[int, dict[str, Any]]:
    """The same views with one table a flip on and a trial in its first seat's strip."""
    moved = copy.deepcopy(views)
    view = moved[table.pk]
    view["flip"] = int(view.get("flip") or 0) + 1
    view["recent_trials"] = {"0": [{"correct": True, "rt_ms": 420, "response": "slap"}]}
    return moved


def _console(session: GameSession, views: Any, parts: PartCache | None) -> str:
    return fragments.console_fragment_render(
        session_id=session.pk, views=views, dashboard=False, parts=parts
    )


def _projector(session: GameSession, views: Any, parts: PartCache | None) -> str:
    return fragments.projector_fragment_render(session_id=session.pk, views=views, parts=parts)


PAGES = {"console": _console, "projector": _projector}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("page", PAGES)
def test_after_one_table_moved_only_its_part_is_drawn_and_the_page_equals_a_full_render(
    make_session: Callable[..., GameSession], page: str, language: str
) -> None:
    render = PAGES[page]
    session, tables = _playing(make_session)
    views = _views(session, tables)
    parts = PartCache()
    with translation.override(language):
        assert render(session, views, parts) == render(session, views, None)
        drawn = parts.rendered
        assert drawn >= len(tables)

        moved = _moved(views, tables[1])
        html = render(session, moved, parts)

        assert parts.rendered == drawn + 1
        assert html == render(session, moved, None)
        # Nothing changed since: nothing is drawn again.
        assert render(session, moved, parts) == html
        assert parts.rendered == drawn + 1


def test_a_renamed_student_draws_only_their_table_again(
    make_session: Callable[..., GameSession],
) -> None:
    session, tables = _playing(make_session)
    views = _views(session, tables)
    parts = PartCache()
    _console(session, views, parts)
    drawn = parts.rendered

    seat = Seat.objects.filter(table=tables[2]).first()
    assert seat is not None
    Seat.objects.filter(pk=seat.pk).update(name="Renamed")
    html = _console(session, views, parts)

    assert parts.rendered == drawn + 1  # the seats of the renamed student's table
    assert "Renamed" in html
    assert html == _console(session, views, None)


def test_a_change_of_session_control_draws_every_part_it_shows_in(
    make_session: Callable[..., GameSession],
) -> None:
    session, tables = _playing(make_session)
    views = _views(session, tables)
    parts = PartCache()
    _console(session, views, parts)
    drawn = parts.rendered

    type(session).objects.filter(pk=session.pk).update(status="paused")
    html = _console(session, views, parts)

    # The toolbar, and each table's two parts (its game and its seats).
    assert parts.rendered == drawn + 1 + 2 * len(tables)
    assert html == _console(session, views, None)


def test_a_cache_shared_by_mistake_still_draws_each_teachers_own_page(
    make_session: Callable[..., GameSession],
    make_teacher: Callable[..., Any],
) -> None:
    ours, our_tables = _playing(make_session)
    theirs, their_tables = _playing(
        lambda **options: make_session(owner=make_teacher(username="other"), **options)
    )
    parts = PartCache()
    ours_html = _console(ours, _views(ours, our_tables), parts)
    theirs_html = _console(theirs, _views(theirs, their_tables), parts)
    assert theirs_html == _console(theirs, _views(theirs, their_tables), None)
    assert ours.code not in theirs_html
    assert ours_html != theirs_html


def test_the_class_chart_is_drawn_again_only_when_its_bins_change(
    make_session: Callable[..., GameSession], monkeypatch: pytest.MonkeyPatch
) -> None:
    session, tables = _playing(make_session)
    views = _views(session, tables)
    seat = Seat.objects.filter(session=session).order_by("pk").first()
    assert seat is not None
    charts_drawn: list[object] = []
    histogram = fragments.charts.histogram

    def counted(**kwargs: Any) -> Any:
        charts_drawn.append(kwargs["bins"])
        return histogram(**kwargs)

    monkeypatch.setattr(fragments.charts, "histogram", counted)

    def render(parts: PartCache | None) -> str:
        return fragments.console_fragment_render(
            session_id=session.pk, views=views, dashboard=True, dashboard_parts=parts
        )

    parts = PartCache()
    trial_add(seat=seat, target=True, responded=True, rt_ms=420)
    first = render(parts)
    assert "pygal-chart" in first
    assert len(charts_drawn) == 1

    assert render(parts) == first  # the same bins: the chart is the one drawn before
    assert len(charts_drawn) == 1

    trial_add(seat=seat, target=True, responded=True, rt_ms=910, flip=2)
    again = render(parts)
    assert len(charts_drawn) == 2
    # The page a full render draws, chart and numbers (pygal names each chart it draws anew).
    assert CHART_ID.sub("", again) == CHART_ID.sub("", render(None))
    assert CHART_ID.sub("", again) != CHART_ID.sub("", first)
