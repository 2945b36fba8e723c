"""The address of the client behind a request or a socket, for rate limits and caps.

Behind a reverse proxy every connection comes from the proxy, so one client's misses would
count for the whole school. The proxy's ``X-Forwarded-For`` is believed only when the
connection itself comes from a proxy listed in ``settings.TRUSTED_PROXIES``: anyone else could
write any address into that header. The client is the right-most address of the header that is
not itself a trusted proxy (each proxy appends the address it saw; the left part is whatever
the client sent).
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from django.conf import settings

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from django.http import HttpRequest

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# What a request with no peer address at all (a test client, a Unix socket) counts as.
UNKNOWN = "unknown"


@lru_cache(maxsize=8)
def _networks(spec: tuple[str, ...]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in spec)


def trusted_proxies_parse(raw: str) -> list[str]:
    """The comma-separated ``TRUSTED_PROXIES`` setting as a list; a bad entry raises
    ``ValueError`` naming it, so a typo fails at start-up instead of trusting nobody."""
    items = [item.strip() for item in raw.split(",") if item.strip()]
    for item in items:
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError as error:
            message = f"TRUSTED_PROXIES: {item!r} is not an IP address or network"
            raise ValueError(message) from error
    return items


def _is_trusted(address: str, networks: Iterable[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(*, peer: str, forwarded_for: str) -> str:
    """The client's address given the connection's peer and its X-Forwarded-For header."""
    networks = _networks(tuple(getattr(settings, "TRUSTED_PROXIES", ())))
    if not peer:
        return UNKNOWN
    if not networks or not _is_trusted(peer, networks):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, networks):
            try:
                return str(ipaddress.ip_address(hop))
            except ValueError:
                # A garbled hop from the proxy's own view: the proxy is the best we know.
                return peer
    # Every hop is a trusted proxy (or there is no header): the request began inside.
    return hops[0] if hops else peer


def client_address_from_request(request: HttpRequest) -> str:
    return client_address(
        peer=request.META.get("REMOTE_ADDR") or "",
        forwarded_for=request.META.get("HTTP_X_FORWARDED_FOR", ""),
    )


def client_address_from_scope(scope: Mapping[str, Any]) -> str:
    client = scope.get("client")
    peer = str(client[0]) if client else ""
    forwarded = ",".join(
        value.decode("latin-1")
        for name, value in scope.get("headers", [])
        if name.lower() == b"x-forwarded-for"
    )
    return client_address(peer=peer, forwarded_for=forwarded)
