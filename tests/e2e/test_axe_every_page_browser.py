"""axe on every page type (issue 28): not one violation of any impact, in one browser.

The pages come from the URL conf's walk (tests/site_pages.py, shared with the CSP test) over the
fuzz world: the public ones logged out, the staff pages as the organizer at 1280 px; then what
only a role, a state or a step shows: every page the desk and the head referee may open, at
360 px, from where each lands after the login; the banker's tables; the console in each of its
modes (set-up, play with the pay sheet open, the auction after the stop, the count, the code,
confirmed, disputed); the hall screens in each mode at 1080p; forms answered with their errors
(the login, a point deduction without points); a domain refusal; the error pages (403, 404,
405, the refused banker link, the console without a session, the server error). Fragments that
htmx and the live updates fetch into a page are not pages of their own: left out.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from browsing import PHONE, db, login_as
from django.test import Client
from django.utils import timezone
from dress_rehearsal._fuzz_world import build_fuzz_world
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint, seated_table
from gameplay import finish_game, finish_recent, make_round
from site_pages import signup_pages, walked_pages

from referee import results as referee_results
from referee import services as referee
from referee.models import Game
from referee.results import revision_of
from scoring import screens
from tournament.models import Seat, StaffRole, Tournament
from tournament.staff import set_password_path

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HALL = {"width": 1920, "height": 1080}
DESKTOP = {"width": 1280, "height": 720}


def _consoles(world) -> dict[str, int]:
    """A table in each of the console's modes, by mode: the fuzz world's table 1 plays and
    table 2 waits for its code; a tournament of its own holds the rest, and one on Karlsruhe
    rules has passed its auction stop."""
    konsole = TournamentFactory(slug="konsole", status=Tournament.Status.RUNNING, table_size=4)
    people = [PlayerFactory(tournament=konsole, name=f"Konsole {n}") for n in range(16)]
    _round, tables = make_round(konsole, 1, [people[i:i + 4] for i in range(0, 16, 4)])
    setup, finished, confirmed, disputed = tables
    referee.ensure_game(table=setup)
    finish_game(finished, count=False)
    finish_recent(confirmed)
    game = finish_recent(disputed, confirm=False)
    referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                   note="Hotel vergessen", by=None)
    auction = seated_table(players=4, tournament_kwargs={
        "slug": "auktion", "ruleset": "karlsruhe", "table_size": 4})
    started = timezone.now() - dt.timedelta(minutes=50)
    game = referee.ensure_game(table=auction)
    referee.post_event(game_id=game.pk, event={"type": "start"}, author=None, now=started)
    referee.enforce_deadlines(game_id=game.pk, now=timezone.now())
    appoint(world.organizer, StaffRole.Role.ORGANIZER, konsole, auction.round.tournament)
    return {"setup": setup.pk, "play": world.tables[0].pk, "auction": auction.pk,
            "count": finished.pk, "counted": world.tables[1].pk, "confirmed": confirmed.pk,
            "disputed": disputed.pk}


def _hall_screens(world) -> dict[str, str]:
    """A hall screen in each mode, by mode: its key."""
    keys = {}
    for mode in ("seating", "clock", "standings"):
        screen = screens.add_screen(tournament=world.running, name=f"Halle {mode}")
        screens.set_mode(screen=screen, mode=mode)
        keys[mode] = screen.key
    return keys


def _html_pages(user, paths: list[str]) -> list[str]:
    """The paths that answer ``user`` with an HTML page (200; not the fragments htmx and the
    live updates fetch into a page)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    pages = []
    for path in paths:
        answer = client.get(path)
        if (answer.status_code == 200 and "text/html" in answer.get("Content-Type", "")
                and b"<html" in answer.content[:3000].lower()):
            pages.append(path)
    return pages


