"""Clubs per tournament, step 2: a club used by players of several tournaments is copied once
per tournament that uses it (its players follow their tournament's copy); a club no player uses
(an erased player's family, one left behind by an edit) names nobody's club and goes. A
private note longer than 2,000 characters is cut to that length (0006 bounds it)."""

from django.db import migrations

NOTE_MAX = 2000


def split_clubs(apps, schema_editor):
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


def bound_notes(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    for player in Player.objects.exclude(private_note="").only("pk", "private_note").iterator():
        if len(player.private_note) > NOTE_MAX:
            Player.objects.filter(pk=player.pk).update(
                private_note=player.private_note[:NOTE_MAX])


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0004_privacy_clubs_per_tournament"),
    ]

    operations = [
        migrations.RunPython(split_clubs, join_clubs),
        migrations.RunPython(bound_notes, migrations.RunPython.noop),
    ]
