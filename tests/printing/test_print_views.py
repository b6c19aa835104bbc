"""The organizers' print page: staff only, direct (streamed) downloads for small documents, a
background job with progress and a download for large batches (eager without Redis)."""

from __future__ import annotations

import pytest
from factories import OrganizerFactory, UserFactory, seated_table
from pdfs import body

from printing import documents as printing
from printing import jobs
from tournament.models import BankerLink

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media")]


def test_staff_only(client, table):
    urls = ["/manage/ka/print/", "/manage/ka/print/1/", "/manage/ka/print/1/scoresheets.pdf",
            "/manage/ka/print/1/cards.pdf"]
    for url in urls:
        assert client.get(url).status_code == 302  # to the login
    client.force_login(UserFactory())
    for url in urls:
        assert client.get(url).status_code == 403  # logged in, but no role in this tournament
    assert client.post("/manage/ka/print/1/cards/job/").status_code == 403
    assert not BankerLink.objects.filter(table=table).exists()  # nothing printed, no link issued


def test_the_print_page_links_every_document(organizer, table):
    response = organizer.get("/manage/ka/print/")
    assert response.status_code == 302 and response["Location"].endswith("/manage/ka/print/1/")
    page = organizer.get("/manage/ka/print/1/").content.decode()
    for key in printing.DOCUMENTS:
        assert f'data-document="{key}"' in page
        assert f'href="/manage/ka/print/1/{key}.pdf"' in page
        assert f'href="/manage/ka/print/1/{key}.pdf?lang=en"' in page
    assert "https://mcs.example.org" in page  # where the QR codes point


def test_direct_download_is_a_streamed_pdf(organizer, table):
    response = organizer.get("/manage/ka/print/1/scoresheets.pdf")
    assert response.status_code == 200
    assert response.streaming and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="ka-round-1-scoresheets.pdf"'
    data = body(response)
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    english = organizer.get("/manage/ka/print/1/seating-names.pdf?lang=en")
    assert english["Content-Disposition"].endswith('ka-round-1-seating-names-en.pdf"')
    assert body(english).startswith(b"%PDF-")


def test_unknown_document_language_or_round(organizer, table):
    assert organizer.get("/manage/ka/print/1/menu.pdf").status_code == 404
    assert organizer.get("/manage/ka/print/1/scoresheets.pdf?lang=fr").status_code == 404
    assert organizer.get("/manage/ka/print/9/").status_code == 404
    assert organizer.get("/manage/nope/print/").status_code == 404


def test_large_batches_go_to_the_background(organizer, table, settings):
    settings.PRINT_DIRECT_MAX_PAGES = 0
    page = organizer.get("/manage/ka/print/1/").content.decode()
    assert 'href="/manage/ka/print/1/scoresheets.pdf"' not in page
    assert 'action="/manage/ka/print/1/scoresheets/job/"' in page
    assert 'href="/manage/ka/print/1/seating.pdf"' in page  # not a batch: always direct


def test_background_job_runs_in_process_and_offers_the_file(organizer, table):
    response = organizer.post("/manage/ka/print/1/cards/job/", {"lang": "en"})
    assert response.status_code == 302
    job_url = response["Location"]
    job_id = job_url.rstrip("/").rsplit("/", 1)[1]
    state = jobs.read(job_id)
    assert state["state"] == "done" and state["done"] == state["total"] == 1
    assert state["filename"] == "ka-round-1-cards-en.pdf"
    page = organizer.get(job_url).content.decode()
    assert f'href="/manage/ka/print/jobs/{job_id}/file"' in page
    fragment = organizer.get(f"/manage/ka/print/jobs/{job_id}/progress").content.decode()
    assert 'data-state="done"' in fragment and "hx-trigger" not in fragment
    download = organizer.get(f"/manage/ka/print/jobs/{job_id}/file")
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith("attachment")
    assert body(download).startswith(b"%PDF-")
    listing = organizer.get("/manage/ka/print/1/").content.decode()
    assert f"/manage/ka/print/jobs/{job_id}/" in listing
    # a job belongs to its tournament
    other = seated_table(players=5, tournament_kwargs={"slug": "other"})
    assert other.round.tournament.slug == "other"
    assert organizer.get(f"/manage/other/print/jobs/{job_id}/").status_code == 404
    assert organizer.get(f"/manage/ka/print/jobs/{'0' * 32}/").status_code == 404


def test_a_running_job_polls_its_progress(organizer, table):
    tournament = table.round.tournament
    job_id = jobs.create(tournament=tournament, round_=table.round, document="scoresheets",
                         lang="de", base_url="https://x", filename="x.pdf", total=40)
    jobs.update(job_id, state=jobs.RUNNING, done=10)
    fragment = organizer.get(f"/manage/ka/print/jobs/{job_id}/progress").content.decode()
    assert 'hx-trigger="every 1s"' in fragment
    assert 'value="10" max="40"' in fragment and "25 %" in fragment
    assert organizer.get(f"/manage/ka/print/jobs/{job_id}/file").status_code == 404


