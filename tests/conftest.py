"""Shared fixtures. Services a test needs are real; in CI (CI=true) a missing one fails the test."""

from __future__ import annotations

import copy
import os
import subprocess
import sys
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings
from django.conf import settings as django_settings
from django.test import override_settings
from hypothesis import settings as hypothesis_settings
from require import missing as _missing

ROOT = Path(__file__).resolve().parent.parent

# No time limit per generated example: hypothesis's default (200 ms) makes a property test a
# timed test, failed by a busy machine, not by the code (seen: a five-integer NetWorth example
# "too slow" once in a full run on two cores). Speed is the benchmarks' business.
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Longest first: under pytest-xdist each test is a work unit handed out in collection
    order, and a one-minute test picked up last keeps the run waiting while the other workers
    idle. Tests marked ``slow`` go first, then the browser tests, then the rest (stable).

    Every test id must be unique: pytest-xdist hands out work by id, and of tests sharing one
    it runs a single one without a word (schemathesis names an operation's test only when the
    test is also parametrized)."""
    twice = sorted(nodeid for nodeid, n in Counter(item.nodeid for item in items).items() if n > 1)
    if twice:
        raise pytest.UsageError(f"{len(twice)} test id(s) collected twice, e.g. {twice[0]}")

    def rank(item: pytest.Item) -> int:
        if item.get_closest_marker("slow"):
            return 0
        return 1 if item.get_closest_marker("e2e") else 2

    items.sort(key=rank)


def _uses_postgres() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


@pytest.fixture(autouse=True)
def _service_markers(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("postgres") and not _uses_postgres():
        _missing("needs PostgreSQL: set DATABASE_URL=postgres://…")
    if request.node.get_closest_marker("redis") and not settings.REDIS_URL:
        _missing("needs Redis: set REDIS_URL=redis://…")
    if request.node.get_closest_marker("celery_worker") and not settings.REDIS_URL:
        _missing("needs a Celery worker against Redis: set REDIS_URL=redis://…")


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher():
    """PBKDF2's deliberate slowness buys nothing in tests (every UserFactory user is hashed):
    MD5 first, the real hashers still listed so that a hash made by them checks too."""
    hashers = ["django.contrib.auth.hashers.MD5PasswordHasher", *django_settings.PASSWORD_HASHERS]
    with override_settings(PASSWORD_HASHERS=hashers):
        yield


#: The settings WhiteNoise's table of static files follows from (whitenoise/middleware.py).
WHITENOISE_SETTINGS = ("WHITENOISE_", "STATIC", "STORAGES", "DEBUG", "FORCE_SCRIPT_NAME")


@pytest.fixture(autouse=True, scope="session")
def _static_files_read_once_per_content():
    """Every ``django.test.Client`` loads the middleware anew, and WhiteNoise's reads every file
    of STATIC_ROOT into a table of responses (~230 files once ``collectstatic`` has run: ~50 ms
    a client, 60 % of the role × route test's time). The table follows from the settings above
    and the files alone, so it is built once per (files with their size and mtime, WhiteNoise's
    options) and copied into each new middleware; a change of one of those settings
    (override_settings, the ``settings`` fixture) forgets every table, and a file added,
    removed or rewritten makes a new key. The responses themselves are built per request, as
    before."""
    from django.core.signals import setting_changed
    from whitenoise.base import WhiteNoise, scantree

    original = WhiteNoise.update_files_dictionary
    tables: dict = {}

    def options(self) -> tuple:
        return (type(self), self.max_age, self.allow_all_origins, self.charset, self.index_file,
                getattr(self, "static_prefix", None), self.add_headers_function)

    def update_files_dictionary(self, root, prefix):
        files = tuple(sorted((path, stat.st_mtime_ns, stat.st_size)
                             for path, stat in scantree(root)))
        key = (root, prefix, files, options(self))
        table = tables.get(key)
        if table is None:
            kept, self.files = self.files, {}
            try:
                original(self, root, prefix)
                table = tables[key] = self.files
            finally:
                self.files = kept
        self.files.update(table)

    def forget(*, setting: str, **kwargs) -> None:
        if setting.startswith(WHITENOISE_SETTINGS):
            tables.clear()

    setting_changed.connect(forget, weak=False)
    WhiteNoise.update_files_dictionary = update_files_dictionary
    yield
    WhiteNoise.update_files_dictionary = original
    setting_changed.disconnect(forget)


@pytest.fixture(scope="session")
def live_server(live_server):
    """pytest-django's live server; on SQLite it answers one request at a time (see
    ``browsing.ONE_AT_A_TIME``)."""
    if not _uses_postgres():
        from browsing import one_request_at_a_time

        server = live_server.thread.httpd
        server.set_app(one_request_at_a_time(server.get_app()))
    return live_server


@pytest.fixture
def organizer(client):
    """The test client as a global organizer (a superuser), for tests that make their
    tournaments after logging in; the scope of organizers: tests/tournament/test_access_routes.py."""
    from factories import OrganizerFactory

    client.force_login(OrganizerFactory(is_superuser=True))
    return client


@pytest.fixture
def english(client):
    """The test client asks for English pages (German is the default); a module that wants them
    throughout says ``pytest.mark.usefixtures("english")``."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture(autouse=True, scope="session")
