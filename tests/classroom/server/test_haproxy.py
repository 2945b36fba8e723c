"""HAProxy in front of the processes (classroom/server/haproxy.cfg): a session's sockets on one
process, the rest round robin, a process that is gone or not ready skipped, the client's
address passed on. Stand-in processes: small HTTP servers that say who answered."""

from __future__ import annotations

import random
import subprocess
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING

import pytest

from classroom.join_codes import JOIN_CODE_ALPHABET, JOIN_CODE_LENGTH
from classroom.server.haproxy import (
    haproxy_check,
    haproxy_config,
    haproxy_server_states,
    haproxy_start,
)
from tests.cluster.processes import free_port
from tests.services import require

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


# A page the process sent uncompressed (one with a sign-in secret in it): big and repetitive,
# what a compressing proxy would shrink most.
PAGE = "<!doctype html><p>" + "<span>ABCDEF</span>" * 2000


class Process:
    """A stand-in Snapclass process: answers its name, the path and X-Forwarded-For."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.ready = True  # /readyz: 200, else 503
        self.hung = threading.Event()  # /readyz never answers (a stalled process)
        process = self

        class Handler(BaseHTTPRequestHandler):
            # As Daphne answers (HAProxy would compress no HTTP/1.0 answer).
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                if self.path == "/readyz":
                    if process.hung.is_set():
                        time.sleep(3)  # past HAProxy's check timeout
                    status = 200 if process.ready else 503
                else:
                    status = 200
                body = f"{process.name} {self.path} {self.headers.get('X-Forwarded-For')}"
                if self.path == "/page/":
                    body = PAGE
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def gone(self) -> None:
        """Like kill -9: the port refuses connections from now on."""
        self.server.shutdown()
        self.server.server_close()


class Proxy:
    def __init__(self, tmp_path: Path, processes: list[Process]) -> None:
        self.port = free_port()
        self.stats = tmp_path / "haproxy.sock"
        config = tmp_path / "haproxy.cfg"
        config.write_text(
            haproxy_config(
                bind=f"127.0.0.1:{self.port}",
                backends=[("127.0.0.1", process.port) for process in processes],
                stats_socket=self.stats,
            )
        )
        self.process = haproxy_start(config, stdout=subprocess.DEVNULL)
        until(self._started, what="HAProxy to start")

    def _started(self) -> bool:
        assert self.process.poll() is None, "HAProxy exited"
        return self.stats.exists() and bool(self.states())

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def who(self, path: str) -> str:
        status, body = self.get(path)
        assert status == 200, (status, body)
        return body.split()[0]

    def states(self) -> dict[str, str]:
        try:
            return haproxy_server_states(self.stats)
        except OSError:
            return {}


def until(condition: Callable[[], bool], *, what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture
def processes() -> Iterator[list[Process]]:
    made = [Process("a"), Process("b")]
    yield made
    for process in made:
        process.server.shutdown()
        process.server.server_close()


@pytest.fixture
def proxy(tmp_path: Path, processes: list[Process]) -> Iterator[Proxy]:
    require("haproxy")
    running = Proxy(tmp_path, processes)
    yield running
    running.process.terminate()
    running.process.wait(timeout=10)


def _code_on(proxy: Proxy, name: str) -> str:
    """A join code whose sockets HAProxy sends to the process ``name``."""
    for number in range(200):
        code = f"C{number:05d}"
        if proxy.who(f"/ws/play/{code}/table/") == name:
            return code
    raise AssertionError(f"no code maps to {name}")


def test_pages_take_turns_and_the_client_address_is_passed_on(proxy: Proxy) -> None:
    answers = [proxy.get("/teacher/")[1].split() for _ in range(4)]

    assert {name for name, _path, _address in answers} == {"a", "b"}
    assert [name for name, _path, _address in answers[:2]] != ["a", "a"]
    assert {address for _name, _path, address in answers} == {"127.0.0.1"}


def test_metrics_are_never_served_through_the_proxy(proxy: Proxy) -> None:
    assert proxy.get("/metrics")[0] == 404
    assert proxy.get("/metricsfoo")[0] == 200  # only that address


def test_the_proxy_passes_a_page_on_as_the_process_sent_it(proxy: Proxy) -> None:
    # The process decides which pages are compressed (classroom/web/compression.py): one it
    # sent uncompressed stays so, though the browser would take gzip.
    request = urllib.request.Request(
        f"http://127.0.0.1:{proxy.port}/page/", headers={"Accept-Encoding": "gzip, deflate, br"}
    )
    with urllib.request.urlopen(request, timeout=5) as response:  # noqa: S310 - loopback
        assert response.headers.get("Content-Encoding") is None
        assert response.read().decode() == PAGE


def test_every_socket_of_a_session_reaches_the_same_process(proxy: Proxy) -> None:
    for number in range(12):
        code = f"K{number:05d}"
        paths = [f"/ws/play/{code}/table/", f"/ws/play/{code}/", f"/ws/play/{code}/table/?x=1"]
        assert len({proxy.who(path) for path in paths * 2}) == 1, code
    # Sessions spread over both processes.
    assert {proxy.who(f"/ws/play/S{number:05d}/table/") for number in range(40)} == {"a", "b"}


def test_sessions_spread_evenly_over_the_processes(proxy: Proxy) -> None:
    # Join codes as the site makes them, from a fixed seed: the split is the same every run.
    chooser = random.Random(21)
    codes = [
        "".join(chooser.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))
        for _ in range(600)
    ]
    on_a = sum(proxy.who(f"/ws/play/{code}/table/") == "a" for code in codes)
    assert 0.45 <= on_a / len(codes) <= 0.55, on_a


def test_a_session_whose_process_is_gone_goes_to_the_next_one(
    proxy: Proxy, processes: list[Process]
) -> None:
    code = _code_on(proxy, "a")
    processes[0].gone()

    # At once, before any check has noticed: the refused connection is tried on the other.
    assert proxy.who(f"/ws/play/{code}/table/") == "b"
    until(lambda: proxy.states().get("tables/p1") == "DOWN", what="a marked down")
    assert {proxy.who("/teacher/") for _ in range(4)} == {"b"}


def test_a_process_that_stops_answering_its_check_gets_no_new_connections(
    proxy: Proxy, processes: list[Process]
) -> None:
    code = _code_on(proxy, "b")
    processes[1].hung.set()  # it still answers pages: only its check says it is stuck

    until(lambda: proxy.states().get("tables/p2") == "DOWN", what="b marked down")
    assert {proxy.who("/teacher/") for _ in range(6)} == {"a"}
    assert proxy.who(f"/ws/play/{code}/table/") == "a"

    processes[1].hung.clear()
    until(lambda: proxy.states().get("tables/p2") == "UP", what="b up again")
    assert proxy.who(f"/ws/play/{code}/table/") == "b"  # its sessions come back to it


def test_when_no_process_is_ready_a_live_one_still_answers(
    proxy: Proxy, processes: list[Process]
) -> None:
    for process in processes:
        process.ready = False  # e.g. Redis down for all of them

    until(
        lambda: {proxy.states().get(f"tables/p{n}") for n in (1, 2)} == {"DOWN"},
        what="both marked down",
    )
    assert proxy.who("/teacher/") in {"a", "b"}  # not HAProxy's 503
    assert proxy.who("/ws/play/K00001/table/") in {"a", "b"}


@pytest.mark.parametrize("count", [1, 3])
def test_the_configuration_is_valid_for_any_number_of_processes(tmp_path: Path, count: int) -> None:
    require("haproxy")
    config = tmp_path / "haproxy.cfg"
    text = haproxy_config(
        bind="0.0.0.0:80", backends=[("10.0.0.1", 8001 + n) for n in range(count)]
    )
    config.write_text(text)

    haproxy_check(config)
    assert text.count("track tables/") == count
    assert "timeout tunnel" in text
    assert "option forwardfor" in text


def test_a_configuration_without_processes_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one"):
        haproxy_config(bind="127.0.0.1:80", backends=[])
