"""The test provider's settings; OIDC_PROVIDER_DB and OIDC_PROVIDER_KEY (a PEM RSA key) come
from the test, OIDC_PROVIDER_UNVERIFIED names the users whose address it does not vouch for."""

from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent

SECRET_KEY = "oidc-provider-test-" + "k" * 50
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tests.e2e.oidc_provider.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [HERE / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ["OIDC_PROVIDER_DB"]}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
LOGIN_URL = "/login/"
# Cookies are per host, not per port: the provider's must not replace the site's on 127.0.0.1.
SESSION_COOKIE_NAME = "provider_session"
CSRF_COOKIE_NAME = "provider_csrf"

OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": Path(os.environ["OIDC_PROVIDER_KEY"]).read_text(),
    "SCOPES": {"openid": "OpenID Connect", "profile": "Profile", "email": "E-mail address"},
    "OAUTH2_VALIDATOR_CLASS": "tests.e2e.oidc_provider.validator.SchoolValidator",
    "PKCE_REQUIRED": True,
}
UNVERIFIED_USERS = {
    name for name in os.environ.get("OIDC_PROVIDER_UNVERIFIED", "").split(",") if name
}
