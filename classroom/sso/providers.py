"""The sign-in providers a school turns on, read from the environment into allauth's settings.

SSO_PROVIDERS names the presets (comma-separated): ``google`` (Google Workspace), ``microsoft``
(Microsoft Entra ID, one tenant) and ``oidc`` (any other OpenID Connect provider). Each takes
its client id and secret from SSO_<PRESET>_CLIENT_ID and SSO_<PRESET>_CLIENT_SECRET; Entra
also needs SSO_MICROSOFT_TENANT, the generic one SSO_OIDC_SERVER_URL (and a button name in
SSO_OIDC_NAME). Unset, nothing is on and the log-in page shows no sign-in button. Every preset
needs SSO_ALLOWED_DOMAINS: only e-mail addresses of those domains may sign in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from collections.abc import Mapping

PRESETS = ("google", "microsoft", "oidc")

# The claims that, when true, mean the provider vouches for the e-mail address. Entra's ID
# tokens carry no email_verified: its optional claim xms_edov says the address's domain is one
# the tenant has verified (docs/sign-in.md has the school add it).
VERIFIED_CLAIMS = {
    "google": ["email_verified"],
    "microsoft": ["email_verified", "xms_edov"],
    "oidc": ["email_verified"],
}


@dataclass(frozen=True)
class SignInButton:
    """One button on the log-in page: allauth's provider id and the name a teacher sees
    (empty for a generic provider the school gave no name: the button then says "your school
    account")."""

    provider_id: str
    name: str


def _required(environ: Mapping[str, str], name: str) -> str:
    value = environ.get(name, "").strip()
    if not value:
        message = f"{name} is needed by the sign-in provider named in SSO_PROVIDERS"
        raise ValueError(message)
    return value


def allowed_domains_parse(raw: str) -> list[str]:
    """``"school.edu, @staff.school.edu"`` → ``["school.edu", "staff.school.edu"]``."""
    return [domain.strip().lstrip("@").lower() for domain in raw.split(",") if domain.strip(" @")]


def _preset_app(preset: str, environ: Mapping[str, str], domains: list[str]) -> dict[str, Any]:
    prefix = f"SSO_{preset.upper()}_"
    settings: dict[str, Any] = {
        "oauth_pkce_enabled": True,
        "verified_claims": VERIFIED_CLAIMS[preset],
    }
    if preset == "google":
        name = "Google"
        settings["server_url"] = "https://accounts.google.com"
        # The account chooser every time (shared classroom laptops); with one school domain,
        # only that domain's accounts are offered.
        settings["auth_params"] = {"prompt": "select_account"}
        if len(domains) == 1:
            settings["auth_params"]["hd"] = domains[0]
    elif preset == "microsoft":
        name = "Microsoft"
        tenant = _required(environ, prefix + "TENANT")
        settings["server_url"] = f"https://login.microsoftonline.com/{tenant}/v2.0"
        settings["auth_params"] = {"prompt": "select_account"}
        # The ID token carries the optional claims (email, xms_edov); Entra's userinfo does not.
        settings["fetch_userinfo"] = False
    else:
        name = environ.get(prefix + "NAME", "").strip()
        settings["server_url"] = _required(environ, prefix + "SERVER_URL")
    return {
        "provider_id": preset,
        "name": name or "OpenID Connect",
        "client_id": _required(environ, prefix + "CLIENT_ID"),
        "secret": _required(environ, prefix + "CLIENT_SECRET"),
        "settings": settings,
    }


def sign_in_apps_from_environment(environ: Mapping[str, str]) -> list[dict[str, Any]]:
    """allauth's ``openid_connect`` APPS for the presets SSO_PROVIDERS names; [] when unset.

    A name that is no preset, a missing client id, secret, tenant or server, or no allowed
    domain stops the site at start with the setting's name, like the other settings."""
    names = [name.strip().lower() for name in environ.get("SSO_PROVIDERS", "").split(",")]
    names = [name for name in names if name]
    if not names:
        return []
    unknown = [name for name in names if name not in PRESETS]
    if unknown:
        message = f"SSO_PROVIDERS: {', '.join(unknown)} is not one of {', '.join(PRESETS)}"
        raise ValueError(message)
    domains = allowed_domains_parse(environ.get("SSO_ALLOWED_DOMAINS", ""))
    if not domains:
        message = "SSO_ALLOWED_DOMAINS is needed with SSO_PROVIDERS: the school's e-mail domains"
        raise ValueError(message)
    return [_preset_app(name, environ, domains) for name in dict.fromkeys(names)]


def sign_in_buttons(apps: list[dict[str, Any]]) -> list[SignInButton]:
    return [
        SignInButton(
            provider_id=app["provider_id"],
            name="" if app["name"] == "OpenID Connect" else app["name"],
        )
        for app in apps
    ]


def sign_in_origins(apps: list[dict[str, Any]]) -> list[str]:
    """The providers' origins (scheme, host and port of each server URL), for the
    Content-Security-Policy's form-action: a browser checks a form's redirects against it too,
    and the sign-in button's form is redirected to the provider."""
    origins = []
    for app in apps:
        parts = urlsplit(app["settings"]["server_url"])
        origins.append(f"{parts.scheme}://{parts.netloc}")
    return list(dict.fromkeys(origins))
