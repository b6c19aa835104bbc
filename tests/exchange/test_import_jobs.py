"""Issue 15: a big tournament import runs as a job (a Celery task queued on commit), with its
progress on the organizer's page and in the API; small documents still import at once."""

from __future__ import annotations

import copy
import io
import json
import time

import pytest
from django.conf import settings
from django.test import Client, override_settings
from factories import OrganizerFactory, PlayerFactory, TournamentFactory
from gameplay import make_round, play

from exchange import jobs
from exchange import services as exchange
from tournament import access
from tournament.models import Tournament


def _document() -> bytes:
    """A played tournament's export, padded past the inline limit with JSON whitespace."""
    tournament = TournamentFactory(slug="gross", status=Tournament.Status.RUNNING, table_size=4,
                                   finalists=4)
    players = [PlayerFactory(tournament=tournament, name=f"Spielerin {n}") for n in range(8)]
    _round, tables = make_round(tournament, 1, [players[:4], players[4:]])
    for table, group in zip(tables, (players[:4], players[4:]), strict=True):
        play(table, {p: 1000 + 10 * n for n, p in enumerate(group)})
    text = json.dumps(exchange.export_tournament(tournament))
    return (text + " " * (jobs.INLINE_BYTES + 10 - len(text))).encode()


def _upload(data: bytes, name: str = "gross.json"):
    upload = io.BytesIO(data)
    upload.name = name
    return upload


@pytest.mark.django_db(transaction=True)
def test_a_big_upload_runs_as_a_job_with_progress_on_the_page():
    data = _document()
    organizer = OrganizerFactory()
    client = Client()
    client.force_login(organizer)
    answer = client.post("/manage/tournaments/import/", {"file": _upload(data), "slug": "neu"})
    assert answer.status_code == 302 and "/manage/tournaments/import/jobs/" in answer["Location"]
    job_id = answer["Location"].rstrip("/").rsplit("/", 1)[-1]
    job = jobs.read(job_id)  # embedded default: the task ran in-process on commit
    assert job["state"] == jobs.DONE, job
    assert (job["done"], job["total"]) == (2, 2)
    assert Tournament.objects.get(slug="neu").players.count() == 8
    page = client.get(answer["Location"]).content.decode()
    assert "data-import-done" in page and "/manage/neu/" in page
    assert not jobs.path_for(job_id).exists()  # the upload is not kept
    stranger = Client()
    stranger.force_login(OrganizerFactory(username="jemand"))
    assert stranger.get(answer["Location"]).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_a_refused_job_says_why_in_both_languages_and_imports_nothing():
    document = json.loads(_document())
    document["rounds"][0]["tables"][0]["seats"].append("999999")
    data = json.dumps(document).ljust(jobs.INLINE_BYTES + 10).encode()
    client = Client()
    client.force_login(OrganizerFactory())
    answer = client.post("/manage/tournaments/import/", {"file": _upload(data), "slug": "kaputt"})
    job_id = answer["Location"].rstrip("/").rsplit("/", 1)[-1]
    job = jobs.read(job_id)
    assert job["state"] == jobs.FAILED
    assert "999999" in job["message_en"] and "999999" in job["message_de"]
    assert job["message_de"] != job["message_en"]
    assert not Tournament.objects.filter(slug="kaputt").exists()
    page = client.get(answer["Location"]).content.decode()
    assert "data-import-refused" in page


@pytest.mark.django_db
def test_a_job_is_its_starters_on_the_page_and_in_the_api():
    """One rule (access.owns_job) for both: the starter and the superuser see the job; another
    organizer gets a 404 (a job id is no secret), a caller without a login the API's 403."""
    starter = OrganizerFactory()
    job_id = jobs.create(data=b"{}", slug="neu", user=starter)
    api = f"/api/v1/tournaments/import/jobs/{job_id}"
    page = f"/manage/tournaments/import/jobs/{job_id}/"
    for user, expected in ((starter, 200), (OrganizerFactory(username="jemand"), 404),
                           (OrganizerFactory(username="chef", is_superuser=True), 200)):
        client = Client()
        client.force_login(user)
        assert client.get(api).status_code == expected, user
        assert client.get(page).status_code == expected, user
    assert Client().get(api).status_code == 403
    assert access.owns_job(starter, jobs.read(job_id)) and not access.owns_job(starter, None)


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_the_api_queues_a_big_import_for_the_real_worker(celery_worker):
    # The job's state is in the cache the worker writes (its prefix, not this test's own).
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = celery_worker["cache_prefix"]
    with override_settings(CACHES=caches):
        _api_import_through_the_worker()


def _api_import_through_the_worker() -> None:
    data = _document()
    client = Client()
    client.force_login(OrganizerFactory())
    answer = client.post("/api/v1/tournaments/import?slug=vom-worker", data=data,
                         content_type="application/json")
    assert answer.status_code == 202, answer.content[:300]
    url = answer.json()["url"]
    assert answer["Location"] == url
    deadline = time.monotonic() + 60
    state = {}
    while time.monotonic() < deadline:
        state = client.get(url).json()
        if state["state"] in (jobs.DONE, jobs.FAILED):
            break
        time.sleep(0.3)
    assert state["state"] == jobs.DONE, state
    assert state["result_slug"] == "vom-worker" and state["total"] == 2
    assert Tournament.objects.get(slug="vom-worker").players.count() == 8
