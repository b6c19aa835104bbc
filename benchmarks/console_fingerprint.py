"""The console's fragment, fingerprinted: a change that only makes the banker's post cheaper
(issue 29) must answer byte for byte the same HTML. Plays random legal games through the
service (several rulesets, with and without the ledger, a clock that moves), and at stages
of each game (not started, dealing, in play with buildings, mortgages and jail, the auction
stop, bankruptcies, ended, counted) renders ``/banker/table/<id>/main/`` for every player in
German and English (and the whole feed once); prints one hash per render and one for all.

``python benchmarks/console_fingerprint.py [OUT]``: OUT (default
``/tmp/console-fingerprint.txt``) gets a line per render (its name and SHA-256), to compare a
run before a change with one after (``diff``). The time is frozen (``time_machine``) and the
cache is a fresh directory: two runs of the same code print the same hashes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import os
import random
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _django  # noqa: E402

#: (ruleset, strict cash, games, events per game, seconds per event, bankruptcies): the
#: games without bankruptcies run into the auction stop and the time limit's last round.
PLAN = [
    ("karlsruhe", False, 6, 260, 25, True),
    ("karlsruhe", True, 3, 200, 25, True),
    ("karlsruhe", False, 3, 200, 90, False),
    ("classic", False, 3, 220, 20, True),
    ("time-limit", False, 3, 220, 40, True),
    ("short-game", True, 2, 160, 40, True),
    ("castle-short", False, 2, 160, 40, True),
    ("classic-dm", False, 2, 160, 20, True),
]
STAGES = (0, 1, 5, 20, 60, 110, 170)
LANGUAGES = ("de", "en")
T0 = dt.datetime(2026, 11, 28, 13, 0, tzinfo=dt.UTC)


def main() -> None:
    out_path = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/console-fingerprint.txt")
    os.environ["CACHE_DIR"] = tempfile.mkdtemp(prefix="mcs-fingerprint-cache-")
    import time_machine

    with time_machine.travel(T0, tick=False) as traveller:
        _django.setup(_django.fresh_database("sqlite"))
        lines = play_all(traveller)
    out_path.write_text("".join(f"{name} {digest}\n" for name, digest in lines))
    total = hashlib.sha256("".join(d for _, d in lines).encode()).hexdigest()
    print(f"{len(lines)} renders, all: {total} ({out_path})")
    print("stages showing: " + ", ".join(f"{name} {count}" for name, count in SEEN.items()))


def play_all(traveller) -> list[tuple[str, str]]:
    from django.contrib.auth.models import User

    from tournament.models import Player, Round, Seat, Table, Tournament

    banker = User.objects.create_user("fp-banker", password="x")
    lines: list[tuple[str, str]] = []
    number = 0
    for ruleset, strict, games, events, seconds, endings in PLAN:
        slug = f"fp-{ruleset}-{int(strict)}-{int(endings)}"
        tournament = Tournament.objects.create(
            slug=slug, name=slug, date="2026-11-28", status="running", ruleset=ruleset,
            strict_cash=strict,
        )
        round_ = Round.objects.create(tournament=tournament, number=1, status="running")
        for index in range(games):
            number += 1
            table = Table.objects.create(round=round_, number=number, banker=banker)
            seated = 6 if index % 3 else 4 + index % 2
            for position in range(1, seated + 1):
                player = Player.objects.create(tournament=tournament,
                                               name=f"Spieler{number} Ö{position}")
                Seat.objects.create(round=round_, table=table, player=player, position=position)
            lines += play_one(table, banker, traveller, seed=number, events=events,
                              seconds=seconds, endings=endings)
    return lines


def play_one(table, banker, traveller, *, seed: int, events: int, seconds: int,
             endings: bool):
    from django.test import Client

    from config.errors import DomainError
    from referee import engine_cache, results, services
    from referee.models import Game
    from referee.rules.simulate import _pick

    client = Client()
    client.force_login(banker)
    rng = random.Random(seed)
    lines = render_all(client, table, f"t{table.number}-s0")  # nobody opened the console yet
    game = services.ensure_game(table=table)
    tries = 0
    while game.event_count < events and tries < events * 6:
        tries += 1
        engine = engine_cache.engine_for(game)
        if engine.status == "finished":
            break
        # Endings are rare at first: most games should reach buildings and mortgages.
        ending = endings and (game.event_count > 80 or rng.random() < 0.02)
        event = _pick(engine, rng.choice, allow_ending=ending, allow_void=True)
        traveller.shift(seconds)
        if event is None:
            continue
        # now and then an action made offline that waited in the phone's queue (made_at)
        waited = dt.timedelta(seconds=95) if rng.random() < 0.1 else None
        with contextlib.suppress(DomainError):  # refused (a deadline came first): the next
            services.post_event(game_id=game.pk, event=event, author=banker, waited=waited)
        game = Game.objects.get(pk=game.pk)
        if game.event_count in STAGES[1:] or (not endings and game.event_count % 40 == 0):
            lines += render_all(client, table, f"t{table.number}-s{game.event_count}")
    lines += render_all(client, table, f"t{table.number}-end{game.event_count}")
    game = Game.objects.get(pk=game.pk)
    if game.status == "finished":
        try:
            results.count_result(game_id=game.pk, revision=results.revision_of(game.pk),
                                 author=banker)
        except DomainError:
            pass
        else:
            lines += render_all(client, table, f"t{table.number}-counted")
    return lines


#: What the rendered stages showed (printed: the renders must cover these).
SEEN: dict[str, int] = {}


def _note(table) -> None:
    from referee import engine_cache
    from referee.console import picture
    from referee.models import Game

    game = Game.objects.filter(table=table).first()
    if game is None:
        return
    engine = engine_cache.engine_for(game)
    state = engine.state
    seen = {
        "buildings": any(state.level.values()), "mortgages": bool(state.mortgaged),
        "jail": bool(state.in_jail), "bankrupt": bool(state.bankrupt),
        "paused": state.paused, "auction stop": bool(state.auction_stop),
        "auctions pending": bool(picture.pending_auctions(engine)[0]),
        "final round": engine.status == "final_round", "ended": engine.status == "finished",
        "not started": not state.started,
    }
    for name, flag in seen.items():
        SEEN[name] = SEEN.get(name, 0) + int(bool(flag))


#: The state's ETag in the console's data names the game's version, a random value since a post
#: stopped counting it (``referee.timers``): blanked, the rest of the render is compared.
STATE_ETAG = re.compile(rb'"state_etag": "\\"g(\d+)-(\d+)-[^"\\]*-(\d)\\""')


def _digest(body: bytes) -> str:
    blanked = STATE_ETAG.sub(rb'"state_etag": "g\1-\2-version-\3"', body)
    return hashlib.sha256(blanked).hexdigest()


def render_all(client, table, stage: str) -> list[tuple[str, str]]:
    from tournament.models import Seat

    _note(table)
    keys = [str(pk) for pk in Seat.objects.filter(table=table).order_by("position")
            .values_list("player_id", flat=True)]
    out = []
    url = f"/banker/table/{table.pk}/main/"
    for language in LANGUAGES:
        for key in ["", *keys]:
            response = client.get(url, {"player": key} if key else {},
                                  HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, (stage, response.status_code)
            out.append((f"{stage}-{language}-{key or 'none'}", _digest(response.content)))
        response = client.get(url, {"feed": "all"}, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        out.append((f"{stage}-{language}-feed", _digest(response.content)))
    return out


if __name__ == "__main__":
    main()
