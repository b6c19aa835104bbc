"""Issue 26, done when: erase a player named "Gül Müller-Weiß" who had an earlier name, a note,
an incident, extra time with her name in the reason and an alternate swap — then search every
page (public and staff), API answer, export, PDF (pdftotext) and the audit log for every form
of both names (as entered, "Last, First", initials, e-mails, her family's club, JSON escapes)
and find none."""

from __future__ import annotations

import datetime as dt
import io
import json
import shutil
import subprocess

import pytest
from auditlog.models import LogEntry
from django.test import Client
from django.utils import timezone
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from require import missing

from printing import jobs
from printing.documents import DOCUMENTS, render
from referee import results as referee_results
from referee import rulings
from referee import services as referee
from referee.results import revision_of
from scoring import screens
from scoring.models import HallScreen
from scoring.standings.services import recompute_standings
from tournament import incidents, names
from tournament.models import (
    Player,
    Round,
    StaffRole,
    Tournament,
)
from tournament.players import alternates

pytestmark = pytest.mark.django_db

EARLIER, NOW = "Gül Öztürk", "Gül Müller-Weiß"
EARLIER_MAIL, NOW_MAIL = "guel.oeztuerk@example.org", "gm.weiss@example.org"
FAMILY = "Familie Öztürk"
SLUG = "dsgvo26"


def forms() -> list[str]:
    """Every form the product writes either name in, and the parts that name her alone."""
    found = {EARLIER_MAIL, NOW_MAIL, FAMILY, "Öztürk", "Müller-Weiß", "Gül"}
    for name in (EARLIER, NOW):
        found |= {name, names.last_name_first(name), names.initials(name)}
    escaped = {json.dumps(form)[1:-1] for form in found}  # "G\u00fcl" in a JSON answer
    return sorted(found | escaped)


def leaks(text: str) -> list[str]:
    folded = text.casefold()
    return [form for form in forms() if form.casefold() in folded]


@pytest.fixture
def world(settings, tmp_path, django_capture_on_commit_callbacks):
    settings.MEDIA_ROOT = str(tmp_path)
    tournament = TournamentFactory(slug=SLUG, status=Tournament.Status.RUNNING, table_size=4,
                                   finalists=4)
    organizer = OrganizerFactory(tournaments=[tournament])
    office = Client()
    office.force_login(organizer)
    banker = appoint(UserFactory(username="bank-dsgvo"), StaffRole.Role.BANKER, tournament)
    lukas = PlayerFactory(tournament=tournament, name="Lukas Koch")
    others = [PlayerFactory(tournament=tournament, name=name)
              for name in ("Anna Becker", "Jonas Schmid", "Paula Wolf")]
    # Registered under her earlier name, as the first alternate, with her family's club.
    office.post(f"/manage/{SLUG}/players/add/", {
        "name": EARLIER, "club": FAMILY, "email": EARLIER_MAIL, "public_name_consent": "on",
        "private_note": f"{EARLIER} möchte vegetarisch essen"})
    gul = Player.objects.get(tournament=tournament, name=EARLIER)
    assert gul.club.name == FAMILY
    alternates.set_rank(player=gul, rank=1, actor=organizer)
    from gameplay import make_round

    round_, tables = make_round(tournament, 1, [[lukas, *others]], status=Round.Status.SEATED)
    table = tables[0]
    table.banker = banker
    table.save()
    # The alternate swap writes both names into its reason.
    alternates.replace_no_show(round_=round_, absent=lukas.pk, actor=organizer)
    # Her new name and e-mail (the audit log keeps before → after).
    office.post(f"/manage/{SLUG}/players/{gul.pk}/edit/", {
        "name": NOW, "club": FAMILY, "email": NOW_MAIL, "public_name_consent": "on",
        "private_note": f"{NOW}: Fensterplatz, G.M.W. auf der Karte"})
    gul.refresh_from_db()
    assert gul.name == NOW
    round_.status = Round.Status.RUNNING
    round_.save()
    start = timezone.now() - dt.timedelta(minutes=100)
    game = referee.ensure_game(table=table)
    seated = [seat.player for seat in table.seats.order_by("position")]
    assert gul in seated

    def post(event, minutes):
        referee.post_event(game_id=game.pk, event=event, author=banker,
                           now=start + dt.timedelta(minutes=minutes))

    post({"type": "start"}, 0)
    rulings.extra_time(game_id=game.pk, minutes=5, reason=f"{NOW} kam zu spät", by=organizer)
    post({"type": "pause", "reason": f"{names.last_name_first(NOW)} musste telefonieren"}, 3)
    post({"type": "resume"}, 4)
    incidents.record_incident(player=gul, level="warning", by=organizer,
                              note=f"{names.last_name_first(NOW)} (G.M.W.) war laut; "
                                   f"früher {EARLIER}")
    for index, person in enumerate(seated):
        post({"type": "cash", "player": str(person.pk), "amount": 1000 + 100 * index}, 10)
    referee.enforce_deadlines(game_id=game.pk, now=start + dt.timedelta(minutes=99))
    referee_results.count_result(game_id=game.pk, revision=revision_of(game.pk), author=banker)
    game.refresh_from_db()
    referee_results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                   code=game.confirmation_code, by=None)
    recompute_standings(tournament_id=tournament.pk)
    for mode in (HallScreen.Mode.SEATING, HallScreen.Mode.CLOCK, HallScreen.Mode.STANDINGS):
        screens.set_mode(screen=screens.add_screen(tournament=tournament, name=f"Halle {mode}"),
                         mode=mode)
    return tournament, gul, table, game, office, banker, organizer


