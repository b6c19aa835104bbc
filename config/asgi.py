"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

from config.settle import settle

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
settle()  # the loaded site out of the collector's sweeps (config.settle)
