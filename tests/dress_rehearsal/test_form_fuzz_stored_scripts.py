"""Script-laden names, clubs, notes and tournament names are stored as the text they are and
shown escaped on every public and private page; a 100 kB name is refused with a clear message.
"""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from referee.models import GameResult
from referee.results import revision_of
from tournament.models import Player, Tournament

from ._form_catalogue import IMG, SCRIPT, _organizer, _player, _settings
from ._form_checks import _assert_escaped_everywhere, _fingerprint, _shows_error

pytestmark = pytest.mark.usefixtures("fast_password_hashing")


def test_script_laden_values_are_stored_and_escaped_everywhere(world):
    """Names, clubs, notes and the tournament's name with script tags are accepted (they are
    just text) and shown escaped on every public and private page."""
    client = _organizer(world)
    evil = f"Anna {SCRIPT}{IMG}"
    player = {**_player(world), "name": evil, "club": f"Club {IMG}"}
    assert client.post("/manage/fuzz/players/add/", player).status_code == 302
    edited = {**_player(world), "name": f"Ben {IMG}", "club": f"Verein {SCRIPT}"}
    assert client.post(f"/manage/fuzz/players/{world.players[1].pk}/edit/",
                       edited).status_code == 302
    settings_ = {**_settings(world), "slug": "fuzz-open", "name": f"Cup {SCRIPT}",
                 "venue": f"Halle {IMG}"}
    answer = client.post("/manage/fuzz-open/settings/", settings_)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    csv = f"name;club\n{SCRIPT} Carla {IMG};Club {SCRIPT}\n".encode()
    answer = client.post("/manage/fuzz-open/players/import/",
                         {"file": SimpleUploadedFile("p.csv", csv, "text/csv")})
    assert answer.status_code == 302, answer.content.decode()[:2000]
    answer = client.post(f"/banker/table/{world.tables[1].pk}/dispute/",
                         {"note": f"Falsch gezählt {SCRIPT}",
                          "revision": revision_of(world.counted.pk)})
    assert answer.status_code == 200 and not _shows_error(answer.content.decode())
    assert GameResult.objects.filter(dispute_note__contains=SCRIPT).exists()
    assert Player.objects.filter(name=evil).exists()
    assert Tournament.objects.filter(name=f"Cup {SCRIPT}").exists()
    _assert_escaped_everywhere(client, "script-laden values")
    answer = client.post(f"/manage/fuzz/results/{world.counted.pk}/resolve/",
                         {"note": f"Entschieden {IMG}",
                          "revision": revision_of(world.counted.pk)})
    assert answer.status_code == 302
    _assert_escaped_everywhere(client, "after the ruling")


def test_a_100_kb_player_name_is_refused_with_a_clear_message(world):
    client = _organizer(world)
    before = _fingerprint()
    answer = client.post("/manage/fuzz-open/players/add/",
                         {**_player(world), "name": "x" * 100_000})
    assert answer.status_code == 200
    body = answer.content.decode()
    assert 'class="errorlist' in body and "100000" in body  # "… has 100000 characters"
    assert _fingerprint() == before


