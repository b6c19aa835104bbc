"""Settings read from the environment (12-factor).

With nothing set, the project runs embedded: a SQLite file in the project folder, a cache in
files that every process shares (``var/cache-embedded/``, or ``CACHE_DIR``) and Celery tasks
executed eagerly in-process. ``DATABASE_URL`` switches to
PostgreSQL, ``REDIS_URL`` makes Redis the cache and the Celery broker.
"""

from __future__ import annotations

import os
from pathlib import Path

from csp.constants import NONCE, NONE, SELF
from django.utils.translation import gettext_lazy as _

from config.env import (
    database_config,
    database_identity,
    env_bool,
    env_list,
)

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    # Only good enough for the embedded demo and tests; production must set SECRET_KEY.
    "insecure-embedded-default-key-set-SECRET_KEY-in-production-9f3a7c1e5b"
)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "tournament.apps.AdminConfig",  # django.contrib.admin, its site for superusers only
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "csp",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "auditlog",
    "tournament",
    "referee",
    "scoring",
    # The rooms built on the standings; none imports another (import-linter).
    "public",
    "desk",
    "printing",
    "exchange",
    "demo",
    "laptop",
]

#: What follows a changed result (counted, confirmed, disputed, amended, reopened, entered
#: from paper), in this order, once it is committed, in the request that changed it (README
#: "Flows: a result"). Each step is a function taking one ``referee.changes.ResultChange``
#: (the game, the kind of change, the tournament read with it); one that fails is logged
#: and the next one runs.
RESULT_STEPS = [
    # The game's state gets a new version (its ETag) before anything is built from it.
    "referee.receivers.new_version",
    # The public tables' answers are built anew.
    "scoring.receivers.forget_tables",
    # The standings are recomputed now (queued for the worker if that fails); their cache
    # follows.
    "scoring.standings.trigger.on_result",
    # On the event laptop only: a confirmed result is copied off before the banker reads
    # "confirmed" (README "Backups after a confirmed result").
    "laptop.receivers.backup_after_result",
]

MIDDLEWARE = [
    "config.compression.NotModifiedMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # A console's follow poll naming its table's current ETag: 304 before the session, the
    # user and any query (issue 29: up to 167 a second in a full hall).
    "referee.follow.FollowMiddleware",
    "config.compression.CompressionMiddleware",
    # The live pages' polls (version document, cards, fragments: hundreds a second in a full
    # hall), answered before the session: nothing in them depends on who asks.
    "public.early.LivePollsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.AuditlogMiddleware",
    "tournament.audit.AuditContextMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.middleware.DomainErrorMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

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
                "tournament.context_processors.staff_nav",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
DATABASES = {"default": database_config(DATABASE_URL, sqlite_path=str(BASE_DIR / "db.sqlite3"))}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and Celery -------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.ResilientRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "mcs"),
            "TIMEOUT": 300,
            # A hung Redis must not hang the pages: give up fast and serve from the database.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", REDIS_URL)
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", REDIS_URL)
    CELERY_TASK_ALWAYS_EAGER = False
else:
    # Without Redis every process of the server (gunicorn's workers, the demo's scheduler) shares
    # one cache in files, as on the laptop: a login limit counted per process lets a guesser
    # through, and a change made in one process leaves the other serving its own cached pages.
    # One folder per database, so two databases never read each other's cached pages.
    CACHES = {
        "default": {
            "BACKEND": "config.filecache.EmbeddedFileBasedCache",
            "LOCATION": os.environ.get("CACHE_DIR") or str(
                BASE_DIR / "var" / "cache-embedded" / database_identity(DATABASES["default"])
            ),
            "TIMEOUT": 300,
            "OPTIONS": {"MAX_ENTRIES": 20_000},
        }
    }
    CELERY_BROKER_URL = "memory://localhost/"
    CELERY_RESULT_BACKEND = "cache+memory://"
    # Embedded default: no broker, tasks run in-process when queued.
    CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
