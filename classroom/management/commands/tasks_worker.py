"""``manage.py tasks_worker``: the background task worker (django-tasks-db's ``db_worker``), its
builds at a lower CPU priority so the live tables in Daphne always come first.

A class workbook keeps one core busy for a few seconds; at ``nice 19`` the kernel gives Daphne
the CPU whenever it wants it, so live flips do not wait behind the build (`make bench-exports`
measures it). Only the builds run there (``classroom.server.low_priority``): the purges keep
the site's priority, so no batch holds the database's write lock while the kernel waits to
run it. ``make run`` starts one beside Daphne, ``make cluster`` one beside its processes.

When it starts, the worker takes up the deletion of any class or session deleted and not
yet purged (``classroom.tasks.classes_purge``, ``sessions_purge``). With
``TRIAL_RETENTION_DAYS`` set, it also asks for the retention prune
(``classroom.tasks.retention_prune``) when it starts and every day after, so old sessions go
without a cron job and never in a request. Running either
twice (two workers, a restart) deletes nothing twice: what is gone is not found again.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import OperationalError, close_old_connections, connection
from django_tasks_db.management.commands import db_worker

from classroom.models import GameSession, SchoolClass
from classroom.server.low_priority import low_priority_set
from classroom.tasks import classes_purge, retention_prune, sessions_purge

if TYPE_CHECKING:
    from argparse import ArgumentParser

NICENESS = 19
# After the database failed the worker, it waits this long before it takes the queue up again.
PAUSE_S = 5.0
# How often the retention prune is asked for (the first time when the worker starts).
PRUNE_EVERY_S = 24 * 3600.0

logger = logging.getLogger(__name__)


class Command(db_worker.Command):
    help = "Run background tasks (exports, purges); the builds at a lower CPU priority."

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--niceness",
            type=int,
            default=NICENESS,
            help="How far below the site's the builds' CPU priority is (default 19, the lowest).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        low_priority_set(niceness=options.pop("niceness"))
        if SchoolClass.objects.filter(deleted_at__isnull=False).exists():
            # A deletion the last worker did not finish (or never saw).
            classes_purge.enqueue()
        if GameSession.objects.filter(deleted_at__isnull=False).exists():
            sessions_purge.enqueue()
        if settings.TRIAL_RETENTION_DAYS is not None:
            prune_ask()
            if not options.get("batch"):
                threading.Thread(
                    target=prune_clock, args=(threading.Event(),), name="prune-clock", daemon=True
                ).start()
        while True:
            try:
                super().handle(*args, **options)
            except OperationalError as error:
                # The database locked for longer than its timeout (SQLite under a long write:
                # a restore, a big prune) or out of reach (PostgreSQL restarting): db_worker
                # would stop, and the prepared downloads with it. Wait, then take up the queue
                # again; a task that was running when it failed is marked failed by its own
                # handler, or shows as stuck on the page.
                logger.warning("task worker: %s; taking the queue up again in %s s", error, PAUSE_S)
                time.sleep(PAUSE_S)
            else:
                return


def prune_ask() -> None:
    """Queue one retention prune; a database that fails now is tried again at the next tick."""
    try:
        retention_prune.enqueue()
    except OperationalError as error:
        logger.warning("task worker: could not queue the retention prune: %s", error)
    finally:
        connection.close()  # this thread's own; the worker's loop keeps its


def prune_clock(stop: threading.Event, every_s: float = PRUNE_EVERY_S) -> None:
    """Ask for the prune every ``every_s`` until ``stop`` is set (a daemon thread: it ends
    with the worker)."""
    while not stop.wait(every_s):
        close_old_connections()
        prune_ask()
