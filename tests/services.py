"""Real Redis and PostgreSQL for the tests that need them (the cluster and fault tests).

They run on every Snapclass machine and in CI (127.0.0.1, trust auth). Where one is missing the
tests that need it skip with the reason, except when SNAPCLASS_REQUIRE_SERVICES=1 (CI), where
a missing service is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket

import pytest

REDIS_URL = os.environ.get("SNAPCLASS_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")
POSTGRES_URL = os.environ.get(
    "SNAPCLASS_TEST_POSTGRES_URL", "postgres://postgres@127.0.0.1:5432/postgres"
)


def _reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def require(service: str) -> None:
    """Skip (or, in CI, fail) the calling test unless ``service`` ("redis"/"postgres"/"haproxy"/
    "systemd-analyze") answers (HAProxy and systemd-analyze: are installed)."""
    if service == "haproxy":
        if shutil.which("haproxy") or os.path.exists("/usr/sbin/haproxy"):
            return
        message = "haproxy is not installed (apt-get install haproxy)"
    elif service == "systemd-analyze":
        if shutil.which("systemd-analyze"):
            return
        message = "systemd-analyze is not installed (apt-get install systemd)"
    else:
        port = {"redis": 6379, "postgres": 5432}[service]
        if _reachable(port):
            return
        message = f"{service} is not running on 127.0.0.1:{port}"
    if os.environ.get("SNAPCLASS_REQUIRE_SERVICES") == "1":
        pytest.fail(message)
    pytest.skip(message)
