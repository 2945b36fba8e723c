"""HAProxy in front of several Snapclass processes: its configuration, and running it.

The configuration is ``classroom/server/haproxy.cfg`` filled in with the processes' addresses, so
``manage.py cluster``, the cluster tests, a school's server (``manage.py haproxy_config``,
deploy/haproxy.cfg) and docs/operations.md's layout are one file.
"""

from __future__ import annotations

import dataclasses
import shutil
import socket
import subprocess
from pathlib import Path
from string import Template
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

TEMPLATE = Path(__file__).with_name("haproxy.cfg")
HAPROXY = "/usr/sbin/haproxy"

_SERVICE_GLOBALS = """\
    # Started as root by Debian's haproxy.service: it takes its ports and the certificate,
    # then runs as the package's unprivileged user in its empty chroot.
    user haproxy
    group haproxy
    chroot /var/lib/haproxy
"""


@dataclasses.dataclass(frozen=True)
class HaproxyTls:
    """HTTPS on ``bind`` ("host:port", e.g. ":443") with ``certificate``: one PEM file holding
    the certificate, its chain and its private key. The plain ``bind`` then only redirects."""

    bind: str
    certificate: Path


def _frontend_binds(bind: str, tls: HaproxyTls | None) -> str:
    if tls is None:
        return f"    bind {bind}"
    return "\n".join(
        [
            f"    bind {bind}",
            f"    bind {tls.bind} ssl crt {tls.certificate} alpn h2,http/1.1",
            "    # Plain HTTP answers only with the way to HTTPS (HAProxy checks the processes",
            "    # directly). Snapclass believes this header from here on (HTTPS=1).",
            "    http-request redirect scheme https code 301 unless { ssl_fc }",
            "    http-request set-header X-Forwarded-Proto https",
        ]
    )


def haproxy_config(
    *,
    bind: str,
    backends: Sequence[tuple[str, int]],
    health_host: str = "localhost",
    stats_socket: Path | None = None,
    affinity: bool = True,
    tls: HaproxyTls | None = None,
    service: bool = False,
) -> str:
    """The configuration for a proxy on ``bind`` ("host:port") in front of ``backends``.

    ``health_host`` is the Host header of the health checks: one of ALLOWED_HOSTS, or Django
    answers them 400. ``stats_socket``: a Unix socket for HAProxy's runtime API ("show stat").
    ``affinity=False`` sends the table sockets round robin too (a proxy without session
    affinity, the worst case the capacity benchmark measures). ``tls``: terminate HTTPS too.
    ``service``: run as Debian's haproxy.service runs it (its user, its chroot).
    """
    if not backends:
        raise ValueError("HAProxy needs at least one process behind it.")
    names = [f"p{number}" for number in range(1, len(backends) + 1)]
    pairs = list(zip(names, backends, strict=True))
    alive = [f"    server {name} {host}:{port}" for name, (host, port) in pairs]

    def servers(own_check: bool) -> list[str]:
        # Each process twice: ready (its own /readyz check, or the tables backend's), and as
        # a backup used only when none is ready, if it is alive (/healthz).
        first = [
            f"    server {name} {host}:{port}" + ("" if own_check else f" track tables/{name}")
            for name, (host, port) in pairs
        ]
        backup = [
            f"    server {name}-alive {host}:{port} backup no-check track alive/{name}"
            for name, (host, port) in pairs
        ]
        return first + backup

    extra = _SERVICE_GLOBALS if service else ""
    if stats_socket:
        extra += f"    stats socket {stats_socket} mode 600 level admin\n"
    return Template(TEMPLATE.read_text(encoding="utf-8")).substitute(
        binds=_frontend_binds(bind, tls),
        health_host=health_host,
        table_balance="hash path,field(4,/)" if affinity else "roundrobin",
        global_extra=extra,
        table_servers="\n".join(servers(own_check=True)),
        page_servers="\n".join(servers(own_check=False)),
        alive_servers="\n".join(alive),
    )


def health_host_from(allowed_hosts: Sequence[str]) -> str:
    """A Host header Django accepts (the first plain entry of ALLOWED_HOSTS)."""
    for host in allowed_hosts:
        plain = host.lstrip(".")
        if plain and "*" not in plain:
            return plain
    return "localhost"


def haproxy_binary() -> str:
    found = shutil.which("haproxy") or (HAPROXY if Path(HAPROXY).exists() else None)
    if found is None:
        raise FileNotFoundError(
            "HAProxy is not installed: apt-get install haproxy (Debian's package, 2.6 or newer)."
        )
    return found


def haproxy_check(config_path: Path) -> None:
    """Raise (with HAProxy's own words) if the configuration is not valid."""
    done = subprocess.run(  # noqa: S603 - the installed binary, fixed arguments
        [haproxy_binary(), "-c", "-f", str(config_path)], capture_output=True, text=True
    )
    if done.returncode != 0:
        raise ValueError(f"HAProxy refused its configuration:\n{done.stdout}{done.stderr}")


def haproxy_start(
    config_path: Path,
    *,
    stdout: IO[bytes] | int | None = None,
    stderr: IO[bytes] | int | None = None,
) -> subprocess.Popen[bytes]:
    """HAProxy in the foreground (-db), no daemon: it stops with the process that started it."""
    haproxy_check(config_path)
    return subprocess.Popen(  # noqa: S603 - the installed binary, fixed arguments
        [haproxy_binary(), "-db", "-f", str(config_path)], stdout=stdout, stderr=stderr
    )


def haproxy_stats(stats_socket: Path) -> list[dict[str, str]]:
    """HAProxy's "show stat" from its runtime API: one row per proxy and server."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as runtime:
        runtime.settimeout(2)
        runtime.connect(str(stats_socket))
        runtime.sendall(b"show stat\n")
        chunks = []
        while chunk := runtime.recv(65536):
            chunks.append(chunk)
    lines = [line for line in b"".join(chunks).decode().splitlines() if line]
    header = lines[0].lstrip("# ").split(",")
    return [dict(zip(header, line.split(","), strict=False)) for line in lines[1:]]


def haproxy_server_states(stats_socket: Path) -> dict[str, str]:
    """Each server's state, e.g. {"tables/p1": "UP", "tables/p2": "DOWN", ...}."""
    return {
        f"{row['pxname']}/{row['svname']}": row["status"]
        for row in haproxy_stats(stats_socket)
        if row.get("svname") not in (None, "FRONTEND", "BACKEND")
    }
