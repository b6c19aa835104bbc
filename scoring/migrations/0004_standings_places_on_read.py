"""Standings rows keep their figures only: the order, the place, the deciding key and the
qualification are derived on read (issue 29). Stored, the order shifted with every result
above a player, and one confirmation in a 1,000-player field rewrote ~870 rows.

Rows stored before keep their order: among players the figures cannot tell apart, the old
position is their turn (``tie_order`` only has to sort within such a group) and the old
deciding key theirs; the next recompute settles them afresh."""

from django.db import migrations, models
from django.db.models import F


def keep_order(apps, schema_editor):
    StandingRow = apps.get_model("scoring", "StandingRow")
    StandingRow.objects.update(tie_order=F("position"), tie_break=F("decided_by"))


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0003_abuse_random_hall_keys"),
    ]

    operations = [
        migrations.AddField(
            model_name="standingrow",
            name="tie_break",
            field=models.CharField(
                blank=True, help_text="What puts the player below the one before among equals.",
                max_length=20, verbose_name="tie decided by",
            ),
        ),
        migrations.AddField(
            model_name="standingrow",
            name="tie_order",
            field=models.PositiveIntegerField(
                default=0,
                help_text="0 unless head-to-head reorders the players equal on the figures "
                          "before it.",
                verbose_name="order among equals",
            ),
        ),
        migrations.RunPython(keep_order, migrations.RunPython.noop),
        migrations.AlterModelOptions(
            name="standingrow",
            options={"ordering": ["tournament", "scope", "player"], "verbose_name": "standing",
                     "verbose_name_plural": "standings"},
        ),
        migrations.RemoveIndex(
            model_name="standingrow",
            name="scoring_sta_tournam_69ac9b_idx",
        ),
        migrations.RemoveField(model_name="standingrow", name="decided_by"),
        migrations.RemoveField(model_name="standingrow", name="position"),
        migrations.RemoveField(model_name="standingrow", name="qualified"),
        migrations.RemoveField(model_name="standingrow", name="rank"),
    ]
