"""``python manage.py demo [--players N] [--no-serve]``: load the demo championship and serve it."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.demo.build import (
    BANKER_PASSWORD,
    DESK_LOGIN,
    HEAD_REFEREE_LOGIN,
    ORGANIZER_LOGIN,
    SECOND_ORGANIZER_LOGIN,
    SECOND_SLUG,
    build_demo,
)


class Command(BaseCommand):
    help = "Load (idempotently) the demo championship with slug 'demo' and serve it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, default=36, help="number of players (36)")
        parser.add_argument("--no-serve", action="store_true", help="load the data and stop")
        parser.add_argument("--addr", default="127.0.0.1:8000", help="address to serve on")

    def handle(self, *args, players: int, no_serve: bool, addr: str, **options) -> None:
        if players < 5:
            raise CommandError("--players must be at least 5 (one table of 5)")
        call_command("migrate", interactive=False, verbosity=0)
        summary = build_demo(players=players)
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
            f"  Projector           {base}/t/{summary.tournament.slug}/screen",
            f"  Hall screen         {base}/t/{slug}/hall/{summary.hall_screen}/   (what it shows: "
            f"{base}/manage/{slug}/screens/)",
            f"  A player's page     {base}/p/{summary.player_code}/   ({summary.player_name}; "
            f"every player's code is on their player card)",
            f"  Admin               {base}/admin/   (superusers only: manage.py createsuperuser)",
            f"  API docs            {base}/api/docs/",
            f"  Health              {base}/healthz",
        ]
        self.stdout.write("\n".join(lines))
        if no_serve:
            return
        call_command("collectstatic", interactive=False, verbosity=0)
        workers = self._start_celery() if settings.REDIS_URL else []
        try:
            call_command("runserver", addr, use_reloader=False, use_threading=True)
        finally:
            for process in workers:
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
