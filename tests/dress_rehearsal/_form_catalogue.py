"""The HTML forms of the site the form fuzz sends hostile input to (issue 27: shared by the
test_form_fuzz_* modules): every form that posts and every form that sends its fields in the
query string, each with where it posts and a valid submission computed from the fuzz world
(tests/dress_rehearsal/conftest.py). The list of forms that post is checked against the URL conf
by ``test_every_post_route_is_fuzzed``: a view that accepts POST and is not listed here fails it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from referee.models import Game
from scoring.models import HallScreen
from tournament.models import Round, Tournament

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
XSS = f"Eva {SCRIPT}{IMG}"
RAW_PAYLOADS = ("<script>alert", "<img src=x onerror")

CSRF = "fuzzcsrftokenfuzzcsrftokenfuzzcs"  # 32 characters: an unmasked CSRF secret


def _organizer(world) -> Client:
    """The organizer's browser, with the CSRF check on as in production (the middleware reads
    the body before the view does)."""
    client = Client(enforce_csrf_checks=True, raise_request_exception=False,
                    HTTP_X_CSRFTOKEN=CSRF)
    client.force_login(world.organizer)
    client.cookies["csrftoken"] = CSRF
    return client


def _version(round_: Round) -> str:
    return str(Round.objects.get(pk=round_.pk).version)


def _seq(game: Game) -> str:
    return str(Game.objects.get(pk=game.pk).event_count)


def _revision(game: Game) -> str:
    """The revision of the game's result, as every form that writes the result carries it."""
    from referee.results import revision_of

    return str(revision_of(game.pk))


def _csv(world) -> SimpleUploadedFile:
    return SimpleUploadedFile("players.csv", b"name;club\nNeu Eins;FC9\n", "text/csv")


def _export(world) -> SimpleUploadedFile:
    from exchange import services as exchange

    data = exchange.export_json(world.running)
    return SimpleUploadedFile("export.json", data.encode() if isinstance(data, str) else data,
                              "application/json")


# --------------------------------------------------------------------------- the forms


@dataclass(frozen=True)
class Form:
    """One form: where it posts and a valid submission (computed from the world)."""

    path: Callable[[Any], str]
    valid: Callable[[Any], dict[str, Any]]
    files: Callable[[Any], dict[str, Any]] = field(default=lambda w: {})
    method: str = "post"


def _settings(world) -> dict[str, Any]:
    return {
        "name": "Herbstturnier", "slug": "herbst", "date": "2026-11-28", "venue": "Karlsruhe",
        "ruleset": "karlsruhe", "board": "classic-de", "table_size": "4",
        "preliminary_rounds": "3", "format": "placement_points", "final_decides": "on",
        "placement_points": "4,3,2,1", "finalists": "4", "time_limit_minutes": "90",
        "auction_stop_minutes": "45", "time_limit_mode": "", "results_public_immediately": "on",
        "tie_break_1": "points", "tie_break_2": "", "tie_break_3": "", "tie_break_4": "",
        "tie_break_5": "",
    }


def _player(world) -> dict[str, Any]:
    return {"name": "Neue Spielerin", "club": "Fuzzclub 1", "email": "neu@example.org",
            "public_name_consent": "on", "private_note": "kommt später"}


def _round_path(action: str) -> Callable[[Any], str]:
    return lambda w: f"/manage/fuzz-open/rounds/1/{action}/"


def _role_pk(world) -> int:
    from tournament.models import StaffRole

    return StaffRole.objects.filter(tournament=world.running).values_list("pk", flat=True)[0]


def _screen(world):
    """The fuzz tournament's hall screen (made again if a fuzzed form removed it)."""
    tournament = Tournament.objects.get(slug="fuzz")
    return HallScreen.objects.get_or_create(tournament=tournament, key="eingang",
                                            defaults={"name": "Eingang"})[0]


def _signup(world, status: str = "waiting"):
    """A sign-up of the tournament in registration (made again if a fuzzed form erased it)."""

    from tournament.models import Signup, SignupSettings

    tournament = Tournament.objects.get(slug="fuzz-open")
    SignupSettings.objects.get_or_create(tournament=tournament,
                                         defaults={"is_open": True, "capacity": 40})
    address = f"{status}@example.org"
    return Signup.objects.get_or_create(
        tournament=tournament, email_key=address,
        defaults={"name": f"Fuzz {status}", "email": address, "status": status,
                  "waiting_since": timezone.now() if status == "waiting" else None})[0]


def _mail(world):
    from tournament.models import SignupMail

    signup = _signup(world, "pending")
    return SignupMail.objects.get_or_create(
        signup=signup, kind="confirm",
        defaults={"tournament_id": signup.tournament_id, "to": signup.email,
                  "subject": "Bitte bestätigen", "body": "…"})[0]


