"""Health checks for a proxy or a monitor: ``GET /healthz`` (alive) and ``GET /readyz`` (ready).

``/healthz`` answers from the process alone (no database), so it says only that the process
runs. ``/readyz`` asks the parts a table needs: the database, the channel layer and the log
writer, each within ``PART_WITHIN_S``; HAProxy's health check uses it, so a process that is
hung or cut off from a service gets no new connections. Neither needs a login, neither names
anything but the part that failed, and neither is cached.

``/metrics`` is Prometheus's: off unless ``METRICS_TOKEN`` is set, then only with that bearer
token (see ``classroom.server.metrics``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import weakref
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError, connection
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from classroom.hosting import table_hosts
from classroom.selectors.tasks import tasks_waiting
from classroom.server import metrics as metrics_registry
from classroom.server.metrics import ASYNC_TASKS

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from channels.layers import BaseChannelLayer
    from django.http import HttpRequest

# Each part gets this long; all are asked at once, so the answer is back before HAProxy's
# 1 s check timeout (classroom/server/haproxy.cfg) even when a part hangs.
PART_WITHIN_S = 0.8

# Its own thread (and database connection): the check neither waits behind page rendering
# on the shared sync thread nor holds it up.
_database_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="readyz-db")


def _database_answers() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:
        connection.close()  # next time with a fresh connection, in case this one broke
        raise


async def database_ready() -> None:
    await sync_to_async(_database_answers, thread_sensitive=False, executor=_database_thread)()


# One channel per layer for every check: a fresh one each second would stay subscribed in
# the Pub/Sub layer. A late answer to a check that timed out is the next check's answer.
_check_channels: weakref.WeakKeyDictionary[BaseChannelLayer, str] = weakref.WeakKeyDictionary()


async def channel_layer_ready() -> None:
    """A message to a channel of this process and back (through Redis in a cluster)."""
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer")
    channel = _check_channels.get(layer)
    if channel is None:
        channel = _check_channels[layer] = await layer.new_channel()
    await layer.send(channel, {"type": "health.ping"})
    await layer.receive(channel)


async def log_writer_ready() -> None:
    await table_hosts.log_writer.ping()


READY_PARTS: dict[str, Callable[[], Awaitable[None]]] = {
    "database": database_ready,
    "channel_layer": channel_layer_ready,
    "log_writer": log_writer_ready,
}


async def _part_state(check: Callable[[], Awaitable[None]]) -> str:
    try:
        await asyncio.wait_for(check(), timeout=PART_WITHIN_S)
    except TimeoutError:
        return "timed out"
    except Exception as error:
        # The kind of failure only: messages can name hosts and users.
        return f"failed ({type(error).__name__})"
    return "ok"


def _plain(text: str, status: int) -> HttpResponse:
    return HttpResponse(text, status=status, content_type="text/plain; charset=utf-8")


@never_cache
def healthz(request: HttpRequest) -> HttpResponse:
    return _plain("ok\n", 200)


@never_cache
async def readyz(request: HttpRequest) -> HttpResponse:
    names = list(READY_PARTS)
    states = await asyncio.gather(*(_part_state(READY_PARTS[name]) for name in names))
    lines = "".join(f"{name} {state}\n" for name, state in zip(names, states, strict=True))
    ready = all(state == "ok" for state in states)
    return _plain(lines, 200 if ready else 503)


def _authorized(request: HttpRequest) -> bool:
    token = getattr(settings, "METRICS_TOKEN", "")
    if not token:
        raise Http404  # off: as if there were nothing here
    offered = request.headers.get("Authorization", "")
    return hmac.compare_digest(offered.encode(), f"Bearer {token}".encode())


@never_cache
async def metrics(request: HttpRequest) -> HttpResponse:
    if not _authorized(request):
        response = HttpResponse("A bearer token is needed.\n", status=401)
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    ASYNC_TASKS.set(len(asyncio.all_tasks()))  # only this loop's, at the scrape
    # The database down: /readyz says so, and the other numbers still come.
    with contextlib.suppress(DatabaseError):
        metrics_registry.background_tasks_set(await sync_to_async(tasks_waiting)())
    return HttpResponse(generate_latest(REGISTRY), content_type=CONTENT_TYPE_LATEST)
