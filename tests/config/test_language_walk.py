"""Every page in one language (issue 28): the demo championship walked over the site's GET
routes as each role, in English and in German; the visible text of every HTML answer (text,
labels a screen reader reads, the console's JS strings) may hold no word of the other language.

"Visible" is the text between tags outside <script>/<style>, the placeholder, title,
aria-label and alt attributes, button values, and the console's translated JS strings. Names from
the data (players, clubs, tournaments, venues, streets of the German board, account names) are
taken out first: they are what they are in both languages. The word lists are small on
purpose: function words and the site's own nouns, no word both languages share ("in", "was",
"Name", "Link", "Online").

German that ``make messages`` has not merged yet comes from ``locale/glossary-de-*.json`` behind
the compiled catalogue (the catalogue wins where it has a translation).
"""

from __future__ import annotations

import gzip
import json
import re
import time
from html.parser import HTMLParser

import pytest
from catalogues import german_from_glossaries
from django.test import Client
from django.urls import resolve
from routes import url_routes

from demo.build import DEMO_SLUG, OPEN_SLUG, build_demo
from public.board import label_lines
from referee import rules
from scoring.models import HallScreen
from tournament import access, banker_links
from tournament.models import Club, Player, Signup, SignupSettings, StaffRole, Table, Tournament

