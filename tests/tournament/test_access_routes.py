"""Role × route: every URL of the site and every operation of the API has a rule here, and each
rule is tried with every role. A new route without a rule fails the suite (``test_*_has_a_rule``).

Roles: the tournament's organizer, head referee, desk volunteer, the banker of table 1, a
logged-in stranger, and the organizer of *another* tournament ("rival"); anonymous callers are
refused wherever a rule names roles. "Allowed" means the gate let the request through (any answer
but 401/403 or a redirect to the login); "refused" means 401/403 or the login page.

Every GET tried, by every role, must not write (README: a GET never creates, changes or deletes
a row): an INSERT, UPDATE or DELETE it issues is a mismatch too, save the one named exception
(a due deadline recorded by ``enforce_deadlines``). The banker's table has no game yet, as
before anybody opened its console.
"""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest
from django.db import connection, transaction
from django.test import Client
from factories import OrganizerFactory, PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round
from routes import url_routes

from referee import services as referee
from scoring.models import HallScreen
from tournament import banker_links
from tournament.models import (
    Signup,
    SignupMail,
    StaffRole,
    Tournament,
)

pytestmark = pytest.mark.django_db

ORG = {"organizer"}
HR = {"organizer", "head_referee"}
STAFF = {"organizer", "head_referee", "desk"}
CHECKIN = {"organizer", "desk"}
TABLE = {"organizer", "head_referee", "banker"}
CREATE = {"organizer", "rival"}  # staff accounts may start a tournament of their own
HOME = {"organizer", "head_referee", "desk", "rival"}
LOGIN = {"organizer", "head_referee", "desk", "banker", "stranger", "rival"}
SUPERUSER: set[str] = set()
PUBLIC = None  # no login needed

ROLES = ["organizer", "head_referee", "desk", "banker", "stranger", "rival"]

