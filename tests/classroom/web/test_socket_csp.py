"""connect-src lets the site's own WebSockets through as Safari before 16 reads it: there
``'self'`` covers only the page's own http(s) origin, never a ws:/wss: URL (WebKit bugs
201591 and 235873), so the sockets must be named by scheme and host."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from django.test import Client, override_settings

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _safari15_allows(sources: list[str], url: str) -> bool:
    """Whether a connect-src of ``sources`` lets ``url`` through in Safari 15: ``'self'`` is
    never a socket, a scheme source (``ws:``) takes every host, a host source
    (``ws://host:port``) its own scheme, host and port only."""
    target = urlsplit(url)
    target_port = target.port or DEFAULT_PORTS[target.scheme]
    for source in sources:
        if source.startswith("'"):
            continue
        if source.endswith(":") and "/" not in source:
            if source[:-1] == target.scheme:
                return True
            continue
        allowed = urlsplit(source)
        if (
            allowed.scheme == target.scheme
            and allowed.hostname == target.hostname
            and (allowed.port or DEFAULT_PORTS[allowed.scheme]) == target_port
        ):
            return True
    return False


def _connect_src(client: Client, host: str) -> list[str]:
    response = client.get("/join/", HTTP_HOST=host)
    assert response.status_code == 200
    for part in response["Content-Security-Policy"].split(";"):
        name, *values = part.split()
        if name == "connect-src":
            return values
    raise AssertionError("no connect-src")


def test_the_checker_reads_self_as_safari_15_does() -> None:
    assert not _safari15_allows(["'self'"], "ws://testserver/ws/lobby/")
    assert _safari15_allows(["ws:"], "ws://elsewhere.example/")
    assert _safari15_allows(["wss://school.example"], "wss://school.example/ws/")
    assert not _safari15_allows(["wss://school.example"], "ws://school.example/ws/")
    assert not _safari15_allows(["ws://school.example:8000"], "ws://school.example/ws/")


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["192.168.1.20", "school.example"])
@pytest.mark.parametrize(
    ("host", "sockets"),
    [
        ("192.168.1.20:8000", ["ws://192.168.1.20:8000/ws/lobby/x/"]),
        ("school.example", ["wss://school.example/ws/table/1/", "ws://school.example/ws/x/"]),
    ],
)
def test_the_sites_own_sockets_get_through_on_safari_15(host: str, sockets: list[str]) -> None:
    sources = _connect_src(Client(), host)
    assert "'self'" in sources
    for socket_url in sockets:
        assert _safari15_allows(sources, socket_url), (socket_url, sources)


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["school.example"])
def test_no_other_host_is_let_through() -> None:
    sources = _connect_src(Client(), "school.example")
    assert "ws:" not in sources
    assert "wss:" not in sources
    for elsewhere in ("ws://evil.example/", "wss://evil.example/", "wss://school.example:8443/"):
        assert not _safari15_allows(sources, elsewhere), elsewhere


@pytest.mark.django_db
@override_settings(ALLOWED_HOSTS=["school.example"])
def test_a_host_the_site_does_not_serve_names_no_socket() -> None:
    response = Client().get("/join/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "evil.example" not in response.get("Content-Security-Policy", "")
