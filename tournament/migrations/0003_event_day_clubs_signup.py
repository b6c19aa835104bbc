"""Everything since the shipped schema (0002), in one step: staff roles, incidents, alternates,
players' own codes, the official format and players' data rights (issues 14–19); clubs per
tournament and bounded private notes (privacy, issue 26); online sign-up (issue 30).

One file because none of it ever shipped (0003..0007 were steps between two releases; an
installation made from a commit between them has all five and takes this one as applied:
``replaces``). Data is kept for an installation
at 0002: its staff keep their tournaments, every player gets a code, a club used by several
tournaments is copied once per tournament (its players follow their tournament's copy), a club
nobody uses goes, and a private note is cut to 2,000 characters.

PostgreSQL runs this in one transaction and refuses to alter a table with foreign-key checks
still pending from rows changed in it ("pending trigger events"): the checks of the rows the
data steps changed run at once (``checked_now``) before the club and player tables are altered,
going up and going back.
"""

import django.db.models.deletion
import django.db.models.functions.text
import django.db.models.lookups
from django.conf import settings
from django.db import migrations, models

import tournament.models

NOTE_MAX = 2000


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
    for event in Tournament.objects.all():
        roles += [StaffRole(tournament=event, user=u, role="organizer") for u in staff]
        roles += [StaffRole(tournament=event, user=u, role="head_referee") for u in referees]
        bankers = {
            t.banker_id
            for t in Table.objects.filter(round__tournament=event, banker__isnull=False)
        }
        roles += [StaffRole(tournament=event, user_id=b, role="banker") for b in bankers]
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


def split_clubs(apps, schema_editor):
    """A club used by players of several tournaments is copied once per tournament that uses it
    (its players follow their tournament's copy); a club no player uses (an erased player's
    family, one left behind by an edit) names nobody's club and goes."""
    Club = apps.get_model("tournament", "Club")
    Player = apps.get_model("tournament", "Player")
    for club in Club.objects.order_by("pk"):
        tournaments = sorted(set(
            Player.objects.filter(club=club).values_list("tournament_id", flat=True)
        ))
        if not tournaments:
            club.delete()
            continue
        first, *others = tournaments
        club.tournament_id = first
        club.save(update_fields=["tournament"])
        for tournament_id in others:
            copy = Club.objects.create(tournament_id=tournament_id, name=club.name,
                                       short_name=club.short_name)
            Player.objects.filter(club=club, tournament_id=tournament_id).update(club=copy)


def join_clubs(apps, schema_editor):
    """Back to shared clubs: one row per name (the copies' players go to the first)."""
    Club = apps.get_model("tournament", "Club")
    Player = apps.get_model("tournament", "Player")
    kept: dict[str, object] = {}
    for club in Club.objects.order_by("pk"):
        first = kept.setdefault(club.name, club)
        if first.pk != club.pk:
            Player.objects.filter(club=club).update(club=first)
            club.delete()
    checked_now(apps, schema_editor)  # going back, the column is dropped right after


def bound_notes(apps, schema_editor):
    """A private note longer than 2,000 characters (none was ever meant to be) is cut to that
    length before the column is bounded."""
    Player = apps.get_model("tournament", "Player")
    for player in Player.objects.exclude(private_note="").only("pk", "private_note").iterator():
        if len(player.private_note) > NOTE_MAX:
            Player.objects.filter(pk=player.pk).update(
                private_note=player.private_note[:NOTE_MAX])