def _cache_of_this_process():
    """Without Redis the project's cache is a folder of files shared by every process of one
    database (config/settings.py); the test processes (pytest-xdist's workers, each with a
    test database of its own) keep theirs in memory instead, so they never share entries."""
    if django_settings.REDIS_URL:
        yield
        return
    local = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                         "LOCATION": f"tests-{os.getpid()}"}}
    with override_settings(CACHES=local):
        yield


@pytest.fixture(autouse=True)
def _isolated_cache():
    """Each test sees an empty cache. On Redis a key prefix of its own does that: flushing
    the database would also wipe the Celery broker's queues that share it.

    (Plain override_settings, not the ``settings`` fixture: some tests parametrize a
    ``settings`` argument of their own.)"""
    from scoring import cache as public_bodies

    public_bodies.recent.clear()  # this process's recent bodies: keys of another test's cache
    if django_settings.REDIS_URL:
        caches = copy.deepcopy(django_settings.CACHES)
        caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex[:12]}"
        with override_settings(CACHES=caches):
            yield
    else:
        from django.core.cache import cache

        cache.clear()
        yield


@pytest.fixture(autouse=True)
def _fresh_engine_cache() -> None:
    """Rolled-back tests reuse primary keys; no test may see another test's cached engine."""
    from referee import engine_cache

    engine_cache.clear()


def set_celery_conf(**values) -> None:
    """Change the Celery app's configuration at run time. The app reads Django settings with
    the CELERY_ namespace, and Celery 5.6 answers the namespaced key first: a plain
    ``app.conf.task_always_eager = …`` would be ignored, so both spellings are set."""
    from config.celery import app

    for key, value in values.items():
        app.conf[key] = value
        app.conf[f"CELERY_{key.upper()}"] = value


@pytest.fixture(autouse=True)
def _celery_mode(request: pytest.FixtureRequest):
    """Tasks run in-process unless the test asked for the real worker (``celery_worker``)."""
    from config.celery import app

    eager = "celery_worker" not in request.fixturenames
    previous = app.conf.task_always_eager
    set_celery_conf(task_always_eager=eager)
    with override_settings(CELERY_TASK_ALWAYS_EAGER=eager):
        yield
    set_celery_conf(task_always_eager=previous)


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, django_db_blocker):  # noqa: ARG001 - ordering: test DB first
    """A real Celery worker process on the real Redis broker, on a queue of its own.

    The worker uses the test database, so tasks that touch the database see what a test with
    ``transactional_db`` committed.
    """
    if not settings.REDIS_URL:
        _missing("needs a Celery worker against Redis: set REDIS_URL=redis://…")
    if not _uses_postgres():
        # SQLite's test database lives in the test process's memory: a worker cannot see it.
        _missing("needs PostgreSQL for a worker to share the test database: "
                 "set DATABASE_URL=postgres://…")
    from django.db import connection

    from config.celery import app

    # Under pytest-xdist every worker (gw0, gw1, …) has its own test database and starts its own
    # Celery worker: a queue and a cache prefix of its own keep the two from taking each other's
    # tasks or reading each other's locks (same ids, different databases).
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    queue = f"test-{worker}-{uuid.uuid4().hex[:8]}"
    set_celery_conf(task_default_queue=queue)
    env = {**os.environ, "CELERY_QUEUE": queue, "CACHE_KEY_PREFIX": queue,
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    if _uses_postgres():
        db = connection.settings_dict
        env["DATABASE_URL"] = (
            f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or '127.0.0.1'}:"
            f"{db['PORT'] or 5432}/{db['NAME']}"
        )
    (ROOT / ".pytest_cache").mkdir(exist_ok=True)
    log = open(ROOT / ".pytest_cache" / f"celery-{queue}.log", "w")  # noqa: SIM115
    process = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
            "--loglevel=INFO", "-Q", queue, "-n", f"{queue}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"Celery worker exited with {process.returncode}; see {log.name}")
            replies = app.control.ping(destination=[f"{queue}@{os.uname().nodename}"], timeout=0.5)
            if replies:
                break
            if time.monotonic() > deadline:
                pytest.fail(f"Celery worker did not answer within 30 s; see {log.name}")
        yield {"queue": queue, "cache_prefix": queue, "process": process}
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
