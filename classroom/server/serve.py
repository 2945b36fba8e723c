"""The serving process: Daphne on uvloop's event loop.

    python -m classroom.server.serve <Daphne's arguments>

Everything a process does for its tablets runs on one event loop thread (Twisted's asyncio
reactor under Daphne, the table hosts, every socket), so that thread's own cost per student
bounds what one process holds. uvloop runs the loop's machinery (callbacks, timers,
waiting for sockets) in C, and the loop spends less CPU per student on it than on Python's own
loop (docs/benchmarks.md, *The event loop*).

Daphne makes its loop when ``daphne.server`` is first imported, so the choice is made here,
before that import; once it is imported the choice is refused, as it could change nothing.
``SNAPCLASS_EVENT_LOOP=asyncio`` keeps Python's own loop (a machine where uvloop misbehaves,
or a comparison); on Windows, which uvloop does not run on, that is the default.
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

EVENT_LOOPS = ("uvloop", "asyncio")


class EventLoopChoiceError(RuntimeError):
    """The event loop asked for cannot be had (an unknown name, or Daphne's loop exists)."""


def event_loop_install(*, choice: str | None = None) -> str:
    """Make the loop Daphne will create the chosen one; return its name.

    ``choice`` defaults to ``SNAPCLASS_EVENT_LOOP`` (``uvloop`` when unset, but on Windows)."""
    default = "asyncio" if sys.platform == "win32" else "uvloop"
    name = choice if choice is not None else os.environ.get("SNAPCLASS_EVENT_LOOP", default)
    if name not in EVENT_LOOPS:
        raise EventLoopChoiceError(
            f"SNAPCLASS_EVENT_LOOP is {name!r}: it must be one of {', '.join(EVENT_LOOPS)}"
        )
    if name == "uvloop" and sys.platform == "win32":
        raise EventLoopChoiceError(
            "uvloop does not run on Windows: use SNAPCLASS_EVENT_LOOP=asyncio"
        )
    if "daphne.server" in sys.modules:
        raise EventLoopChoiceError(
            "Daphne's event loop exists already: choose the loop before importing daphne.server"
        )
    if name == "uvloop":
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    else:
        asyncio.set_event_loop_policy(asyncio.DefaultEventLoopPolicy())
    return name


def main(argv: Sequence[str] | None = None) -> None:
    """Daphne's command line, on the chosen loop."""
    try:
        event_loop_install()
    except EventLoopChoiceError as error:
        sys.exit(f"snapclass: {error}")
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(list(argv) if argv is not None else sys.argv[1:])


if __name__ == "__main__":
    main()