def _player_action(action: str) -> Form:
    return Form(lambda w: f"/manage/fuzz/players/{w.players[0].pk}/{action}/",
                lambda w: {"from": "desk", "next": "/manage/fuzz/players/"})


#: Every form that posts, by URL name (the enumeration test checks the list is complete).
FORMS: dict[str, Form] = {
    "login": Form(lambda w: "/login/", lambda w: {"username": "fuzz-organizer",
                                                   "password": "wrong-password"}),
    "logout": Form(lambda w: "/logout/", lambda w: {}),
    "set_language": Form(lambda w: "/i18n/setlang/", lambda w: {"language": "en", "next": "/"}),
    "organizer:tournament-new": Form(lambda w: "/manage/new/", _settings),
    "organizer:tournament-settings": Form(lambda w: "/manage/fuzz-open/settings/", _settings),
    "organizer:tournament-transition": Form(lambda w: "/manage/fuzz-open/status/",
                                            lambda w: {"to": "running"}),
    "organizer:player-add": Form(lambda w: "/manage/fuzz-open/players/add/", _player),
    "organizer:player-edit": Form(lambda w: f"/manage/fuzz/players/{w.players[1].pk}/edit/",
                                  _player),
    "organizer:players-import": Form(lambda w: "/manage/fuzz-open/players/import/",
                                     lambda w: {}, files=lambda w: {"file": _csv(w)}),
    "organizer:player-check-in": _player_action("check-in"),
    "organizer:player-undo-check-in": _player_action("undo-check-in"),
    "organizer:player-new-code": _player_action("new-code"),
    "round_desk:screens": Form(lambda w: "/manage/fuzz/screens/", lambda w: {"name": "Bühne"}),
    "round_desk:screen-mode": Form(lambda w: f"/manage/fuzz/screens/{_screen(w).pk}/mode/",
                                   lambda w: {"mode": "clock"}),
    "round_desk:screen-remove": Form(lambda w: f"/manage/fuzz/screens/{_screen(w).pk}/remove/",
                                     lambda w: {}),
    "organizer:player-drop-out": _player_action("drop-out"),
    "organizer:player-undo-drop-out": _player_action("undo-drop-out"),
    "organizer:round_create": Form(lambda w: "/manage/fuzz/rounds/new/",
                                   lambda w: {"kind": "preliminary"}),
    "organizer:round_seat": Form(_round_path("seat"), lambda w: {
        "version": _version(w.draft), "seed": "11", "min_size": "3"}),
    "organizer:round_swap": Form(_round_path("swap"), lambda w: {
        "version": _version(w.draft), "a": str(w.waiting[0].pk), "b": str(w.waiting[5].pk)}),
    "organizer:round_move": Form(_round_path("move"), lambda w: {
        "version": _version(w.draft), "player": str(w.waiting[0].pk), "to_table": "2"}),
    "organizer:round_lock": Form(_round_path("lock"), lambda w: {"version": _version(w.draft)}),
    "organizer:round_unlock": Form(_round_path("unlock"), lambda w: {
        "version": _version(w.draft)}),
    "organizer:round_start": Form(_round_path("start"), lambda w: {
        "version": _version(w.draft)}),
    "organizer:table_assign_banker": Form(
        lambda w: "/manage/fuzz/rounds/1/bankers/2/assign/",
        lambda w: {"banker": str(w.banker.pk), "new_username": "neue-bankerin"}),
    "organizer:table_issue_link": Form(lambda w: "/manage/fuzz/rounds/1/bankers/2/link/",
                                       lambda w: {}),
    "organizer:table_revoke_link": Form(lambda w: "/manage/fuzz/rounds/1/bankers/1/revoke/",
                                        lambda w: {}),
    "round_desk:import": Form(lambda w: "/manage/tournaments/import/",
                              lambda w: {"slug": "kopie"}, files=lambda w: {"file": _export(w)}),
    "round_desk:close-round": Form(lambda w: "/manage/fuzz/rounds/1/close/", lambda w: {}),
    "round_desk:seat-final": Form(lambda w: "/manage/fuzz/final/seat/", lambda w: {"seed": "3"}),
    "round_desk:reseat-round": Form(_round_path("reseat"), lambda w: {
        "confirm": "1", "seed": "11", "min_size": "3", "reason": "neu ausgelost"}),
    "round_desk:delete-round": Form(_round_path("delete"), lambda w: {
        "confirm": "1", "reason": "falsch angelegt"}),
    "round_desk:resolve": Form(lambda w: f"/manage/fuzz/results/{w.counted.pk}/resolve/",
                               lambda w: {"note": "Zählung geprüft",
                                          "revision": _revision(w.counted)}),
    # Staff, rulings, safety nets (issue 14).
    "password_set": Form(lambda w: "/password/set/MQ/bad-token/", lambda w: {
        "new_password1": "ein langes Passwort 1", "new_password2": "ein langes Passwort 1"}),
    "organizer:staff": Form(lambda w: "/manage/fuzz/staff/", lambda w: {
        "username": "neue-kraft", "role": "desk", "create": "on"}),
    "organizer:staff-remove": Form(lambda w: f"/manage/fuzz/staff/{_role_pk(w)}/remove/",
                                   lambda w: {}),
    "organizer:player-delete": Form(lambda w: f"/manage/fuzz/players/{w.players[0].pk}/delete/",
                                    lambda w: {}),
    "organizer:player-erase": Form(lambda w: f"/manage/fuzz/players/{w.players[2].pk}/erase/",
                                   lambda w: {"reason": "Auf Wunsch des Spielers"}),
    "organizer:player-incidents": Form(
        lambda w: f"/manage/fuzz/players/{w.players[0].pk}/incidents/",
        lambda w: {"level": "deduction", "points": "2", "table_number": "1",
                   "note": "Geld verliehen"}),
    # Alternates (issue 18).
    "organizer:alternate-rank": Form(lambda w: "/manage/fuzz-open/alternates/rank/",
                                     lambda w: {"player": str(w.waiting[7].pk), "rank": "1"}),
    "organizer:alternate-replace": Form(lambda w: "/manage/fuzz-open/rounds/1/replace/",
                                        lambda w: {"absent": str(w.waiting[0].pk),
                                                   "alternate": str(w.waiting[7].pk)}),
    "organizer:table_restore_link": Form(lambda w: "/manage/fuzz/rounds/1/bankers/1/restore/",
                                         lambda w: {}),
    "round_desk:result": Form(lambda w: f"/manage/fuzz/results/{w.counted.pk}/", lambda w: {
        "reason": "Hotel vergessen", "revision": _revision(w.counted),
        **{f"place-{p.pk}": str(i + 1) for i, p in enumerate(reversed(w.players[4:]))},
        **{f"net_worth-{p.pk}": str(2000 - 100 * i)
           for i, p in enumerate(reversed(w.players[4:]))}}),
    "round_desk:reopen": Form(lambda w: f"/manage/fuzz/results/{w.counted.pk}/reopen/",
                              lambda w: {"reason": "Zählfehler",
                                         "revision": _revision(w.counted)}),
    "round_desk:confirm-code": Form(lambda w: f"/manage/fuzz/results/{w.counted.pk}/code/",
                                    lambda w: {"code": w.counted.confirmation_code,
                                               "revision": _revision(w.counted)}),
    "round_desk:extra-time": Form(lambda w: f"/manage/fuzz/games/{w.playing.pk}/extra-time/",
                                  lambda w: {"minutes": "5", "reason": "Brett neu"}),
    "round_desk:delay-round": Form(lambda w: "/manage/fuzz/rounds/1/delay/",
                                   lambda w: {"minutes": "10", "reason": "Saal belegt"}),
    "round_desk:move-player": Form(lambda w: "/manage/fuzz/rounds/1/referee-move/",
                                   lambda w: {"player": str(w.players[0].pk), "to_table": "2",
                                              "reason": "Spätankömmling"}),
    "round_desk:swap-players": Form(lambda w: "/manage/fuzz/rounds/1/referee-swap/",
                                    lambda w: {"a": str(w.players[0].pk),
                                               "b": str(w.players[-1].pk),
                                               "reason": "Vereinskollegen getrennt"}),
    "round_desk:reopen-round": Form(lambda w: "/manage/fuzz/rounds/1/reopen/",
                                    lambda w: {"reason": "Fehler"}),
    "round_desk:paper": Form(lambda w: "/manage/fuzz/rounds/1/tables/1/paper/", lambda w: {
        "end_reason": "time_limit", "ended_at": timezone.localtime().strftime("%H:%M"),
        "note": "Tablet aus",
        **{f"net_worth-{p.pk}": str(1000 + 100 * i) for i, p in enumerate(w.players[:4])}}),
    "print:start": Form(lambda w: "/manage/fuzz/print/1/seating/job/", lambda w: {"lang": "en"}),
    "banker:console-check": Form(lambda w: f"/banker/table/{w.tables[0].pk}/check/",
                                 lambda w: {"events": json.dumps([{"type": "pause"}])}),
    "banker:console-count": Form(lambda w: f"/banker/table/{w.tables[1].pk}/count/",
                                 lambda w: {"seq": _seq(w.counted),
                                            "revision": _revision(w.counted)}),
    "banker:console-confirm": Form(lambda w: f"/banker/table/{w.tables[1].pk}/confirm/",
                                   lambda w: {"code": w.counted.confirmation_code,
                                              "revision": _revision(w.counted)}),
    "banker:console-dispute": Form(lambda w: f"/banker/table/{w.tables[1].pk}/dispute/",
                                   lambda w: {"note": "Die Bank hat sich verzählt.",
                                              "revision": _revision(w.counted)}),
    "banker:console-reopen-count": Form(
        lambda w: f"/banker/table/{w.tables[1].pk}/reopen-count/",
        lambda w: {"revision": _revision(w.counted)}),
    # The public sign-up (issue 30).
    "public:signup": Form(lambda w: (_signup(w), "/t/fuzz-open/signup/")[1], lambda w: {
        "name": "Neu Angemeldet", "email": "neu@example.org", "club": "Fuzzclub 1",
        "public_name_consent": "on", "website": ""}),
    "public:signup-confirm": Form(
        lambda w: f"/t/fuzz-open/signup/{_signup(w, 'pending').token}/confirm/", lambda w: {}),
    "public:signup-withdraw": Form(
        lambda w: f"/t/fuzz-open/signup/{_signup(w).token}/withdraw/", lambda w: {}),
    "organizer:signup-settings": Form(lambda w: "/manage/fuzz-open/signups/settings/",
                                      lambda w: {"is_open": "on", "capacity": "40",
                                                 "opens_at": "2026-11-01T10:00",
                                                 "closes_at": "2026-12-01T18:00",
                                                 "waiting_list": "on", "entry_fee": "10 €"}),
    "organizer:signup-close": Form(lambda w: "/manage/fuzz-open/signups/close/", lambda w: {}),
    "organizer:signup-resend": Form(
        lambda w: f"/manage/fuzz-open/signups/{_signup(w, 'pending').pk}/resend/", lambda w: {}),
    "organizer:signup-move-up": Form(
        lambda w: f"/manage/fuzz-open/signups/{_signup(w).pk}/move-up/",
        lambda w: {"reason": "Titelverteidiger"}),
    "organizer:signup-erase": Form(
        lambda w: f"/manage/fuzz-open/signups/{_signup(w, 'withdrawn').pk}/erase/", lambda w: {}),
    "organizer:outbox-resend": Form(lambda w: f"/manage/fuzz-open/outbox/{_mail(w).pk}/resend/",
                                    lambda w: {}),
    "organizer:player-fee-paid": Form(lambda w: f"/manage/fuzz/players/{w.players[0].pk}/fee-paid/",
                                      lambda w: {"paid": "1", "next": "/manage/fuzz/check-in/"}),
}