#: Every path of the URL conf (the admin as one entry).
ROUTES: dict[str, set[str] | None] = {
    "": PUBLIC,
    "healthz": PUBLIC,
    "privacy/": PUBLIC,
    "login/": PUBLIC,
    "logout/": PUBLIC,
    "start/": LOGIN,  # where a login leads: each role to its own page
    "password/set/<uidb64>/<token>/": PUBLIC,  # the token is the key
    "i18n/setlang/": PUBLIC,
    "admin/login/": PUBLIC,
    "admin/": SUPERUSER,
    "favicon.ico": PUBLIC,
    "api/schema/": PUBLIC,
    "api/docs/": PUBLIC,
    "b/<str:token>/": PUBLIC,  # the private link is the key
    "p/": PUBLIC,  # a player types the code from their card
    "p/<str:code>/": PUBLIC,  # a player's own page: the personal code is the key
    "p/<str:code>/live": PUBLIC,
    # staff pages
    "manage/": HOME,
    "manage/new/": CREATE,
    "manage/tournaments/import/": CREATE,
    "manage/tournaments/import/jobs/<str:job_id>/": CREATE,  # and only the job's own starter
    "manage/tournaments/import/jobs/<str:job_id>/progress": CREATE,
    "manage/<slug:slug>/": STAFF,
    "manage/<slug:slug>/settings/": ORG,
    "manage/<slug:slug>/status/": ORG,
    "manage/<slug:slug>/staff/": ORG,
    "manage/<slug:slug>/staff/<int:role_id>/remove/": ORG,
    "manage/<slug:slug>/audit/": HR,
    "manage/<slug:slug>/export/": ORG,
    "manage/<slug:slug>/players/": STAFF,
    "manage/<slug:slug>/players/add/": CHECKIN,
    "manage/<slug:slug>/players/import/": ORG,
    "manage/<slug:slug>/players/<int:pk>/edit/": ORG,
    "manage/<slug:slug>/players/<int:pk>/delete/": ORG,
    "manage/<slug:slug>/players/<int:pk>/erase/": ORG,
    "manage/<slug:slug>/players/<int:pk>/data/": ORG,
    "manage/<slug:slug>/players/<int:pk>/check-in/": CHECKIN,
    "manage/<slug:slug>/players/<int:pk>/incidents/": HR,
    "manage/<slug:slug>/players/<int:pk>/undo-check-in/": CHECKIN,
    "manage/<slug:slug>/players/<int:pk>/new-code/": CHECKIN,
    "manage/<slug:slug>/players/<int:pk>/drop-out/": CHECKIN,  # told at the desk on the day
    "manage/<slug:slug>/players/<int:pk>/undo-drop-out/": CHECKIN,
    "manage/<slug:slug>/check-in/": CHECKIN,
    "manage/<slug:slug>/alternates/": STAFF,
    "manage/<slug:slug>/alternates/rank/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/replace/": ORG,
    "manage/<slug:slug>/rounds/": STAFF,
    "manage/<slug:slug>/rounds/new/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/": STAFF,
    "manage/<slug:slug>/rounds/<int:number>/preview/": STAFF,
    "manage/<slug:slug>/rounds/<int:number>/seat/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/swap/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/move/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/lock/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/unlock/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/start/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/close/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/bankers/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/bankers/<int:table_number>/assign/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/bankers/<int:table_number>/link/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/bankers/<int:table_number>/revoke/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/bankers/<int:table_number>/restore/": ORG,
    "manage/<slug:slug>/final/seat/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/reseat/": ORG,
    "manage/<slug:slug>/rounds/<int:number>/delete/": ORG,
    "manage/<slug:slug>/desk/": STAFF,
    "manage/<slug:slug>/desk/live/": STAFF,
    "manage/<slug:slug>/results/<int:game_id>/resolve/": HR,
    "manage/<slug:slug>/results/<int:game_id>/": HR,
    "manage/<slug:slug>/results/<int:game_id>/reopen/": HR,
    "manage/<slug:slug>/verify/": HR,
    "manage/<slug:slug>/games/<int:game_id>/extra-time/": HR,
    "manage/<slug:slug>/rounds/<int:number>/tables/<int:table_number>/paper/": HR,
    "manage/<slug:slug>/results/<int:game_id>/code/": STAFF,
    "manage/<slug:slug>/rounds/<int:number>/delay/": HR,
    "manage/<slug:slug>/rounds/<int:number>/referee-move/": HR,
    "manage/<slug:slug>/rounds/<int:number>/referee-swap/": HR,
    "manage/<slug:slug>/rounds/<int:number>/reopen/": ORG,
    "manage/<slug:slug>/print/": STAFF,
    "manage/<slug:slug>/print/<int:number>/": STAFF,
    "manage/<slug:slug>/print/<int:number>/<slug:document>.pdf": STAFF,
    "manage/<slug:slug>/print/<int:number>/<slug:document>/job/": STAFF,
    "manage/<slug:slug>/print/jobs/<printjob:job>/": STAFF,
    "manage/<slug:slug>/print/jobs/<printjob:job>/progress": STAFF,
    "manage/<slug:slug>/print/jobs/<printjob:job>/file": STAFF,
    "manage/<slug:slug>/print/players/<int:pk>/card.pdf": CHECKIN,
    "manage/<slug:slug>/signups/": ORG,
    "manage/<slug:slug>/signups/settings/": ORG,
    "manage/<slug:slug>/signups/close/": ORG,
    "manage/<slug:slug>/signups/<int:signup_id>/resend/": ORG,
    "manage/<slug:slug>/signups/<int:signup_id>/move-up/": ORG,
    "manage/<slug:slug>/signups/<int:signup_id>/erase/": ORG,
    "manage/<slug:slug>/outbox/": ORG,
    "manage/<slug:slug>/outbox/<int:mail_id>/resend/": ORG,
    "manage/<slug:slug>/players/<int:pk>/fee-paid/": CHECKIN,
    "manage/<slug:slug>/screens/": STAFF,
    "manage/<slug:slug>/screens/<int:screen_id>/mode/": STAFF,
    "manage/<slug:slug>/screens/<int:screen_id>/remove/": STAFF,
    # the banker's console
    "banker/": LOGIN,
    "banker/sw.js": PUBLIC,
    "banker/table/<int:table_id>/": TABLE,
    "banker/table/<int:table_id>/main/": TABLE,
    "banker/table/<int:table_id>/check/": TABLE,
    "banker/table/<int:table_id>/count/": TABLE,
    "banker/table/<int:table_id>/confirm/": TABLE,
    "banker/table/<int:table_id>/dispute/": TABLE,
    "banker/table/<int:table_id>/reopen-count/": TABLE,
    # public pages
    "t/<slug:slug>/": PUBLIC,
    "t/<slug:slug>/tables/": PUBLIC,
    "t/<slug:slug>/tables/<int:number>/": PUBLIC,
    "t/<slug:slug>/rounds/<int:round_number>/tables/<int:number>/": PUBLIC,
    "t/<slug:slug>/players/<int:player_id>/": PUBLIC,
    "t/<slug:slug>/screen": PUBLIC,
    "t/<slug:slug>/signup/": PUBLIC,  # players sign themselves up
    "t/<slug:slug>/signup/<str:token>/": PUBLIC,  # the key from the e-mail opens it
    "t/<slug:slug>/signup/<str:token>/confirm/": PUBLIC,
    "t/<slug:slug>/signup/<str:token>/withdraw/": PUBLIC,
    "t/<slug:slug>/hall/<slug:key>/": PUBLIC,  # a hall screen (kiosk): nothing to log in to
    "t/<slug:slug>/hall/<slug:key>/live": PUBLIC,
    "t/<slug:slug>/live/standings": PUBLIC,
    "t/<slug:slug>/live/standings/top": PUBLIC,
    "t/<slug:slug>/live/find": PUBLIC,
    "t/<slug:slug>/live/v": PUBLIC,
    "t/<slug:slug>/live/cards": PUBLIC,
    "t/<slug:slug>/live/tables": PUBLIC,
    "t/<slug:slug>/live/tables/<int:number>": PUBLIC,
    "t/<slug:slug>/live/rounds/<int:round_number>/tables/<int:number>": PUBLIC,
    "t/<slug:slug>/live/players/<int:player_id>": PUBLIC,
    "t/<slug:slug>/live/screen/standings": PUBLIC,
    "t/<slug:slug>/live/screen/tables": PUBLIC,
}

