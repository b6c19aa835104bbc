"""``python -m laptop serve`` (``make serve``): a real event on this laptop.

Migrates, creates the first organizer, starts gunicorn on the LAN, runs the scheduler
(deadlines, standings, backups), prints the addresses with QR codes and watches them.
"""

from __future__ import annotations

import signal
import sys
import threading
import time
from pathlib import Path

from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from laptop import (
    backup,
    copies,
    organizer,
    server,
    status,
)
from laptop.scheduler import BackupPolicy, Scheduler

RENEWED_CA = ("\nA new certificate authority was made (the laptop's new address or name was not "
              "one the old may certify, or it expired): phones must trust it again (the page "
              "below) / Eine neue Zertifizierungsstelle wurde erstellt: die Handys müssen ihr "
              "erneut vertrauen (Seite unten).\n")


class Command(BaseCommand):
    help = "Run the championship on this laptop for the hall's network (see README)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--port", type=int, default=settings_value("LAPTOP_PORT", 8000))
        parser.add_argument("--https", action="store_true",
                            help="HTTPS with a certificate authority made on this laptop")
        parser.add_argument("--https-port", type=int, default=None,
                            help="with --https: the staff's and bankers' HTTPS port (default "
                            "port+2); plain HTTP stays on --port for spectators, players, hall "
                            "screens and every printed card")
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
        # Nothing cached before this start may be served: the database may have been restored
        # or replaced meanwhile (a cached feed would show events it does not hold).
        for cache in caches.all():
            cache.clear()

        folder = (options["backup_dir"] or settings.LAPTOP_BACKUP_DIR).resolve()
        keep = options["keep"] or settings.LAPTOP_BACKUP_KEEP
        try:
            device = backup.prepare_folder(folder)  # the only place a backup folder is made
        except backup.BackupError as error:
            raise CommandError(f"backups: {error}") from None
        home_device = data_dir.stat().st_dev
        remember_folder(data_dir, folder)
        status.reset(data_dir)
        target = copies.Target(database=settings.DATABASE_FILE, folder=folder, keep=keep,
                               data_dir=data_dir, device=device, home_device=home_device)
        first, error = copies.make_copy(target, reason="start")
        if first is None:
            raise CommandError(f"backups: {error}")

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
            authority.ensure_server_cert([*settings.ALLOWED_HOSTS, *addresses])
            certfile, cafile = authority.cert, authority.ca_cert

        # Plain HTTP on PORT always: spectators', players' and hall screens' phones and TVs
        # have no authority installed, and cards printed before HTTPS was switched on name it.
        # With HTTPS a second server on its own port for the staff and the bankers' consoles.
        web = server.Gunicorn(
            port=port, workers=options["workers"], threads=options["threads"],
            env=server.environment(data_dir=data_dir, https=False, port=port,
                                   backup_dir=folder, keep=keep, backup_device=device),
            certfile=None, cafile=None)
        secure = None
        https_port = None
        if https:
            https_port = options["https_port"] or port + 2
            secure = server.Gunicorn(
                port=https_port, workers=options["workers"], threads=options["threads"],
                env=server.environment(data_dir=data_dir, https=True, port=port,
                                       backup_dir=folder, keep=keep, backup_device=device),
                certfile=certfile, cafile=cafile)
        staff_scheme, staff_port = ("https", https_port) if secure else ("http", port)
        stopping = threading.Event()

        def stop(signum, frame) -> None:
            stopping.set()

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        scheduler = Scheduler(
            backups=BackupPolicy(database=settings.DATABASE_FILE, folder=folder, keep=keep,
                                 minutes=options["backup_minutes"]
                                 or settings.LAPTOP_BACKUP_MINUTES, data_dir=data_dir,
                                 device=device, home_device=home_device,
                                 check_seconds=settings.LAPTOP_BACKUP_CHECK_SECONDS,
                                 retry_seconds=settings.LAPTOP_BACKUP_RETRY_SECONDS),
            deadline_seconds=settings.DEADLINE_SWEEP_SECONDS,
            standings_seconds=settings.STANDINGS_SWEEP_SECONDS)
        ca_page = None
        try:
            for one in filter(None, (web, secure)):
                try:
                    one.start()
                except RuntimeError as error:
                    raise CommandError(f"the server did not start on port {one.port} (in use?)"
                                       f": {error}") from None
            scheduler.start()
            ca_port = None
            if authority:
                from laptop import capage

                ca_port = options["ca_port"] or port + 1
                try:
                    ca_page = capage.make_server(port=ca_port, authority=authority,
                                                 app_port=staff_port)
                except OSError as error:
                    raise CommandError(f"the certificate page cannot use port {ca_port}: "
                                       f"{error} (choose --ca-port)") from None
                capage.serve_in_background(ca_page)
            show = lambda: out.write(server.banner(  # noqa: E731
                scheme=web.scheme, port=port, ca_port=ca_port, addresses=addresses,
                fingerprint=authority.fingerprint() if authority else None,
                https_port=https_port))
            show()
            out.write(f"Database / Datenbank: {settings.DATABASE_FILE} (SQLite, WAL)\n")
            out.write(f"Backups / Sicherungen: {folder} (last {keep}; first: {first.name})\n")
            for warning in folder_warnings(folder, data_dir=data_dir, device=device,
                                           home_device=home_device):
                out.write(f"WARNING / WARNUNG: {warning}\n")
            link = organizer.link_to_print(made, data_dir=data_dir)
            if link:
                out.write(f"First organizer / Erste Organisation: login '{made.username}', set "
                          f"the password once / Passwort einmal setzen:\n  {staff_scheme}://"
                          f"{(addresses or ['127.0.0.1'])[0]}:{staff_port}{link}\n")
            elif made and made.link_path:
                out.write(f"Organizer '{made.username}' has no password yet; the link to set it "
                          "was printed at the first start. A new one / Ein neuer Link: "
                          f"python -m laptop organizer_link {made.username}\n")
            elif made:
                out.write(f"Organizer '{made.username}' created / angelegt.\n")
            if not https:
                out.write("Without HTTPS the consoles cannot reopen without Wi-Fi (service "
                          "worker); start with --https (make serve HTTPS=1) to allow it.\n")
            out.write("Stop with Ctrl-C / Beenden mit Strg-C.\n")
            out.flush()
            checked = time.monotonic()
            while not stopping.wait(options["watch_seconds"]):
                if not web.alive() or (secure is not None and not secure.alive()):
                    raise CommandError("the web server stopped unexpectedly")
                if not scheduler.is_alive():
                    raise CommandError("the scheduler stopped unexpectedly")
                changed = server.watch_addresses(addresses)
                if changed is not None:
                    addresses = changed
                    out.write("\nThe laptop's address changed / Die Adresse des Laptops hat sich "
                              f"geändert: {', '.join(addresses) or '-'}\n")
                if authority and (changed is not None or time.monotonic() - checked > 600):
                    # Read for every new connection: no restart. The authority lives days, so
                    # a long event renews it too.
                    checked = time.monotonic()
                    authority.ensure_server_cert([*settings.ALLOWED_HOSTS, *addresses])
                    if authority.renewed_ca:
                        out.write(RENEWED_CA)
                        changed = changed or addresses
                if changed is not None:
                    show()
                    out.flush()
        finally:
            if ca_page is not None:
                ca_page.shutdown()
            web.stop()
            if secure is not None:
                secure.stop()
            if scheduler.ident is not None:  # started: stop it and make the last copy
                last = scheduler.stop(final_backup=True)
                if last is not None:
                    out.write(f"Last backup / Letzte Sicherung: {last}\n")
            if authority is not None:
                out.write(authority.removal_steps())
            out.flush()


def remember_folder(data_dir: Path, folder: Path) -> None:
    """Every backup folder ever used with this data folder: ``restore`` looks in all of them."""
    known = data_dir / "backup-folders"
    folders = known.read_text().splitlines() if known.is_file() else []
    if str(folder) not in folders:
        with known.open("a") as handle:
            handle.write(f"{folder}\n")


def folder_warnings(folder: Path, *, data_dir: Path, device: int, home_device: int) -> list[str]:
    warnings = []
    if device == home_device and not folder.is_relative_to(data_dir):
        warnings.append(f"{folder} is on the laptop's own disk, not on a USB stick: the copies "
                        "die with the laptop / liegt auf der Festplatte des Laptops, nicht auf "
                        "einem USB-Stick")
    if not backup.keeps_files_private(folder):
        warnings.append(f"{folder} cannot keep files private (FAT/exFAT: every copy is readable "
                        "by anyone with the stick; copies hold no sessions, but password hashes "
                        "and players' data) / kann Dateien nicht schützen (FAT/exFAT): den Stick "
                        "bei sich behalten")
    return warnings


def settings_value(name: str, default):
    return getattr(settings, name, default)
