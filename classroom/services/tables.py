"""Seating students at tables of the session's size, balanced so sizes differ by at most one."""

from __future__ import annotations

import heapq
import math
from collections import defaultdict
from typing import TYPE_CHECKING

from django.db.models import Count, Q

from classroom.models import GameSession, Seat, Table
from classroom.selectors.sessions import session_tables_current
from games.registry import game_get

if TYPE_CHECKING:
    from collections.abc import Sequence


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


def tables_balance(*, session: GameSession) -> set[int]:
    """Reseat the lobby with as few moves as possible; returns the tables whose players changed.

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

    changed = _seats_deal(pool, tables=kept, counts=counts, target=target)
    changed.update(table.pk for table in dropped)
    for table in dropped:
        table.delete()
    return changed


def _seats_deal(
    pool: list[Seat], *, tables: list[Table], counts: dict[int, int], target: dict[int, int]
) -> set[int]:
    """Seat ``pool`` (earliest joiner first) each at the table furthest below its target;
    returns the tables whose players changed."""
    changed: set[int] = set()
    for seat in pool:
        destination = min(
            tables,
            key=lambda table: (counts[table.pk] - target[table.pk], counts[table.pk], table.number),
        )
        counts[destination.pk] += 1
        if seat.table_id is not None:
            changed.add(seat.table_id)
        changed.add(destination.pk)
        seat.table = destination
    Seat.objects.bulk_update(pool, ["table"])  # one statement, however many move
    return changed


def tables_seat_newcomers(*, session: GameSession, seats: Sequence[Seat]) -> set[int]:
    """Seat students who just joined the lobby (one, or a class joining at once); returns the
    tables whose players changed.

    When the lobby is balanced and the table count still fits everyone, each newcomer takes
    the least-full table, moving nobody: a few queries however big the lobby. When a new table
    is needed, the seats that must move to it are read and moved (``_tables_grow``); when the
    teacher pinned someone, or the lobby is not as joins leave it, one full ``tables_balance``
    seats them all. A batch costs one of these, not one per join, and the lobby always ends
    as ``tables_balance`` keeps it: the fewest tables that fit everyone, sizes within one.
    Call inside a transaction, with the seats saved and at no table yet.
    """
    if not seats:
        return set()
    capacity = table_capacity(session=session)
    count = session.seats.filter(kicked_at__isnull=True).count()
    needed = max(1, math.ceil(count / capacity)) if capacity else 1
    tables = list(
        session_tables_current(session=session)
        .annotate(
            members=Count("seats", filter=Q(seats__kicked_at__isnull=True)),
            pinned_members=Count(
                "seats", filter=Q(seats__kicked_at__isnull=True, seats__pinned=True)
            ),
        )
        .order_by("members", "number")
    )
    sizes = [table.members for table in tables]
    balanced = bool(tables) and max(sizes) - min(sizes) <= 1
    seated_before = count - len(seats)
    if (
        sum(sizes) != seated_before
        or any(table.pinned_members for table in tables)
        or len(tables) > needed
    ):
        return tables_balance(session=session)
    if len(tables) < needed or not balanced:
        seated = {table.pk: table.members for table in tables}
        return _tables_grow(
            session=session, tables=tables, members=seated, seats=seats, needed=needed
        )
    # The least-full table first (the lowest number among equals), one newcomer at a time.
    heap = [(table.members, table.number, index) for index, table in enumerate(tables)]
    heapq.heapify(heap)
    joining: dict[int, list[int]] = defaultdict(list)
    for seat in seats:
        members, number, index = heapq.heappop(heap)
        seat.table = tables[index]
        joining[index].append(seat.pk)
        heapq.heappush(heap, (members + 1, number, index))
    for index, seat_ids in joining.items():
        Seat.objects.filter(pk__in=seat_ids).update(table=tables[index])
    return {tables[index].pk for index in joining}


def _tables_grow(
    *,
    session: GameSession,
    tables: Sequence[Table],
    members: dict[int, int],
    seats: Sequence[Seat],
    needed: int,
) -> set[int]:
    """Seat newcomers as ``tables_balance`` would when the lobby needs more tables (or is
    uneven), reading only the seats that move: those of tables fuller than their new share.

    For the lobby as ``tables_seat_newcomers`` found it: every other seat at one of
    ``tables`` (``members``: how many at each), none pinned, no table too many. A class
    joining at once needs a new table every few joins; reading every seat each time made each
    join cost more the more had joined.
    """
    members = dict(members)
    kept = sorted(tables, key=lambda table: (-members[table.pk], table.number))
    while len(kept) < needed:
        table = table_add(session=session)
        members[table.pk] = 0
        kept.append(table)
    base, extra = divmod(sum(members.values()) + len(seats), len(kept))
    target = {table.pk: base + (1 if rank < extra else 0) for rank, table in enumerate(kept)}
    excess = {pk: members[pk] - target[pk] for pk in members if members[pk] > target[pk]}

    pool: list[Seat] = list(seats)
    if excess:
        at_fuller: dict[int, list[Seat]] = defaultdict(list)
        for seat in Seat.objects.filter(table_id__in=excess, kicked_at__isnull=True).order_by(
            "joined_at", "pk"
        ):
            at_fuller[seat.table_id].append(seat)  # type: ignore[index]
        for pk, count in excess.items():
            pool.extend(at_fuller[pk][-count:])  # the latest joiners move
    pool.sort(key=lambda seat: (seat.joined_at, seat.pk))
    counts = {pk: min(members[pk], target[pk]) for pk in members}
    return _seats_deal(pool, tables=kept, counts=counts, target=target)


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