#: Forms that send their fields in the query string (searches, previews, switches).
GET_FORMS: dict[str, Form] = {
    "organizer:desk": Form(lambda w: "/manage/fuzz/check-in/",
                           lambda w: {"q": "Spieler", "show": "missing"}, method="get"),
    "organizer:players": Form(lambda w: "/manage/fuzz/players/",
                              lambda w: {"q": "Spieler", "show": "checked_in"}, method="get"),
    "organizer:round_preview": Form(lambda w: "/manage/fuzz-open/rounds/1/preview/", lambda w: {
        "action": "swap", "version": _version(w.draft), "a": str(w.waiting[0].pk),
        "b": str(w.waiting[5].pk), "player": str(w.waiting[0].pk), "to_table": "2"},
        method="get"),
    "banker:console-main": Form(lambda w: f"/banker/table/{w.tables[0].pk}/main/",
                                lambda w: {"player": str(w.players[0].pk), "feed": "all"},
                                method="get"),
    "print:round": Form(lambda w: "/manage/fuzz/print/1/", lambda w: {"lang": "en"},
                        method="get"),
    "public:tournament": Form(lambda w: "/t/fuzz/", lambda w: {"lang": "en", "q": "Spieler",
                                                            "all": "1"}, method="get"),
    "public:fragment-find": Form(lambda w: "/t/fuzz/live/find", lambda w: {"q": "Spieler"},
                                 method="get"),
    "public:cards": Form(lambda w: "/t/fuzz/live/cards", lambda w: {"n": "1,2"}, method="get"),
    "me-start": Form(lambda w: "/p/", lambda w: {"code": w.players[0].pass_code}, method="get"),
}

#: Accept POST but are not HTML forms of this site: Django's admin has its own tests.
NOT_FORMS = {"admin"}

