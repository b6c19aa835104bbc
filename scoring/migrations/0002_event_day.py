# Point deductions, 64-bit net worth sums and hall screens (issues 14–19), in one step.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0001_initial'),
        ('tournament', '0003_event_day'),
    ]

    operations = [
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
    ]
