"""Hall screens made before their keys were random (the slugified name, guessable) get a new,
random address; the desk's screens page shows it (the screen must open the new one)."""

import secrets

from django.db import migrations
from django.utils.text import slugify


def rekey(apps, schema_editor):
    HallScreen = apps.get_model("scoring", "HallScreen")
    for screen in HallScreen.objects.all():
        screen.key = f"{slugify(screen.name)[:15].strip('-')}-{secrets.token_hex(12)}"
        screen.save(update_fields=["key"])


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0002_event_day"),
    ]

    operations = [
        migrations.RunPython(rekey, migrations.RunPython.noop),
    ]
