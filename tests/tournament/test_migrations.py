"""An installation at the schema that last shipped (tournament 0002) upgrades with its data:
its staff keep their tournaments, and every player gets a code of their own."""

from __future__ import annotations

import datetime as dt

import pytest
from migrating import SHIPPED, migrate


@pytest.mark.django_db(transaction=True)
def test_an_installation_at_the_shipped_schema_upgrades_with_its_data():
    old = migrate(SHIPPED)
    user_model = old.get_model("auth", "User")
    user_model.objects.create(username="orga", is_staff=True)
    banker = user_model.objects.create(username="bank")
    referee = user_model.objects.create(username="schiri")
    referee.groups.add(old.get_model("auth", "Group").objects.create(name="Head referees"))
    tournament = old.get_model("tournament", "Tournament").objects.create(
        name="Alt", slug="alt", date=dt.date(2026, 3, 1))
    player_model = old.get_model("tournament", "Player")
    for n in range(30):
        player_model.objects.create(tournament=tournament, name=f"Spieler {n}")
    round_ = old.get_model("tournament", "Round").objects.create(tournament=tournament, number=1)
    old.get_model("tournament", "Table").objects.create(round=round_, number=1, banker=banker)

    new = migrate()

    roles = {(r.user.username, r.role)
             for r in new.get_model("tournament", "StaffRole").objects.select_related("user")}
    assert roles == {("orga", "organizer"), ("schiri", "head_referee"), ("bank", "banker")}
    codes = list(new.get_model("tournament", "Player").objects.values_list("pass_code", flat=True))
    assert len(codes) == 30 and all(codes) and len(set(codes)) == 30


@pytest.mark.django_db(transaction=True)
def test_an_installation_made_between_two_releases_upgrades_without_a_step_run_twice():
    """A laptop set up from a commit whose history still had the steps one merged migration
    now replaces (tournament 0003..0007, …) has those names recorded, not the merged one's:
    ``migrate`` takes the merged step as applied instead of creating its tables again."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor
    from django.db.migrations.recorder import MigrationRecorder

    migrate()
    executor = MigrationExecutor(connection)
    merged = [migration for migration in executor.loader.disk_migrations.values()
              if migration.replaces]
    assert {migration.app_label for migration in merged} == {"tournament", "referee", "scoring"}
    recorded = MigrationRecorder.Migration.objects
    for migration in merged:  # the history as such a laptop has it
        recorded.filter(app=migration.app_label, name=migration.name).delete()
        for app, name in migration.replaces:
            recorded.get_or_create(app=app, name=name)

    migrate()  # would fail creating a table that exists if it ran the merged steps again

    applied = set(recorded.values_list("app", "name"))
    assert {(m.app_label, m.name) for m in merged} <= applied