#: The API: every (path, method) of the OpenAPI schema.
API: dict[tuple[str, str], set[str] | None] = {
    ("/api/v1/tournaments/", "GET"): PUBLIC,
    ("/api/v1/tournaments/", "POST"): CREATE,
    ("/api/v1/tournaments/{slug}/", "GET"): PUBLIC,
    ("/api/v1/tournaments/{slug}/", "PATCH"): ORG,
    ("/api/v1/tournaments/{slug}/transition/", "POST"): ORG,
    ("/api/v1/tournaments/{slug}/standings", "GET"): PUBLIC,
    ("/api/v1/tournaments/{slug}/tables", "GET"): PUBLIC,
    ("/api/v1/tournaments/{slug}/export", "GET"): ORG,
    ("/api/v1/tournaments/import", "POST"): CREATE,
    ("/api/v1/tournaments/import/jobs/{job_id}", "GET"): CREATE,
    ("/api/v1/tournaments/{tournament_slug}/players/", "GET"): PUBLIC,
    ("/api/v1/tournaments/{tournament_slug}/players/", "POST"): CHECKIN,
    ("/api/v1/tournaments/{tournament_slug}/players/import/", "POST"): ORG,
    ("/api/v1/tournaments/{tournament_slug}/players/{id}/", "GET"): PUBLIC,
    ("/api/v1/tournaments/{tournament_slug}/players/{id}/", "PATCH"): ORG,
    ("/api/v1/tournaments/{tournament_slug}/players/{id}/check-in/", "POST"): CHECKIN,
    ("/api/v1/tournaments/{tournament_slug}/players/{id}/undo-check-in/", "POST"): CHECKIN,
    ("/api/v1/tournaments/{tournament_slug}/players/{id}/drop-out/", "POST"): CHECKIN,
    ("/api/v1/tournaments/{tournament_slug}/players/{id}/undo-drop-out/", "POST"): CHECKIN,
    ("/api/v1/rounds/", "GET"): PUBLIC,
    ("/api/v1/rounds/", "POST"): ORG,
    ("/api/v1/rounds/{id}/", "GET"): PUBLIC,
    ("/api/v1/rounds/{id}/seat/", "POST"): ORG,
    ("/api/v1/rounds/{id}/swap/", "POST"): ORG,
    ("/api/v1/rounds/{id}/swap/preview/", "POST"): STAFF,
    ("/api/v1/rounds/{id}/move/", "POST"): ORG,
    ("/api/v1/rounds/{id}/move/preview/", "POST"): STAFF,
    ("/api/v1/rounds/{id}/lock/", "POST"): ORG,
    ("/api/v1/rounds/{id}/unlock/", "POST"): ORG,
    ("/api/v1/rounds/{id}/start/", "POST"): ORG,
    ("/api/v1/tables/", "GET"): PUBLIC,
    ("/api/v1/tables/{id}/", "GET"): PUBLIC,
    ("/api/v1/tables/{id}/banker/", "POST"): ORG,
    ("/api/v1/tables/{id}/link/", "GET"): ORG,
    ("/api/v1/tables/{id}/link/", "POST"): ORG,
    ("/api/v1/tables/{id}/link/", "DELETE"): ORG,
    ("/api/v1/tables/{table_id}/events", "POST"): TABLE,
    ("/api/v1/tables/{table_id}/state", "GET"): PUBLIC,
    ("/api/v1/tables/{table_id}/record", "GET"): PUBLIC,
}


