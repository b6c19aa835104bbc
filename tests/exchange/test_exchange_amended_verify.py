"""An amended result moves with its ruling: ``manage.py verify`` on the imported copy finds the
head referee's amendment (the audit entry on the result's line) as on the server where it was
made. The export names the line an entry changed by round, table and player (``target_key``);
the import files the entry under its new line. The laptop's move up and the dress rehearsal's
export → import → verify depend on it; a figure changed on the copy without a ruling is still
named, and an older document (no key) still imports: verify names its amendment as unproven, and says why."""

from __future__ import annotations

import json

import pytest
from auditlog.models import LogEntry
from django.utils import translation
from factories import PlayerFactory, TournamentFactory, UserFactory, appoint
from gameplay import make_round, play

from exchange import services as exchange
from referee import paper, rulings
from referee.models import Game, Placement
from referee.results import revision_of
from scoring.standings.services import recompute_standings
from scoring.verify import verify_tournament
from tournament.models import Club, StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def amended_count():
    """A console count (two tables of four), one line amended by the head referee and the
    result confirmed by a second one; (tournament, name of the amended player, 5000)."""
    tournament = TournamentFactory(slug="geaendert", status=Tournament.Status.RUNNING,
                                   table_size=4, finalists=4)
    players = [PlayerFactory(tournament=tournament, name=name) for name in (
        "Anna Groß", "Ben Koch", "Carla Weiß", "Dörte Öz", "Emil Ali", "Frida Bär",
        "Gül Müller", "Hans Roth")]
    _round, tables = make_round(tournament, 1, [players[:4], players[4:]])
    for table, group in zip(tables, (players[:4], players[4:]), strict=True):
        play(table, {p: 3000 - 400 * i for i, p in enumerate(group)})
    judge = appoint(UserFactory(username="judge"), StaffRole.Role.HEAD_REFEREE, tournament)
    other = appoint(UserFactory(username="judge2"), StaffRole.Role.HEAD_REFEREE, tournament)
    game = Game.objects.get(table=tables[0])
    rulings.reopen_result(game_id=game.pk, reason="Hotel vergessen", by=judge,
                          revision=revision_of(game.pk))
    figures = {p.player_id: {"net_worth": p.net_worth}
               for p in Placement.objects.filter(result__game=game)}
    figures[players[2].pk] = {"net_worth": 5000}
    rulings.amend_result(game_id=game.pk, figures=figures, reason="Hotel vergessen", by=judge,
                         revision=revision_of(game.pk))
    rulings.resolve_dispute(game_id=game.pk, note="nachgezählt", by=other,
                            revision=revision_of(game.pk))
    recompute_standings(tournament_id=tournament.pk)
    assert _words(tournament) == []
    return tournament, "Carla Weiß", 5000


@pytest.fixture
def amended_sheet():
    """A paper sheet with parts (cash, deeds) for four players, its winner amended by 100
    (the sheet's own total stays with the line: ``counted_net_worth``)."""
    tournament = TournamentFactory(slug="papier", status=Tournament.Status.RUNNING,
                                   table_size=4, finalists=4)
    players = [PlayerFactory(tournament=tournament) for _ in range(4)]
    _round, tables = make_round(tournament, 1, [players])
    judge = appoint(UserFactory(username="judge"), StaffRole.Role.HEAD_REFEREE, tournament)
    other = appoint(UserFactory(username="judge2"), StaffRole.Role.HEAD_REFEREE, tournament)
    seats = list(tables[0].seats.order_by("position"))
    lines = [paper.PaperLine(player_id=s.player_id,
                             breakdown={"cash": 1000 * s.position, "deeds": 500}) for s in seats]
    result = paper.enter_paper_result(table=tables[0], lines=lines, end_reason="time_limit",
                                      ended_at=None, by=judge, note="Tablet ausgefallen")
    winner = result.placements.select_related("player").get(place=1)
    figures = {p.player_id: {"net_worth": p.net_worth + (100 if p.pk == winner.pk else 0),
                             "place": ""} for p in result.placements.all()}
    rulings.amend_result(game_id=result.game_id, figures=figures,
                         reason="Schein falsch addiert", by=other,
                         revision=revision_of(result.game_id))
    recompute_standings(tournament_id=tournament.pk)
    assert _words(tournament) == []
    return tournament, winner.player.name, 4600


def _words(tournament) -> list[str]:
    with translation.override("en"):
        return [str(d) for d in verify_tournament(tournament=tournament).differences]


