"""``manage.py haproxy_config``: HAProxy's configuration for a school's server, on stdout.

The same template as ``manage.py cluster`` (``classroom/server/haproxy.cfg``), for Debian's
haproxy.service: HTTPS with the school's certificate, plain HTTP redirected, the processes of
deploy/systemd/snapclass-web@.service on the ports after ``--first-port``. The health checks
ask for the first host of ALLOWED_HOSTS (run it with the site's environment, deploy/manage).
deploy/haproxy.cfg is its output for two processes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from classroom.server.haproxy import HaproxyTls, haproxy_config, health_host_from

if TYPE_CHECKING:
    from argparse import ArgumentParser

CERTIFICATE = Path("/etc/haproxy/certs/snapclass.pem")
# Debian's own place for the runtime API (its haproxy package makes /run/haproxy).
STATS_SOCKET = Path("/run/haproxy/admin.sock")


class Command(BaseCommand):
    help = "Print HAProxy's configuration for this server (TLS, N processes) to stdout."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--processes", type=int, default=2, help="How many Daphne processes (default 2)."
        )
        parser.add_argument(
            "--first-port", type=int, default=8001, help="The first process's port (8001)."
        )
        parser.add_argument(
            "--certificate",
            type=Path,
            default=CERTIFICATE,
            help=f"One PEM file: certificate, chain and private key (default {CERTIFICATE}).",
        )
        parser.add_argument("--http", default=":80", help="Plain HTTP, redirected (:80).")
        parser.add_argument("--https", default=":443", help="HTTPS (:443).")

    def handle(self, *args: Any, **options: Any) -> None:
        count: int = options["processes"]
        first: int = options["first_port"]
        if not 1 <= count <= 64:
            raise CommandError(f"--processes must be between 1 and 64, got {count}.")
        if not 1024 <= first <= 65535 - count:
            raise CommandError(f"--first-port must leave room for {count} ports above 1023.")
        self.stdout.write(
            haproxy_config(
                bind=options["http"],
                backends=[("127.0.0.1", first + number) for number in range(count)],
                health_host=health_host_from(settings.ALLOWED_HOSTS),
                stats_socket=STATS_SOCKET,
                tls=HaproxyTls(bind=options["https"], certificate=options["certificate"]),
                service=True,
            ),
            ending="",
        )
