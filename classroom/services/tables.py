"""Seating students at tables of the session's size, balanced so sizes differ by at most one."""

from __future__ import annotations

import math
from collections import defaultdict

from django.db.models import Count, Q

from classroom.models import GameSession, Seat, Table
from classroom.selectors.sessions import session_tables_current
from games.registry import game_get


def table_capacity(*, session: GameSession) -> int | None:
    """Players per table, or None when the whole class plays at one table (team mode)."""
    spec = game_get(session.game)
    if spec is not None and spec.single_table(spec.config(session.settings)):
        return None
    return session.players_per_table


def _free_numbers(taken: set[int]) -> list[int]:
    return [number for number in range(1, len(taken) + 2) if number not in taken]


def _new_table_status(session: GameSession) -> str:
    return {
        GameSession.Status.RUNNING: Table.Status.RUNNING,
        GameSession.Status.PAUSED: Table.Status.PAUSED,
    }.get(GameSession.Status(session.status), Table.Status.WAITING)


def table_add(*, session: GameSession) -> Table:
    """A new table with the lowest free number, in step with the session."""
    taken = set(session_tables_current(session=session).values_list("number", flat=True))
    number = _free_numbers(taken)[0]
    return Table.objects.create(
        session=session,
        game_number=session.game_number,
        number=number,
        status=_new_table_status(session),
    )


def tables_balance(*, session: GameSession) -> None:
    """Reseat the lobby with as few moves as possible.

    The table count is the fewest that fit everyone; sizes then differ by at most one. Seats a
    teacher placed by hand (pinned) stay; otherwise the earliest joiners keep their table and
    the latest move. Call inside a transaction.
    """
    seats = list(session.seats.filter(kicked_at__isnull=True).order_by("joined_at", "pk"))
    tables = {table.pk: table for table in session_tables_current(session=session)}
    capacity = table_capacity(session=session) or max(1, len(seats))
    table_count = max(1, math.ceil(len(seats) / capacity))

    members: dict[int, list[Seat]] = defaultdict(list)
    for seat in seats:
        if seat.table_id in tables:
            members[seat.table_id].append(seat)

    # A table holding a seat the teacher placed stays; then those with most members.
    def holds_pin(table: Table) -> bool:
        return any(seat.pinned for seat in members[table.pk])

    ranked = sorted(
        tables.values(),
        key=lambda table: (not holds_pin(table), -len(members[table.pk]), table.number),
    )
    table_count = max(table_count, sum(1 for table in ranked if holds_pin(table)))
    kept = ranked[:table_count]
    dropped = ranked[table_count:]
    while len(kept) < table_count:
        kept.append(table_add(session=session))

    base, extra = divmod(len(seats), table_count)
    target = {table.pk: base + (1 if rank < extra else 0) for rank, table in enumerate(kept)}

    pool: list[Seat] = [seat for seat in seats if seat.table_id not in target]
    counts: dict[int, int] = {}
    for table in kept:
        current = sorted(members[table.pk], key=lambda seat: (not seat.pinned, seat.joined_at))
        keep = max(target[table.pk], sum(1 for seat in current if seat.pinned))
        counts[table.pk] = min(keep, len(current))
        pool.extend(current[keep:])
    pool.sort(key=lambda seat: (seat.joined_at, seat.pk))

    for seat in pool:
        destination = min(
            kept,
            key=lambda table: (counts[table.pk] - target[table.pk], counts[table.pk], table.number),
        )
        counts[destination.pk] += 1
        seat.table = destination
        seat.save(update_fields=["table"])

    for table in dropped:
        table.delete()


def table_seat_newcomer(*, session: GameSession, seat: Seat) -> None:
    """Seat one student who just joined the lobby, moving nobody when that keeps the lobby
    as ``tables_balance`` would have it (as many tables as needed, sizes within one).

    A whole class tapping "Join" at once would otherwise reseat everyone once per join. When
    the newcomer needs a new table, or the teacher pinned someone, the full balance runs.
    Call inside a transaction, with the seat saved and at no table yet.
    """
    seated = session.seats.filter(kicked_at__isnull=True)
    capacity = table_capacity(session=session)
    count = seated.count()
    needed = max(1, math.ceil(count / capacity)) if capacity else 1
    tables = list(
        session.tables.annotate(
            members=Count("seats", filter=Q(seats__kicked_at__isnull=True))
        ).order_by("members", "number")
    )
    sizes = [table.members for table in tables]
    balanced = bool(tables) and max(sizes) - min(sizes) <= 1 and sum(sizes) == count - 1
    if len(tables) != needed or not balanced or seated.filter(pinned=True).exists():
        tables_balance(session=session)
        return
    seat.table = tables[0]
    seat.save(update_fields=["table"])


def table_for_late_joiner(*, session: GameSession) -> Table:
    """After the start nobody is moved and games have fixed seats: a newcomer gets a new
    table, except in a whole-class game, where they join the one table to watch."""
    if table_capacity(session=session) is None:
        existing = session_tables_current(session=session).order_by("number").first()
        if existing is not None:
            return existing
    return table_add(session=session)


def tables_drop_empty(*, session: GameSession) -> None:
    """In the lobby an empty table is just noise; once play started its history matters."""
    if session.status == GameSession.Status.LOBBY:
        session.tables.filter(seats__isnull=True).delete()