class Walk:
    """One page of one browser, visiting page after page; what axe finds is kept by page."""

    def __init__(self, page, live_server):
        from axe_playwright_python.sync_playwright import Axe

        self.page, self.live_server, self.axe = page, live_server, Axe()
        self.found: dict[str, list] = {}
        self.checked = 0

    def login(self, user) -> None:
        self.page.context.clear_cookies()
        if user is not None:
            login_as(self.page.context, self.live_server, user)

    def open(self, path: str) -> None:
        """Open ``path`` (200) to work on it before axe looks."""
        answer = self.page.goto(path)
        assert answer is not None and answer.status == 200, (path, answer and answer.status)
        self.page.wait_for_load_state()

    def visit(self, path: str, *, label: str = "", status: int | None = 200,
              ready: str = "") -> None:
        """Open ``path`` (answered with ``status``), wait for ``ready`` if given, run axe."""
        answer = self.page.goto(path)
        if status is not None:
            assert answer is not None and answer.status == status, (path, answer and answer.status)
        self.page.wait_for_load_state()
        if ready:
            self.page.locator(ready).first.wait_for()
        self.check(label or path)

    def from_landing(self, user, *, role: str, landing: str, paths: list[str]) -> None:
        """``user`` logs in and lands on ``landing`` (their role's start), then visits each of
        ``paths``."""
        self.login(user)
        self.visit("/start/", label=f"{role}: landing")
        assert self.page.url.endswith(landing), self.page.url
        for path in paths:
            if path != landing:
                self.visit(path, label=f"{role} {path}")

    def check(self, label: str) -> None:
        """axe on the page as it stands, once it has loaded and htmx is not swapping."""
        page = self.page
        page.wait_for_load_state()
        page.wait_for_function("() => !document.querySelector('.htmx-request, .htmx-settling')")
        context = None
        if page.locator("#swagger-ui").count():
            # The API docs: Swagger UI (third party) draws itself after the page has loaded —
            # axe ran before or after it by chance. Wait for it; its own markup (nested
            # controls, low-contrast code samples) is its makers', left out and named in the
            # README; the page around it (language, landmark, heading) is ours and checked.
            page.wait_for_selector("#swagger-ui .opblock")
            context = {"exclude": [["#swagger-ui"]]}
        violations = self.axe.run(page, context=context).response["violations"]
        self.checked += 1
        if violations:
            self.found[label] = [
                (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3], len(v["nodes"]))
                for v in violations]


