"""Backups while a class plays: every copy restores into a fresh database in which every table
replays to the state its log had at that moment and every trial written with it is there."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from asgiref.sync import sync_to_async
from django.core.management import CommandError, call_command
from django.db import connection

from classroom.hosting.engines import table_engine
from classroom.hosting.table_hosts import table_host_load
from classroom.models import GameSession, Table
from classroom.server.backup import (
    BackupError,
    database_backup,
    database_restore,
    database_settings,
)
from classroom.services.seats import seat_join_guest
from classroom.services.sessions import session_create, session_start
from games.registry import game_get

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from games.live.host import TableHost

pytestmark = pytest.mark.django_db(transaction=True)

LogRow = tuple[int, str, int | None, Any, int, str]


@dataclasses.dataclass
class TableDump:
    meta: dict[str, Any]
    log: list[LogRow]
    trials: list[tuple[Any, ...]]
    views: dict[int | None, Any]


def _replayed_views(
    *,
    game: str,
    settings: dict[str, Any],
    adaptive: bool,
    roster: list[Any],
    seed: int,
    log: list[LogRow],
) -> dict[int | None, Any]:
    spec = game_get(game)
    assert spec is not None
    engine, config = table_engine(spec=spec, settings=settings, adaptive=adaptive, roster=roster)
    seats = tuple(range(len(roster)))
    bots = {i: spec.make_bot(entry["bot"]) for i, entry in enumerate(roster) if "bot" in entry}
    state = engine.replay(
        config,
        seats,
        seed,
        bots,
        [(kind, seat, payload, ms) for _, kind, seat, payload, ms, _ in log],
    )
    return {seat: engine.view(state, seat) for seat in (*seats, None)}


def _dump(path: Path) -> dict[int, TableDump]:
    """Every playing table of the SQLite database at ``path``, read with plain SQL (so the
    restored file is read exactly as it is, not through the site's connection)."""
    db = sqlite3.connect(str(path))
    try:
        tables = db.execute(
            "SELECT t.id, t.roster, t.seed, s.game, s.settings, s.adaptive "
            "FROM classroom_table t JOIN classroom_gamesession s ON s.id = t.session_id "
            "WHERE t.seed IS NOT NULL ORDER BY t.id"
        ).fetchall()
        dumps = {}
        for table_id, roster, seed, game, settings, adaptive in tables:
            log = [
                (seq, kind, seat, json.loads(payload) if payload else None, ms, client)
                for seq, kind, seat, payload, ms, client in db.execute(
                    "SELECT seq, kind, seat_index, payload, server_ms, client_id "
                    "FROM classroom_actionlogentry WHERE table_id = ? ORDER BY seq",
                    (table_id,),
                )
            ]
            trials = db.execute(
                "SELECT id, log_seq, seat_id, student_id, kind, level, responded, rt_ms, "
                "correct, plausible, data FROM classroom_trial WHERE table_id = ? ORDER BY id",
                (table_id,),
            ).fetchall()
            meta = {
                "game": game,
                "settings": json.loads(settings),
                "adaptive": bool(adaptive),
                "roster": json.loads(roster),
                "seed": seed,
            }
            views = _replayed_views(**meta, log=log)
            dumps[table_id] = TableDump(meta=meta, log=log, trials=trials, views=views)
        return dumps
    finally:
        db.close()


def _two_live_tables(teacher: User) -> list[Table]:
    session = session_create(
        teacher=teacher,
        game="palm_strike",
        school_class=None,
        players_per_table=2,
        settings={"flip_pacing": "auto", "auto_flip_s": 2.0, "response_window_s": 1.5},
    )
    for name in ("Ava", "Ben", "Cy", "Dee"):
        seat_join_guest(session=session, nickname=name)
    session_start(session=session)
    return list(Table.objects.filter(session=session).order_by("number"))


class Tablet:
    def __init__(self, seat: int | None) -> None:
        self.seat = seat

    async def deliver(self, frame: str) -> None:
        pass


async def _play_until(hosts: list[TableHost], tablets: list[Tablet], version: int) -> None:
    """Slap every open card at each table until each has logged ``version`` entries."""
    slapped = [0] * len(hosts)
    while min(host.version for host in hosts) < version:
        for index, (host, tablet) in enumerate(zip(hosts, tablets, strict=True)):
            view = host.engine.view(host.state, 0)
            if view["window_closes_ms"] and slapped[index] < view["flip"]:
                slapped[index] = view["flip"]
                host.submit(
                    tablet,
                    slapped[index],
                    {"kind": "slap", "flip": slapped[index], "rt_ms": 450, "rtt_ms": 5},
                )
        await asyncio.sleep(0.05)


def _fresh_target(tmp_path: Path, name: str) -> dict[str, Any]:
    return {**database_settings(), "NAME": str(tmp_path / name)}


async def test_backups_taken_while_tables_play_restore_to_tables_that_replay_and_keep_every_trial(
    teacher: User, tmp_path: Path
) -> None:
    if connection.vendor != "sqlite":
        pytest.skip("reads the restored file with sqlite3")
    tables = await sync_to_async(_two_live_tables)(teacher)
    hosts = []
    for table in tables:
        host = await table_host_load(table.pk)
        assert host is not None
        hosts.append(host)
    tablets = [Tablet(0) for _ in hosts]
    for host, tablet in zip(hosts, tablets, strict=True):
        host.start()
        await host.join(tablet)

    backups = []
    for round_ in range(4):
        await _play_until(hosts, tablets, version=2 * (round_ + 1))
        # Taken on another thread while the hosts go on flipping and writing.
        backup = tmp_path / f"during-{round_}.sqlite3"
        await asyncio.gather(
            sync_to_async(database_backup, thread_sensitive=False)(destination=backup),
            _play_until(hosts, tablets, version=2 * (round_ + 1) + 1),
        )
        backups.append(backup)
    await _play_until(hosts, tablets, version=10)
    final_views = [
        {seat: host.engine.view(host.state, seat) for seat in (0, 1, None)} for host in hosts
    ]
    for host in hosts:
        await host.stop()
    final_backup = tmp_path / "after.sqlite3"
    await sync_to_async(database_backup)(destination=final_backup)

    source = await sync_to_async(_dump)(Path(database_settings()["NAME"]))
    assert set(source) == {table.pk for table in tables}
    assert all(dump.trials for dump in source.values()), "slaps and closed flips wrote trials"

    for index, backup in enumerate([*backups, final_backup]):
        target = _fresh_target(tmp_path, f"restored-{index}.sqlite3")
        await sync_to_async(database_restore)(source=backup, database=target)
        restored = await sync_to_async(_dump)(Path(target["NAME"]))
        assert set(restored) == set(source)
        for table_id, copy in restored.items():
            whole = source[table_id]
            kept = len(copy.log)
            assert kept >= 2 * (index + 1)
            assert copy.meta == whole.meta
            # The table's log as of one moment, and exactly the trials written with it.
            assert copy.log == whole.log[:kept]
            assert copy.trials == [trial for trial in whole.trials if trial[1] <= kept]
            assert copy.views == _replayed_views(**whole.meta, log=whole.log[:kept])
    # The copy made after play replays to the very state the hosts had.
    last = await sync_to_async(_dump)(Path(tmp_path / f"restored-{len(backups)}.sqlite3"))
    for host_views, table in zip(final_views, tables, strict=True):
        assert last[table.pk].views == host_views
        assert last[table.pk].trials == source[table.pk].trials


def test_restore_refuses_a_database_with_live_sessions_unless_forced(
    teacher: User, tmp_path: Path
) -> None:
    backup = tmp_path / "backup.sqlite3"
    call_command("backup", str(backup))
    tables = _two_live_tables(teacher)
    session = tables[0].session
    with pytest.raises(CommandError, match=rf"1 live session\(s\) \({session.code}\).*--force"):
        call_command("restore", str(backup))
    assert GameSession.objects.filter(pk=session.pk).exists(), "nothing was restored"

    call_command("restore", str(backup), "--force")
    assert not GameSession.objects.filter(pk=session.pk).exists()


def test_restore_refuses_a_file_that_is_not_a_backup_and_changes_nothing(
    teacher: User, tmp_path: Path
) -> None:
    tables = _two_live_tables(teacher)
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 100)
    with pytest.raises(CommandError, match="is not a Snapclass SQLite backup"):
        call_command("restore", str(junk), "--force")
    with pytest.raises(CommandError, match="There is no backup file"):
        call_command("restore", str(tmp_path / "missing.sqlite3"), "--force")
    assert Table.objects.filter(pk=tables[0].pk).exists()


def test_backup_into_a_missing_folder_says_so(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="does not exist"):
        database_backup(destination=tmp_path / "nowhere" / "backup.sqlite3")


def test_the_backup_command_says_what_it_wrote(
    teacher: User, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _two_live_tables(teacher)
    call_command("backup", str(tmp_path / "b.sqlite3"))
    assert (
        f"Backed up the database to {tmp_path / 'b.sqlite3'} (1 sessions" in capsys.readouterr().out
    )
    assert not (tmp_path / "b.sqlite3.partial").exists()
