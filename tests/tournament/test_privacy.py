"""Issue 15, players' data rights (DSGVO): erase a player on request everywhere while results
stay consistent, staff-only and audit-logged; export one player's data; consent changes take
effect at once everywhere; a retention period anonymizes a tournament's players; public pages
are noindex unless the organizer opts in; a privacy notice in German and English."""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
import subprocess

import pytest
from auditlog.models import LogEntry
from django.conf import settings
from django.test import Client
from django.utils import timezone
from factories import (
    ClubFactory,
    OrganizerFactory,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    appoint,
)
from gameplay import make_round, play
from require import missing

from exchange import services as exchange
from printing.documents import render
from scoring.standings.selectors import placed_rows
from scoring.standings.services import recompute_standings
from tournament import privacy, tournaments
from tournament.models import Player, StaffRole, Tournament

pytestmark = pytest.mark.django_db

NAME, EMAIL = "Erika Mustermann", "erika@example.org"


@pytest.fixture
def world():
    tournament = TournamentFactory(slug="dsgvo", status=Tournament.Status.RUNNING, table_size=4,
                                   finalists=4)
    club = ClubFactory(name="Schlossallee-Freunde Durlach", short_name="SFD")
    erika = PlayerFactory(tournament=tournament, name=NAME, club=club, email=EMAIL,
                          private_note="möchte am Fenster sitzen", public_name_consent=True)
    others = [PlayerFactory(tournament=tournament, name=f"Mitspieler {n}",
                            public_name_consent=True) for n in range(3)]
    _round, tables = make_round(tournament, 1, [[erika, *others]])
    play(tables[0], {erika: 4000, others[0]: 3000, others[1]: 2000, others[2]: 1000})
    organizer = OrganizerFactory(tournaments=[tournament])
    client = Client()
    client.force_login(organizer)
    # An edit before the erasure: the audit log keeps "before → after" with the name.
    client.post(f"/manage/dsgvo/players/{erika.pk}/edit/", {
        "name": NAME, "club": club.name, "email": EMAIL, "public_name_consent": "on",
        "private_note": "Fensterplatz"})
    return tournament, erika, tables[0], client


def _public_text(tournament, player, table) -> str:
    anonymous = Client()
    paths = [f"/t/{tournament.slug}/", f"/t/{tournament.slug}/tables/1/",
             f"/t/{tournament.slug}/players/{player.pk}/",
             f"/t/{tournament.slug}/live/standings", f"/t/{tournament.slug}/screen",
             f"/api/v1/tables/{table.pk}/state", f"/api/v1/tournaments/{tournament.slug}/standings",
             f"/api/v1/tournaments/{tournament.slug}/players/",
             # the tables page and its cards (each cached under its version): the leader's name
             f"/t/{tournament.slug}/tables/", f"/t/{tournament.slug}/live/cards?n={table.number}"]
    return "\n".join(anonymous.get(path).content.decode() for path in paths)


def _standings(tournament) -> list[tuple]:
    return [(scope, row.player_id, row.points, row.rank) for scope in ("live", "public")
            for row in placed_rows(tournament, scope=scope)]


def _pdf_text(tournament) -> str:
    if shutil.which("pdftotext") is None:
        missing("needs pdftotext (apt-get install poppler-utils)")
    out = io.BytesIO()
    render("standings", out, tournament=tournament)
    return subprocess.run(["pdftotext", "-", "-"], input=out.getvalue(), capture_output=True,
                          check=True).stdout.decode()


