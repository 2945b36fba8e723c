"""``manage.py cluster`` (``make cluster``): Daphne processes behind HAProxy, as a user runs it.

The site answers through HAProxy, /readyz says every part is ready, the processes trust the
proxy's X-Forwarded-For (TRUSTED_PROXIES), and stopping the command stops HAProxy and every
process it started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import TYPE_CHECKING

import pytest

from tests.cluster.processes import ROOT, cluster_site, drop_database, free_ports_run
from tests.services import POSTGRES_URL, REDIS_URL, require

if TYPE_CHECKING:
    from pathlib import Path


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _get(port: int, path: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


@pytest.mark.timeout(120)
def test_the_cluster_command_serves_through_haproxy_and_stops_everything(tmp_path: Path) -> None:
    require("redis")
    require("postgres")
    require("haproxy")
    site = cluster_site(tmp_path, postgres_url=POSTGRES_URL, redis_url=REDIS_URL)
    port = free_ports_run(3)
    env = {key: value for key, value in site.env.items() if key != "TRUSTED_PROXIES"}
    command = subprocess.Popen(
        [sys.executable, "manage.py", "cluster", "--processes", "2", "--port", str(port)],
        cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while _get_or_none(port) != 200:
            assert command.poll() is None, command.stdout.read() if command.stdout else ""
            assert time.monotonic() < deadline, "the cluster did not answer"
            time.sleep(0.3)
        status, body = _get(port, "/readyz")
        assert (status, body.split()) == (
            200,
            ["database", "ok", "channel_layer", "ok", "log_writer", "ok"],
        )
        assert {_get(port, "/healthz")[0] for _ in range(4)} == {200}
        processes = [port + 1, port + 2]
        assert all(_answers(backend) for backend in processes)
        trusted = _trusted_proxies(command.pid)
        assert trusted == ["127.0.0.1", "127.0.0.1"]

        # `kill <pid>`: only the command hears it (Ctrl+C reaches the whole group, so every
        # process would stop by itself); it stops HAProxy and the processes it started.
        command.send_signal(signal.SIGTERM)
        command.wait(timeout=30)
        assert not any(_answers(p) for p in [port, *processes])
    finally:
        # The command's session, with anything it left behind.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(command.pid, signal.SIGKILL)
        command.wait(timeout=10)
        drop_database(POSTGRES_URL, site.postgres_db or "")


def _get_or_none(port: int) -> int | None:
    try:
        return _get(port, "/healthz")[0]
    except OSError:
        return None


def _trusted_proxies(parent: int) -> list[str]:
    """TRUSTED_PROXIES in the environment of each Daphne process the command started."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            if ppid != parent:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                if b"classroom.server.serve" not in cmdline.read():
                    continue
            with open(f"/proc/{entry}/environ", "rb") as environ:
                variables = dict(
                    item.split(b"=", 1) for item in environ.read().split(b"\0") if b"=" in item
                )
        except (OSError, ValueError):
            continue
        found.append(variables.get(b"TRUSTED_PROXIES", b"").decode())
    return found