def checked_now(apps, schema_editor):
    """PostgreSQL: the foreign-key checks deferred by the rows changed so far run now, so that
    their tables can be altered later in this transaction; later rows are deferred again."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        schema_editor.execute("SET CONSTRAINTS ALL DEFERRED")


class Migration(migrations.Migration):

    #: The steps it was written as: an installation made from a commit between them (a
    #: tester's laptop) has them all and takes this one as applied.
    replaces = [
        ('tournament', '0003_event_day'),
        ('tournament', '0004_privacy_clubs_per_tournament'),
        ('tournament', '0005_privacy_clubs_copied'),
        ('tournament', '0006_privacy_clubs_required_notes_bounded'),
        ('tournament', '0007_signup_signups'),
    ]

    dependencies = [
        ('tournament', '0002_formats_links_versions'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Staff roles, incidents, alternates, players' codes, the official format, data rights.
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
        # Clubs per tournament: the column, the copies, then required and unique per tournament;
        # private notes cut, then bounded.
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
        migrations.RunPython(split_clubs, join_clubs),
        migrations.RunPython(bound_notes, migrations.RunPython.noop),
        migrations.RunPython(checked_now, migrations.RunPython.noop),  # (see the docstring)
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
        # Online sign-up: sign-ups, their e-mails and each tournament's settings.
        migrations.CreateModel(
            name='Signup',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('email', models.EmailField(max_length=254, verbose_name='e-mail')),
                ('email_key', models.CharField(editable=False, max_length=254, verbose_name='e-mail (compared)')),
                ('club', models.CharField(blank=True, max_length=120, verbose_name='club')),
                ('public_name_consent', models.BooleanField(default=False, verbose_name='name may be shown publicly')),
                ('language', models.CharField(default='de', max_length=8, verbose_name='language')),
                ('status', models.CharField(choices=[('pending', 'Pending confirmation'), ('registered', 'Registered'), ('waiting', 'Waiting list'), ('withdrawn', 'Withdrawn')], default='pending', max_length=20, verbose_name='status')),
                ('token', models.CharField(default=tournament.models.new_signup_token, editable=False, max_length=64, unique=True, verbose_name='key')),
                ('base_url', models.CharField(blank=True, max_length=200, verbose_name='site address')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='signed up')),
                ('confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='confirmed')),
                ('waiting_since', models.DateTimeField(blank=True, null=True, verbose_name='waiting since')),
                ('withdrawn_at', models.DateTimeField(blank=True, null=True, verbose_name='withdrawn')),
                ('fee_paid_at', models.DateTimeField(blank=True, null=True, verbose_name='entry fee paid')),
                ('player', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='signup', to='tournament.player', verbose_name='player')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='signups', to='tournament.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'sign-up',
                'verbose_name_plural': 'sign-ups',
                'ordering': ['tournament', 'created_at', 'pk'],
            },
            bases=(tournament.models.InTournament, models.Model),
        ),
        migrations.CreateModel(
            name='SignupMail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('confirm', 'Confirm your sign-up'), ('registered', 'Registered'), ('waiting', 'On the waiting list'), ('moved_up', 'Moved up'), ('withdrawn', 'Withdrawn'), ('status', 'Already signed up'), ('reminder', 'Reminder')], max_length=20, verbose_name='kind')),
                ('to', models.EmailField(max_length=254, verbose_name='to')),
                ('language', models.CharField(default='de', max_length=8, verbose_name='language')),
                ('subject', models.CharField(max_length=200, verbose_name='subject')),
                ('body', models.TextField(verbose_name='text')),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('sent', 'Sent'), ('failed', 'Failed')], default='queued', max_length=10, verbose_name='status')),
                ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                ('error', models.CharField(blank=True, max_length=300, verbose_name='last error')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('sent_at', models.DateTimeField(blank=True, null=True, verbose_name='sent')),
                ('signup', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='mails', to='tournament.signup', verbose_name='sign-up')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='outbox', to='tournament.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'e-mail',
                'verbose_name_plural': 'outbox',
                'ordering': ['-created_at', '-pk'],
            },
            bases=(tournament.models.InTournament, models.Model),
        ),
        migrations.CreateModel(
            name='SignupSettings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('is_open', models.BooleanField(default=False, help_text='Players sign themselves up at the public sign-up page while this is on and the tournament is in registration.', verbose_name='sign-up open')),
                ('opens_at', models.DateTimeField(blank=True, null=True, verbose_name='opens at')),
                ('closes_at', models.DateTimeField(blank=True, null=True, verbose_name='closes at')),
                ('capacity', models.PositiveIntegerField(blank=True, help_text='Players the tournament takes (every registered player counts). Empty: no limit.', null=True, verbose_name='places')),
                ('waiting_list', models.BooleanField(default=True, help_text='Once the places are taken, further sign-ups wait and move up in order when a place becomes free.', verbose_name='waiting list')),
                ('entry_fee', models.CharField(blank=True, help_text='Shown on the sign-up page, e.g. “10 €, paid at the check-in desk”.', max_length=200, verbose_name='entry fee')),
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='signup_settings', to='tournament.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'sign-up settings',
                'verbose_name_plural': 'sign-up settings',
            },
            bases=(tournament.models.InTournament, models.Model),
        ),
        migrations.AddIndex(
            model_name='signup',
            index=models.Index(fields=['tournament', 'status', 'waiting_since'], name='tournament__tournam_6df587_idx'),
        ),
        migrations.AddConstraint(
            model_name='signup',
            constraint=models.UniqueConstraint(fields=('tournament', 'email_key'), name='signup_one_per_email'),
        ),
        migrations.AddConstraint(
            model_name='signup',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['pending', 'registered', 'waiting', 'withdrawn'])), name='signup_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='signup',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'waiting'), _negated=True), ('waiting_since__isnull', False), _connector='OR'), name='signup_waiting_has_since'),
        ),
        migrations.AddIndex(
            model_name='signupmail',
            index=models.Index(fields=['status', 'created_at'], name='tournament__status_7fa94e_idx'),
        ),
        migrations.AddConstraint(
            model_name='signupmail',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'reminder')), fields=('signup', 'kind'), name='signup_mail_one_reminder'),
        ),
        migrations.AddConstraint(
            model_name='signupsettings',
            constraint=models.CheckConstraint(condition=models.Q(('opens_at__isnull', True), ('closes_at__isnull', True), ('closes_at__gt', models.F('opens_at')), _connector='OR'), name='signup_settings_closes_after_opening'),
        ),
    ]
