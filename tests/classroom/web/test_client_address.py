"""The client's address: X-Forwarded-For only from a trusted proxy, right-most untrusted hop."""

from __future__ import annotations

import pytest
from django.test import RequestFactory, override_settings

from classroom.web.client_address import (
    client_address_from_request,
    client_address_from_scope,
    trusted_proxies_parse,
)


def _request(peer: str, forwarded: str | None = None) -> object:
    extra = {"REMOTE_ADDR": peer}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **extra)


def _scope(peer: str | None, *forwarded: str) -> dict[str, object]:
    headers = [(b"x-forwarded-for", value.encode()) for value in forwarded]
    return {"client": [peer, 51000] if peer else None, "headers": headers}


@override_settings(TRUSTED_PROXIES=[])
def test_without_trusted_proxies_the_header_is_ignored() -> None:
    # Anyone may write the header: a client must not choose its own address.
    assert client_address_from_request(_request("203.0.113.9", "10.0.0.7")) == "203.0.113.9"
    assert client_address_from_scope(_scope("203.0.113.9", "10.0.0.7")) == "203.0.113.9"


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_from_a_trusted_proxy_the_forwarded_address_counts() -> None:
    assert client_address_from_request(_request("127.0.0.1", "10.0.0.7")) == "10.0.0.7"
    assert client_address_from_scope(_scope("127.0.0.1", "10.0.0.7")) == "10.0.0.7"


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_a_header_from_an_untrusted_peer_is_ignored() -> None:
    assert client_address_from_request(_request("10.0.0.8", "10.0.0.7")) == "10.0.0.8"


@override_settings(TRUSTED_PROXIES=["127.0.0.1", "192.168.5.0/24"])
def test_the_right_most_untrusted_hop_wins_over_what_the_client_wrote() -> None:
    # The client wrote "1.2.3.4" itself; the outer proxy saw 10.0.0.7; the inner one is trusted.
    header = "1.2.3.4, 10.0.0.7, 192.168.5.3"
    assert client_address_from_request(_request("127.0.0.1", header)) == "10.0.0.7"
    # Several header lines on a socket are one list.
    scope = _scope("127.0.0.1", "1.2.3.4, 10.0.0.7", "192.168.5.3")
    assert client_address_from_scope(scope) == "10.0.0.7"


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_a_trusted_proxy_without_a_header_is_the_client() -> None:
    assert client_address_from_request(_request("127.0.0.1")) == "127.0.0.1"
    assert client_address_from_scope(_scope("127.0.0.1")) == "127.0.0.1"


@override_settings(TRUSTED_PROXIES=["127.0.0.1"])
def test_a_garbled_hop_falls_back_to_the_peer() -> None:
    assert client_address_from_request(_request("127.0.0.1", "not-an-ip")) == "127.0.0.1"


@override_settings(TRUSTED_PROXIES=["::1"])
def test_ipv6_proxies_and_clients() -> None:
    assert client_address_from_scope(_scope("::1", "2001:db8::5")) == "2001:db8::5"


def test_a_socket_without_a_peer_is_unknown() -> None:
    assert client_address_from_scope(_scope(None)) == "unknown"


def test_the_setting_is_parsed_strictly() -> None:
    assert trusted_proxies_parse(" 127.0.0.1, 10.0.0.0/8 ,") == ["127.0.0.1", "10.0.0.0/8"]
    assert trusted_proxies_parse("") == []
    with pytest.raises(ValueError, match="'localhost' is not an IP address"):
        trusted_proxies_parse("127.0.0.1,localhost")