pytestmark = pytest.mark.django_db


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Words no English page may show (German function words and the site's German nouns).
GERMAN = _words("""
    und oder der die das den dem des ein eine einen einem einer nicht mit für von vom zum zur
    ist sind wird werden wurde noch nach auf bei aus über unter durch ohne bitte hier alle
    jetzt schon keine kein sein seine ihre ihr sie wir
    spieler spielerin runde runden tisch tische tischen ergebnis ergebnisse turnier turniere
    bankhalter turnierleitung oberschiedsrichter zurück anmelden abmelden speichern löschen
    abbrechen bestätigen bestätigt zeile zeilen datei einstellungen beendet gestartet läuft
    miete vermögen bargeld hypothek karte karten punkte platz wertung rangliste sitzplatz
    warteschlange zählung strittig uhr seite verein vereine drucken
""")

#: Words no German page may show (English function words and the site's English nouns; not
#: words German has too: "will", "also", "so").
ENGLISH = _words("""
    the and of with from your you is are this that not for to by be been has have
    please here all now already none true false
    player players round rounds table tables result results tournament tournaments banker
    bankers organizer organizers referee back save delete cancel confirm confirmed correct
    line lines file settings finished started running rent cash mortgaged mortgage deed deeds
    points place standings seat queued amount count counted disputed club clubs print
    mr
""")

#: Names that are the same in both languages (the issue's glossary: streets, Monopoly ...).
ALLOWED = _words("monopoly demo pdf csv qr")

#: Routes not walked: not pages of this site's own wording (the admin, the API's schema and
#: its docs, a redirect or a file).
SKIPPED = {"admin/", "admin/login/", "api/schema/", "api/docs/", "healthz", "favicon.ico",
           "i18n/setlang/", "logout/", "banker/sw.js"}

TEXT_ATTRIBUTES = {"placeholder", "title", "aria-label", "alt"}
WORD = re.compile(r"[A-Za-zÄÖÜäöüß]+")


class VisibleText(HTMLParser):
    """The words a reader sees or hears on a page in ``language``; an element that declares
    another language (``lang="de"`` on the English page: the privacy notice in both) is that
    language's, as a screen reader reads it."""

    def __init__(self, language: str) -> None:
        super().__init__(convert_charrefs=True)
        self.language = language
        self.parts: list[str] = []
        self._skip = 0  # inside <script>/<style> (not a JS string catalogue)
        self._json = False
        self._other: list[str] = []  # the open element in another language, and its nesting

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if self._other:
            if tag == self._other[0]:
                self._other.append(tag)
            return
        if attributes.get("lang") not in (None, self.language) and tag != "html":
            self._other = [tag]
            return
        if tag in ("script", "style", "template"):
            self._skip += 1
            self._json = tag == "script" and attributes.get("id") == "console-i18n"
        for name, value in attrs:
            if value and (name in TEXT_ATTRIBUTES
                          or (tag == "input" and name == "value"
                              and attributes.get("type") in ("submit", "button"))):
                self.parts.append(value)

    def handle_endtag(self, tag):
        if self._other:
            if tag == self._other[0]:
                self._other.pop()
            return
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1
            self._json = False

    def handle_data(self, data):
        if self._other:
            return
        if self._json:
            self.parts.extend(str(value) for value in json.loads(data).values())
        elif not self._skip:
            self.parts.append(data)


def visible_text(html: str, language: str) -> str:
    parser = VisibleText(language)
    parser.feed(html)
    return " ".join(parser.parts)


def foreign_words(text: str, *, language: str, names: list[str]) -> set[str]:
    """The words of ``text`` that belong to the other language (names taken out first)."""
    other = GERMAN if language == "en" else ENGLISH
    lowered = text.lower()
    if not any(word in other for word in WORD.findall(lowered)):
        return set()  # nothing to look at twice (the usual page): no names to take out
    for name in names:
        if name in text:
            text = text.replace(name, " ")
    # placeholders of messages (%(name)s) are not words a reader sees; the other language's
    # words announced as such ("(englisch: name, club)", "(German: Name, Verein)") are meant
    text = re.sub(r"%\(\w+\)s", " ", text)
    text = re.sub(r"\((?:englisch|English|German|deutsch):[^)]*\)", " ", text)
    # a token with a digit or a slash is an address, a key or a code (a hall screen's random
    # key "k3be9…" held the "word" "be" once), not a word of either language
    text = re.sub(r"\S*[\d/]\S*", " ", text)
    return {word for word in WORD.findall(text)
            if word.lower() in other and word.lower() not in ALLOWED}


def data_names() -> list[str]:
    """Every name the data brings (longest first, so that a name inside a longer one goes
    with it)."""
    found: set[str] = set()
    for name, venue in Tournament.objects.values_list("name", "venue"):
        found |= {name, venue}
    for club in Club.objects.all():
        found |= {club.name, club.short_name}
    for player in Player.objects.all():
        found |= {player.name, player.public_name, player.email}
    found |= set(Signup.objects.values_list("name", flat=True))
    found |= set(SignupSettings.objects.values_list("entry_fee", flat=True))
    found |= set(HallScreen.objects.values_list("name", flat=True))
    found |= set(StaffRole.objects.values_list("user__username", flat=True))
    found |= set(Table.objects.exclude(banker=None).values_list("banker__username", flat=True))
    for key in rules.BOARD_KEYS:
        for square in rules.get_board(key).squares:
            # the board's picture breaks long names: "Opern-" / "platz"
            found |= {square.name, *label_lines(square.name)}
    return sorted((name for name in found if name), key=len, reverse=True)


def _fill(route: str, values: dict[str, list[str]]) -> list[str]:
    """Every URL of ``route`` with the demo's values (one per table where a route names one)."""
    urls = ["/" + route]
    for name in re.findall(r"<(?:\w+:)?(\w+)>", route):
        urls = [re.sub(rf"<(?:\w+:)?{name}>", value, url, count=1)
                for url in urls for value in values.get(name, ["0"])]
    return urls


def walk_plan() -> list[tuple[str, list[str]]]:
    """(route, [url, ...], roles) of every GET page to walk: a route's URLs (one per table
    where it names one) in the order walked."""
    demo = Tournament.objects.get(slug=DEMO_SLUG)
    open_cup = Tournament.objects.get(slug=OPEN_SLUG)
    # one table of each stage (not begun, running, past the auction stop, counted, confirmed)
    tables = list(Table.objects.filter(round__tournament=demo, round__number=1)
                  .order_by("number"))[:5]
    games = [table.game for table in tables if hasattr(table, "game")]
    player = demo.players.order_by("name").first()
    signup = open_cup.signups.order_by("pk").first()
    screen = demo.hall_screens.order_by("pk").first()
    link = banker_links.live_link(tables[1])
    values = {
        "slug": [DEMO_SLUG], "tournament_slug": [DEMO_SLUG], "number": ["1"],
        "table_number": [str(table.number) for table in tables],
        "table_id": [str(table.pk) for table in tables],
        "game_id": [str(game.pk) for game in games],
        "player_id": [str(player.pk)], "pk": [str(player.pk)], "code": [player.pass_code],
        "role_id": [str(StaffRole.objects.filter(tournament=demo).order_by("pk")[1].pk)],
        "key": [screen.key], "screen_id": [str(screen.pk)],
        "token": [banker_links.link_path(link).strip("/").split("/")[-1]],
        "signup_id": [str(signup.pk)], "mail_id": ["0"], "document": ["scoresheets"],
        "job": ["0" * 32], "job_id": ["0" * 32], "uidb64": ["MQ"],
    }
    plan = []
    for route, *_ in url_routes(whole=("admin/",)):
        if route in SKIPPED or route.startswith("api/"):
            continue
        if route.startswith("manage/"):
            roles = ["organizer", "head_referee", "desk"]
        elif route.startswith("banker/"):
            roles = ["banker", "head_referee"]
        elif route in ("start/",):
            roles = ["organizer", "banker"]
        else:
            roles = ["anonymous"]
        urls = _fill(route, values)
        if "signup" in route:  # the demo's sign-up is the open cup's
            urls = [url.replace(f"/{DEMO_SLUG}/", f"/{OPEN_SLUG}/", 1) for url in urls]
        plan.append((urls, roles))
    return plan


def accounts() -> dict[str, object]:
    """The demo's account of each role (the banker of table 2, whose link the walk uses)."""
    demo = Tournament.objects.get(slug=DEMO_SLUG)
    found = {
        role: StaffRole.objects.filter(tournament=demo, role=kind).first().user
        for role, kind in (("organizer", StaffRole.Role.ORGANIZER),
                           ("head_referee", StaffRole.Role.HEAD_REFEREE),
                           ("desk", StaffRole.Role.DESK))
    }
    found["banker"] = Table.objects.filter(round__tournament=demo).order_by(
        "number").exclude(banker=None)[1].banker
    return found


def refusing_action(url: str, user) -> object | None:
    """The page's action if its gate refuses ``user`` (tournament.access, without a request)."""
    match = resolve(url)
    action = getattr(match.func, "access_action", None)
    slug = match.kwargs.get("slug")
    if action is None or user is None or slug is None:
        return None
    tournament = Tournament.objects.filter(slug=slug).first()
    return action if tournament and not access.can(user, action, tournament) else None


def clients(language: str) -> dict[str, Client]:
    """A client per role, asking for ``language``."""
    made = {"anonymous": Client(HTTP_ACCEPT_LANGUAGE=language)}
    for role, user in accounts().items():
        made[role] = Client(HTTP_ACCEPT_LANGUAGE=language)
        made[role].force_login(user)
    return made


def walk(language: str, names: list[str]) -> tuple[dict[str, set[str]], int]:
    """{url as role: foreign words} of every page in ``language``, and how many were read."""
    found: dict[str, set[str]] = {}
    read = 0
    by_role, users = clients(language), accounts()
    # (role, action) whose refusal was read: the same page for every route of that action
    refused: set[tuple[str, object]] = set()
    for urls, roles in walk_plan():
        for role in roles:
            action = refusing_action(urls[0], users.get(role))
            if action is not None:
                if (role, action) in refused:
                    continue
                refused.add((role, action))
            for url in urls:
                response = by_role[role].get(url)
                if (response.status_code in (301, 302) or getattr(response, "streaming", False)
                        or response.get("Content-Type", "").split(";")[0] != "text/html"):
                    break
                read += 1
                body = response.content
                if response.get("Content-Encoding") == "gzip":
                    body = gzip.decompress(body)
                words = foreign_words(visible_text(body.decode(), language),
                                      language=language, names=names)
                if words:
                    found[f"{url} as {role} ({response.status_code})"] = words
                if response.status_code in (403, 404, 405):
                    break  # the same refusal for every table: read once
    return found, read


@pytest.fixture
def demo(tmp_path):
    with german_from_glossaries(tmp_path, "*", behind=True):
        build_demo(players=36)
        yield data_names()


def test_every_page_speaks_one_language(demo):
    started = time.monotonic()
    english, read_en = walk("en", demo)
    german, read_de = walk("de", demo)
    assert read_en > 100 and read_de > 100  # the walk reached the pages
    assert english == {}, f"German words on English pages: {english}"
    assert german == {}, f"English words on German pages: {german}"
    assert time.monotonic() - started < 60


def test_the_check_finds_a_word_of_the_other_language():
    """The walk would not see a mistake if the check missed one: each kind of place on a page."""
    page = ('<p>Log in</p><button title="Tisch wählen">x</button><input type="submit" '
            'value="Speichern"><script id="console-i18n" type="application/json">'
            '{"a": "Offline \\u2013 0 in der Warteschlange"}</script><script>var und = 1;</script>')
    words = foreign_words(visible_text(page, "en"), language="en", names=[])
    assert words == {"Tisch", "Speichern", "der", "Warteschlange"}
    assert foreign_words("Mr. Monopoly und der Oberschiedsrichter", language="de",
                         names=[]) == {"Mr"}
    assert foreign_words("Anna spielt in Badstraße", language="en",
                         names=["Badstraße"]) == set()
    declared = '<p lang="de">Die Spieler <b>und</b> die Tische</p><p lang="en">Log in</p>'
    assert foreign_words(visible_text(declared, "en"), language="en", names=[]) == set()
    assert foreign_words(visible_text(declared, "de"), language="de", names=[]) == set()
    assert foreign_words("The players und the table", language="en",
                         names=[]) == {"und"}
