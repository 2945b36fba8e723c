"""Registers the site as the provider's application and makes its users:
``python -m tests.e2e.oidc_provider.seed CLIENT_ID SECRET REDIRECT_URI USER:PASSWORD:EMAIL…``
(with the provider's settings module in DJANGO_SETTINGS_MODULE)."""

from __future__ import annotations

import sys

import django


def main(client_id: str, secret: str, redirect_uri: str, users: list[str]) -> None:
    django.setup()
    from django.contrib.auth.models import User
    from oauth2_provider.models import Application

    Application.objects.create(
        name="Snapclass",
        client_id=client_id,
        client_secret=secret,
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=redirect_uri,
        algorithm=Application.RS256_ALGORITHM,
        skip_authorization=True,
    )
    for line in users:
        username, password, email = line.split(":")
        User.objects.create_user(username=username, password=password, email=email)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:])
