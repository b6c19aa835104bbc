"""Every player gets a personal code (issue 17): added empty, filled one by one, then unique."""

from django.db import migrations, models

import tournament.models


def fill_codes(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    taken = set()
    for player in Player.objects.filter(pass_code__isnull=True).only("pk").iterator():
        code = tournament.models.new_pass_code()
        while code in taken:
            code = tournament.models.new_pass_code()
        taken.add(code)
        Player.objects.filter(pk=player.pk).update(pass_code=code)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0006_bankerlink_carried_from")]

    operations = [
        migrations.AddField(
            model_name="player", name="pass_code",
            field=models.CharField(max_length=8, null=True, editable=False),
        ),
        migrations.RunPython(fill_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player", name="pass_code",
            field=models.CharField(
                default=tournament.models.new_pass_code, editable=False,
                help_text="Opens the player's own page (where to sit, results) without a login. "
                          "A new code makes the old one (and its printed card) useless.",
                max_length=8, unique=True, verbose_name="personal code"),
        ),
    ]
