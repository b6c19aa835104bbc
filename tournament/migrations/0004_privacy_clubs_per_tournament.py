"""Clubs per tournament, step 1 (the column; 0005 fills it, 0006 requires it and bounds
the private note). Split in three: PostgreSQL refuses to alter a table with pending
constraint checks from rows changed in the same transaction.

Clubs per tournament (a family's name is personal data: one tournament's desk never sees
another's clubs) and a bounded private note.

Data is kept: a club used by players of several tournaments is copied once per tournament
that uses it (its players follow their tournament's copy); a club no player uses any more (an
erased player's family, a club left behind by an edit) names nobody's club and goes. A private
note longer than 2,000 characters (none was ever meant to be) is cut to that length.
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0003_event_day"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="tournament",
            field=models.ForeignKey(
                null=True, on_delete=django.db.models.deletion.CASCADE, related_name="clubs",
                to="tournament.tournament", verbose_name="tournament",
            ),
        ),
        migrations.AlterField(
            model_name="club",
            name="name",
            field=models.CharField(max_length=120, verbose_name="name"),
        ),
    ]
