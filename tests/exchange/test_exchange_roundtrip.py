"""Export → import reproduces a tournament: the same standings, records, results and seating,
whether imported into an emptied database or next to the original under a new slug."""

from __future__ import annotations

import copy
import json

import pytest
from django.utils import timezone
from factories import PlayerFactory, TournamentFactory
from gameplay import make_round, minutes_ago
from gameplay import play as play_at

from demo.build import build_demo
from desk import rounds
from exchange import services as exchange
from referee import results as referee_results
from referee import selectors as referee_selectors
from referee.models import Game, GameEvent, GameResult
from referee.results import revision_of
from scoring.standings import selectors, services
from tournament.models import (
    BankerLink,
    Club,
    Player,
    Round,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db

PLAYER_FIELDS = exchange.PLAYER_FIELDS


def named(document: dict) -> dict:
    """The document with every player key replaced by the player's name, and without the
    export's time stamp and audit log: two exports of the same tournament compare equal."""
    doc = copy.deepcopy(document)
    names = {player["key"]: player["name"] for player in doc["players"]}

    def name(key):
        return names.get(key, key)

    doc.pop("exported_at")
    doc.pop("audit")  # this server's history of the tournament, not its data
    for incident in doc.get("incidents", []):
        incident["player"] = name(incident["player"])
        incident.pop("recorded_at")
    for player in doc["players"]:
        player.pop("key")
        player.pop("pass_code")  # unique per server: a copy beside the original gets new ones
    doc["tournament"]["winner"] = name(doc["tournament"]["winner"])
    doc["tournament"].pop("slug")
    for round_ in doc["rounds"]:
        for table in round_["tables"]:
            table.pop("link")  # likewise
            table["seats"] = [name(key) for key in table["seats"]]
            if table["game"]:
                record = table["game"]["record"]
                record["players"] = [name(key) for key in record["players"]]
                for event in record["events"]:
                    for field in PLAYER_FIELDS:
                        if field in event:
                            event[field] = name(event[field])
            if table["result"]:
                for placement in table["result"]["placements"]:
                    placement["player"] = name(placement["player"])
    for row in doc["standings"]:
        row["player"] = name(row["player"])
    return doc


def standings_by_name(tournament: Tournament) -> list[dict]:
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    return [{**row, "player": names[row["player"]]}
            for row in selectors.standings(tournament, scope="live")]


def records_by_table(tournament: Tournament) -> dict[tuple[int, int], dict]:
    out = {}
    for game in Game.objects.filter(table__round__tournament=tournament).select_related(
        "table__round"
    ):
        names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
        record = referee_selectors.record(game)
        record["players"] = [names[int(key)] for key in record["players"]]
        for event in record["events"]:
            for field in PLAYER_FIELDS:
                if isinstance(event.get(field), str) and event[field].isdigit():
                    event[field] = names[int(event[field])]
        out[(game.table.round.number, game.table.number)] = record
    return out


def test_the_demo_survives_export_delete_and_import(django_capture_on_commit_callbacks):
    summary = build_demo(players=36)
    demo = summary.tournament
    services.recompute_standings(tournament_id=demo.pk)
    before = standings_by_name(demo)
    records = records_by_table(demo)
    document = json.loads(exchange.export_json(demo))
    assert document["format"] == "monopoly-championship-export/1"
    assert len(document["players"]) == 36 and len(document["rounds"]) == 1
    # Every seated table has its game (made at seating, with its code); four have been played.
    games = [t["game"] for t in document["rounds"][0]["tables"]]
    assert all(games) and sum(1 for g in games if g["record"]["events"]) == 4
    assert sorted(document["bankers"]) == sorted(summary.bankers)
    statuses = {t["result"]["status"] for t in document["rounds"][0]["tables"] if t["result"]}
    assert statuses == {"counted", "confirmed"}
    assert all(p["points"] is not None for p in document["standings"])

    demo_id = demo.pk
    demo.delete()
    assert not Game.objects.exists() and not Player.objects.filter(tournament_id=demo_id).exists()

    with django_capture_on_commit_callbacks(execute=True):
        imported = exchange.import_tournament(json.dumps(document).encode())
    assert imported.slug == "demo" and imported.status == Tournament.Status.RUNNING
    assert standings_by_name(imported) == before
    assert records_by_table(imported) == records
    # every event went through the engine again: same counts, same derived game state
    for game in Game.objects.filter(table__round__tournament=imported):
        assert game.event_count == len(records[(1, game.table.number)]["events"])
        assert GameEvent.objects.filter(game=game).count() == game.event_count
    assert named(json.loads(exchange.export_json(imported))) == named(document)
    # the bankers have their tables and fresh private links (the old links were secrets)
    tables = Table.objects.filter(round__tournament=imported)
    assert sorted(tables.values_list("banker__username", flat=True)) == sorted(summary.bankers)
    assert BankerLink.objects.filter(table__in=tables, revoked_at=None).count() == tables.count()


def play(table, cash_by_player, **options):
    """A game the table's banker ran, ended at the time limit a few minutes ago."""
    return play_at(table, cash_by_player, start=minutes_ago(100), author=table.banker, **options)


@pytest.fixture
def finished_championship(django_capture_on_commit_callbacks):
    """Two preliminary rounds, a final, a crowned winner; a tie decided by lot; a dropout."""
    from factories import ClubFactory, UserFactory

    tournament = TournamentFactory(status=Tournament.Status.RUNNING, slug="ka-2026",
                                   finalists=6, preliminary_rounds=2, time_limit_minutes=90)
    clubs = [ClubFactory(name="Spielfreunde Durlach", short_name="SF Durlach"),
             ClubFactory(name="Monopoly-Club Karlsruhe", short_name="MC KA")]
    players = [
        PlayerFactory(tournament=tournament, name=f"Spieler {i:02d}", club=clubs[i % 3]
                      if i % 3 < 2 else None, public_name_consent=i % 4 != 0,
                      email=f"s{i}@example.org")
        for i in range(12)
    ]
    bankers = [UserFactory(username=f"bank{i}") for i in range(2)]
    with django_capture_on_commit_callbacks(execute=True):
        round_, tables = make_round(tournament, 1, [players[:6], players[6:]],
                                    started_at=timezone.now())
        for table, banker in zip(tables, bankers, strict=True):
            table.banker = banker
            table.save()
        play(tables[0], {p: 1000 + 100 * i for i, p in enumerate(players[:6])},
             bankrupt=(players[0], players[1]))
        play(tables[1], {p: 1000 + 100 * i for i, p in enumerate(players[6:])})
        rounds.close_round(round_=round_)
        order = [players[i] for i in (0, 6, 1, 7, 2, 8, 3, 9, 4, 10, 5, 11)]
        round_, tables = make_round(tournament, 2, [order[:6], order[6:]],
                                    started_at=timezone.now())
        play(tables[0], dict.fromkeys(order[:6], 1500))  # all equal: tie-breaks decide
        game = play(tables[1], {p: 900 + 5 * i for i, p in enumerate(order[6:])}, confirm=False)
        referee_results.dispute_result(game_id=game.pk, revision=revision_of(game.pk),
                                       note="Zählung strittig", by=None)
        referee_results.confirm_result(game_id=game.pk, revision=revision_of(game.pk),
                                       code=None, by=None, head_referee=True,
                                       ruling="Zählung gilt")
        GameResult.objects.filter(game=game).update(resolved_note="Zählung gilt")
        rounds.close_round(round_=round_)
        players[11].dropped_out = True
        players[11].save()
        final = rounds.seat_final(tournament=tournament, seed=3)
        final.status = Round.Status.RUNNING
        final.save()
        table = final.tables.get()
        seated = [seat.player for seat in table.seats.order_by("position")]
        play(table, {p: 700 + 10 * i for i, p in enumerate(seated)})
        rounds.close_round(round_=final)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED and tournament.winner is not None
    return tournament


def test_a_finished_championship_with_final_and_winner_round_trips(finished_championship,
                                                                   django_capture_on_commit_callbacks):
    original = finished_championship
    before = standings_by_name(original)
    assert any(row["final_place"] for row in before)
    document = json.loads(exchange.export_json(original))
    with django_capture_on_commit_callbacks(execute=True):
        copy_ = exchange.import_tournament(document, slug="ka-2026-archiv")
    assert copy_.slug == "ka-2026-archiv" and copy_.status == Tournament.Status.FINISHED
    assert copy_.winner.name == original.winner.name
    assert standings_by_name(copy_) == before
    assert records_by_table(copy_) == records_by_table(original)
    assert named(json.loads(exchange.export_json(copy_))) == named(document)
    # results and their confirmation state
    ruling = GameResult.objects.get(game__table__round__tournament=copy_, resolved_note__gt="")
    assert ruling.dispute_note == "Zählung strittig" and ruling.confirmed_via == "head_referee"
    authors = set(
        GameEvent.objects.filter(game__table__round__tournament=copy_)
        .values_list("author__username", flat=True)
    )
    assert {"bank0", "bank1"} <= authors
    # private data travels (organizers only); the dropout stays dropped out
    assert Player.objects.get(tournament=copy_, name="Spieler 11").dropped_out
    assert Player.objects.get(tournament=copy_, name="Spieler 03").email == "s3@example.org"
    # clubs are the tournament's own: the copy has its own
    assert Club.objects.filter(name="Spielfreunde Durlach").count() == 2
    assert Club.objects.get(tournament=copy_, name="Spielfreunde Durlach").players.count() > 0
    # the original is untouched
    assert standings_by_name(original) == before
    # complete rounds: no live banker links are issued for them
    assert not BankerLink.objects.filter(table__round__tournament=copy_, revoked_at=None).exists()


def test_standings_after_import_in_an_emptied_database(finished_championship):
    document = exchange.export_json(finished_championship)
    before = standings_by_name(finished_championship)
    Tournament.objects.all().delete()
    Club.objects.all().delete()
    imported = exchange.import_tournament(document)
    assert standings_by_name(imported) == before
    assert imported.lot_seed == json.loads(document)["tournament"]["lot_seed"]


def test_alternates_travel_with_their_rank_and_a_doubled_rank_is_refused(finished_championship):
    """The official format's standbys keep their order on another server."""
    tournament = finished_championship
    standbys = [PlayerFactory(tournament=tournament, name=f"Ersatz {n}") for n in (1, 2)]
    for rank, player in enumerate(standbys, start=1):
        Player.objects.filter(pk=player.pk).update(alternate_rank=rank)
    document = json.loads(exchange.export_json(tournament))
    copy_ = exchange.import_tournament(copy.deepcopy(document), slug="mit-ersatz")
    assert dict(copy_.players.filter(alternate_rank__isnull=False)
                .values_list("name", "alternate_rank")) == {"Ersatz 1": 1, "Ersatz 2": 2}
    for row in document["players"]:
        if row["name"] == "Ersatz 2":
            row["alternate_rank"] = 1
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_tournament(document, slug="doppelt")
    assert "alternate_rank" in refused.value.message_in("en")
    assert not Tournament.objects.filter(slug="doppelt").exists()
