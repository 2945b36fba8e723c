"""Snapclass settings, read from the environment with safe defaults.

The embedded default (no environment at all) is one process with SQLite in WAL mode and the
in-memory channel layer. Set DATABASE_URL and REDIS_URL to run several processes.
"""

from __future__ import annotations

import os
import secrets
from datetime import time
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from classroom.server.logs import error_reports_start, log_formatter_path
from classroom.sso.providers import (
    allowed_domains_parse,
    sign_in_apps_from_environment,
    sign_in_origins,
)
from classroom.web.client_address import trusted_proxies_parse

BASE_DIR = Path(__file__).resolve().parent.parent


def _env_flag(name: str, *, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def _env_time(name: str, *, default: str) -> time:
    raw = os.environ.get(name, default).strip()
    try:
        return time.fromisoformat(raw)
    except ValueError as error:
        message = f"{name}: {raw!r} is not a time of day such as {default}"
        raise ValueError(message) from error


def _env_choice(name: str, *, choices: tuple[str, ...]) -> str:
    value = os.environ.get(name, choices[0]).strip().lower()
    if value not in choices:
        message = f"{name}: {value!r} is not one of {', '.join(choices)}"
        raise ValueError(message)
    return value


def _dev_secret_key() -> str:
    """A key generated once per checkout into an ignored file, so sessions survive restarts."""
    key_file = BASE_DIR / ".secret_key"
    if not key_file.exists():
        key_file.write_text(secrets.token_urlsafe(50))
        key_file.chmod(0o600)
    return key_file.read_text().strip()


# Without SECRET_KEY in the environment the key is made per checkout (fine for one laptop);
# `check --deploy` warns (snapclass.W001, classroom/server/deploy_checks.py).
SECRET_KEY_GENERATED = not os.environ.get("SECRET_KEY")
SECRET_KEY = os.environ.get("SECRET_KEY") or _dev_secret_key()
DEBUG = _env_flag("DEBUG", default=False)
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]").split(",")
    if host.strip()
]
# Reverse proxies whose X-Forwarded-For header is believed (comma-separated IPs or networks);
# nobody by default, so a client cannot pick its own address (classroom/web/client_address.py).
TRUSTED_PROXIES = trusted_proxies_parse(os.environ.get("TRUSTED_PROXIES", ""))
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

INSTALLED_APPS = [
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "template_partials",
    "csp",
    # Django's Tasks framework (the backport) and its database backend: exports and other work
    # over a second run in `manage.py db_worker`, never in a request (classroom/tasks.py).
    "django_tasks",
    "django_tasks_db",
    "classroom",
    # Single sign-on (classroom/sso/): allauth's social part over OpenID Connect; its account
    # app is what the social one stands on, but none of its own pages is routed (classroom/urls.py).
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise (static files come precompressed) and before every middleware that
    # writes the body: pages gzip-compressed, but those with a sign-in secret (BREACH; see
    # classroom/web/compression.py).
    "classroom.web.compression.PageCompressionMiddleware",
    # After WhiteNoise: static files keep their long cache, every page gets no-store.
    "classroom.web.no_store.NoStoreMiddleware",
    # django-csp's, with ws:/wss: of the request's own host in connect-src (Safari 15).
    "classroom.web.socket_csp.SiteSocketsCSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # allauth's, which its sign-in flow needs (it keeps the request for its hooks).
    "allauth.account.middleware.AccountMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "classroom.urls"
ASGI_APPLICATION = "classroom.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                # The WebSocket close codes, for the pages' scripts (templates/base.html).
                "classroom.sockets.close_codes.close_codes",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}", conn_max_age=0
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers proceed during a write; IMMEDIATE takes the write lock at BEGIN so two
    # writers queue instead of failing with "database is locked" on lock upgrade.
    # CONN_MAX_AGE stays 0: kept connections make each join cheaper but the flips and the log
    # writer's commits slower under load (`tests/load/bench_capacity.py`, docs/benchmarks.md).
    # Only the threads in classroom.server.kept_connections keep theirs.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests use a file too: the live tables' log writer has a connection of its own, and an
    # in-memory shared-cache database locks whole tables between connections.
    # SNAPCLASS_TEST_DB lets two test runs on one checkout use separate files.
    DATABASES["default"]["TEST"] = {
        "NAME": os.environ.get("SNAPCLASS_TEST_DB", str(BASE_DIR / ".test-db.sqlite3"))
    }

REDIS_URL = os.environ.get("REDIS_URL", "")
# Keys of the table leases in Redis (games.live.leases); tests give each run its own.
LEASE_PREFIX = os.environ.get("SNAPCLASS_LEASE_PREFIX", "snapclass")
# SNAPCLASS_CHANNEL_LAYER=pubsub picks channels_redis' Pub/Sub layer (no per-message list
# keys, so less Redis work per frame); the default stays the list-based RedisChannelLayer.
# `make bench-capacity` measures both.
_CHANNEL_BACKENDS = {
    "core": "classroom.server.channel_layer.SteadyRedisChannelLayer",  # waits through outages
    "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
}
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": _CHANNEL_BACKENDS[os.environ.get("SNAPCLASS_CHANNEL_LAYER", "core")],
            "CONFIG": {
                "hosts": [REDIS_URL],
                "prefix": os.environ.get("SNAPCLASS_CHANNEL_PREFIX", "asgi"),
                # A process's own channel carries every input forwarded to the tables it hosts;
                # the default of 100 queued messages overflowed (ChannelFull) at 300 students in
                # `make bench-capacity`.
                "capacity": 1000,
            },
        }
    }
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}
    }
