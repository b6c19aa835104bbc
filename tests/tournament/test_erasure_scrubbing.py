"""Erasure that erases: every name and e-mail the player ever had, in every form the product
writes them ("Gül Müller-Weiß", "Müller-Weiß, Gül", "G.M.W."; whole names only), out of the
audit log's parsed structure and the actions' reasons; once committed the tournament's cached
bodies (Redis scanned, the laptop's file cache emptied) and the print files made before it go,
and a family club of the erased player alone goes with them."""

from __future__ import annotations

import json
import os
import stat

import pytest
from auditlog.models import LogEntry
from django.core.cache import cache
from django.test import Client
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory
from gameplay import make_round, post_after, started_table

from printing import jobs
from referee import answer_cache
from tournament import incidents, privacy
from tournament.models import (
    Club,
    Player,
    Round,
    Tournament,
)
from tournament.players import alternates
from tournament.players import services as players

pytestmark = pytest.mark.django_db


@pytest.fixture
def erasable():
    tournament = TournamentFactory(slug="tilgen", status=Tournament.Status.RUNNING,
                                   table_size=4)
    organizer = OrganizerFactory(tournaments=[tournament])
    client = Client()
    client.force_login(organizer)
    return tournament, organizer, client


def _audit_text(tournament) -> str:
    """Every entry of the tournament's log as stored, and as JSON both ways."""
    parts = []
    for entry in LogEntry.objects.filter(additional_data__tournament=tournament.pk):
        for value in (entry.object_repr, entry.changes_text, entry.changes,
                      entry.additional_data, entry.serialized_data):
            parts += [str(value), json.dumps(value), json.dumps(value, ensure_ascii=False)]
    return "\n".join(parts)


def test_a_name_with_umlauts_leaves_the_audit_log(erasable):
    tournament, organizer, client = erasable
    gul = players.add_player(tournament=tournament, name="Gül Müller", email="gm@example.org")
    client.post(f"/manage/tilgen/players/{gul.pk}/edit/", {
        "name": "Gül Müller", "email": "gm@example.org", "private_note": "neu"})
    assert "Gül Müller" in _audit_text(tournament)
    privacy.erase_player(player=gul, actor=organizer)
    text = _audit_text(tournament)
    assert "Gül" not in text and "G\\u00fcl" not in text and "gm@example.org" not in text


def test_reasons_in_the_audit_log_are_scrubbed(erasable):
    tournament, organizer, _client = erasable
    mia = PlayerFactory(tournament=tournament, name="Mia Müller")
    others = [PlayerFactory(tournament=tournament, name=f"Gast {n}") for n in range(3)]
    _round, _table, game = started_table(tournament, [mia, *others])
    from referee import rulings

    rulings.extra_time(game_id=game.pk, minutes=5, reason="Mia Müller kam zu spät", by=organizer)
    incidents.record_incident(player=mia, level="note", note="MIA MÜLLER hat gestört",
                              by=organizer)
    privacy.erase_player(player=mia, actor=organizer, reason="Antrag von Mia Müller")
    text = _audit_text(tournament).casefold()
    assert "mia müller" not in text and "mia m\\u00fcller" not in text
    erased = LogEntry.objects.get(additional_data__action="player.erase")
    assert erased.additional_data["reason"] == f"Antrag von Anonym {mia.pk}"


def test_every_earlier_name_and_e_mail_is_scrubbed(erasable):
    tournament, organizer, client = erasable
    ada = players.add_player(tournament=tournament, name="Ada Lovelace",
                             email="ada@example.org")
    players.update_player(player=ada, name="Ada King", email="countess@example.org")
    players.update_player(player=ada, name="Ada Byron", email="")
    assert "Ada Lovelace" in _audit_text(tournament)
    privacy.erase_player(player=ada, actor=organizer)
    text = _audit_text(tournament)
    for secret in ("Ada Lovelace", "Ada King", "Ada Byron", "ada@example.org",
                   "countess@example.org"):
        assert secret not in text, secret


def test_an_alternates_swap_and_the_last_name_first_form_are_scrubbed(erasable):
    tournament, organizer, _client = erasable
    lukas = PlayerFactory(tournament=tournament, name="Lukas Koch")
    others = [PlayerFactory(tournament=tournament, name=f"Gast {n}") for n in range(3)]
    standby = PlayerFactory(tournament=tournament, name="Ben Standby", alternate_rank=1,
                            checked_in=False)
    round_, _tables = make_round(tournament, 1, [[lukas, *others]], status=Round.Status.SEATED)
    alternates.replace_no_show(round_=round_, absent=lukas.pk, alternate=standby.pk,
                               actor=organizer)
    incidents.record_incident(player=lukas, level="note", note="Koch, Lukas (L.K.) fehlte",
                              by=organizer)
    assert "Lukas Koch → Ben Standby" in _audit_text(tournament)
    privacy.erase_player(player=lukas, actor=organizer)
    text = _audit_text(tournament)
    assert "Lukas" not in text and "L.K." not in text
    assert "Ben Standby" in text  # the other player's name stays
    assert "Koch" not in incidents.incidents_of(Player.objects.get(pk=lukas.pk))[0].note


def test_initials_are_replaced_only_as_a_whole():
    secrets = privacy.name_forms("Gül Müller-Weiß")
    assert set(secrets) == {"Gül Müller-Weiß", "Müller-Weiß, Gül", "G.M.W."}
    assert privacy.scrub("G.M.W. und A.G.M.W. und G.M.W.X", secrets, "Anonym 1") == (
        "Anonym 1 und A.G.M.W. und G.M.W.X")
    assert privacy.scrub("GÜL MÜLLER-WEISS", secrets, "A") == "GÜL MÜLLER-WEISS"  # ß ≠ SS
    assert privacy.scrub("gül müller-weiß", secrets, "A") == "A"


