"""The live parts of the console, projector and student lobby, rendered for one page.

Views render the same partials inside the full page; sockets render them again whenever the
session's lobby changes, and htmx swaps them in by id.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from django.template.loader import render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _

from classroom.analytics import charts
from classroom.forms.game_settings import game_settings_form_class
from classroom.models import GameSession, Seat, Table
from classroom.pages.lobby_reads import LOBBY_TABLES, LobbyReads
from classroom.pages.parts import CACHE_VARIABLE, PartCache
from classroom.pages.tiles import TableTile, table_tile
from classroom.selectors.analytics import session_absent_students, session_dashboard
from classroom.selectors.celebration import session_highlights
from classroom.selectors.sessions import (
    session_game_over,
    session_roster,
    table_mates,
)
from classroom.selectors.standings import leaderboard_action, standings_shown
from classroom.selectors.unique_rows import unique_row
from classroom.sockets.close_codes import CloseCode
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from classroom.selectors.live_skills import LiveSkills


def game_name(session: GameSession) -> str:
    spec = game_get(session.game)
    return _(spec.name) if spec else session.game


def _tiles(
    session: GameSession, views: Mapping[int, dict[str, Any]] | None, tables: list[Table]
) -> dict[int, TableTile]:
    """The tiles of ``tables`` (the session's current ones, as the roster read them)."""
    if session.status == GameSession.Status.LOBBY:
        return {}
    tiles = {}
    for table in tables:
        if not table.roster:
            continue
        tile = table_tile(table=table, view=(views or {}).get(table.pk))
        shown = standings_shown(session=session, phase=tile.phase, paused=tile.paused)
        tiles[table.pk] = replace(tile, standings=shown)
    return tiles


def dashboard_context(*, session: GameSession, skills: LiveSkills | None = None) -> dict[str, Any]:
    """The console's live skills: a tile per student and the class's RT distribution; with
    ``skills`` (the socket's), read from the trials since its last draw."""
    if session.status == GameSession.Status.LOBBY:
        return {"dashboard": None, "rt_chart": None}
    dashboard = skills.dashboard(session=session) if skills else session_dashboard(session=session)
    bins = charts.rt_bins(dashboard.class_rts)
    # Drawn only where the page draws it: a socket's redraw takes it from its part cache
    # while the bins stay the same (pygal takes about 6 ms a chart: a third of a console's
    # redraw with its live skills, bench_console_render.py).
    chart = (
        SimpleLazyObject(
            partial(
                charts.histogram,
                # The game's own name for a response's time (reaction time, time to play…).
                title=_("%(time)s of the class's right responses (ms)")
                % {"time": dashboard.response_time_label},
                bins=bins,
            )
        )
        if bins
        else None
    )
    return {"dashboard": dashboard, "rt_chart": chart, "rt_bins": bins}


def _play_again_form(session: GameSession) -> Any:
    """The game's settings as the session plays them, to deal the next game with changes."""
    spec = game_get(session.game)
    if spec is None or not session.is_open or session.status == GameSession.Status.LOBBY:
        return None
    return game_settings_form_class(spec)(prefix="settings", initial=session.settings)


def console_lobby(*, session: GameSession) -> dict[str, Any]:
    """What the console shows of the lobby: everything it draws but the tables' live state
    and the live skills (``LobbyReads`` keeps it between redraws a table's move asked for)."""
    roster = session_roster(session=session)
    tables = [entry.table for entry in roster.tables]
    return {
        "session": session,
        "roster": roster,
        LOBBY_TABLES: tables,
        "not_here_yet": session_absent_students(session=session),
        "game_name": game_name(session),
        "game_over": session_game_over(session=session, tables=tables),
        # Built only if the toolbar is drawn (a socket's redraw mostly takes it from its cache).
        "play_again_form": SimpleLazyObject(partial(_play_again_form, session)),
        "table_numbers": [table.number for table in tables],
        "seat_options": spec.seat_options if (spec := game_get(session.game)) else (),
        "leaderboard_choices": [
            (leaderboard_action(value), value, label)
            for value, label in GameSession.Leaderboard.choices
        ],
    }


def console_context(
    *,
    session: GameSession,
    views: Mapping[int, dict[str, Any]] | None = None,
    dashboard: bool = True,
    lobby: Mapping[str, Any] | None = None,
    skills: LiveSkills | None = None,
) -> dict[str, Any]:
    """What the console shows; without ``dashboard``, all but the live skills. ``lobby``: the
    session's ``console_lobby`` as read before (else it is read now); ``skills``: the live
    skills as the socket kept them."""
    lobby = lobby if lobby is not None else console_lobby(session=session)
    return {
        **lobby,
        "tiles": _tiles(session, views, lobby[LOBBY_TABLES]),
        **(dashboard_context(session=session, skills=skills) if dashboard else {}),
    }


# The celebration's confetti, spread by fixed steps (every render of it looks the same).
CONFETTI = [
    {
        "left": (piece * 37) % 100,
        "top": (piece * 29) % 14,
        "delay": f"{(piece * 13) % 20 / 10:.1f}",
        "fall": f"{3 + (piece % 5) * 0.6:.1f}",
        "turn": (piece * 47) % 360,
        "colour": piece % 6,
    }
    for piece in range(48)
]


def projector_lobby(*, session: GameSession) -> dict[str, Any]:
    """What the projector shows of the lobby: everything but the tables' live state."""
    roster = session_roster(session=session)
    tables = [entry.table for entry in roster.tables]
    game_over = session_game_over(session=session, tables=tables)
    lobby = {
        "session": session,
        "roster": roster,
        LOBBY_TABLES: tables,
        "game_name": game_name(session),
        "game_over": game_over,
        # Between games, the standings of the game just played, where the leaderboard allows.
        "between_games_standings": game_over
        and standings_shown(session=session, phase="game_over"),
    }
    if session.status == GameSession.Status.ENDED:
        # Names only where the class may see who did best (never without scoring).
        names = standings_shown(session=session)
        lobby["highlights"] = session_highlights(session=session, names=names)
        lobby["confetti"] = CONFETTI
    return lobby


def projector_context(
    *,
    session: GameSession,
    views: Mapping[int, dict[str, Any]] | None = None,
    lobby: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    lobby = lobby if lobby is not None else projector_lobby(session=session)
    tiles = _tiles(session, views, lobby[LOBBY_TABLES])
    return {
        **lobby,
        "tiles": tiles,
        # Every table has ended: the projector says so instead of "Playing!".
        "all_over": bool(tiles) and all(tile.phase == "game_over" for tile in tiles.values()),
    }


def seat_plays_at_its_table(*, seat: Seat) -> bool:
    """Play has started and this seat is one of its table's players."""
    if seat.session.status == GameSession.Status.LOBBY or seat.table is None:
        return False
    return any(entry.get("seat_id") == seat.pk for entry in seat.table.roster)


def lobby_context(*, seat: Seat) -> dict[str, Any]:
    session = seat.session
    plays = seat_plays_at_its_table(seat=seat)
    return {
        "session": session,
        "seat": seat,
        "mates": [mate for mate in table_mates(seat=seat) if mate.pk != seat.pk],
        "game_name": game_name(session),
        "plays": plays and session.status != GameSession.Status.ENDED,
    }


def console_fragment_render(
    *,
    session_id: int,
    views: Mapping[int, dict[str, Any]] | None = None,
    dashboard: bool = True,
    parts: PartCache | None = None,
    lobby_reads: LobbyReads | None = None,
    skills: LiveSkills | None = None,
    dashboard_parts: PartCache | None = None,
) -> str:
    """The console's live part and (``dashboard``) its live skills: the socket draws them
    less often than the tables. With ``parts`` and ``dashboard_parts`` (the socket's, one for
    each, as they are drawn apart), only the parts that changed since their last render are
    drawn again; with ``lobby_reads`` (the socket's), the lobby is read again only when it may
    have changed; with ``skills`` (the socket's), only the trials since the last draw are
    read."""
    lobby = _lobby_read(session_id, console_lobby, lobby_reads)
    context = console_context(
        session=lobby["session"], views=views, dashboard=dashboard, lobby=lobby, skills=skills
    )
    html = _live_render("classroom/session_console.html#live", context, parts)
    if dashboard:
        # Two swaps in one message: htmx's ws extension places each element by its id.
        html += _live_render("classroom/session_console.html#dashboard", context, dashboard_parts)
    return html


def projector_fragment_render(
    *,
    session_id: int,
    views: Mapping[int, dict[str, Any]] | None = None,
    parts: PartCache | None = None,
    lobby_reads: LobbyReads | None = None,
) -> str:
    lobby = _lobby_read(session_id, projector_lobby, lobby_reads)
    context = projector_context(session=lobby["session"], views=views, lobby=lobby)
    return _live_render("classroom/projector.html#live", context, parts)


def _lobby_read(
    session_id: int,
    lobby_of: Callable[..., dict[str, Any]],
    lobby_reads: LobbyReads | None,
) -> dict[str, Any]:
    """The page's lobby (``console_lobby`` or ``projector_lobby``), as the socket kept it
    when it still holds, else read now."""

    def read() -> dict[str, Any]:
        session = GameSession.objects.select_related("school_class").get(pk=session_id)
        return lobby_of(session=session)

    return lobby_reads.get(read) if lobby_reads is not None else read()


def _live_render(template: str, context: dict[str, Any], parts: PartCache | None) -> str:
    if parts is None:
        return render_to_string(template, context)
    with parts.drawing():
        return render_to_string(template, {**context, CACHE_VARIABLE: parts})


@dataclass(frozen=True)
class SeatFragment:
    html: str
    close_code: int | None = None
    table_id: int | None = None  # the table the fragment shows the seat at


def _seat_notice(message: str, close_code: int) -> SeatFragment:
    html = render_to_string("play/lobby.html#notice", {"message": message})
    return SeatFragment(html=html, close_code=close_code)


def seat_fragment_render(*, session_id: int, token: str) -> SeatFragment:
    """The lobby for the seat this token holds, or a calm notice and a close code."""
    seat = (
        unique_row(
            Seat.objects.select_related("session", "table").filter(
                session_id=session_id, token=token
            )
        )
        if token
        else None
    )
    if seat is None:
        # Never seated here, or the seat was taken over by a badge on another tablet.
        return _seat_notice(
            _("This tablet is not in the session any more. Please join again."), CloseCode.NO_SEAT
        )
    return seat_fragment_of(seat=seat)


def seat_fragment_replaced() -> SeatFragment:
    """The notice of a lobby socket that a newer one of its seat replaced."""
    return _seat_notice(_("This seat was opened on another tablet."), CloseCode.REPLACED)


def seat_fragment_of(*, seat: Seat) -> SeatFragment:
    """The lobby of a seat already read (with its session and table), or why it has none."""
    if seat.is_kicked:
        return _seat_notice(_("Your teacher removed you from this session."), CloseCode.REMOVED)
    html = render_to_string("play/lobby.html#live", lobby_context(seat=seat))
    return SeatFragment(html=html, table_id=seat.table_id)
