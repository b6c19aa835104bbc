"""The real stack on this machine: a fresh PostgreSQL database, a private Redis, gunicorn,
a Celery worker and beat. Every process is a child of ours; ``stop()`` ends exactly those."""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG = ["-h", "127.0.0.1", "-p", "5432", "-U", "postgres"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_from_env(name: str) -> int:
    """A port chosen by the environment (two runs on one machine keep to their own ranges),
    else a free one."""
    value = os.environ.get(name, "").strip()
    return int(value) if value else free_port()


def psql(*commands: str, db: str = "postgres") -> str:
    args = ["psql", *PG, "-d", db, "-qAt"]
    for command in commands:
        args += ["-c", command]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def migrated_template() -> str:
    """The name of a database migrated by exactly this tree's migrations and these installed
    packages (theirs: Django's, auditlog's ...): a hash of every migration file of ours and of
    every installed distribution's name and version."""
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    for name, version in sorted((d.metadata["Name"] or "", d.version)
                                for d in metadata.distributions()):
        digest.update(f"{name}=={version}\n".encode())
    return f"mcs_rehearsal_template_{digest.hexdigest()[:16]}"


def database_exists(name: str) -> bool:
    return psql(f"SELECT 1 FROM pg_database WHERE datname = '{name}'").strip() == "1"


class Stack:
    def __init__(self, *, db: str = "mcs_rehearsal", workers: int = 3, sweep: float = 2.0,
                 log_dir: Path | None = None) -> None:
        self.db = db
        self.workers = workers
        self.sweep = sweep
        self.dir = log_dir or Path(tempfile.mkdtemp(prefix="mcs-rehearsal-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.redis_port = port_from_env("REHEARSAL_REDIS_PORT")
        self.web_port = port_from_env("REHEARSAL_WEB_PORT")
        self.redis_db = int(os.environ.get("REHEARSAL_REDIS_DB", "0") or 0)
        self.queue = f"rehearsal-{os.getpid()}"
        self.procs: dict[str, subprocess.Popen] = {}
        self.logs: list = []
        self.base = f"http://127.0.0.1:{self.web_port}"
        self.database_url = f"postgres://postgres@127.0.0.1:5432/{db}"
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/{self.redis_db}"

    # ------------------------------------------------------------------ environment
    @property
    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env.update(
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            DEADLINE_SWEEP_SECONDS=str(self.sweep),
            CELERY_QUEUE=self.queue,
            CACHE_KEY_PREFIX="rehearsal",
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DJANGO_SETTINGS_MODULE="config.settings",
            LOG_LEVEL="WARNING",
            PYTHONUNBUFFERED="1",
        )
        return env

    def _spawn(self, name: str, args: list[str]) -> subprocess.Popen:
        log = open(self.dir / f"{name}.log", "a")  # noqa: SIM115 - closed in stop()
        self.logs.append(log)
        proc = subprocess.Popen(args, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        self.procs[name] = proc
        return proc

    # ------------------------------------------------------------------ services
    def fresh_database(self) -> None:
        """Dropped and created anew, then migrated. The first run of a tree migrates and keeps
        a copy as a template (``migrated_template``); later runs copy it (a fraction of a second
        instead of ~10 s of ``migrate``) and still run ``migrate``, which finds nothing to do."""
        psql(
            f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{self.db}'",
            f"DROP DATABASE IF EXISTS {self.db}",
        )
        template = migrated_template()
        copied = False
        if database_exists(template):
            try:
                psql(f"CREATE DATABASE {self.db} TEMPLATE {template}")
                copied = True
            except subprocess.CalledProcessError:  # being copied or dropped by another run
                pass
        if not copied:
            psql(f"CREATE DATABASE {self.db}")
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                       env=self.env, check=True)
        if not copied:  # no connection to the new database is left: it can be the template
            with contextlib.suppress(subprocess.CalledProcessError):  # another run made it first
                psql(f"CREATE DATABASE {template} TEMPLATE {self.db}")

    def start_redis(self) -> None:
        # The same command as .ci/run, on a private port (the shared Redis is left alone).
        self._spawn("redis", [
            "redis-server", "--bind", "127.0.0.1", "--port", str(self.redis_port), "--save", "",
            "--appendonly", "no", "--dir", str(self.dir),
        ])
        self._wait(lambda: self.redis_cli("ping") == "PONG", "redis")

    def redis_cli(self, *args: str) -> str:
        out = subprocess.run(["redis-cli", "-h", "127.0.0.1", "-p", str(self.redis_port), *args],
                             capture_output=True, text=True, check=False)
        return out.stdout.strip()

    def restart_redis(self, down_seconds: float = 2.0) -> float:
        """``redis-cli shutdown nosave``, a pause, then start it again; seconds it was down."""
        started = time.monotonic()
        self.redis_cli("shutdown", "nosave")
        try:
            self.procs["redis"].wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.procs["redis"].kill()
        time.sleep(down_seconds)
        self.start_redis()
        return time.monotonic() - started

    def start_web(self) -> None:
        self._spawn("gunicorn", [
            sys.executable, "-m", "gunicorn", "config.wsgi", "--workers", str(self.workers),
            "--worker-class", "gthread", "--threads", "4", "--bind", f"127.0.0.1:{self.web_port}",
            "--log-level", "warning", "--timeout", "60",
        ])
        self._wait(self._healthy, "gunicorn /healthz")

    def _healthy(self) -> bool:
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=2) as resp:
                return resp.status == 200
        except OSError:
            return False

    def start_worker(self) -> None:
        self._spawn("worker", [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=threads",
            "--concurrency=4", "--loglevel=WARNING", "-Q", self.queue, "-n", f"{self.queue}@%h",
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ])

    def kill_worker(self) -> None:
        """A crash, not a shutdown: SIGKILL, so tasks in flight are not acknowledged."""
        proc = self.procs.get("worker")
        if proc and proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)

    def start_beat(self) -> None:
        self._spawn("beat", [
            sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel=WARNING",
            "-s", str(self.dir / "beat-schedule"),
        ])

    def terminate_db_connections(self) -> int:
        out = psql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            f"WHERE datname = '{self.db}' AND pid <> pg_backend_pid()"
        )
        return int(out.strip() or 0)

    def start(self) -> None:
        self.start_redis()
        self.fresh_database()
        self.start_web()
        self.start_worker()
        self.start_beat()

    def stop(self) -> None:
        for proc in reversed(list(self.procs.values())):
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGTERM)
                except ProcessLookupError:
                    continue
        for proc in self.procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        for log in self.logs:
            log.close()

    @staticmethod
    def _wait(check, what: str, seconds: float = 40) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if check():
                return
            time.sleep(0.2)
        raise RuntimeError(f"{what} did not come up within {seconds} s")

    def django_setup(self) -> None:
        """Django in this process, against the stack (tasks go to the stack's worker)."""
        os.environ.update({k: v for k, v in self.env.items() if k in (
            "DATABASE_URL", "REDIS_URL", "DEADLINE_SWEEP_SECONDS", "CELERY_QUEUE",
            "CACHE_KEY_PREFIX", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")})
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
