"""``python manage.py demo [--players N] [--no-serve]``: load the demo championship and serve it.

Served as the event laptop serves (the command lives here, with the laptop, for that): gunicorn
with several workers sharing the embedded cache in files, and the laptop's scheduler in this
process recording the auction stop and the time limit within about a second, whether or not
anybody opens the table. With ``REDIS_URL`` a Celery worker and beat do that instead.
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from demo.build import (
    BANKER_PASSWORD,
    DESK_LOGIN,
    HEAD_REFEREE_LOGIN,
    OPEN_SLUG,
    ORGANIZER_LOGIN,
    SECOND_ORGANIZER_LOGIN,
    SECOND_SLUG,
    build_demo,
)
from laptop.scheduler import Scheduler


def _mail_folder() -> str:
    """Where the sign-up's mails go: the folder of the file backend, else the SMTP host."""
    if settings.EMAIL_BACKEND.endswith("filebased.EmailBackend"):
        return f"files in {settings.EMAIL_FILE_PATH}"
    return f"sent by {settings.EMAIL_BACKEND.rsplit('.', 2)[-2]} ({settings.EMAIL_HOST or 'local'})"


def _addresses(summary, *, addr: str) -> list[str]:
    """What the demo holds, and where and with which login each part of it opens."""
    state = "created" if summary.created else "already there, unchanged"
    base = f"http://{addr}"
    organizer, password = ORGANIZER_LOGIN
    referee, referee_password = HEAD_REFEREE_LOGIN
    slug = summary.tournament.slug
    stages = ", ".join(f"{count} {stage.replace('_', ' ')}" for stage, count in
                       summary.stages.items())
    lines = [
        f"Demo championship '{summary.tournament.slug}' {state}: "
        f"{summary.players} players at {summary.tables} tables ({stages}).",
        f"  Public leaderboard  {base}/t/{summary.tournament.slug}/",
        f"  Organizer           {base}/manage/   login {organizer} / {password}",
        f"  Bankers             {base}/banker/   login banker1 … banker{summary.tables}"
        f" / {BANKER_PASSWORD}",
        f"  Head referee        {base}/manage/{slug}/desk/   login {referee} / "
        f"{referee_password}",
        f"  Desk (check-in)     {base}/manage/{slug}/check-in/   login {DESK_LOGIN[0]} / "
        f"{DESK_LOGIN[1]}",
        f"  Second organizer    {base}/manage/{SECOND_SLUG}/   login "
        f"{SECOND_ORGANIZER_LOGIN[0]} / {SECOND_ORGANIZER_LOGIN[1]} (sees only that one)",
        f"  Sign-up (open)      {base}/t/{OPEN_SLUG}/signup/   (the organizer's side: "
        f"{base}/manage/{OPEN_SLUG}/signups/; mails: {_mail_folder()})",
        f"  Projector           {base}/t/{summary.tournament.slug}/screen",
        f"  Hall screen         {base}/t/{slug}/hall/{summary.hall_screen}/   (what it shows: "
        f"{base}/manage/{slug}/screens/)",
        f"  A player's page     {base}/p/{summary.player_code}/   ({summary.player_name}; "
        f"every player's code is on their player card)",
        f"  Admin               {base}/admin/   (superusers only: manage.py createsuperuser)",
        f"  API docs            {base}/api/docs/",
        f"  Health              {base}/healthz",
    ]
    return lines


class Command(BaseCommand):
    help = "Load (idempotently) the demo championship with slug 'demo' and serve it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=36, help="number of players (36)")
        parser.add_argument("--no-serve", action="store_true", help="load the data and stop")
        parser.add_argument("--addr", default="127.0.0.1:8000", help="address to serve on")
        parser.add_argument("--workers", type=int, default=2,
                            help="web processes (2; they share the cache)")
        parser.add_argument("--threads", type=int, default=4, help="threads per process (4)")
        parser.add_argument("--minutes-ago", type=float, default=0.0,
                            help="load the games as if loaded this many minutes ago (their "
                                 "clocks run from then: a deadline falls due sooner)")

    def handle(self, *args, players: int, no_serve: bool, addr: str, workers: int,
               threads: int, minutes_ago: float, **options) -> None:
        if players < 5:
            raise CommandError("--players must be at least 5 (one table of 5)")
        if workers < 1 or threads < 1:
            raise CommandError("--workers and --threads must be at least 1")
        call_command("migrate", interactive=False, verbosity=0)
        now = timezone.now() - dt.timedelta(minutes=minutes_ago)
        summary = build_demo(players=players, now=now)
        self.stdout.write("\n".join(_addresses(summary, addr=addr)))
        if no_serve:
            return
        helpers = self._start_celery() if settings.REDIS_URL else []
        scheduler = None
        if not settings.REDIS_URL:
            # The laptop's scheduler: deadlines every second, standings as Celery beat would.
            beat = settings.CELERY_BEAT_SCHEDULE
            scheduler = Scheduler(backups=None, deadline_seconds=DEADLINE_SECONDS,
                                  standings_seconds=beat["refresh-standings"]["schedule"])
            scheduler.start()
            self.stdout.write(f"  Deadlines           recorded by this process every "
                              f"{DEADLINE_SECONDS:g} s (no broker needed)")
        call_command("collectstatic", interactive=False, verbosity=0)
        stopping = threading.Event()
        signal.signal(signal.SIGTERM, lambda signum, frame: stopping.set())
        web = None
        try:
            web = serve(addr, workers=workers, threads=threads)
            self.stdout.write(f"  Serving             http://{addr}/ ({workers} processes × {threads} "
                              f"threads, one cache); Ctrl-C stops")
            while not stopping.is_set() and web.poll() is None:
                stopping.wait(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            if web is not None and web.poll() is None:
                web.terminate()
                try:
                    web.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    web.kill()
            if scheduler is not None:
                scheduler.stop(final_backup=False)
            for process in helpers:
                process.terminate()

    def _start_celery(self) -> list[subprocess.Popen]:
        """With Redis configured, the demo runs a real worker and beat beside the web server."""
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings"}
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        self.stdout.write("  Celery worker and beat started (REDIS_URL is set)")
        return [
            subprocess.Popen([*celery, "worker", "--loglevel=WARNING", "--concurrency=2"], env=env),
            subprocess.Popen(
                [*celery, "beat", "--loglevel=WARNING", "--schedule", "/tmp/mcs-celerybeat"],
                env=env,
            ),
        ]


DEADLINE_SECONDS = 1.0


def serve(addr: str, *, workers: int, threads: int, wait: float = 60) -> subprocess.Popen:
    """gunicorn on ``addr``, answering /healthz, or CommandError."""
    host, _, port = addr.rpartition(":")
    process = subprocess.Popen([
        sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", addr,
        "--workers", str(workers), "--worker-class", "gthread", "--threads", str(threads),
        "--timeout", "60", "--graceful-timeout", "10", "--log-level", "warning",
    ])
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise CommandError(f"the server stopped at once (exit {process.returncode}): "
                               f"is {addr} in use?")
        try:
            with urllib.request.urlopen(f"http://{host or '127.0.0.1'}:{port}/healthz",
                                        timeout=3) as answer:
                if answer.status == 200:
                    return process
        except OSError:
            pass
        time.sleep(0.3)
    process.terminate()
    raise CommandError(f"the server did not answer on {addr} within {wait:.0f} s")
