"""Clubs per tournament, step 3: every club belongs to one tournament, its name unique there;
a private note holds at most 2,000 characters (like an incident's note)."""

import django.db.models.deletion
import django.db.models.functions.text
import django.db.models.lookups
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0005_privacy_clubs_copied"),
    ]

    operations = [
        migrations.AlterField(
            model_name="club",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE, related_name="clubs",
                to="tournament.tournament", verbose_name="tournament",
            ),
        ),
        migrations.AddConstraint(
            model_name="club",
            constraint=models.UniqueConstraint(
                fields=("tournament", "name"), name="club_name_unique_per_tournament"
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="private_note",
            field=models.TextField(
                blank=True, help_text="Only organizers see this; never public.",
                max_length=2000, verbose_name="private note",
            ),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=django.db.models.lookups.LessThanOrEqual(
                    django.db.models.functions.text.Length("private_note"), 2000
                ),
                name="player_private_note_bounded",
            ),
        ),
    ]