def _moved(tournament, *, keys: bool = True) -> Tournament:
    """The tournament exported and imported into an emptied database (no tournament, no
    audit log: the other server); ``keys=False``: as an older export wrote it."""
    document = json.loads(exchange.export_json(tournament))
    if not keys:
        for row in document["audit"]:
            row.pop("target_key", None)
    Tournament.objects.all().delete()
    Club.objects.all().delete()
    LogEntry.objects.all().delete()
    return exchange.import_tournament(json.dumps(document).encode())


def _line(copy, name) -> Placement:
    return Placement.objects.get(result__game__table__round__tournament=copy, player__name=name)


@pytest.mark.parametrize("amended", ["amended_count", "amended_sheet"])
def test_an_amended_result_verifies_on_the_imported_copy(amended, request):
    tournament, name, worth = request.getfixturevalue(amended)
    document = json.loads(exchange.export_json(tournament))
    amend = [row for row in document["audit"] if row["action"] == "result.amend"
             and row["model"] == "placement"]
    assert amend and all(row["target_key"]["round"] == 1 and row["target_key"]["table"] == 1
                         for row in amend)
    copy = _moved(tournament)
    line = _line(copy, name)
    assert line.net_worth == worth and line.breakdown["amended"]
    assert _words(copy) == []
    # the entry is the line's, as imported: the audit page names it as it was exported
    entry = LogEntry.objects.get(additional_data__tournament=copy.pk,
                                 additional_data__action="result.amend", object_id=line.pk,
                                 content_type__model="placement")
    assert entry.content_type.model == "placement" and entry.additional_data["imported"]


@pytest.mark.parametrize("amended", ["amended_count", "amended_sheet"])
def test_a_figure_changed_on_the_copy_without_a_ruling_is_named(amended, request):
    tournament, name, worth = request.getfixturevalue(amended)
    copy = _moved(tournament)
    Placement.objects.filter(pk=_line(copy, name).pk).update(net_worth=worth + 4000)
    words = _words(copy)
    assert any(f"{name}: stored net worth {worth + 4000}, the recorded ruling gives {worth}"
               in w for w in words), words


def test_the_copy_exports_the_key_again(amended_count):
    """Moved twice (laptop → server → another server): the ruling stays with its line."""
    tournament, name, _worth = amended_count
    copy = _moved(_moved(tournament))
    assert _line(copy, name).breakdown["amended"]
    assert _words(copy) == []


def test_an_older_document_without_keys_imports_and_names_the_amendment_unproven(
        amended_count):
    tournament, name, worth = amended_count
    copy = _moved(tournament, keys=False)
    assert _line(copy, name).net_worth == worth
    assert LogEntry.objects.filter(additional_data__tournament=copy.pk,
                                   additional_data__action="result.amend").exists()
    # every line the ruling changed (the amended figure, the places it moved), nothing else
    marked = sorted(p.player.name for p in Placement.objects.filter(
        result__game__table__round__tournament=copy, breakdown__amended=True))
    assert name in marked and len(marked) == 3
    assert sorted(_words(copy)) == sorted(
        f"Round 1, table 1: {other}'s figures are marked as amended; the audit log holds no "
        "amendment of this result, only amendments imported from an older export that name no "
        "result (they cannot be checked)" for other in marked)
    with translation.override("de"):
        german = [str(d) for d in verify_tournament(tournament=copy).differences]
    assert all("aus einem älteren Export übernommene Korrekturen" in w for w in german), german


def test_a_key_naming_no_line_leaves_the_entry_with_the_tournament(amended_count):
    """A damaged or foreign key refuses nothing: the entry is filed under the tournament."""
    tournament, _name, _worth = amended_count
    document = json.loads(exchange.export_json(tournament))
    damaged = [{"round": 9, "table": 1, "player": "1"}, {"round": True, "table": 1},
               ["1", 1], "x", {"round": [1], "table": {}, "player": 1}]
    amend = [row for row in document["audit"] if row.get("target_key")]
    for row, key in zip(amend, damaged * len(amend), strict=False):
        row["target_key"] = key
    copy = exchange.import_tournament(json.dumps(document).encode(), slug="kopie")
    entries = LogEntry.objects.filter(additional_data__tournament=copy.pk,
                                      additional_data__imported=True)
    assert entries.count() == len(document["audit"])
    assert not entries.filter(content_type__model="placement").exists()
