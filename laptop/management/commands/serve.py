"""``python -m laptop serve`` (``make serve``): a real event on this laptop.

Migrates, creates the first organizer, starts gunicorn on the LAN, runs the scheduler
(deadlines, standings, backups), prints the addresses with QR codes and watches them.
"""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from laptop import backup, organizer, server
from laptop.scheduler import BackupPolicy, Scheduler


class Command(BaseCommand):
    help = "Run the championship on this laptop for the hall's network (see README)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--port", type=int, default=settings_value("LAPTOP_PORT", 8000))
        parser.add_argument("--https", action="store_true",
                            help="HTTPS with a certificate authority made on this laptop")
        parser.add_argument("--ca-port", type=int, default=None,
                            help="plain-HTTP page to install the authority (default port+1)")
        parser.add_argument("--backup-dir", type=Path, default=None,
                            help="folder for the database copies (a USB stick, say)")
        parser.add_argument("--keep", type=int, default=None, help="copies to keep")
        parser.add_argument("--backup-minutes", type=float, default=None)
        parser.add_argument("--workers", type=int, default=3)
        parser.add_argument("--threads", type=int, default=4)
        parser.add_argument("--organizer", default="organizer", help="login name of the first "
                            "organizer")
        parser.add_argument("--watch-seconds", type=float, default=3.0)

    def handle(self, *args, **options) -> None:
        if not hasattr(settings, "LAPTOP_BACKUP_DIR"):
            raise CommandError("run it as `make serve` or `python -m laptop serve`")
        if settings.DEBUG:
            raise CommandError("DEBUG is on: never for a real event (unset DEBUG) / "
                               "DEBUG ist an: nie für ein echtes Turnier")
        data_dir = settings.DATA_DIR
        try:
            with server.data_lock(data_dir):
                self.run(options, data_dir)
        except server.AlreadyRunning:
            raise CommandError(f"another `serve` already runs with {data_dir}") from None

    def run(self, options: dict, data_dir: Path) -> None:
        out = self.stdout
        port = options["port"]
        https = options["https"] or settings.LAPTOP_HTTPS
        call_command("migrate", interactive=False, verbosity=0)
        with connection.cursor() as cursor:
            mode = cursor.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if mode != "wal":
            raise CommandError(f"SQLite refused WAL mode ({mode}) for {settings.DATABASE_FILE}")
        call_command("collectstatic", interactive=False, verbosity=0)

        folder = (options["backup_dir"] or settings.LAPTOP_BACKUP_DIR).resolve()
        keep = options["keep"] or settings.LAPTOP_BACKUP_KEEP
        try:
            first = backup.backup_now(database=settings.DATABASE_FILE, folder=folder, keep=keep,
                                      reason="start")
        except backup.BackupError as error:
            raise CommandError(f"backups: {error}") from None

        interactive = sys.stdin.isatty()
        made = organizer.ensure_organizer(username=options["organizer"],
                                          interactive=interactive)
        connection.close()

        authority = None
        certfile = cafile = None
        addresses = server.lan_addresses()
        if https:
            from laptop.tls import Authority

            authority = Authority(data_dir / "tls")
            authority.ensure_ca()
            authority.ensure_server_cert([*settings.ALLOWED_HOSTS, *addresses])
            certfile, cafile = authority.cert, authority.ca_cert

        web = server.Gunicorn(
            port=port, workers=options["workers"], threads=options["threads"],
            env=server.environment(data_dir=data_dir, https=https, port=port,
                                   backup_dir=folder, keep=keep),
            certfile=certfile, cafile=cafile)
        stopping = threading.Event()

        def stop(signum, frame) -> None:
            stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        scheduler = Scheduler(
            backups=BackupPolicy(database=settings.DATABASE_FILE, folder=folder, keep=keep,
                                 minutes=options["backup_minutes"]
                                 or settings.LAPTOP_BACKUP_MINUTES),
            deadline_seconds=settings.DEADLINE_SWEEP_SECONDS,
            standings_seconds=settings.STANDINGS_SWEEP_SECONDS)
        ca_page = None
        try:
            try:
                web.start()
            except RuntimeError as error:
                raise CommandError(f"the server did not start on port {port} (in use?): "
                                   f"{error}") from None
            scheduler.start()
            ca_port = None
            if authority:
                from laptop import capage

                ca_port = options["ca_port"] or port + 1
                try:
                    ca_page = capage.make_server(port=ca_port, authority=authority,
                                                 app_port=port)
                except OSError as error:
                    raise CommandError(f"the certificate page cannot use port {ca_port}: "
                                       f"{error} (choose --ca-port)") from None
                capage.serve_in_background(ca_page)
            show = lambda: out.write(server.banner(  # noqa: E731
                scheme=web.scheme, port=port, ca_port=ca_port, addresses=addresses,
                fingerprint=authority.fingerprint() if authority else None))
            show()
            out.write(f"Database / Datenbank: {settings.DATABASE_FILE} (SQLite, WAL)\n")
            out.write(f"Backups / Sicherungen: {folder} (last {keep}; first: {first.name})\n")
            if made and made.link_path:
                out.write(f"First organizer / Erste Organisation: login '{made.username}', set "
                          f"the password once / Passwort einmal setzen:\n  {web.scheme}://"
                          f"{(addresses or ['127.0.0.1'])[0]}:{port}{made.link_path}\n")
            elif made:
                out.write(f"Organizer '{made.username}' created / angelegt.\n")
            if not https:
                out.write("Without HTTPS the consoles cannot reopen without Wi-Fi (service "
                          "worker); start with --https (make serve HTTPS=1) to allow it.\n")
            out.write("Stop with Ctrl-C / Beenden mit Strg-C.\n")
            out.flush()
            while not stopping.wait(options["watch_seconds"]):
                if not web.alive():
                    raise CommandError("the web server stopped unexpectedly")
                if not scheduler.is_alive():
                    raise CommandError("the scheduler stopped unexpectedly")
                changed = server.watch_addresses(addresses)
                if changed is not None:
                    addresses = changed
                    out.write("\nThe laptop's address changed / Die Adresse des Laptops hat sich "
                              f"geändert: {', '.join(addresses) or '-'}\n")
                    if authority:  # read for every new connection: no restart
                        authority.ensure_server_cert([*settings.ALLOWED_HOSTS, *addresses])
                    show()
                    out.flush()
        finally:
            if ca_page is not None:
                ca_page.shutdown()
            web.stop()
            if scheduler.ident is not None:  # started: stop it and make the last copy
                last = scheduler.stop(final_backup=True)
                if last is not None:
                    out.write(f"Last backup / Letzte Sicherung: {last}\n")


def settings_value(name: str, default):
    return getattr(settings, name, default)
