"""Moving up mid-season: the tournament played on the laptop (SQLite) is exported and imported
into PostgreSQL with the existing commands; the standings and every confirmed result are the
same there, and so are the players' personal codes (printed cards), the banker links and the
audit log (README, "Moving up to PostgreSQL"). A result the head referee amended verifies on
both (``manage.py verify``: the ruling moves with the line it changed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.postgres

SNAPSHOT = """
import json
from referee.models import Placement
from tournament import audit
from tournament.models import BankerLink, Player, Tournament
from scoring.standings.selectors import placed_rows
rows = placed_rows(Tournament.objects.get(slug="demo"), scope="live")
placements = Placement.objects.filter(result__game__table__round__tournament__slug="demo",
    result__status="confirmed").order_by("result__game__table__number", "place", "player__name")
print(json.dumps({
    "standings": [[r.player.name, r.rank, str(r.points)] for r in rows],
    "results": [[p.result.game.table.number, p.player.name, p.place, p.net_worth]
                for p in placements],
    "codes": sorted(Player.objects.filter(tournament__slug="demo")
                    .values_list("name", "pass_code")),
    "links": sorted(BankerLink.objects.filter(table__round__tournament__slug="demo",
                    revoked_at=None).values_list("table__round__number", "table__number",
                                                 "nonce")),
    "audit": [[r["at"], r["actor"], r["action"], r["target"], r["reason"]]
              for r in audit.export(Tournament.objects.get(slug="demo"))],
}))
"""

#: The head referee amends a confirmed count on the laptop (reopen, amend one line by 100, a
#: second head referee confirms): the ruling the audit log holds, which verify looks for.
AMEND = """
from django.contrib.auth.models import User
from referee import rulings
from referee.models import GameResult
from referee.results import revision_of
from scoring.standings.services import recompute_standings
result = GameResult.objects.filter(game__table__round__tournament__slug="demo",
    status="confirmed", from_paper=False).order_by("game__table__number").first()
judge, other = (User.objects.get_or_create(username=name)[0] for name in ("hr-eins", "hr-zwei"))
rulings.reopen_result(game_id=result.game_id, reason="Hotel vergessen", by=judge,
                      revision=revision_of(result.game_id))
lines = list(result.placements.all())
top = next(p for p in lines if not p.bankrupt)
rulings.amend_result(game_id=result.game_id, reason="Hotel vergessen", by=judge, figures={
    p.player_id: {"net_worth": p.net_worth + (100 if p.pk == top.pk else 0)} for p in lines},
    revision=revision_of(result.game_id))
rulings.resolve_dispute(game_id=result.game_id, note="nachgezählt", by=other,
                        revision=revision_of(result.game_id))
recompute_standings(tournament_id=result.game.table.round.tournament_id)
print(top.player.name)
"""


def run(args: list[str], env: dict[str, str]) -> str:
    out = subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=False)
    assert out.returncode == 0, (out.stdout + out.stderr)[-2000:]
    return out.stdout


def snapshot(args: list[str], env: dict[str, str]) -> dict:
    return json.loads(run(args, env).strip().splitlines()[-1])


@pytest.fixture
def postgres_url():
    """An empty database beside the test database, on the same server."""
    import psycopg

    db = settings.DATABASES["default"]
    name = f"{db['NAME']}_moveup"[:60]
    server = {"host": db["HOST"] or "127.0.0.1", "port": db["PORT"] or 5432, "user": db["USER"],
                  "password": db["PASSWORD"] or None}
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    auth = f"{db['USER']}:{db['PASSWORD']}@" if db["PASSWORD"] else f"{db['USER']}@"
    yield f"postgres://{auth}{server['host']}:{server['port']}/{name}"
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.slow
def test_a_tournament_moves_from_the_laptop_to_postgresql_mid_season(tmp_path, postgres_url):
    base = {k: v for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE")}
    laptop = {**base, "LAPTOP_DATA_DIR": str(tmp_path / "data")}
    # The laptop: round 1 running, some results confirmed, standings with points.
    run(["-m", "laptop", "migrate", "-v", "0"], laptop)
    run(["-m", "laptop", "demo", "--no-serve"], laptop)
    run(["-m", "laptop", "shell", "-c", AMEND], laptop)
    assert "everything agrees" in run(["-m", "laptop", "verify", "demo", "--lang", "en"], laptop)
    before = snapshot(["-m", "laptop", "shell", "-c", SNAPSHOT], laptop)
    assert before["results"] and any(float(row[2]) > 0 for row in before["standings"])
    export = tmp_path / "demo.json"
    run(["-m", "laptop", "export_tournament", "demo", "-o", str(export)], laptop)

    server = {**base, "DATABASE_URL": postgres_url}
    run(["manage.py", "migrate", "-v", "0"], server)
    said = run(["manage.py", "import_tournament", str(export)], server)
    after = snapshot(["manage.py", "shell", "-c", SNAPSHOT], server)
    assert before["codes"] and before["links"] and before["audit"]
    moved_audit = [row for row in after.pop("audit") if row in before["audit"]]
    assert moved_audit == before.pop("audit")  # every entry, in order (plus the import's own)
    assert after == before  # standings, results, codes, links
    # the amended result verifies on the new server as on the laptop
    assert "everything agrees" in run(["manage.py", "verify", "demo", "--lang", "en"], server)
    assert f"Kept: {len(before['codes'])} personal codes" in said
    assert "Not moved: passwords" in said and "SECRET_KEY" in said
