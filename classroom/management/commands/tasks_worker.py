"""``manage.py tasks_worker``: the background task worker (django-tasks-db's ``db_worker``), at
a lower CPU priority so the live tables in Daphne always come first.

A class workbook keeps one core busy for a few seconds; at ``nice 19`` the kernel gives Daphne
the CPU whenever it wants it, so live flips do not wait behind the build (`make bench-exports`
measures it). ``make run`` starts one beside Daphne, ``make cluster`` one beside its processes.
"""

from __future__ import annotations

import logging
import os
import time
from typing import TYPE_CHECKING, Any

from django.db import OperationalError
from django_tasks_db.management.commands import db_worker

if TYPE_CHECKING:
    from argparse import ArgumentParser

NICENESS = 19
# After the database failed the worker, it waits this long before it takes the queue up again.
PAUSE_S = 5.0

logger = logging.getLogger(__name__)


class Command(db_worker.Command):
    help = "Run background tasks (exports) at a lower CPU priority than the site."

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--niceness",
            type=int,
            default=NICENESS,
            help="How far below the site's the worker's CPU priority is (default 19, the lowest).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        niceness = options.pop("niceness")
        if niceness > 0:
            os.nice(niceness)
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
