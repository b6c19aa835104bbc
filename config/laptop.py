"""Settings for a real event on one laptop (``make serve``): the embedded default made durable.

Everything lives in one data folder (``LAPTOP_DATA_DIR``, default ``var/`` in the project):
the SQLite database in WAL mode, the secret key (generated once, mode 600), the shared cache
of the web processes and the scheduler, and the TLS files when HTTPS is on. Nothing has to be
typed by hand; ``DATABASE_URL`` and ``REDIS_URL`` are ignored here (that is the production
set-up, see README).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from config.env import env_bool, env_list
from config.lan import LiveHostNames
from config.settings import *  # noqa: F403
from config.settings import BASE_DIR

DATA_DIR = Path(os.environ.get("LAPTOP_DATA_DIR") or BASE_DIR / "var").resolve()
DATA_DIR.mkdir(mode=0o700, parents=True, exist_ok=True)
DATABASE_FILE = DATA_DIR / "championship.sqlite3"
SECRET_KEY_FILE = DATA_DIR / "secret_key"


def _secret_key(path: Path) -> str:
    """The key made on the first start and kept beside the database (mode 600): sessions and
    one-time links stay valid across restarts, and nobody has to invent one."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process of the same start won the race
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key + "\n")
    return key


SECRET_KEY = _secret_key(SECRET_KEY_FILE)
DEBUG = env_bool("DEBUG", False)  # laptop.serve refuses to start when this is on

DATABASES = {
    "default": {
        # SQLite whose writers queue fairly (config/sqlite_queue): bursts of bankers.
        "ENGINE": "config.sqlite_queue",
        "NAME": str(DATABASE_FILE),
        "OPTIONS": {
            # Readers never wait for the writer; a writer waits (up to 20 s) for another one.
            "init_command": "PRAGMA journal_mode=WAL;",
            "timeout": 20,
            "transaction_mode": "IMMEDIATE",
        },
    }
}

# Several web processes and the scheduler share one cache: a deadline recorded by the scheduler
# or a standings refresh must invalidate what every web process serves.
CACHES = {
    "default": {
        "BACKEND": "config.filecache.EmbeddedFileBasedCache",
        "LOCATION": str(DATA_DIR / "cache"),
        "TIMEOUT": 300,
        "OPTIONS": {"MAX_ENTRIES": 20_000},
    }
}
CELERY_BROKER_URL = "memory://localhost/"
CELERY_RESULT_BACKEND = "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = True
# The sign-up's mails as files beside the database, unless a mail server is configured.
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(DATA_DIR / "mail"))

# The hall's addresses change (another router, DHCP): the allowed host names follow them.
LAPTOP_HTTPS = env_bool("LAPTOP_HTTPS", False)
LAPTOP_PORT = int(os.environ.get("LAPTOP_PORT", "8000"))
LAPTOP_CA_PORT = int(os.environ.get("LAPTOP_CA_PORT", str(LAPTOP_PORT + 1)))


ALLOWED_HOSTS = LiveHostNames(env_list("ALLOWED_HOSTS", []))
SESSION_COOKIE_SECURE = LAPTOP_HTTPS
CSRF_COOKIE_SECURE = LAPTOP_HTTPS
SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
# No proxy in front: the client's own address is the real one.
TRUST_X_FORWARDED_FOR = False
TRUSTED_PROXY_COUNT = 0  # the laptop serves the hall itself
SECURE_PROXY_SSL_HEADER = None

# The scheduler (laptop.scheduler) checks deadlines every second: recorded within ~1 s.
DEADLINE_SWEEP_SECONDS = float(os.environ.get("DEADLINE_SWEEP_SECONDS", "1"))
STANDINGS_SWEEP_SECONDS = float(os.environ.get("STANDINGS_SWEEP_SECONDS", "15"))
LAPTOP_BACKUP_DIR = Path(os.environ.get("LAPTOP_BACKUP_DIR") or DATA_DIR / "backups").resolve()
LAPTOP_BACKUP_KEEP = int(os.environ.get("LAPTOP_BACKUP_KEEP", "30"))
LAPTOP_BACKUP_MINUTES = float(os.environ.get("LAPTOP_BACKUP_MINUTES", "5"))
# The backup folder's device when `serve` made/checked it (set by serve for its web processes):
# a copy goes only there, never into a folder re-created on the laptop's own disk.
LAPTOP_BACKUP_DEVICE = (int(os.environ["LAPTOP_BACKUP_DEVICE"])
                        if os.environ.get("LAPTOP_BACKUP_DEVICE") else None)
# The scheduler looks at the backup folder every few seconds (a pulled stick shows before the
# next result) and, while copies fail, tries again every 30 s.
LAPTOP_BACKUP_CHECK_SECONDS = float(os.environ.get("LAPTOP_BACKUP_CHECK_SECONDS", "3"))
LAPTOP_BACKUP_RETRY_SECONDS = float(os.environ.get("LAPTOP_BACKUP_RETRY_SECONDS", "30"))
# Staff pages show a failing backup (laptop.context); /healthz names it (laptop.health).
_options = TEMPLATES[0]["OPTIONS"]  # noqa: F405
TEMPLATES = [{**TEMPLATES[0], "OPTIONS": {  # noqa: F405
    **_options, "context_processors": [*_options["context_processors"], "laptop.context.backup"]}}]
HEALTH_EXTRA_CHECKS = ["laptop.health.backup"]

LOGGING = {**LOGGING, "loggers": {"laptop": {"level": "INFO"}}}  # noqa: F405
