"""What a sign-in provider says about the person: their e-mail address, whether the provider
vouches for it, and whether it is one of the school's."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping


def provider_claims(extra_data: Mapping[str, Any]) -> dict[str, Any]:
    """The ID token's claims, overlaid by the userinfo answer's where allauth fetched one."""
    claims: dict[str, Any] = {}
    for part in ("id_token", "userinfo"):
        value = extra_data.get(part)
        if isinstance(value, dict):
            claims.update(value)
    return claims


def _true(value: object) -> bool:
    # Some providers send booleans as strings ("true").
    return value is True or (isinstance(value, str) and value.strip().lower() == "true")


def email_vouched(*, claims: Mapping[str, Any], verified_claims: list[str]) -> bool:
    """True when one of the provider's vouching claims (email_verified, Entra's xms_edov) is
    true in its ID token or userinfo."""
    return any(_true(claims.get(name)) for name in verified_claims)


def email_domain_allowed(*, email: str, domains: list[str]) -> bool:
    """True for an address whose domain is exactly one of ``domains`` (no subdomains: a school
    lists each one it uses)."""
    local, at, domain = email.strip().lower().rpartition("@")
    return bool(local and at and domain in domains)