def _pdf_texts(tournament, round_) -> dict[str, str]:
    if shutil.which("pdftotext") is None:
        missing("needs pdftotext (apt-get install poppler-utils)")
    texts = {}
    for key, document in DOCUMENTS.items():
        out = io.BytesIO()
        render(key, out, tournament=tournament,
               round_=round_ if document.needs_round else None, base_url="http://hall.example")
        texts[key] = subprocess.run(["pdftotext", "-", "-"], input=out.getvalue(),
                                    capture_output=True, check=True).stdout.decode()
    return texts


def _public_paths(tournament, gul, table) -> list[str]:
    halls = []
    for screen in HallScreen.objects.filter(tournament=tournament):
        halls += [f"/t/{SLUG}/hall/{screen.key}/", f"/t/{SLUG}/hall/{screen.key}/live"]
    return [*halls,
        f"/t/{SLUG}/", f"/t/{SLUG}/tables/", f"/t/{SLUG}/tables/1/",
        f"/t/{SLUG}/players/{gul.pk}/", f"/t/{SLUG}/live/standings",
        f"/t/{SLUG}/live/tables/1", f"/t/{SLUG}/live/cards?n=1", f"/t/{SLUG}/screen",
        f"/t/{SLUG}/live/screen/tables", f"/t/{SLUG}/live/v",
        f"/api/v1/tables/{table.pk}/state", f"/api/v1/tables/{table.pk}/record",
        f"/api/v1/tournaments/{SLUG}/standings", f"/api/v1/tournaments/{SLUG}/tables",
        f"/api/v1/tournaments/{SLUG}/players/", f"/api/v1/tournaments/{SLUG}/",
        f"/p/{gul.pass_code}/",
    ]


def _staff_paths(gul, table, game) -> list[str]:
    return [
        "/manage/", f"/manage/{SLUG}/", f"/manage/{SLUG}/players/",
        f"/manage/{SLUG}/players/?q=Anonym", f"/manage/{SLUG}/players/{gul.pk}/edit/",
        f"/manage/{SLUG}/players/{gul.pk}/incidents/", f"/manage/{SLUG}/players/{gul.pk}/data/",
        f"/manage/{SLUG}/players/add/", f"/manage/{SLUG}/check-in/",
        f"/manage/{SLUG}/alternates/", f"/manage/{SLUG}/rounds/", f"/manage/{SLUG}/rounds/1/",
        f"/manage/{SLUG}/rounds/1/bankers/", f"/manage/{SLUG}/desk/",
        f"/manage/{SLUG}/desk/live/", f"/manage/{SLUG}/audit/", f"/manage/{SLUG}/export/",
        f"/manage/{SLUG}/print/1/", f"/manage/{SLUG}/staff/",
        f"/manage/{SLUG}/results/{game.pk}/",
        f"/api/v1/tournaments/{SLUG}/players/", f"/api/v1/tournaments/{SLUG}/export",
        f"/api/v1/tables/{table.pk}/state", f"/api/v1/tables/{table.pk}/record",
        f"/banker/table/{table.pk}/",
    ]


