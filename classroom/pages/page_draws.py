"""A teacher page's draw, asked for by its socket and done wherever the pages are drawn.

A console or projector socket sends a ``DrawAsk`` (plain data: what to draw, in which
language, with the tables' views it gathered on the event loop) and gets back ``Drawn``.
``page_draw`` reads the lobby, draws the parts that changed and reads the session's tables,
keeping what it needs between one socket's draws (its parts, its lobby reads, its live skills)
under the socket's name in this process. It runs in the process that draws the pages
(``classroom.pages.page_drawing``): its own, so the draws never hold the game sockets'
interpreter lock, or a thread of the serving process.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from django.utils import translation

from classroom.pages import fragments
from classroom.pages.lobby_reads import LobbyReads
from classroom.pages.parts import PartCache
from classroom.selectors.live_skills import LiveSkills
from classroom.selectors.sessions import session_table_ids

Page = Literal["console", "projector"]


@dataclass(frozen=True)
class DrawAsk:
    socket: str  # the socket's channel name: what its earlier draws kept is found by it
    page: Page
    session_id: int
    language: str
    views: dict[int, dict[str, Any]]  # the tables' teacher views, by table id
    dashboard: bool = False  # the console's live skills too
    lobby_changed: bool = False  # a lobby change came since the socket's last ask
    stretch: float = 1.0  # the teachers' drawing budget's stretch as the socket asked


@dataclass(frozen=True)
class Drawn:
    html: str
    table_ids: set[int]  # the session's current tables, as read after the draw
    cpu_s: float  # the draw's CPU time (the teacher pages' render budget)


@dataclass
class PageMemory:
    """What one socket's draws keep between them."""

    parts: PartCache = field(default_factory=PartCache)
    dashboard_parts: PartCache = field(default_factory=PartCache)
    lobby_reads: LobbyReads = field(default_factory=LobbyReads)
    skills: LiveSkills = field(default_factory=LiveSkills)


# Every socket's memory in the process that draws (each socket forgets its own when it closes).
_memories: dict[str, PageMemory] = {}


def page_memory(socket: str) -> PageMemory:
    memory = _memories.get(socket)
    if memory is None:
        memory = _memories[socket] = PageMemory()
    return memory


def page_forget(socket: str) -> None:
    """The socket closed: what its draws kept goes."""
    _memories.pop(socket, None)


def page_draw(ask: DrawAsk) -> Drawn:
    began = time.thread_time()
    memory = page_memory(ask.socket)
    if ask.lobby_changed:
        memory.lobby_reads.stale()
    memory.lobby_reads.pace(stretch=ask.stretch)
    with translation.override(ask.language):
        if ask.page == "console":
            html = fragments.console_fragment_render(
                session_id=ask.session_id,
                views=ask.views,
                dashboard=ask.dashboard,
                parts=memory.parts,
                lobby_reads=memory.lobby_reads,
                skills=memory.skills,
                dashboard_parts=memory.dashboard_parts,
            )
        else:
            html = fragments.projector_fragment_render(
                session_id=ask.session_id,
                views=ask.views,
                parts=memory.parts,
                lobby_reads=memory.lobby_reads,
            )
    table_ids = session_table_ids(session_id=ask.session_id)
    return Drawn(html=html, table_ids=table_ids, cpu_s=time.thread_time() - began)