def site_routes() -> list[str]:
    """The URL conf's paths (Django admin as one), API routers left out (the schema covers
    them)."""
    return [route.path for route in url_routes(whole=("admin/",))
            if not route.path.startswith("api/v1/")]


def schema_operations(client) -> list[tuple[str, str]]:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    return [
        (path, method.upper())
        for path, operations in schema["paths"].items()
        for method in operations
        if method in ("get", "post", "put", "patch", "delete")
    ]


def test_every_site_route_has_a_rule():
    missing = [route for route in site_routes() if route not in ROUTES]
    assert missing == [], f"routes without a rule in ROUTES: {missing}"
    stale = [route for route in ROUTES if route not in site_routes()]
    assert stale == [], f"rules for routes that no longer exist: {stale}"


def test_every_api_operation_has_a_rule(client):
    operations = schema_operations(client)
    missing = [op for op in operations if op not in API]
    assert missing == [], f"API operations without a rule in API: {missing}"
    stale = [op for op in API if op not in operations]
    assert stale == [], f"rules for operations that no longer exist: {stale}"


# --- Trying every rule with every role --------------------------------------------------------


@pytest.fixture
def world():
    tournament = TournamentFactory(slug="ka", status=Tournament.Status.RUNNING)
    players = [PlayerFactory(tournament=tournament) for _ in range(8)]
    _round, tables = make_round(tournament, 1, [players[:4], players[4:]])
    rival_cup = Tournament.objects.create(
        name="Anderer Pokal", slug="anders", date=tournament.date,
        status=Tournament.Status.REGISTRATION,
    )
    users = {
        "organizer": OrganizerFactory(tournaments=[tournament]),
        "head_referee": appoint(UserFactory(), StaffRole.Role.HEAD_REFEREE, tournament),
        "desk": appoint(UserFactory(), StaffRole.Role.DESK, tournament),
        "banker": UserFactory(),
        "stranger": UserFactory(),
        "rival": OrganizerFactory(tournaments=[rival_cup]),
    }
    table = tables[0]
    table.banker = users["banker"]
    table.save()
    appoint(users["banker"], StaffRole.Role.BANKER, tournament)
    # The banker's table has no game yet (nobody opened its console: a GET must not create
    # one); the result and game pages get the other table's game.
    game = referee.ensure_game(table=tables[1])
    link = banker_links.issue_link(table=table, banker=users["banker"])
    player = table.seats.first().player
    screen = HallScreen.objects.create(tournament=tournament, name="Eingang", key="eingang")
    signup = Signup.objects.create(tournament=tournament, name="Zoe Zett", email="z@example.org",
                                   email_key="z@example.org")
    mail = SignupMail.objects.create(tournament=tournament, signup=signup, kind="confirm",
                                     to=signup.email, subject="s", body="b")
    values = {
        "slug": tournament.slug,
        "tournament_slug": tournament.slug,
        "number": "1",
        "round_number": "1",
        "table_number": str(table.number),
        "table_id": str(table.pk),
        "game_id": str(game.pk),
        "player_id": str(player.pk),
        "role_id": str(StaffRole.objects.get(user=users["desk"]).pk),
        "document": "scoresheets",
        "job": "0" * 32,
        "job_id": "0" * 32,
        "token": banker_links.link_path(link).strip("/").split("/")[-1],
        "uidb64": "MQ",
        "code": player.pass_code,
        "key": screen.key,
        "screen_id": str(screen.pk),
        "signup_id": str(signup.pk),
        "mail_id": str(mail.pk),
        "token_": "x",
    }
    return {"users": users, "values": values, "table": table, "round": _round, "player": player}


def _fill(route: str, values: dict, ids: dict) -> str:
    def replace(match):
        name = match.group(1).split(":")[-1]
        if name == "pk":
            return ids["pk"]
        return values[name]

    return "/" + re.sub(r"<([^>]+)>", replace, route)


def _refused(response, api: bool) -> bool:
    if response.status_code in (401, 403):
        return True
    location = response.get("Location", "") if response.status_code == 302 else ""
    return "/login/" in location


