"""Print figures: score sheets for a 1,200-player round (200 tables) and for 300 players (50
tables), written to a file: seconds, peak RSS and the peak of Python allocations.

Scenarios, each on a fresh SQLite database (``_django``):

- ``seated``: a seated round without games; the first print creates the 200 games (and their
  confirmation codes), a reprint reads them;
- ``ended``: every game played to the end and counted, so every sheet is pre-filled from the
  game's record (each record is replayed by the rules engine).

Each measurement runs in a process of its own so that peak RSS belongs to it alone; the
tracemalloc run is separate too (tracing slows Python down several times).

    python benchmarks/bench_print.py
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _django  # noqa: E402

TARGET_SECONDS = 3.0
SIZES = (50, 200)


def rss_kib() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024


def peak_rss_kib() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


# --- building the data (in a setup process) ---------------------------------------------------


def build(tables: int, *, ended: bool) -> None:
    import datetime as dt

    from django.contrib.auth.models import User
    from django.db import transaction
    from django.utils import timezone

    from demo.build import play_demo_game
    from referee.models import (
        Game,
        GameEvent,
        GameResult,
        Placement,
    )
    from tournament.models import (
        Player,
        Round,
        Seat,
        Table,
        Tournament,
    )

    now = timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name="Bench-Meisterschaft Karlsruhe", slug="bench", date=now.date(),
            venue="Karlsruhe, Stadthalle", status="running")
        round_ = Round.objects.create(tournament=tournament, number=1, status="running")
        bankers = User.objects.bulk_create(
            [User(username=f"bankhalter{n}") for n in range(1, tables + 1)])
        table_rows = Table.objects.bulk_create(
            [Table(round=round_, number=n, banker=bankers[n - 1]) for n in range(1, tables + 1)])
        players = Player.objects.bulk_create([
            Player(tournament=tournament, name=f"Spielerin Müller-Weiß {n:04d}",
                   public_name_consent=n % 4 != 0, checked_in=True)
            for n in range(1, tables * 6 + 1)
        ])
        Seat.objects.bulk_create([
            Seat(round=round_, table=table, player=players[index * 6 + position],
                 position=position + 1)
            for index, table in enumerate(table_rows) for position in range(6)
        ])
    if not ended:
        return
    # One game played to the end by the demo's random (legal) play and counted; its rows are
    # copied to every other table with that table's players (bulk: the referee's services
    # would take minutes to re-check 200 identical records, and printing replays each anyway).
    first = table_rows[0]
    play_demo_game(table=first, stage="counted", now=now - dt.timedelta(minutes=5), seed=7)
    model = Game.objects.get(table=first)
    events = list(model.events.order_by("seq"))
    result = GameResult.objects.get(game=model)
    placements = list(result.placements.all())
    source = list(model.players)

    def mapped(value, keys):
        if isinstance(value, str):
            return keys.get(value, value)
        if isinstance(value, list):
            return [mapped(item, keys) for item in value]
        if isinstance(value, dict):
            return {keys.get(key, key): mapped(item, keys) for key, item in value.items()}
        return value

    copied = ("ruleset", "board", "overrides", "ledger", "status", "end_reason", "event_count",
              "started_at", "paused_seconds", "auction_stop_done", "ended_at", "last_event_at")
    with transaction.atomic():
        for table in table_rows[1:]:
            seated = list(table.seats.order_by("position").values_list("player_id", flat=True))
            keys = dict(zip(source, [str(pk) for pk in seated], strict=True))
            game = Game.objects.create(
                table=table, players=[keys[key] for key in source],
                confirmation_code=f"{table.number % 10_000:04d}",
                summary=mapped(model.summary, keys),
                **{name: getattr(model, name) for name in copied},
            )
            GameEvent.objects.bulk_create([
                GameEvent(game=game, seq=event.seq, type=event.type,
                          data=mapped(event.data, keys), recorded_at=event.recorded_at,
                          game_seconds=event.game_seconds)
                for event in events
            ])
            copy = GameResult.objects.create(game=game, status=result.status,
                                             counted_at=result.counted_at)
            Placement.objects.bulk_create([
                Placement(result=copy, player_id=int(keys[str(p.player_id)]), place=p.place,
                          net_worth=p.net_worth, breakdown=p.breakdown, bankrupt=p.bankrupt)
                for p in placements
            ])


def trim(tables: int) -> None:
    """Keep the first ``tables`` tables of the round (and their players)."""
    from tournament.models import Player, Table

    Table.objects.filter(round__tournament__slug="bench", number__gt=tables).delete()
    Player.objects.filter(tournament__slug="bench", seats__isnull=True).delete()


# --- measuring (in a process of its own) ------------------------------------------------------


def render_once(out_path: Path) -> tuple[float, int]:
    from printing import documents as printing
    from tournament.models import Round

    round_ = Round.objects.select_related("tournament").get(tournament__slug="bench", number=1)
    started = time.perf_counter()
    with open(out_path, "wb") as out:
        result = printing.render("scoresheets", out, tournament=round_.tournament, round_=round_,
                                 base_url="https://meisterschaft.example.org")
    return time.perf_counter() - started, result.pages


def child(mode: str, db: str, tables: int, ended: bool) -> dict:
    _django.setup(f"sqlite:///{db}")
    if mode == "setup":
        build(tables, ended=ended)
        return {}
    if mode == "trim":
        trim(tables)
        return {}
    out = Path(tempfile.mkdtemp(prefix="mcs-print-")) / "sheets.pdf"
    if mode == "trace":
        import tracemalloc

        render_once(out)  # warm: fonts, games created, engine imports
        tracemalloc.start()
        _seconds, pages = render_once(out)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        shutil.rmtree(out.parent)
        return {"pages": pages, "tracemalloc_peak_kib": peak // 1024}
    before = rss_kib()
    first, pages = render_once(out)
    second, _pages = render_once(out)
    size = out.stat().st_size
    shutil.rmtree(out.parent)
    return {"pages": pages, "first_s": round(first, 3), "again_s": round(second, 3),
            "rss_before_kib": before, "peak_rss_kib": peak_rss_kib(), "pdf_kib": size // 1024}


def spawn(mode: str, db: str, tables: int, ended: bool) -> dict:
    command = [sys.executable, __file__, "--child", mode, db, str(tables), str(int(ended))]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{mode} {tables} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        mode, db, tables, ended = sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5] == "1"
        print(json.dumps(child(mode, db, tables, ended)))
        return
    results = {}
    for scenario in ("seated", "ended"):
        ended = scenario == "ended"
        built = _django.fresh_database("sqlite").removeprefix("sqlite:///")
        started = time.perf_counter()
        spawn("setup", built, max(SIZES), ended)
        setup_seconds = time.perf_counter() - started
        for tables in SIZES:
            db = f"{built}.{tables}"
            shutil.copy(built, db)
            if tables != max(SIZES):
                spawn("trim", db, tables, ended)
            pristine = f"{db}.pristine"
            shutil.copy(db, pristine)
            figures = spawn("render", db, tables, ended)
            shutil.copy(pristine, db)  # the tracing run starts from the same state
            figures.update(spawn("trace", db, tables, ended))
            figures["setup_s"] = round(setup_seconds, 1)
            results[f"{scenario}-{tables}"] = figures
            label = "seated, no game yet" if not ended else "every game ended and counted"
            first_note = "first print (creates the games)" if not ended else "print"
            print(f"{tables:3d} score sheets ({tables * 6} players, {label}): "
                  f"{first_note} {figures['first_s']:.2f} s, again {figures['again_s']:.2f} s; "
                  f"peak RSS {figures['peak_rss_kib'] / 1024:.1f} MiB "
                  f"(before printing {figures['rss_before_kib'] / 1024:.1f} MiB); "
                  f"tracemalloc peak {figures['tracemalloc_peak_kib'] / 1024:.2f} MiB; "
                  f"PDF {figures['pdf_kib']} KiB")
        shutil.rmtree(Path(built).parent, ignore_errors=True)
    worst = max(results["seated-200"]["first_s"], results["ended-200"]["first_s"])
    print(f"200 sheets, slowest case: {worst:.2f} s (target < {TARGET_SECONDS:.0f} s): "
          f"{'OK' if worst < TARGET_SECONDS else 'TOO SLOW'}")
    for scenario in ("seated", "ended"):
        small, large = results[f"{scenario}-50"], results[f"{scenario}-200"]
        print(f"memory 50 → 200 sheets ({scenario}): tracemalloc peak "
              f"{small['tracemalloc_peak_kib'] / 1024:.2f} → "
              f"{large['tracemalloc_peak_kib'] / 1024:.2f} MiB, peak RSS "
              f"{small['peak_rss_kib'] / 1024:.1f} → {large['peak_rss_kib'] / 1024:.1f} MiB")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
