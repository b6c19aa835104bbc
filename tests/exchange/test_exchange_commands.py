"""`export_tournament` and `import_tournament`: files in, files out, exit codes, and the API
endpoints that do the same for organizers (and nobody else)."""

from __future__ import annotations

import copy
import io
import json

import pytest
from commands import manage
from factories import OrganizerFactory, UserFactory

from exchange import services as exchange
from tournament.models import Player, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def demo(demo_document):
    """The demo championship (rebuilt from its export: seating it anew takes seconds)."""
    return exchange.import_tournament(copy.deepcopy(demo_document))


# --------------------------------------------------------------------------- commands


def test_export_then_import_under_a_new_slug(demo, tmp_path, capsys):
    target = tmp_path / "demo.json"
    assert manage("export_tournament", "demo", "-o", str(target)) == 0
    document = json.loads(target.read_text("utf-8"))
    assert document["format"] == exchange.FORMAT and len(document["players"]) == 36
    assert "36 players" in capsys.readouterr().err

    assert manage("import_tournament", str(target), "--slug", "demo-archiv") == 0
    assert "Imported 'demo-archiv'" in capsys.readouterr().out
    copy_ = Tournament.objects.get(slug="demo-archiv")
    assert copy_.players.count() == 36


def test_export_to_stdout(demo, capsys):
    assert manage("export_tournament", "demo") == 0
    assert json.loads(capsys.readouterr().out)["tournament"]["slug"] == "demo"


def test_unknown_tournament_exits_1(capsys):
    assert manage("export_tournament", "nirgendwo", "-o", "/tmp/never-written.json") == 1
    assert "There is no tournament 'nirgendwo'" in capsys.readouterr().err


def test_a_refused_import_exits_1_and_saves_nothing(demo, tmp_path, capsys):
    document = exchange.export_tournament(demo)
    document["players"].pop()  # seated, but no longer in the document
    target = tmp_path / "broken.json"
    target.write_text(json.dumps(document), "utf-8")
    players = Player.objects.count()
    assert manage("import_tournament", str(target), "--slug", "broken") == 1
    err = capsys.readouterr().err
    assert "is not among the document's players" in err
    assert not Tournament.objects.filter(slug="broken").exists()
    assert Player.objects.count() == players
    # in German on request
    assert manage("import_tournament", str(target), "--slug", "broken", "--lang", "de") == 1
    assert "broken.json" in capsys.readouterr().err


def test_the_same_slug_twice_and_a_missing_file_exit_1(demo, tmp_path, capsys):
    target = tmp_path / "demo.json"
    assert manage("export_tournament", "demo", "-o", str(target)) == 0
    assert manage("import_tournament", str(target)) == 1  # "demo" is taken
    assert "demo" in capsys.readouterr().err
    assert manage("import_tournament", str(tmp_path / "missing.json")) == 1
    assert "missing.json" in capsys.readouterr().err


def test_import_from_stdin(demo, monkeypatch):
    data = exchange.export_json(demo)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert manage("import_tournament", "-", "--slug", "von-stdin") == 0
    assert Tournament.objects.filter(slug="von-stdin").exists()


# --------------------------------------------------------------------------- API


def test_the_api_exports_and_imports_for_organizers(client, demo):
    client.force_login(OrganizerFactory())
    response = client.get("/api/v1/tournaments/demo/export")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="demo-')
    document = json.loads(response.content)
    assert document["format"] == exchange.FORMAT

    created = client.post("/api/v1/tournaments/import?slug=demo-api", data=document,
                          content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["slug"] == "demo-api" and created.json()["players"] == 36

    upload = io.BytesIO(response.content)
    upload.name = "demo.json"
    created = client.post("/api/v1/tournaments/import?slug=demo-upload", {"file": upload})
    assert created.status_code == 201, created.content


def test_the_api_refuses_a_bad_document_with_both_languages(client, demo):
    client.force_login(OrganizerFactory())
    document = exchange.export_tournament(demo)
    document["rounds"][0]["tables"][0]["seats"].append("999999")
    response = client.post("/api/v1/tournaments/import?slug=kaputt", data=document,
                           content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "import_refused"
    assert "“999999” is not among the document's players" in body["message_en"]
    assert body["message_de"]
    assert not Tournament.objects.filter(slug="kaputt").exists()
    assert client.post("/api/v1/tournaments/import", data="{", content_type="application/json"
                       ).status_code == 400


@pytest.mark.parametrize("who", ["anonymous", "banker"])
def test_the_api_is_for_organizers_only(client, demo, who):
    if who == "banker":
        client.force_login(UserFactory(username="banker1"))
    assert client.get("/api/v1/tournaments/demo/export").status_code == 403
    document = exchange.export_tournament(demo)
    response = client.post("/api/v1/tournaments/import?slug=x", data=document,
                           content_type="application/json")
    assert response.status_code == 403
    assert not Tournament.objects.filter(slug="x").exists()


def test_the_endpoints_are_in_the_openapi_schema(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    assert "/api/v1/tournaments/{slug}/export" in schema["paths"]
    assert "post" in schema["paths"]["/api/v1/tournaments/import"]


# --------------------------------------------------------------------------- organizer pages


def test_the_organizer_downloads_and_uploads_on_pages(client, demo):
    client.force_login(OrganizerFactory())
    download = client.get("/manage/demo/export/")
    assert download.status_code == 200 and download["Content-Type"] == "application/json"
    assert "attachment" in download["Content-Disposition"]
    form = client.get("/manage/tournaments/import/")
    assert form.status_code == 200 and 'enctype="multipart/form-data"' in form.content.decode()

    upload = io.BytesIO(download.content)
    upload.name = "demo.json"
    response = client.post("/manage/tournaments/import/", {"file": upload, "slug": "demo-neu"})
    assert response.status_code == 302 and response["Location"] == "/manage/demo-neu/"
    assert Tournament.objects.get(slug="demo-neu").players.count() == 36

    broken = json.loads(download.content)
    broken["rounds"][0]["tables"][0]["game"] = None
    broken["rounds"][0]["tables"][0]["result"] = {"status": "confirmed", "placements": []}
    upload = io.BytesIO(json.dumps(broken).encode())
    upload.name = "broken.json"
    response = client.post("/manage/tournaments/import/", {"file": upload, "slug": "kaputt"})
    assert response.status_code == 400
    assert "a result is given but no game record" in response.content.decode()
    assert not Tournament.objects.filter(slug="kaputt").exists()


def test_import_page_is_for_organizers_only(client):
    assert client.get("/manage/tournaments/import/").status_code == 302
    client.force_login(UserFactory(username="banker1"))
    assert client.get("/manage/tournaments/import/").status_code == 403