WRITE = re.compile(r"^\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)
#: Tables a GET may write, each with its reason. ``django_session``: Django's own session, not
#: a row of ours (the messages a page shows after a post may be kept in it and are cleared
#: when the page reads them; ``/b/<token>/``, not tried here, grants its table in it). None is
#: written by the GETs tried here today.
MAY_WRITE = {"django_session"}


@contextmanager
def writes_during(monkeypatch: pytest.MonkeyPatch):
    """The INSERT, UPDATE and DELETE statements issued in the block (updates too, not only new
    rows). The one documented exception (README, "a GET never writes"): a deadline that is due
    is recorded by the next request for its table (``enforce_deadlines``); its statements are
    not listed while it runs, nowhere else."""
    writes: list[str] = []
    inside = []
    enforce = referee.enforce_deadlines

    def recording(*args, **kwargs):
        inside.append(True)
        try:
            return enforce(*args, **kwargs)
        finally:
            inside.pop()

    def wrapper(execute, sql, params, many, context):
        if WRITE.match(sql) and not inside and not any(table in sql for table in MAY_WRITE):
            writes.append(sql[:120])
        return execute(sql, params, many, context)

    monkeypatch.setattr(referee, "enforce_deadlines", recording)
    with connection.execute_wrapper(wrapper):
        yield writes


def _get(client: Client, url: str):
    """The GET, its streamed body read to the end (a PDF is drawn as it is read); the
    statements that wrote are kept on the response (``writes``)."""
    with pytest.MonkeyPatch.context() as monkeypatch, writes_during(monkeypatch) as writes:
        response = client.get(url)
        if response.streaming:
            b"".join(response.streaming_content)
    response.writes = writes
    return response


def _try(user, method: str, url: str, api: bool, body=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    with transaction.atomic():
        if method in ("AUTO", "GET"):
            response = _get(client, url)
            if method == "AUTO" and response.status_code == 405:
                response = client.post(url)
        else:
            response = getattr(client, method.lower())(
                url, body or {}, content_type="application/json"
            )
        transaction.set_rollback(True)
    return response


def _check(rule, method, url, users, api, body=None) -> list[tuple]:
    """The mismatches of one route: (url, who, status)."""
    wrong = []
    anonymous = _try(None, method, url, api, body)
    if _refused(anonymous, api) != (rule is not None):
        wrong.append((url, "anonymous", anonymous.status_code))
    wrong += _wrote(url, "anonymous", anonymous)
    if rule is None:
        return wrong
    for role in ROLES:
        response = _try(users[role], method, url, api, body)
        if _refused(response, api) != (role not in rule):
            wrong.append((url, role, response.status_code))
        wrong += _wrote(url, role, response)
    return wrong


def _wrote(url: str, who: str, response) -> list[tuple]:
    """A GET never writes (README): each statement it issued that wrote is a mismatch."""
    return [(url, who, f"GET wrote: {sql}") for sql in getattr(response, "writes", [])]


#: Not tried: the admin (below), redirects to the login by design, Django's own forms.
NOT_TRIED = ("admin/", "admin/login/", "logout/", "i18n/setlang/", "b/<str:token>/")


def test_site_routes_answer_each_role_as_their_rule_says(world):
    ids = {"pk": str(world["player"].pk)}
    wrong = []
    for route, rule in ROUTES.items():
        if route in NOT_TRIED or "<uidb64>" in route:
            continue
        wrong += _check(rule, "AUTO", _fill(route, world["values"], ids), world["users"], False)
    assert wrong == []


def test_the_admin_is_for_superusers_only(world, admin_client):
    for role in ROLES:
        response = _try(world["users"][role], "GET", "/admin/", api=False)
        assert _refused(response, False), role
    assert admin_client.get("/admin/").status_code == 200


#: A body where the tournament is named in it (the gate needs to know which one).
BODIES = {("/api/v1/rounds/", "POST"): {"tournament": "ka"}}


def test_api_operations_answer_each_role_as_their_rule_says(world):
    wrong = []
    for (path, method), rule in API.items():
        ids = {
            "id": str(world["player"].pk) if "players" in path
            else str(world["round"].pk) if path.startswith("/api/v1/rounds/")
            else str(world["table"].pk),
        }
        values = {**world["values"], **ids}
        url = re.sub(r"\{(\w+)\}", lambda m, v=values: v[m.group(1)], path)
        wrong += _check(rule, method, url, world["users"], True, BODIES.get((path, method)))
    assert wrong == []


def test_the_one_write_a_get_may_make_is_a_due_deadline():
    """The exception is as narrow as it says: a read of a table whose time is up records the
    end (``enforce_deadlines``: the game row changes) and issues no other write."""
    import datetime as dt

    import time_machine
    from gameplay import T0, started_game

    from referee.models import Game

    game = started_game(start=T0)
    with time_machine.travel(T0 + dt.timedelta(minutes=90), tick=False):
        response = _get(Client(), f"/api/v1/tables/{game.table_id}/state")
    assert response.status_code == 200 and response.writes == []
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED  # written, inside it
