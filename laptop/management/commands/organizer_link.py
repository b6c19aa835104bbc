"""``python -m laptop organizer_link [LOGIN]``: a one-time link to set an organizer's password,
on request (``serve`` prints one at the first start only)."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError

from config.lan import lan_addresses
from tournament.staff import set_password_path


class Command(BaseCommand):
    help = "Print a one-time link that sets the password of an organizer of this laptop."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username", nargs="?", default="organizer")
        parser.add_argument("--port", type=int, default=getattr(settings, "LAPTOP_PORT", 8000))

    def handle(self, *args, **options) -> None:
        user = User.objects.filter(username=options["username"], is_staff=True,
                                   is_active=True).first()
        if user is None:
            raise CommandError(f"no active staff account '{options['username']}' / kein "
                               "aktives Konto dieses Namens")
        data_dir = getattr(settings, "DATA_DIR", None)
        https = data_dir is not None and (data_dir / "tls" / "server.pem").is_file()
        host = (lan_addresses() or ["127.0.0.1"])[0]
        self.stdout.write(
            f"Set the password of '{user.get_username()}' once / Passwort einmal setzen "
            f"(valid until used, 3 days at most / gültig bis benutzt, höchstens 3 Tage):\n"
            f"  {'https' if https else 'http'}://{host}:{options['port']}{set_password_path(user)}")
