"""Tables that play: fixing who sits where when play starts, and when a table is over.

Writing what happens at a table is the table hosts' log store (``classroom.hosting.log_store``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from classroom.events import LobbyChanged, event_publish
from classroom.models import GameSession, Seat, Table
from classroom.selectors.levels import student_rung
from classroom.selectors.sessions import session_tables_current
from games.engine.extra_time import ROSTER_KEY as EXTRA_TIME_KEY
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

BOT_LEVEL = "steady"
BOT_NAMES = ("Robo Rita", "Beep Bo", "Tin Tam", "Dot Bot", "Zip Zap", "Cog Coco", "Nano Nia")


def _table_seed(session: GameSession, table: Table) -> int:
    # Each table of a session plays its own deal, reproducible from the session's seed; each
    # game after the first (Play again) deals afresh.
    if table.game_number <= 1:
        return random.Random(session.seed * 1009 + table.number).getrandbits(63)
    return random.Random(f"{session.seed}:{table.game_number}:{table.number}").getrandbits(63)


def table_roster_fix(
    *, session: GameSession, table: Table, bots: int | None = None, bot_level: str = BOT_LEVEL
) -> Table:
    """Freeze the table's seats in join order, topped up with bots to the game's minimum
    (or with exactly ``bots`` bots of ``bot_level``: a practice table)."""
    spec = game_get(session.game)
    humans = list(
        table.seats.filter(kicked_at__isnull=True)
        .select_related("student")
        .order_by("joined_at", "pk")
    )
    roster: list[dict[str, Any]] = [
        {
            "seat_id": seat.pk,
            "name": seat.name,
            **({"options": seat.options} if seat.options else {}),
            **_extra_time_entry(seat),
            **(_ladder_entry(session, seat) if session.adaptive else {}),
        }
        for seat in humans
    ]
    minimum = spec.min_players if spec is not None else 2
    if spec is not None and spec.bots_fill_table:
        minimum = max(minimum, session.players_per_table)
    if bots is None:
        bots = max(0, minimum - len(roster))
    for bot_number in range(bots):
        roster.append({"bot": bot_level, "name": BOT_NAMES[bot_number % len(BOT_NAMES)]})
    table.roster = roster
    table.seed = _table_seed(session, table)
    table.save(update_fields=["roster", "seed"])
    return table


def _extra_time_entry(seat: Seat) -> dict[str, Any]:
    """The child's extra time as the table is dealt (games.engine.extra_time): fixed with the
    seats, so the table replays with the windows it played."""
    student = seat.student
    if student is None or not student.extra_time:
        return {}
    return {EXTRA_TIME_KEY: student.extra_time}


def _ladder_entry(session: GameSession, seat: Seat) -> dict[str, Any]:
    """Where a seat starts on the adaptive ladder: where its student left off, inside the
    band of the practice assignment (if any)."""
    rung = 0 if seat.student is None else student_rung(student=seat.student, game=session.game)
    assignment = session.assignment
    band = [0, None] if assignment is None else [assignment.rung_min, assignment.rung_max]
    return {"rung": rung, "band": band}


def tables_roster_fix(*, session: GameSession) -> None:
    for table in session_tables_current(session=session):
        if table.seats.filter(kicked_at__isnull=True).exists():
            table_roster_fix(session=session, table=table)


def roster_seat_ids(roster: Sequence[Mapping[str, Any]]) -> dict[int, int]:
    """Engine seat index → Seat pk, for the human seats."""
    return {index: entry["seat_id"] for index, entry in enumerate(roster) if "seat_id" in entry}


def roster_extra_time(roster: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """Engine seat index → the extra time its child was dealt with ("x1.5", "x2", "untimed")."""
    return {
        index: str(entry[EXTRA_TIME_KEY])
        for index, entry in enumerate(roster)
        if "seat_id" in entry and entry.get(EXTRA_TIME_KEY)
    }


def roster_takeovers(roster: Sequence[Mapping[str, Any]]) -> dict[int, str]:
    """Engine seat index → bot level, for the seats a bot took over mid-game (their child
    was taken off the class list; ``classroom.services.classes.student_remove``)."""
    return {
        index: str(entry["took_over"]) for index, entry in enumerate(roster) if "took_over" in entry
    }


def table_finished(*, table_id: int) -> bool:
    """Mark a table whose game is over as finished (the console and projector say so).
    Returns whether it changed (the session's pages are told then)."""
    session_id = Table.objects.filter(pk=table_id).values_list("session_id", flat=True).first()
    if session_id is None:
        return False
    changed = (
        Table.objects.filter(pk=table_id)
        .exclude(status=Table.Status.ENDED)
        .update(status=Table.Status.ENDED)
    )
    if changed:
        event_publish(event=LobbyChanged(session_id=session_id))
    return bool(changed)