def test_erasing_a_player_replaces_the_name_everywhere_and_keeps_the_results(world):
    tournament, erika, table, organizer = world
    recompute_standings(tournament_id=tournament.pk)  # (the test's transaction never commits)
    before_public = _public_text(tournament, erika, table)  # warms every cache
    assert NAME in before_public
    assert NAME in _pdf_text(tournament)
    rows_before = _standings(tournament)
    assert any(NAME in (entry.object_repr + json.dumps(entry.changes))
               for entry in LogEntry.objects.all())

    answer = organizer.post(f"/manage/dsgvo/players/{erika.pk}/erase/",
                            {"reason": "Bitte per E-Mail vom 24.11."})
    assert answer.status_code == 302
    erika.refresh_from_db()
    assert erika.name == f"Anonym {erika.pk}" and erika.erased_at is not None
    assert (erika.club, erika.email, erika.private_note) == (None, "", "")
    assert not erika.public_name_consent

    after = _public_text(tournament, erika, table)
    assert NAME not in after and "Mustermann" not in after and "SFD" not in after
    document = exchange.export_json(tournament)
    document = document.decode() if isinstance(document, bytes) else document
    assert NAME not in document and EMAIL not in document
    assert NAME not in _pdf_text(tournament)  # a PDF made later
    for entry in LogEntry.objects.all():
        text = entry.object_repr + json.dumps(entry.changes) + (entry.changes_text or "")
        assert NAME not in text and EMAIL not in text, entry.pk
    erased = LogEntry.objects.get(additional_data__action="player.erase")
    assert erased.actor is not None and erased.additional_data["reason"].startswith("Bitte")
    recompute_standings(tournament_id=tournament.pk)
    rows_after = _standings(tournament)
    assert rows_after == rows_before and len(rows_before) == 8  # results and standings stay
    again = organizer.post(f"/manage/dsgvo/players/{erika.pk}/erase/")
    assert again.status_code == 409


@pytest.mark.parametrize("role", [None, StaffRole.Role.DESK, StaffRole.Role.HEAD_REFEREE])
def test_only_organizers_erase_or_export_a_player(world, role):
    tournament, erika, _table, _organizer = world
    client = Client()
    if role is not None:
        client.force_login(appoint(UserFactory(), role, tournament))
    for path in (f"/manage/dsgvo/players/{erika.pk}/erase/",
                 f"/manage/dsgvo/players/{erika.pk}/data/"):
        answer = client.post(path) if path.endswith("erase/") else client.get(path)
        assert answer.status_code in (302, 403), (path, answer.status_code)
        assert answer.status_code == 403 or "login" in answer["Location"]
    erika.refresh_from_db()
    assert erika.name == NAME


def test_a_players_data_is_exported_as_json(world):
    _tournament, erika, _table, organizer = world
    answer = organizer.get(f"/manage/dsgvo/players/{erika.pk}/data/")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    assert "attachment" in answer["Content-Disposition"]
    data = json.loads(answer.content)
    assert data["player"]["name"] == NAME and data["player"]["email"] == EMAIL
    assert data["games"] == [{"round": 1, "table": 1, "seat": 1, "place": 1,
                              "net_worth": data["games"][0]["net_worth"],
                              "result": "confirmed"}]


def test_withdrawn_consent_applies_at_once_everywhere(world):
    tournament, erika, table, organizer = world
    assert NAME in _public_text(tournament, erika, table)  # every cache warm
    answer = organizer.post(f"/manage/dsgvo/players/{erika.pk}/edit/", {
        "name": NAME, "club": "Schlossallee-Freunde Durlach", "email": EMAIL,
        "private_note": ""})  # the consent box unticked
    assert answer.status_code == 302
    after = _public_text(tournament, erika, table)
    assert NAME not in after
    assert "E.M." in after


def test_retention_anonymizes_a_finished_tournament_after_its_months(world):
    tournament, erika, _table, _organizer = world
    today = timezone.localdate()
    Tournament.objects.filter(pk=tournament.pk).update(
        status=Tournament.Status.FINISHED, retention_months=12,
        date=today - dt.timedelta(days=400))
    kept = TournamentFactory(slug="neu", status=Tournament.Status.FINISHED, retention_months=12,
                             date=today - dt.timedelta(days=100))
    keep = PlayerFactory(tournament=kept, name="Bleibt Erhalten")
    assert privacy.anonymize_expired(today=today) == 4
    assert privacy.anonymize_expired(today=today) == 0  # idempotent
    erika.refresh_from_db()
    assert erika.name.startswith("Anonym ") and erika.erased_at
    keep.refresh_from_db()
    assert keep.name == "Bleibt Erhalten"


