"""``python -m laptop serve|backup|restore …``: Django's commands with the laptop settings."""

from __future__ import annotations

import os
import sys


def main() -> None:
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.laptop"
    from django.core.management import execute_from_command_line

    execute_from_command_line(["manage.py", *sys.argv[1:]])


if __name__ == "__main__":
    main()
