"""Process health for the soak test and the capacity benchmark: ``GET /_diagnostics/``.

Off unless ``SNAPCLASS_DIAGNOSTICS=1``, and then only for requests from the machine itself:
the figures say nothing secret, but a public endpoint that walks /proc on every request is
an easy way to make a busy server busier. Anyone else gets the same 404 as an unknown URL.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import Counter
from typing import TYPE_CHECKING

from channels.layers import get_channel_layer
from django.conf import settings
from django.http import Http404, JsonResponse

from classroom.hosting import table_hosts
from classroom.pages.render_budget import teacher_render_budget
from classroom.web.client_address import client_address_from_request

if TYPE_CHECKING:
    from django.http import HttpRequest

LOOPBACK = {"127.0.0.1", "::1"}


def _rss_bytes() -> int | None:
    """Resident memory of this process (VmRSS), or None where /proc is not Linux's."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024  # reported in kB
    except OSError:
        return None
    return None


def _descriptors() -> tuple[int, int]:
    """(open file descriptors, how many of them are sockets)."""
    fd_dir = "/proc/self/fd"
    names = os.listdir(fd_dir)
    sockets = 0
    for name in names:
        try:
            if os.readlink(f"{fd_dir}/{name}").startswith("socket:"):
                sockets += 1
        except OSError:
            continue  # closed between the listing and the look (the listing's own fd, say)
    return len(names), sockets


def _layer_buffers() -> tuple[int, int]:
    """(channels with messages waiting in this process's channel layer, messages waiting).

    channels_redis keeps messages for this process's channels in a buffer per channel; a
    channel whose socket has gone keeps what still reached it (channels_redis issue 384).
    """
    buffers = getattr(get_channel_layer(), "receive_buffer", None)
    if not isinstance(buffers, dict):
        return 0, 0
    queues = list(buffers.values())
    return len(queues), sum(queue.qsize() for queue in queues)


def _task_kinds(tasks: set[asyncio.Task[object]]) -> dict[str, int]:
    """How many tasks run each coroutine (the ten most common): a leak shows up by name."""
    kinds = Counter(getattr(task.get_coro(), "__qualname__", "?") for task in tasks)
    return dict(kinds.most_common(10))


async def diagnostics(request: HttpRequest) -> JsonResponse:
    # Async, so it runs on the event loop that owns the table hosts and sees its tasks.
    if not settings.SNAPCLASS_DIAGNOSTICS or client_address_from_request(request) not in LOOPBACK:
        raise Http404
    registry = table_hosts.registry
    table_ids = list(registry.teacher_views())
    hosts = [host for host in map(registry.running, table_ids) if host is not None]
    try:
        open_fds, socket_fds = _descriptors()
    except OSError:
        open_fds = socket_fds = -1
    tasks = asyncio.all_tasks()
    buffered_channels, buffered_messages = _layer_buffers()
    return JsonResponse(
        {
            "pid": os.getpid(),
            # uvloop or asyncio (classroom/server/serve.py): which loop this process runs on.
            "event_loop": type(asyncio.get_running_loop()).__module__.partition(".")[0],
            "rss_bytes": _rss_bytes(),
            "open_fds": open_fds,
            "socket_fds": socket_fds,
            "asyncio_tasks": len(tasks),
            "task_kinds": _task_kinds(tasks),
            "threads": threading.active_count(),
            "live_tables": len(hosts),
            # Sockets attached to the tables running here (tablets and watching teachers).
            "table_listeners": sum(host.listener_count for host in hosts),
            "layer_buffers": buffered_channels,
            "layer_buffered_messages": buffered_messages,
            # How many times their usual gap the teacher pages wait now (1: their pace).
            "teacher_page_stretch": teacher_render_budget.current,
        }
    )
