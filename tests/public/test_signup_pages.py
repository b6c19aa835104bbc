"""Issue 30: the public sign-up pages (form, honeypot, per-address limit, confirm, withdraw),
the organizer's page and outbox, the desk's entry fee, the export."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from factories import OrganizerFactory, TournamentFactory, UserFactory, appoint

from config.ratelimit import SIGNUP_ATTEMPTS
from exchange.export import export_tournament
from tournament.models import Player, Signup, SignupMail, SignupSettings, StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    tournament = TournamentFactory(slug="cup", status=Tournament.Status.REGISTRATION)
    SignupSettings.objects.create(tournament=tournament, is_open=True, capacity=2,
                                  entry_fee="10 € an der Kasse")
    return tournament


@pytest.fixture
def post(client, django_capture_on_commit_callbacks):
    def run(url, data, **extra):
        with django_capture_on_commit_callbacks(execute=True):
            return client.post(url, data, **extra)

    return run


def form(name="Anna Weiß", email="anna@example.org", **extra):
    return {"name": name, "email": email, "club": "", "website": "", **extra}


def link(message, part: str) -> str:
    return next(url for url in re.findall(r"https?://\S+", message.body) if part in url)


def test_the_form_shows_places_left_and_the_fee_in_german(client, cup):
    page = client.get("/t/cup/signup/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Freie Plätze: 2 von 2" in text and "10 € an der Kasse" in text
    assert 'name="website"' in text  # the trap bots fill in
    assert page["X-Robots-Tag"] == "noindex"


def test_signing_up_confirming_and_withdrawing_through_the_pages(client, cup, post):
    answer = post("/t/cup/signup/", form())
    assert answer.status_code == 302 and answer["Location"].endswith("?sent=1")
    assert "E-Mail geschickt" in client.get(answer["Location"]).content.decode()
    confirm_url = link(mail.outbox[0], "/confirm/")
    # Opening the link only asks (a mail program's preview must not confirm).
    asked = client.get(confirm_url)
    assert asked.status_code == 200 and "Anmeldung bestätigen" in asked.content.decode()
    assert Signup.objects.get().status == "pending"
    confirmed = post(confirm_url, {})
    assert confirmed.status_code == 302
    page = client.get(confirmed["Location"]).content.decode()
    signup = Signup.objects.get()
    assert signup.status == "registered"
    assert "Angemeldet" in page and f"/p/{signup.player.pass_code}/" in page
    card = client.get(f"/p/{signup.player.pass_code}/").content.decode()
    assert "Anmeldung:" in card and "Angemeldet" in card
    withdraw_url = f"/t/cup/signup/{signup.token}/withdraw/"
    assert "Wirklich abmelden?" in client.get(withdraw_url).content.decode()
    assert Signup.objects.get().status == "registered"  # asking changed nothing
    post(withdraw_url, {})
    assert Signup.objects.get().status == "withdrawn" and not Player.objects.exists()


def test_the_honeypot_answers_like_a_sign_up_and_stores_nothing(cup, post):
    answer = post("/t/cup/signup/", form(website="http://spam.example"))
    assert answer.status_code == 302 and answer["Location"].endswith("?sent=1")
    assert not Signup.objects.exists() and mail.outbox == []


def test_the_per_address_limit(cup, post):
    for n in range(SIGNUP_ATTEMPTS):
        assert post("/t/cup/signup/", form(f"Person {n}", f"p{n}@example.org")).status_code == 302
    refused = post("/t/cup/signup/", form("One More", "more@example.org"))
    assert refused.status_code == 429
    assert Signup.objects.count() == SIGNUP_ATTEMPTS
    # Another address still signs up.
    other = post("/t/cup/signup/", form("Other Place", "o@example.org"), REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 302


def test_bad_input_is_refused_in_both_languages_and_stores_nothing(client, cup, post):
    bad = post("/t/cup/signup/", form(email="not-an-address"))
    assert bad.status_code == 400 and not Signup.objects.exists()
    Player.objects.create(tournament=cup, name="Anna Weiß")
    taken = post("/t/cup/signup/", form(), HTTP_ACCEPT_LANGUAGE="en")
    assert taken.status_code == 409
    assert "already registered" in taken.content.decode() and not Signup.objects.exists()


def test_a_closed_sign_up_says_so_and_refuses(client, cup, post):
    SignupSettings.objects.filter(tournament=cup).update(is_open=False)
    assert "geschlossen" in client.get("/t/cup/signup/").content.decode()
    assert post("/t/cup/signup/", form()).status_code == 409
    assert not Signup.objects.exists()


def test_the_public_page_links_to_the_sign_up_while_open(client, cup):
    assert 'href="/t/cup/signup/"' in client.get("/t/cup/").content.decode()
    SignupSettings.objects.filter(tournament=cup).update(is_open=False)
    from django.core.cache import cache

    cache.clear()
    assert 'href="/t/cup/signup/"' not in client.get("/t/cup/").content.decode()


def test_the_organizer_sees_sign_ups_moves_up_and_resends(cup, post):
    organizer = OrganizerFactory(tournaments=[cup])
    for n, name in enumerate(["Anna A", "Bert B", "Carl C"]):
        post("/t/cup/signup/", form(name, f"{n}@example.org"))
        post(link(mail.outbox[-1], "/confirm/"), {})
    staff = Client()
    staff.force_login(organizer)
    page = staff.get("/manage/cup/signups/").content.decode()
    assert "2 / 2" in page and "Warteliste Nr. 1" in page
    carl = Signup.objects.get(name="Carl C")
    refused = staff.post(f"/manage/cup/signups/{carl.pk}/move-up/", {"reason": ""})
    assert refused.status_code == 409 and Signup.objects.get(pk=carl.pk).status == "waiting"
    with_reason = staff.post(f"/manage/cup/signups/{carl.pk}/move-up/", {"reason": "Titelverteidiger"})
    assert with_reason.status_code == 302
    assert Signup.objects.get(pk=carl.pk).status == "registered"
    outbox = staff.get("/manage/cup/outbox/").content.decode()
    assert "Bitte Anmeldung bestätigen" in outbox and "2@example.org" in outbox
    sent = SignupMail.objects.filter(status="sent").first()
    assert staff.post(f"/manage/cup/outbox/{sent.pk}/resend/").status_code == 302


def test_the_desk_marks_the_entry_fee_and_the_export_carries_the_sign_up(cup, post):
    post("/t/cup/signup/", form())
    post(link(mail.outbox[-1], "/confirm/"), {})
    player = Player.objects.get()
    desk = Client()
    desk.force_login(appoint(UserFactory(), StaffRole.Role.DESK, cup))
    assert desk.post(f"/manage/cup/players/{player.pk}/fee-paid/", {"paid": "1"}).status_code == 302
    assert Signup.objects.get().fee_paid_at is not None
    walk_in = Player.objects.create(tournament=cup, name="Vor Ort")
    refused = desk.post(f"/manage/cup/players/{walk_in.pk}/fee-paid/", {"paid": "1"})
    assert refused.status_code == 409
    assert desk.get("/manage/cup/signups/").status_code == 403  # e-mails: organizers only
    document = export_tournament(cup)
    (row,) = document["signup"]["signups"]
    assert row["email"] == "anna@example.org" and row["fee_paid"] and row["player"]
    assert [m["kind"] for m in row["mails"]] == ["confirm", "registered"]
    assert document["signup"]["settings"]["capacity"] == 2


def test_the_organizer_saves_the_settings_in_local_time_and_refuses_a_bad_window(cup):
    import datetime as dt
    from zoneinfo import ZoneInfo

    staff = Client()
    staff.force_login(OrganizerFactory(tournaments=[cup]))
    saved = staff.post("/manage/cup/signups/settings/", {
        "is_open": "on", "opens_at": "2026-03-01T10:00", "closes_at": "2026-04-01T18:00",
        "capacity": "24", "waiting_list": "on", "entry_fee": "10 €"})
    assert saved.status_code == 302
    settings = SignupSettings.objects.get(tournament=cup)
    assert settings.opens_at == dt.datetime(2026, 3, 1, 10, tzinfo=ZoneInfo("Europe/Berlin"))
    assert (settings.capacity, settings.waiting_list, settings.is_open) == (24, True, True)
    backwards = staff.post("/manage/cup/signups/settings/", {
        "is_open": "on", "opens_at": "2026-04-01T10:00", "closes_at": "2026-03-01T18:00",
        "capacity": "30"})
    assert backwards.status_code == 409 and "nach ihrem Beginn" in backwards.content.decode()
    too_few = staff.post("/manage/cup/signups/settings/", {"capacity": "1"})
    assert too_few.status_code == 400
    assert SignupSettings.objects.get(tournament=cup).capacity == 24
    closed = staff.post("/manage/cup/signups/close/")
    assert closed.status_code == 302 and not SignupSettings.objects.get(tournament=cup).is_open


def test_erasing_a_waiting_sign_up_and_the_retention_period(cup, post):
    from tournament import privacy

    for n, name in enumerate(["Anna A", "Bert B", "Carl C"]):
        post("/t/cup/signup/", form(name, f"{n}@example.org"))
        post(link(mail.outbox[-1], "/confirm/"), {})
    carl = Signup.objects.get(name="Carl C")
    staff = Client()
    staff.force_login(OrganizerFactory(tournaments=[cup]))
    assert staff.post(f"/manage/cup/signups/{carl.pk}/erase/").status_code == 302
    assert not Signup.objects.filter(pk=carl.pk).exists()
    assert not SignupMail.objects.filter(to="2@example.org").exists()
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.FINISHED,
                                                retention_months=1, date="2020-01-01")
    privacy.anonymize_expired()
    assert not Signup.objects.filter(tournament=cup).exists()
    assert not SignupMail.objects.filter(tournament=cup).exists()


def test_the_sign_up_moves_with_the_tournament_export_delete_import(cup, post, client):
    import json

    from exchange import services as exchange

    for n, name in enumerate(["Anna A", "Bert B", "Carl C", "Dora D"]):
        post("/t/cup/signup/", form(name, f"{n}@example.org"))
        if n < 3:
            post(link(mail.outbox[-1], "/confirm/"), {})
    carl = Signup.objects.get(name="Carl C")
    before = sorted(Signup.objects.filter(tournament=cup).values_list("name", "status", "token"))
    document = json.loads(exchange.export_json(cup))
    cup.delete()
    imported = exchange.import_tournament(json.dumps(document).encode())
    after = sorted(Signup.objects.filter(tournament=imported)
                   .values_list("name", "status", "token"))
    assert after == before
    assert Signup.objects.get(name="Anna A").player.name == "Anna A"
    assert SignupSettings.objects.get(tournament=imported).capacity == 2
    # Carl's mailed link still opens his page on the new server, at the same place in line.
    page = client.get(f"/t/cup/signup/{carl.token}/").content.decode()
    assert "Warteliste, Platz 1" in page


def test_an_import_with_a_broken_sign_up_is_refused_whole(cup, post):
    import json

    from exchange import services as exchange
    from exchange.document import ImportRefused

    post("/t/cup/signup/", form())
    document = json.loads(exchange.export_json(cup))
    document["tournament"]["slug"] = "kopie"
    document["signup"]["signups"][0]["email"] = "no address"
    with pytest.raises(ImportRefused):
        exchange.import_tournament(json.dumps(document).encode())
    assert not Tournament.objects.filter(slug="kopie").exists()
