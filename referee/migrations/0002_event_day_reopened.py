"""Everything since the shipped schema (0001), in one step: dispute authors, extra minutes,
paper results, 64-bit net worth and the wrong-code cap (issues 14–19); who reopened a confirmed
result and when (the result of record, issue 24).

One file because none of it ever shipped (0002 and 0003 were steps between two releases; an
installation made from a commit between them has both and takes this one as applied:
``replaces``). Schema only: no data step."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    #: The steps it was written as: an installation made from a commit between them (a
    #: tester's laptop) has them all and takes this one as applied.
    replaces = [
        ('referee', '0002_event_day'),
        ('referee', '0003_result_reopened'),
    ]

    dependencies = [
        ('referee', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='extra_minutes',
            field=models.PositiveSmallIntegerField(default=0, help_text='Granted by the head referee; already added to the time overrides.', verbose_name='extra minutes'),
        ),
        migrations.AddField(
            model_name='game',
            name='wrong_codes',
            field=models.PositiveSmallIntegerField(default=0, help_text='Wrong codes typed at this table, from any device. After ten only the head referee or an organizer confirms.', verbose_name='wrong confirmation codes'),
        ),
        migrations.AddField(
            model_name='gameresult',
            name='disputed_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='disputed by'),
        ),
        migrations.AddField(
            model_name='gameresult',
            name='from_paper',
            field=models.BooleanField(default=False, help_text="Entered by the head referee from the table's paper score sheet.", verbose_name='from the paper sheet'),
        ),
        migrations.AlterField(
            model_name='gameresult',
            name='dispute_note',
            field=models.TextField(blank=True, verbose_name='dispute note'),
        ),
        migrations.AlterField(
            model_name='placement',
            name='net_worth',
            field=models.BigIntegerField(verbose_name='net worth'),
        ),
        # The result of record: who reopened it, and when.
        migrations.AddField(
            model_name='gameresult',
            name='reopened_at',
            field=models.DateTimeField(blank=True, help_text='When the head referee last reopened the confirmed result.', null=True, verbose_name='reopened'),
        ),
        migrations.AddField(
            model_name='gameresult',
            name='reopened_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='reopened by'),
        ),
    ]
