"""Helpers for the organizer's whole day in a browser (tests/e2e/test_whole_day_browser.py):
a Windows CSV of 35 players, a printed PDF's text, axe-core's serious findings, and the games
that only fill time, played and confirmed through the services."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from browsing import db

from referee import results as referee_results
from referee import services as referee
from referee.models import Game

# The phone screenshots: docs/phone-*.png were made with SHOTS_DIR=docs; by default /tmp, so a
# test run does not change tracked files.
DOCS = Path(os.environ.get("SHOTS_DIR") or tempfile.gettempdir())
SERIOUS = ("serious", "critical")
FIRST = ["Anna", "Ben", "Carla", "Dieter", "Eva", "Frank", "Greta", "Hans", "Ida", "Jonas",
         "Karl", "Lea", "Mia", "Nils", "Olga", "Paul", "Rita", "Sven", "Tina", "Uwe", "Vera",
         "Willi", "Xenia", "Yusuf", "Zoe", "Anton", "Berta", "Conny", "Dora", "Emil", "Fritz"]
SPECIAL = ["Jörg Weiß", "Käthe Lange", "Anna Müller", "Özlem Ärger"]


def windows_csv(*, broken: bool = False) -> bytes:
    """35 players, semicolons, CRLF, Windows-1252 (as Excel on Windows saves it)."""
    lines = ["Name;Verein;E-Mail;Einwilligung"]
    names = SPECIAL + [f"{first} Spieler{index:02d}" for index, first in enumerate(FIRST)]
    for index, name in enumerate(names[:35]):
        club = ["SF Durlach", "MC Karlsruhe", "Schlossallee e.V.", ""][index % 4]
        email = f"p{index}@example.org" if index % 3 else ""
        lines.append(f"{name};{club};{email};{'ja' if index % 4 else 'nein'}")
    if broken:
        lines[5] = ";SF Durlach;kein-at-zeichen;ja"  # no name, a bad e-mail
    return ("\r\n".join(lines) + "\r\n").encode("cp1252")


def pdf_text(data: bytes) -> str:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(data)
        handle.flush()
        return subprocess.run(["pdftotext", handle.name, "-"], capture_output=True,
                              check=True).stdout.decode()


def axe_check(page, label: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in results.response["violations"] if v["impact"] in SERIOUS]
    assert bad == [], (label, page.url, bad)


def post(game: Game, event: dict) -> None:
    db(referee.post_event, game_id=game.pk, event=event, author=None)


def play_to_the_end(table, *, cash: dict[int, int] | None = None) -> Game:
    """Start, two bankruptcies end the game (Karlsruhe), cash counted; not yet counted as a
    result. Each post retried on its own (a retried series would post twice)."""
    game = db(referee.ensure_game, table=table)
    keys = list(game.players)
    if not game.started_at:
        post(game, {"type": "start"})
    post(game, {"type": "bankrupt", "player": keys[-1], "creditor": "bank"})
    post(game, {"type": "bankrupt", "player": keys[-2], "creditor": keys[0]})
    for index, key in enumerate(keys[:-2]):
        amount = (cash or {}).get(index, 1000 + 37 * index + table.number)
        post(game, {"type": "cash", "player": key, "amount": amount})
    return db(Game.objects.get, pk=game.pk)


def confirm_by_service(game: Game) -> None:
    db(referee_results.count_result, game_id=game.pk, author=None,
       revision=db(referee_results.revision_of, game.pk))
    db(game.refresh_from_db)
    db(referee_results.confirm_result, game_id=game.pk, code=game.confirmation_code, by=None,
       revision=db(referee_results.revision_of, game.pk))


def console_count_and_confirm(phone, game: Game, code: str) -> None:
    """On the banker's phone: count finished, then a player types the code."""
    phone.reload()
    phone.wait_for_selector('#console-main[data-mode="count"]')
    phone.locator('[data-testid="count-finished"]').click()
    phone.wait_for_selector('[data-result="counted"]')
    phone.locator('input[name="code"]').fill(code)
    phone.locator('input[name="code"]').press("Enter")
    phone.wait_for_selector('[data-result="confirmed"]')
