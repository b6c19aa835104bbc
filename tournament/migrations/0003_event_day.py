"""Staff roles, incidents, alternates, players' own codes, the official format and players'
data rights (issues 14–19), in one step: these changes were made together and never applied
one by one. Existing tournaments keep their team and every player gets a code."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import tournament.models


def keep_existing_access(apps, schema_editor):
    """Existing tournaments keep their team: staff accounts become their organizers, members of
    the old "Head referees" group their head referees, assigned bankers their bankers."""
    User = apps.get_model("auth", "User")
    Tournament = apps.get_model("tournament", "Tournament")
    Table = apps.get_model("tournament", "Table")
    StaffRole = apps.get_model("tournament", "StaffRole")
    staff = list(User.objects.filter(is_staff=True, is_superuser=False))
    referees = list(User.objects.filter(groups__name="Head referees"))
    roles = []
    for tournament in Tournament.objects.all():
        roles += [StaffRole(tournament=tournament, user=u, role="organizer") for u in staff]
        roles += [StaffRole(tournament=tournament, user=u, role="head_referee") for u in referees]
        bankers = {
            t.banker_id
            for t in Table.objects.filter(round__tournament=tournament, banker__isnull=False)
        }
        roles += [StaffRole(tournament=tournament, user_id=b, role="banker") for b in bankers]
    StaffRole.objects.bulk_create(roles, ignore_conflicts=True)


def fill_pass_codes(apps, schema_editor):
    """A code per existing player, one by one (a callable default gives every row the same)."""
    Player = apps.get_model("tournament", "Player")
    taken = set()
    for player in Player.objects.filter(pass_code__isnull=True).only("pk").iterator():
        code = tournament.models.new_pass_code()
        while code in taken:
            code = tournament.models.new_pass_code()
        taken.add(code)
        Player.objects.filter(pk=player.pk).update(pass_code=code)


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0002_formats_links_versions'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Incident',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('level', models.CharField(choices=[('note', 'Note'), ('warning', 'Warning'), ('deduction', 'Point deduction'), ('disqualification', 'Disqualification')], max_length=20, verbose_name='level')),
                ('points', models.PositiveSmallIntegerField(default=0, verbose_name='points deducted')),
                ('round_number', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='round')),
                ('table_number', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='table')),
                ('note', models.TextField(verbose_name='what happened')),
                ('recorded_at', models.DateTimeField(auto_now_add=True, verbose_name='recorded')),
            ],
            options={
                'verbose_name': 'incident',
                'verbose_name_plural': 'incidents',
                'ordering': ['tournament', 'player', 'recorded_at'],
            },
            bases=(tournament.models.InTournament, models.Model),
        ),
        migrations.CreateModel(
            name='StaffRole',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('organizer', 'Organizer'), ('desk', 'Desk'), ('head_referee', 'Head referee'), ('banker', 'Banker')], max_length=20, verbose_name='role')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='appointed')),
            ],
            options={
                'verbose_name': 'staff role',
                'verbose_name_plural': 'staff roles',
                'ordering': ['tournament', 'role', 'user__username'],
            },
            bases=(tournament.models.InTournament, models.Model),
        ),
        migrations.AddField(
            model_name='bankerlink',
            name='carried_from',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='carried_to', to='tournament.bankerlink', verbose_name='carried over from'),
        ),
        migrations.AddField(
            model_name='player',
            name='alternate_rank',
            field=models.PositiveSmallIntegerField(blank=True, help_text='A standby, not seated: replaces a no-show before a round starts, the best-ranked first.', null=True, verbose_name='alternate (rank)'),
        ),
        migrations.AddField(
            model_name='player',
            name='erased_at',
            field=models.DateTimeField(blank=True, help_text='Name, club, e-mail and note were replaced by a pseudonym (on request or after the retention period); the results stay.', null=True, verbose_name='anonymized'),
        ),
        migrations.AddField(
            model_name='player',
            name='pass_code',
            field=models.CharField(editable=False, max_length=8, null=True),
        ),
        migrations.RunPython(fill_pass_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='player',
            name='pass_code',
            field=models.CharField(default=tournament.models.new_pass_code, editable=False, help_text="Opens the player's own page (where to sit, results) without a login. A new code makes the old one (and its printed card) useless.", max_length=8, unique=True, verbose_name='personal code'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='larger_tables',
            field=models.BooleanField(default=False, help_text='Where the numbers do not divide, some tables get one player more (official tournament rules: tables of 4, and 5) instead of one less.', verbose_name='tables of the size or one more'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='public_base_url',
            field=models.URLField(blank=True, help_text='How phones in the hall reach this site, e.g. https://meisterschaft.example.org; QR codes and links on prints use it. Empty: the address the print page was opened with.', verbose_name='public address'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='retention_months',
            field=models.PositiveSmallIntegerField(blank=True, help_text='Months after the tournament day when its players are anonymized (names, clubs, e-mail and notes replaced; results stay). Empty: kept until erased by hand.', null=True, verbose_name="keep players' data (months)"),
        ),
        migrations.AddField(
            model_name='tournament',
            name='search_engines_may_index',
            field=models.BooleanField(default=False, help_text='Off: the public pages ask search engines not to list them (noindex).', verbose_name='search engines may index the public pages'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='strict_cash',
            field=models.BooleanField(default=False, help_text="Every payment is booked (ledger mode): a payment beyond a player's cash is refused instead of only warned about. Applies to games started afterwards.", verbose_name='strict cash tracking'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(condition=models.Q(('alternate_rank__isnull', False)), fields=('tournament', 'alternate_rank'), name='player_alternate_rank_unique'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.CheckConstraint(condition=models.Q(('alternate_rank__isnull', True), ('alternate_rank__gte', 1), _connector='OR'), name='player_alternate_rank_gte_1'),
        ),
        migrations.AddField(
            model_name='incident',
            name='player',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='incidents', to='tournament.player', verbose_name='player'),
        ),
        migrations.AddField(
            model_name='incident',
            name='recorded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='recorded by'),
        ),
        migrations.AddField(
            model_name='incident',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='incidents', to='tournament.tournament', verbose_name='tournament'),
        ),
        migrations.AddField(
            model_name='staffrole',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='staff', to='tournament.tournament', verbose_name='tournament'),
        ),
        migrations.AddField(
            model_name='staffrole',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='staff_roles', to=settings.AUTH_USER_MODEL, verbose_name='account'),
        ),
        migrations.AddConstraint(
            model_name='staffrole',
            constraint=models.UniqueConstraint(fields=('tournament', 'user', 'role'), name='staff_role_once'),
        ),
        migrations.RunPython(keep_existing_access, migrations.RunPython.noop),
    ]
