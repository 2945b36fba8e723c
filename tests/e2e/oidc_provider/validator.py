"""The claims the test provider puts in its ID tokens and userinfo answers."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from oauth2_provider.oauth2_validators import OAuth2Validator


class SchoolValidator(OAuth2Validator):  # type: ignore[misc]
    def get_additional_claims(self, request: Any) -> dict[str, Any]:
        user = request.user
        return {
            "email": user.email,
            "email_verified": user.username not in settings.UNVERIFIED_USERS,
            "preferred_username": user.username,
            "name": user.get_full_name() or user.username,
        }