def test_only_whole_names_are_replaced_and_another_players_first_name_stays(erasable):
    tournament, organizer, _client = erasable
    anna = players.add_player(tournament=tournament, name="Anna")
    players.add_player(tournament=tournament, name="Anna Becker")
    players.add_player(tournament=tournament, name="Johanna Kochs")
    players.update_player(player=anna, name="Anna Koch")
    privacy.erase_player(player=anna, actor=organizer)
    text = _audit_text(tournament)
    assert "Anna Koch" not in text
    assert "Anna Becker" in text and "Johanna Kochs" in text
    assert privacy.scrub("Johanna Kochs und Anna Koch.", ["Anna Koch"], "X") == (
        "Johanna Kochs und X.")


def test_erasure_drops_the_cached_record_and_the_print_files(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.MEDIA_ROOT = str(tmp_path)
    tournament = TournamentFactory(slug="cache", status=Tournament.Status.RUNNING, table_size=4)
    gul = PlayerFactory(tournament=tournament, name="Gül Öztürk")
    others = [PlayerFactory(tournament=tournament, name=f"Gast {n}") for n in range(3)]
    banker = UserFactory(username="bank-cache")
    _round, table, game = started_table(tournament, [gul, *others], banker=banker)
    post_after(game, {"type": "pause", "reason": "Gül Öztürk holt Wasser"}, 3)
    staff = Client()
    staff.force_login(banker)
    first = staff.get(f"/api/v1/tables/{table.pk}/record")
    assert "Gül Öztürk" in first.content.decode()
    job = jobs.create(tournament=tournament, round_=None, document="standings", lang="de",
                      base_url="http://hall.example", filename="standings.pdf", total=1)
    assert jobs.run(job, tournament_id=tournament.pk, round_number=None, document="standings")
    path = jobs.path_for(job)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600  # the server's user only
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700

    organizer = OrganizerFactory(tournaments=[tournament])
    with django_capture_on_commit_callbacks(execute=True):  # what waits for the commit
        privacy.erase_player(player=gul, actor=organizer)

    again = staff.get(f"/api/v1/tables/{table.pk}/record")
    assert "Gül" not in again.content.decode() and "Öztürk" not in again.content.decode()
    assert again["ETag"] != first["ETag"]
    kept = [cache.get(answer_cache.record_key(table.pk, private=flag)) for flag in (True, False)]
    assert all("Öztürk".encode() not in getattr(body, "body", b"") for body in kept)
    assert not path.exists()
    assert jobs.read(job)["state"] == jobs.FAILED and jobs.read(job)["error"] == jobs.ERASED
    office = Client()
    office.force_login(organizer)
    page = office.get(f"/manage/cache/print/jobs/{job}/").content.decode()
    assert "Daten eines Spielers anonymisiert" in page  # the job's page says why, in German


@pytest.mark.redis
def test_a_prefix_is_deleted_from_a_real_redis_and_the_generations_stay():
    """What an erasure calls (``config.cache.delete_prefixed``), against Redis itself."""
    from django.core.cache import caches
    from django.test import override_settings

    from config.cache import delete_prefixed

    url = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
    real = {"default": {"BACKEND": "config.cache.ResilientRedisCache", "LOCATION": url,
                        "KEY_PREFIX": f"test-erase-{os.getpid()}"}}
    with override_settings(CACHES=real):
        redis = caches["default"]
        redis.set_many({"scoring:ka:fragment:player:1:de:3": b"G\xc3\xbcl",
                        "scoring:ka:tables:generation": 3, "scoring:kassel:x": 1,
                        "scoring:k*:y": 2})
        assert delete_prefixed("scoring:ka:", keep=(":generation",)) == 1
        assert redis.get("scoring:ka:fragment:player:1:de:3") is None
        assert redis.get("scoring:ka:tables:generation") == 3
        assert redis.get("scoring:kassel:x") == 1 and redis.get("scoring:k*:y") == 2
        assert delete_prefixed("scoring:k*:") == 1  # a glob character is only itself
        assert redis.get("scoring:kassel:x") == 1
        redis.delete_many(["scoring:ka:tables:generation", "scoring:kassel:x"])


def test_a_cache_that_cannot_list_its_keys_is_emptied(settings, tmp_path):
    """The laptop's file cache names no keys: an erasure empties it (all of it is rebuilt
    from the database) rather than leave a copy of the old name on disk."""
    from django.core.cache import caches
    from django.test import override_settings

    from config.cache import delete_prefixed

    files = {"default": {"BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
                         "LOCATION": str(tmp_path / "cache")}}
    with override_settings(CACHES=files):
        disk = caches["default"]
        disk.set("scoring:ka:fragment", "Gül Öztürk")
        assert delete_prefixed("scoring:ka:") == -1
        assert disk.get("scoring:ka:fragment") is None
        assert not any((tmp_path / "cache").glob("*.djcache"))


def test_an_erased_players_family_club_does_not_linger():
    tournament = TournamentFactory(slug="familie")
    deniz = players.add_player(tournament=tournament, name="Deniz Öztürk", club="Familie Öztürk")
    players.add_player(tournament=tournament, name="Eva Berg", club="Spielfreunde Durlach")
    players.add_player(tournament=tournament, name="Finn Berg", club="Spielfreunde Durlach")
    organizer = OrganizerFactory(tournaments=[tournament])
    privacy.erase_player(player=deniz, actor=organizer)
    assert not Club.objects.filter(name="Familie Öztürk").exists()
    client = Client()
    client.force_login(organizer)
    assert "Familie Öztürk" not in client.get("/manage/familie/players/add/").content.decode()
    assert "Öztürk" not in _audit_text(tournament)
