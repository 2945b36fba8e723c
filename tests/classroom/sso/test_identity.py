"""What counts as a vouched-for address of the school's."""

from __future__ import annotations

import pytest

from classroom.sso.identity import email_domain_allowed, email_vouched, provider_claims


def test_userinfo_overlays_the_id_token() -> None:
    extra = {
        "id_token": {"sub": "1", "email": "old@school.edu", "xms_edov": True},
        "userinfo": {"email": "new@school.edu"},
    }
    assert provider_claims(extra) == {"sub": "1", "email": "new@school.edu", "xms_edov": True}
    assert provider_claims({"id_token": "not a dict"}) == {}


@pytest.mark.parametrize(
    ("claims", "vouched"),
    [
        ({"email_verified": True}, True),
        ({"email_verified": "true"}, True),
        ({"email_verified": False}, False),
        ({"email_verified": "false"}, False),
        ({"email_verified": 1}, False),
        ({}, False),
        ({"xms_edov": True}, True),
    ],
)
def test_only_a_true_vouching_claim_vouches(claims: dict[str, object], vouched: bool) -> None:
    assert email_vouched(claims=claims, verified_claims=["email_verified", "xms_edov"]) is vouched


def test_xms_edov_vouches_only_where_the_preset_reads_it() -> None:
    assert not email_vouched(claims={"xms_edov": True}, verified_claims=["email_verified"])


@pytest.mark.parametrize(
    ("email", "allowed"),
    [
        ("ann@school.edu", True),
        ("Ann@School.EDU ", True),
        ("ann@staff.school.edu", True),
        ("ann@mail.school.edu", False),
        ("ann@school.edu.evil.example", False),
        ("ann@evilschool.edu", False),
        ("school.edu", False),
        ("@school.edu", False),
        ("ann@other.example", False),
    ],
)
def test_only_the_listed_domains_are_allowed(email: str, allowed: bool) -> None:
    domains = ["school.edu", "staff.school.edu"]
    assert email_domain_allowed(email=email, domains=domains) is allowed
