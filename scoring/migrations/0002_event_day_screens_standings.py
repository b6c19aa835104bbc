"""Everything since the shipped schema (0001), in one step: point deductions, 64-bit net worth
sums and hall screens (issues 14–19); random hall-screen keys (abuse, issue 26); standings keep
their figures only, the order and places derived on read (issue 29).

One file because none of it ever shipped (0002..0004 were steps between two releases; an
installation made from a commit between them has all three and takes this one as applied:
``replaces``). Data is kept for an installation at 0001:
rows stored before keep their order among players the figures cannot tell apart (the old
position is their turn, the old deciding key theirs; the next recompute settles them afresh)."""

import secrets

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import F
from django.utils.text import slugify


def rekey(apps, schema_editor):
    """Hall screens made before their keys were random (the slugified name, guessable) get a
    new, random address. Coming from 0001 there are none (the table is new in this step); kept
    so that the step does what its parts did."""
    HallScreen = apps.get_model("scoring", "HallScreen")
    for screen in HallScreen.objects.all():
        screen.key = f"{slugify(screen.name)[:15].strip('-')}-{secrets.token_hex(12)}"
        screen.save(update_fields=["key"])


def keep_order(apps, schema_editor):
    StandingRow = apps.get_model("scoring", "StandingRow")
    StandingRow.objects.update(tie_order=F("position"), tie_break=F("decided_by"))


class Migration(migrations.Migration):

    #: The steps it was written as: an installation made from a commit between them (a
    #: tester's laptop) has them all and takes this one as applied.
    replaces = [
        ('scoring', '0002_event_day'),
        ('scoring', '0003_abuse_random_hall_keys'),
        ('scoring', '0004_standings_places_on_read'),
    ]

    dependencies = [
        ('scoring', '0001_initial'),
        ('tournament', '0003_event_day_clubs_signup'),
    ]

    operations = [
        # Deductions, 64-bit sums, hall screens.
        migrations.AddField(
            model_name='standingrow',
            name='deducted',
            field=models.PositiveIntegerField(default=0, help_text='Penalties by the head referee.', verbose_name='points deducted'),
        ),
        migrations.AlterField(
            model_name='standingrow',
            name='best_net_worth',
            field=models.BigIntegerField(default=0, verbose_name='best net worth'),
        ),
        migrations.AlterField(
            model_name='standingrow',
            name='net_worth_sum',
            field=models.BigIntegerField(default=0, verbose_name='summed net worth'),
        ),
        migrations.CreateModel(
            name='HallScreen',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=40, verbose_name='name')),
                ('key', models.SlugField(max_length=40, verbose_name='address')),
                ('mode', models.CharField(choices=[('auto', 'Automatic (seating list before a round, clock while it runs, standings between rounds)'), ('seating', 'Seating list: name → table'), ('clock', 'Round clock and table states'), ('standings', 'Standings and the qualification line')], default='auto', max_length=12, verbose_name='shows')),
                ('changed_at', models.DateTimeField(auto_now=True, verbose_name='changed')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='hall_screens', to='tournament.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'hall screen',
                'verbose_name_plural': 'hall screens',
                'ordering': ['name'],
                'constraints': [models.UniqueConstraint(fields=('tournament', 'key'), name='hall_screen_key_once'), models.CheckConstraint(condition=models.Q(('mode__in', ['auto', 'seating', 'clock', 'standings'])), name='hall_screen_mode_known')],
            },
        ),
        # Random hall-screen keys.
        migrations.RunPython(rekey, migrations.RunPython.noop),
        # Standings: the figures stored, the order and places derived on read.
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