# Tests run their worker on a queue of their own, so a demo worker never steals their tasks.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
CELERY_TASK_ACKS_LATE = True
# After a broker connection loss the unacknowledged tasks are redelivered; every task is
# idempotent, and stopping the running copies avoids running them twice at once.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = "Europe/Berlin"
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 3,
    "socket_timeout": 5,
    # Timers wait up to 90 minutes (eta); a shorter visibility timeout would redeliver them.
    "visibility_timeout": 3 * 3600,
}
DEADLINE_SWEEP_SECONDS = float(os.environ.get("DEADLINE_SWEEP_SECONDS", "10"))
CELERY_BEAT_SCHEDULE: dict = {
    "sweep-deadlines": {
        "task": "referee.sweep_deadlines",
        "schedule": DEADLINE_SWEEP_SECONDS,
    },
    "refresh-standings": {
        "task": "scoring.refresh_running_standings",
        "schedule": float(os.environ.get("STANDINGS_SWEEP_SECONDS", "15")),
    },
    # Sign-ups: unconfirmed ones expire after 48 h, reminders the day before, unsent mails again.
    "signup-sweep": {
        "task": "tournament.signup_sweep",
        "schedule": float(os.environ.get("SIGNUP_SWEEP_SECONDS", "300")),
    },
    # Players' data: tournaments past their retention period are anonymized (DSGVO).
    "anonymize-expired": {
        "task": "tournament.anonymize_expired",
        "schedule": float(os.environ.get("RETENTION_SWEEP_SECONDS", "3600")),
    },
}

# --- Auth -------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "start"  # each role lands where it works (tournament.access.landing)
LOGOUT_REDIRECT_URL = "home"

# --- Internationalisation ----------------------------------------------------------------
LANGUAGE_CODE = "de"
LANGUAGES = [("de", _("German")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# One date style per language (config/formats/<lang>/formats.py), not Django's US mix in English.
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = "Europe/Berlin"
USE_TZ = True

# --- Static files (WhiteNoise, no build step) ---------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
# WhiteNoise warns on every start while collectstatic has not run yet; an empty folder is fine.
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if not DEBUG and env_bool("MANIFEST_STATIC", False)
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}
# --- E-mail (the sign-up's confirmations) ----------------------------------------------------
# With EMAIL_HOST: SMTP (production). Without: every message is a file in EMAIL_FILE_PATH
# (var/mail/), so the embedded default and the laptop need no mail server.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not env_bool("EMAIL_USE_SSL", False))
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = 20
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(BASE_DIR / "var" / "mail"))
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
    else "django.core.mail.backends.filebased.EmailBackend",
)
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Monopoly-Turnier <turnier@localhost>")

# Absolute address printed in QR codes and links on paper (empty: the request's own host).
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "")
MEDIA_ROOT = BASE_DIR / "media"
MEDIA_URL = "media/"

# --- REST API ---------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    # DRF's parsers, refusing NUL characters and lone surrogates with a 400 (config.inputs).
    "DEFAULT_PARSER_CLASSES": [
        "config.parsers.JSONParser",
        "config.parsers.FormParser",
        "config.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "config.errors.api_exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Monopoly Championship API",
    "DESCRIPTION": "Tournament manager, banker's referee console and public leaderboard.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Self-hosted Swagger UI: the venue's Wi-Fi may have no internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournament.models.Tournament.Status",
        "RoundStatusEnum": "tournament.models.Round.Status",
    },
}

# --- Security (production hardening when DEBUG is off behind TLS) ------------------------
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", False)
# Django's database sessions, their read compiled once (``config.sessions``, issue 29).
SESSION_ENGINE = "config.sessions"
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "0"))
SECURE_CONTENT_TYPE_NOSNIFF = True
# How many proxies of ours stand in front of the application and append to X-Forwarded-For:
# rate limits and the audit log take the client's address from the entry that many places from
# the right (config.clients). 0 (default): no proxy, REMOTE_ADDR. TRUST_X_FORWARDED_FOR=1 is
# the older spelling of one proxy.
TRUST_X_FORWARDED_FOR = env_bool("TRUST_X_FORWARDED_FOR", False)
TRUSTED_PROXY_COUNT = int(
    os.environ.get("TRUSTED_PROXY_COUNT", "1" if TRUST_X_FORWARDED_FOR else "0")
)
X_FRAME_OPTIONS = "DENY"

# A strict Content-Security-Policy on every answer (django-csp): scripts and styles only from
# our own static files (scripts also inline with the response's nonce, ``request.csp_nonce``;
# styles never inline: no template has a style element, tests/config/test_frontend_rules.py).
# No inline event handlers, no style attributes, no eval (htmx runs with allowEval off, see
# base.html). img-src allows data: for Swagger UI's icons; connect-src 'self'
# for htmx and the console's fetch; worker-src 'self' for the console's service worker.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