else:
    # Channels' in-memory layer, sweeping expired messages once a second instead of on every
    # call (which walked every socket's channel: classroom/server/process_channel_layer.py).
    CHANNEL_LAYERS = {
        "default": {"BACKEND": "classroom.server.process_channel_layer.ProcessChannelLayer"}
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# GET /_diagnostics/ (loopback only) reports memory, file descriptors, tasks and live tables
# for the soak test and the capacity benchmark; off unless SNAPCLASS_DIAGNOSTICS=1.
SNAPCLASS_DIAGNOSTICS = _env_flag("SNAPCLASS_DIAGNOSTICS", default=False)

# Background tasks: the database backend by default, so the embedded set-up needs nothing more
# (`make run` starts `manage.py tasks_worker` beside Daphne; `make cluster` starts one too).
# SNAPCLASS_TASKS_BACKEND=immediate runs each task inside the request that enqueues it (tests).
_TASK_BACKENDS = {
    "database": "django_tasks_db.DatabaseBackend",
    "immediate": "django_tasks.backends.immediate.ImmediateBackend",
    "dummy": "django_tasks.backends.dummy.DummyBackend",
}
TASKS = {
    "default": {
        "BACKEND": _TASK_BACKENDS[os.environ.get("SNAPCLASS_TASKS_BACKEND", "database")],
        "QUEUES": ["default"],
    }
}
# Prepared downloads (classroom.services.exports) are files under here, one folder per teacher;
# outside the tracked tree (ignored by git), and never served as static or media files.
EXPORTS_ROOT = Path(os.environ.get("EXPORTS_ROOT", BASE_DIR / "media" / "exports"))

# django-ratelimit wants a cache shared by all processes; the embedded default is one
# process, where the local-memory cache is shared by everything that serves requests.
SILENCED_SYSTEM_CHECKS = [
    "django_ratelimit.E003",
    "django_ratelimit.W001",
    # SQLite ignores an index's INCLUDE columns (``Trial.Meta.indexes``): they are there for
    # PostgreSQL's index-only scans, and the index still serves SQLite by its key.
    "models.W040",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Single sign-on with the school's accounts (classroom/sso/providers.py, docs/sign-in.md): off
# unless SSO_PROVIDERS names a preset (google, microsoft, oidc). Only addresses of
# SSO_ALLOWED_DOMAINS sign in; such an address, vouched for by the provider, links to the teacher
# account that has it, or makes a new one. A teacher signed in this way meets the provider's own
# limits and lock-outs, not the log-in page's (classroom/web/rate_limits.py).
SSO_ALLOWED_DOMAINS = allowed_domains_parse(os.environ.get("SSO_ALLOWED_DOMAINS", ""))
_SIGN_IN_APPS = sign_in_apps_from_environment(os.environ)
SOCIALACCOUNT_PROVIDERS = {"openid_connect": {"APPS": _SIGN_IN_APPS, "OAUTH_PKCE_ENABLED": True}}
SOCIALACCOUNT_ADAPTER = "classroom.sso.adapter.SchoolSignInAdapter"
ACCOUNT_ADAPTER = "classroom.sso.adapter.TeacherAccountAdapter"
# The provider has checked the address (or the sign-in is refused): no mail from here.
SOCIALACCOUNT_EMAIL_VERIFICATION = "none"
ACCOUNT_EMAIL_VERIFICATION = "none"
# Linking by e-mail is the adapter's (one account, a vouched-for address), not allauth's own,
# which would wipe the linked teacher's password.
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
# The provider's tokens are not kept: the site only needs to know who signed in.
SOCIALACCOUNT_STORE_TOKENS = False
# allauth's limits guard its own log-in and sign-up pages, which the site does not route.
ACCOUNT_RATE_LIMITS = False

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("zh-hant", _("Traditional Chinese"))]
LOCALE_PATHS = [BASE_DIR / "classroom" / "locale"]
# The school's time zone: every date and time on a page or in an export, and the end of the
# school day, are in it. UTC by default, which `check --deploy` warns about (snapclass.W003).
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "classroom.web.static_files.CompressedManifestStaticFilesStorage"},
}
if DEBUG:
    STORAGES["staticfiles"] = {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Consoles and projectors are drawn in a process of their own beside each serving process
# (classroom.pages.page_drawing), so their draws never hold up the flips; off, they are drawn
# on a thread of the serving process.
TEACHER_PAGES_DRAWN_APART = _env_flag("SNAPCLASS_DRAW_PAGES_APART", default=True)
# Seat tokens live in a cookie for this long; a school day with room to spare.
SEAT_COOKIE_MAX_AGE = 60 * 60 * 14
# WebSockets one client address may hold open in one process (classroom.sockets.limits). A
# school's NAT puts several classes behind one address: a tablet holds one socket (two for a
# moment while its page changes), a class's console and projector one each and a watch socket
# per table each where a game streams motion; eight classes of 32 need 784. One seat holds
# one lobby and one game socket at most (a newer one replaces the older), so one token cannot
# fill the cap.
SOCKETS_PER_ADDRESS = int(os.environ.get("SOCKETS_PER_ADDRESS", "1000"))
# GET /metrics (Prometheus) answers only with "Authorization: Bearer <this>"; unset: off (404).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
# Who may make a teacher account (classroom/views/accounts.py): "open" (anyone who reaches the
# site picks a username: the embedded default, for trying it), "invite" (only through a link a
# school admin made for one e-mail address) or "domain" (an address at one of SIGNUP_DOMAINS,
# once the link mailed there is followed). Open, `check --deploy` warns (snapclass.W004).
SIGNUP = _env_choice("SIGNUP", choices=("open", "invite", "domain"))
SIGNUP_DOMAINS = tuple(
    domain.strip().lower().removeprefix("@")
    for domain in os.environ.get("SIGNUP_DOMAINS", "").split(",")
    if domain.strip()
)
if SIGNUP == "domain" and not SIGNUP_DOMAINS:
    message = (
        "SIGNUP=domain: set SIGNUP_DOMAINS to the school's e-mail domains, e.g. school.example"
    )
    raise ValueError(message)
# An invitation link works once, for this long; a sign-up or password reset link for a day.
INVITATION_LIFETIME_DAYS = 7
SIGNUP_LINK_LIFETIME_S = 60 * 60 * 24
PASSWORD_RESET_TIMEOUT = 60 * 60 * 24
# Mail (invitations, sign-up links, password resets): over SMTP when EMAIL_HOST is set, else
# written to the console, where `make run` shows each link (the embedded default).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = _env_flag("EMAIL_USE_TLS", default=True)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "snapclass@localhost")
EMAIL_BACKEND = (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
# A mail server that stops answering holds a request this long at most.
EMAIL_TIMEOUT = 15
# When the school day ends, in TIME_ZONE: a new class's "until the end of the school day" for
# practice by code (each class then keeps its own).
SCHOOL_DAY_ENDS = _env_time("SCHOOL_DAY_ENDS", default="16:00")
# Teacher sign-ups one client address may try in an hour (classroom.web.rate_limits).
SIGNUPS_PER_ADDRESS_PER_HOUR = int(os.environ.get("SIGNUPS_PER_ADDRESS_PER_HOUR", "10"))
# A join code stops working this long after its session was created.
SESSION_CODE_LIFETIME_HOURS = 14
# Sessions over for more than this many days are deleted whole (seats, names, log, trials)
# by `manage.py trials_prune` (run it daily); unset keeps them for good.
_retention_days = os.environ.get("TRIAL_RETENTION_DAYS", "").strip()
TRIAL_RETENTION_DAYS = int(_retention_days) if _retention_days else None

# Behind HTTPS (production) these harden cookies and transport; plain HTTP on a classroom
# laptop keeps them off.
HTTPS = _env_flag("HTTPS", default=False)
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS
# The proxy checks health over plain HTTP on the private side (classroom/views/health.py).
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365 if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS
SECURE_HSTS_PRELOAD = HTTPS
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if HTTPS else None
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# No inline script, no inline style, nothing from elsewhere: an injected <script> or
# onclick="…" does not run. Behaviour lives in static/js, per-element CSS values in
# data-style (static/js/page_actions.js). connect-src also names ws:/wss: of the host each
# request came to (classroom/web/socket_csp.py): Safari before 16 does not count them as 'self'.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "manifest-src": ["'self'"],
        "worker-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        # And the sign-in providers: the sign-in button's form is redirected to them.
        "form-action": ["'self'", *sign_in_origins(_SIGN_IN_APPS)],
        "frame-ancestors": ["'none'"],
    }
}

# Every line: UTC time, level, logger, the request's or socket's id (classroom/server/logs.py);
# LOG_FORMAT=json writes one JSON object a line for a log collector.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"snapclass": {"()": log_formatter_path(LOG_FORMAT)}},
    # Badge URLs (/b/<token>/) are written with the token redacted (classroom/web/access_log.py).
    "filters": {
        "badge_tokens": {"()": "classroom.web.access_log.BadgeTokenFilter"},
        "log_id": {"()": "classroom.server.logs.LogIdFilter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "snapclass",
            "filters": ["log_id"],
        }
    },
    "loggers": {
        "django.request": {"filters": ["badge_tokens"]},
        "django.channels.server": {"filters": ["badge_tokens"]},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Errors to Sentry only when a DSN is set; without one sentry_sdk is not even imported.
SENTRY_DSN = os.environ.get("SENTRY_DSN", "")
error_reports_start(dsn=SENTRY_DSN)