@pytest.mark.slow
@pytest.mark.timeout(420)  # ~100 pages: 3 minutes on two cores shared by 8 test runs
def test_axe_finds_no_violation_on_any_page_type(browser, live_server):
    world = build_fuzz_world()
    signups = signup_pages(world)
    walked = walked_pages(world)
    consoles = _consoles(world)
    halls = _hall_screens(world)
    banker = UserFactory(username="bank-fuzz")
    world.tables[0].banker = banker
    world.tables[0].save(update_fields=["banker"])
    desk = appoint(UserFactory(username="anmeldung"), StaffRole.Role.DESK, world.running)
    judge = appoint(UserFactory(username="oberschiri"), StaffRole.Role.HEAD_REFEREE,
                    world.running)
    newcomer = UserFactory(username="neu-im-team")
    newcomer.set_unusable_password()
    newcomer.save()
    password_page = set_password_path(newcomer)
    public = _html_pages(None, walked + signups)
    for_organizer = _html_pages(world.organizer, [  # the consoles come in their modes below
        path for path in walked + signups if path not in public and "/banker/" not in path])
    staff_pages = [path for path in for_organizer if path.startswith("/manage/fuzz/")]
    for_desk = _html_pages(desk, staff_pages)
    for_judge = _html_pages(judge, staff_pages)
    assert len(public) >= 15 and len(for_organizer) >= 30, (public, for_organizer)
    assert len(for_desk) >= 5 and len(for_judge) >= 10, (for_desk, for_judge)
    table_one = [str(pk) for pk in Seat.objects.filter(round=world.draft, table__number=1)
                 .order_by("position").values_list("player_id", flat=True)]
    playing = [str(pk) for pk in world.tables[0].seats.order_by("position")
               .values_list("player_id", flat=True)]

    context = browser.new_context(base_url=live_server.url, locale="de-DE",
                                  service_workers="block", viewport=DESKTOP)
    page = context.new_page()
    page.set_default_timeout(15_000)
    walk = Walk(page, live_server)

    # --- anybody: the public pages, the hall screens at 1080p, the login, the error pages
    walk.login(None)
    for path in public:
        walk.visit(path)
    page.set_viewport_size(HALL)
    for mode, key in halls.items():
        walk.visit(f"/t/fuzz/hall/{key}/", label=f"hall screen: {mode}",
                   ready=f'[data-hall-mode="{mode}"]')
    page.set_viewport_size(DESKTOP)
    walk.visit("/login/?next=/manage/", label="login")
    page.fill("#id_username", "niemand")
    page.fill("#id_password", "falsch-falsch")
    page.locator("form button.primary").click()
    page.locator('form [role="alert"]').wait_for()
    walk.check("login refused")
    walk.visit(password_page, label="set password", status=None)
    walk.visit("/t/kein-turnier/", label="404", status=404)
    walk.visit("/b/kein-link/", label="banker link unknown", status=404)
    walk.visit(f"/banker/table/{consoles['play']}/", label="console without a session",
               status=403)
    server_error = _server_error_page()
    page.route("**/server-error/", lambda route: route.fulfill(
        status=500, content_type="text/html; charset=utf-8", body=server_error))
    walk.visit("/server-error/", label="500", status=500)
    page.unroute("**/server-error/")

    # --- the organizer: every staff page of the walk, a form's errors, a refusal, a 405
    walk.login(world.organizer)
    for path in for_organizer:
        walk.visit(path, label=f"organizer {path}")
    walk.open(f"/manage/fuzz/players/{world.players[0].pk}/incidents/")
    page.select_option('select[name="level"]', "deduction")
    page.fill('textarea[name="note"]', "Mietabsprache")
    page.locator('[data-form="incident"] button').click()
    page.locator('[data-form="incident"] .errorlist').first.wait_for()
    walk.check("incident refused: points missing")
    walk.open("/manage/fuzz-open/rounds/1/")
    page.evaluate("""([player]) => {
        document.querySelector('#move-player').value = player;
        document.querySelector('#move-table').value = '2';
        document.querySelector('#move-save').disabled = false;
    }""", [table_one[0]])
    page.click("#move-save")
    page.locator('[data-code="table_size"]').wait_for()
    walk.check("refusal page")
    walk.visit("/manage/fuzz/rounds/1/lock/", label="405", status=405)
    for state in ("confirmed", "disputed"):  # the result page's other two forms
        game = db(Game.objects.get, table_id=consoles[state])
        walk.visit(f"/manage/konsole/results/{game.pk}/", label=f"result: {state}")
    walk.open("/manage/fuzz/print/1/")
    page.locator('form[action$="/job/"] button').first.click()
    page.wait_for_url(re.compile(r"/print/jobs/"))
    walk.check("print job")

    # --- the console in each mode on a phone, the pay sheet open while playing
    page.set_viewport_size(PHONE)
    for mode, table_id in consoles.items():
        shown = "count" if mode in ("count", "counted", "confirmed", "disputed") else mode
        walk.visit(f"/banker/table/{table_id}/", label=f"console: {mode}",
                   ready=f'#console-main[data-mode="{shown}"]')
        if mode == "play":
            page.locator(f'[data-select-player="{playing[0]}"]').click()
            page.locator(f'[data-open="sheet-pay"][data-player="{playing[0]}"]').click()
            page.locator("#sheet-pay").wait_for()
            walk.check("console: pay sheet")

    # --- the banker, the desk and the head referee from where they land
    walk.login(banker)
    walk.visit("/start/", label="banker: landing")
    walk.visit(f"/banker/table/{consoles['play']}/", label="banker: console",
               ready="#console-main")
    walk.from_landing(desk, role="desk", landing="/manage/fuzz/check-in/", paths=for_desk)
    walk.visit("/manage/fuzz/settings/", label="desk: 403", status=403)
    walk.from_landing(judge, role="head referee", landing="/manage/fuzz/desk/", paths=for_judge)
    context.close()
    assert walk.found == {}, f"{len(walk.found)} of {walk.checked} pages: {walk.found}"


def _server_error_page() -> str:
    from django.template.loader import render_to_string

    return db(render_to_string, "500.html")