def test_the_task_is_idempotent_and_reports_failures(table, monkeypatch):
    from printing import tasks

    tournament = table.round.tournament
    job_id = jobs.create(tournament=tournament, round_=table.round, document="scoresheets",
                         lang="de", base_url="https://x", filename="x.pdf", total=1)
    name = tasks.print_document(job_id, tournament.pk, 1, "scoresheets", "de", "https://x")
    path = jobs.path_for(job_id)
    assert name == path.name and path.read_bytes().startswith(b"%PDF-")
    stamp = path.stat().st_mtime_ns

    def boom(*args, **kwargs):
        raise AssertionError("a job that is done is not redone")

    monkeypatch.setattr(jobs, "render", boom)
    assert tasks.print_document(job_id, tournament.pk, 1, "scoresheets", "de") == name
    assert path.stat().st_mtime_ns == stamp
    # failures are recorded, not raised
    failing = jobs.create(tournament=tournament, round_=table.round, document="scoresheets",
                          lang="de", base_url="https://x", filename="y.pdf", total=1)
    monkeypatch.setattr(jobs, "render", lambda *a, **k: (_ for _ in ()).throw(OSError("disk")))
    assert tasks.print_document(failing, tournament.pk, 1, "scoresheets") is None
    assert jobs.read(failing)["state"] == "failed" and "disk" in jobs.read(failing)["error"]
    assert not list(jobs.folder().glob(".*.part"))
    assert tasks.print_document(failing, 999_999, 1, "scoresheets") is None
    assert "no longer exists" in jobs.read(failing)["error"]


def test_old_job_files_are_pruned(table):
    import os
    import time

    old = jobs.folder() / f"{'a' * 32}.pdf"
    old.write_bytes(b"%PDF-old")
    stale = time.time() - jobs.TTL - 60
    os.utime(old, (stale, stale))
    fresh = jobs.folder() / f"{'b' * 32}.pdf"
    fresh.write_bytes(b"%PDF-new")
    jobs.create(tournament=table.round.tournament, round_=table.round, document="seating",
                lang="de", base_url="https://x", filename="x.pdf", total=1)
    assert not old.exists() and fresh.exists()


def test_a_job_the_broker_cannot_take_fails_at_once_and_says_so(organizer, table, monkeypatch):
    """No sweep redoes a print job: a broker that refuses (a closed port) fails the job."""
    from celery import Celery

    import printing.tasks

    away = Celery("print-outage", broker="redis://127.0.0.1:1/0", set_as_current=False)
    away.conf.broker_transport_options = {"socket_connect_timeout": 0.2}

    @away.task(name="scoring.print_document", shared=False)
    def print_document(*args):
        raise AssertionError("must not run: the broker refused the message")

    monkeypatch.setattr(printing.tasks, "print_document", print_document)
    response = organizer.post("/manage/ka/print/1/cards/job/", {"lang": "en"})
    assert response.status_code == 302
    state = jobs.read(response["Location"].rstrip("/").rsplit("/", 1)[1])
    assert state["state"] == "failed" and "not reachable" in state["error"]


def test_a_print_job_checks_the_tournament_scope_itself(client, table):
    """A desk volunteer cannot fetch a table-card job (bankers' links); the task refuses a job
    whose record names another tournament or whose requester lost the right to print it."""
    from factories import appoint

    from tournament.models import StaffRole

    tournament = table.round.tournament
    desk = appoint(UserFactory(username="desk-eins"), StaffRole.Role.DESK, tournament)
    organizer = OrganizerFactory(tournaments=[tournament])
    cards = jobs.create(tournament=tournament, round_=table.round, document="cards", lang="de",
                        base_url="https://x", filename="c.pdf", total=1, by=organizer.pk)
    client.force_login(desk)
    assert client.get(f"/manage/ka/print/jobs/{cards}/").status_code == 403
    assert client.get(f"/manage/ka/print/jobs/{cards}/file").status_code == 403
    # queued by the desk volunteer for the cards: the task itself refuses
    sneaky = jobs.create(tournament=tournament, round_=table.round, document="cards", lang="de",
                         base_url="https://x", filename="s.pdf", total=1, by=desk.pk)
    assert jobs.run(sneaky, tournament_id=tournament.pk, round_number=1, document="cards") is None
    assert jobs.read(sneaky)["state"] == jobs.FAILED
    # a job of this tournament run against another one
    other = seated_table(players=5, tournament_kwargs={"slug": "other"}).round.tournament
    assert jobs.run(cards, tournament_id=other.pk, round_number=1, document="cards") is None
    assert "does not belong" in jobs.read(cards)["error"]
    # the organizer's own job runs
    mine = jobs.create(tournament=tournament, round_=table.round, document="cards", lang="de",
                       base_url="https://x", filename="m.pdf", total=1, by=organizer.pk)
    assert jobs.run(mine, tournament_id=tournament.pk, round_number=1, document="cards")
