"""``manage.py tasks_worker``: the background task worker (django-tasks-db's ``db_worker``), at
a lower CPU priority so the live tables in Daphne always come first.

A class workbook keeps one core busy for a few seconds; at ``nice 10`` the kernel gives Daphne
the CPU whenever it wants it, so live flips do not wait behind the build (`make bench-exports`
measures it). ``make run`` starts one beside Daphne, ``make cluster`` one beside its processes.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from django_tasks_db.management.commands import db_worker

if TYPE_CHECKING:
    from argparse import ArgumentParser

NICENESS = 10


class Command(db_worker.Command):
    help = "Run background tasks (exports) at a lower CPU priority than the site."

    def add_arguments(self, parser: ArgumentParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--niceness",
            type=int,
            default=NICENESS,
            help="How much lower than the site's the worker's CPU priority is (default 10).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        niceness = options.pop("niceness")
        if niceness > 0:
            os.nice(niceness)
        super().handle(*args, **options)