def test_the_retention_sweep_is_a_beat_task_and_a_laptop_job():
    from config.celery import app
    from laptop.scheduler import Scheduler

    entry = settings.CELERY_BEAT_SCHEDULE["anonymize-expired"]
    app.loader.import_default_modules()
    assert entry["task"] == "tournament.anonymize_expired" in app.tasks
    scheduler = Scheduler(backups=None, deadline_seconds=1, standings_seconds=15)
    assert "retention" in [job.name for job in scheduler.jobs]


def test_retention_is_a_tournament_setting(world):
    tournament, _erika, _table, organizer = world
    tournaments.update_tournament(tournament=tournament, retention_months=6)
    tournament.refresh_from_db()
    assert tournament.retention_months == 6
    with pytest.raises(tournaments.SettingsInvalid):
        tournaments.update_tournament(tournament=tournament, retention_months=999)


def test_public_pages_are_noindex_unless_the_organizer_opts_in(world):
    tournament, erika, _table, _organizer = world
    for path in ("/", "/t/dsgvo/", f"/t/dsgvo/players/{erika.pk}/", "/t/dsgvo/live/standings"):
        answer = Client().get(path)
        assert "noindex" in answer["X-Robots-Tag"], path
    assert '<meta name="robots" content="noindex' in Client().get("/t/dsgvo/").content.decode()
    tournaments.update_tournament(tournament=tournament, search_engines_may_index=True)
    answer = Client().get("/t/dsgvo/")
    assert "X-Robots-Tag" not in answer
    assert 'name="robots"' not in answer.content.decode()


def test_the_privacy_notice_is_in_german_and_english_and_linked_from_every_page(world):
    page = Client().get("/privacy/").content.decode()
    assert 'lang="de"' in page and 'lang="en"' in page
    assert "Was öffentlich ist" in page and "What is public" in page
    assert "Einwilligung" in page and "consent" in page
    for path in ("/", "/t/dsgvo/", "/login/"):
        assert 'href="/privacy/"' in Client().get(path).content.decode(), path
    assert Player.objects.filter(name=NAME).exists()


def test_erasing_also_scrubs_the_games_notes_and_reasons_and_the_record_still_replays(world):
    """Staff write names in their own words (a dispute note, a pause's reason): those go too."""
    from referee.models import GameEvent, GameResult

    tournament, erika, table, organizer = world
    game = table.game
    result = GameResult.objects.get(game=game)
    GameResult.objects.filter(pk=result.pk).update(
        dispute_note=f"{NAME} bestreitet die Zählung", resolved_note=f"Mit {NAME} geklärt")
    start = GameEvent.objects.get(game=game, type="start")
    GameEvent.objects.filter(pk=start.pk).update(
        data={**start.data, "reason": f"Wartet auf {NAME}"})
    placements_before = list(result.placements.order_by("place").values_list("player", "place"))
    organizer.post(f"/manage/dsgvo/players/{erika.pk}/erase/", {"reason": "Auf Wunsch"})

    result.refresh_from_db()
    start.refresh_from_db()
    pseudonym = f"Anonym {erika.pk}"
    assert result.dispute_note == f"{pseudonym} bestreitet die Zählung"
    assert result.resolved_note == f"Mit {pseudonym} geklärt"
    assert start.data["reason"] == f"Wartet auf {pseudonym}"
    record = Client().get(f"/api/v1/tables/{table.pk}/record").content.decode()
    document = exchange.export_json(tournament)
    document = document.decode() if isinstance(document, bytes) else document
    assert NAME not in record and NAME not in document
    assert list(result.placements.order_by("place").values_list("player", "place")) == (
        placements_before)
    # reasons are words, not figures: the import replays every record and refuses one that
    # contradicts its stored placements
    copy_ = exchange.import_tournament(json.loads(document), slug="dsgvo-kopie")
    assert copy_.rounds.get().tables.get().game.result.placements.count() == 4
