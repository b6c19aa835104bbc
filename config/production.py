"""Production settings: the environment-driven settings with the security flags turned on.

    DJANGO_SETTINGS_MODULE=config.production SECRET_KEY=… ALLOWED_HOSTS=meisterschaft.example.org \
        python manage.py check --deploy

Behind a TLS-terminating proxy that sets X-Forwarded-Proto (see README). Each flag can still be
relaxed by its environment variable for a one-off (e.g. SECURE_SSL_REDIRECT=0 on a LAN box).
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool
from config.settings import *  # noqa: F403
from config.settings import SECRET_KEY

if env_bool("DEBUG", False):
    raise ImproperlyConfigured("config.production refuses DEBUG=1: it shows tracebacks to anyone")
DEBUG = False
if (
    not os.environ.get("SECRET_KEY")
    or SECRET_KEY.startswith(("insecure-", "django-insecure"))
    or len(SECRET_KEY) < 50
    or len(set(SECRET_KEY)) < 5
):
    raise ImproperlyConfigured(
        "config.production needs SECRET_KEY: a random string of 50 characters or more, e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )

SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(60 * 60 * 24 * 365)))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Submitting the domain to the browsers' preload list is a deliberate, hard-to-undo step.
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