def _read(client: Client, paths: list[str]) -> dict[str, str]:
    texts = {}
    for path in paths:
        answer = client.get(path)
        assert answer.status_code == 200, (path, answer.status_code)
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        texts[path] = body.decode()
    return texts


def _audit() -> str:
    parts = []
    for entry in LogEntry.objects.all():
        for value in (entry.object_repr, entry.changes_text, entry.changes,
                      entry.additional_data, entry.serialized_data):
            parts += [str(value), json.dumps(value, ensure_ascii=False)]
    return "\n".join(parts)


def test_an_erased_player_is_found_nowhere_in_any_form(world, django_capture_on_commit_callbacks,
                                                       settings):
    tournament, gul, table, game, office, banker, organizer = world
    public, staff = Client(), office
    paths = _public_paths(tournament, gul, table)
    before = _read(public, paths)  # warms every cache
    assert leaks(before[f"/t/{SLUG}/players/{gul.pk}/"])
    seating = HallScreen.objects.get(tournament=tournament, mode=HallScreen.Mode.SEATING)
    assert names.last_name_first(NOW) in before[f"/t/{SLUG}/hall/{seating.key}/live"]
    staff_before = _read(staff, _staff_paths(gul, table, game))
    assert EARLIER_MAIL in _audit() and EARLIER in staff_before[f"/manage/{SLUG}/audit/"]
    pdfs_before = _pdf_texts(tournament, table.round)
    assert names.last_name_first(NOW) in pdfs_before["seating-names-staff"]  # "Last, First"
    job = jobs.create(tournament=tournament, round_=table.round, document="seating-names-staff",
                      lang="de", base_url="http://hall.example", filename="s.pdf", total=1)
    assert jobs.run(job, tournament_id=tournament.pk, round_number=1,
                    document="seating-names-staff")
    made_before = jobs.path_for(job)
    assert made_before.exists()

    with django_capture_on_commit_callbacks(execute=True):
        answer = office.post(f"/manage/{SLUG}/players/{gul.pk}/erase/",
                             {"reason": f"Antrag von {NOW} (früher {EARLIER}), {NOW_MAIL}"})
    assert answer.status_code == 302
    gul.refresh_from_db()
    assert gul.name == f"Anonym {gul.pk}"

    found = {}
    for path, text in _read(Client(), _public_paths(tournament, gul, table)).items():
        found[f"public {path}"] = leaks(text)
    for path, text in _read(staff, _staff_paths(gul, table, game)).items():
        found[f"staff {path}"] = leaks(text)
    banker_client = Client()
    banker_client.force_login(banker)
    for path, text in _read(banker_client, [f"/api/v1/tables/{table.pk}/record",
                                            f"/banker/table/{table.pk}/"]).items():
        found[f"banker {path}"] = leaks(text)
    for key, text in _pdf_texts(tournament, table.round).items():
        found[f"pdf {key}"] = leaks(text)
    found["audit log"] = leaks(_audit())
    assert {where: forms_ for where, forms_ in found.items() if forms_} == {}
    assert not made_before.exists()  # the file made before the erasure is gone
    # what must stay: her results under the pseudonym, the others' names
    listed = _read(staff, [f"/manage/{SLUG}/players/"])[f"/manage/{SLUG}/players/"]
    assert f"Anonym {gul.pk}" in listed
    assert "Anna Becker" in _audit() and "Lukas Koch" in _audit()
