"""Verify a tournament's record: every figure the product shows must follow from the game
records and the staff's recorded rulings.

Every game is replayed from its events by a fresh engine (not the process's cached one), and
compared with what is stored: the game's own mirror fields (status, event count, the summary
the public pages draw from), each result's placements (the replay's places and net worth; a
paper result's places from its sheet; an amended count's places from its figures, with the
amendment in the audit log), four eyes on every confirmation, and both scopes of the stored
standings against a fresh computation from the stored results. Reads only: a head referee may
run it at any time (``manage.py verify SLUG``, the round desk's "Check the record" page).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from referee import (
    engine_cache,
    paper,
    rules,
    rulings,
    services,
)
from referee import selectors as referee_selectors
from referee.models import Game, GameResult
from scoring.models import Scope
from scoring.standings import selectors as standings
from scoring.standings.compute import PlayerLine, compute_standings
from scoring.standings.services import (
    dropped_out,
    finalists,
    result_rows,
    seated_final,
    settings_for,
)
from tournament import audit, incidents
from tournament.models import Player, Round, Seat, Tournament

SCOPES = {Scope.LIVE: gettext_lazy("staff standings"), Scope.PUBLIC: gettext_lazy("public standings")}
#: Standings columns compared, with the words for each.
COLUMNS = {
    "rank": gettext_lazy("rank"),
    "points": gettext_lazy("points"),
    "net_worth_sum": gettext_lazy("summed net worth"),
    "best_net_worth": gettext_lazy("best net worth"),
    "table_wins": gettext_lazy("table wins"),
    "games": gettext_lazy("games"),
    "qualified": gettext_lazy("qualified"),
    "final_place": gettext_lazy("place in the final"),
    "deducted": gettext_lazy("points deducted"),
}


@dataclass(frozen=True)
class Difference:
    where: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: {self.text}"


@dataclass
class Report:
    tournament: Tournament
    differences: list[Difference] = field(default_factory=list)
    games: int = 0
    results: int = 0
    rows: int = 0  # standings rows, every scope's (a player counts once per scope)
    players: int = 0  # players whose places were checked
    scopes: list[str] = field(default_factory=list)  # the standings checked: Scope values

    @property
    def ok(self) -> bool:
        return not self.differences

    @property
    def summary(self) -> str:
        """What was checked, in words a head referee understands, in the active language (the
        "Check the record" page and ``manage.py verify`` say the same)."""
        counts = {"games": self.games, "results": self.results,
                  "standings": self._standings_words(), "differences": len(self.differences)}
        if self.ok:
            return _("%(games)s games, %(results)s results and %(standings)s checked: everything "
                     "agrees.") % counts
        return _("%(differences)s differences; checked: %(games)s games, %(results)s results "
                 "and %(standings)s.") % counts

    def _standings_words(self) -> str:
        if not self.scopes:
            return _("no standings (none computed yet)")
        which = (_("public and internal") if len(self.scopes) > 1
                 else _("public") if self.scopes[0] == Scope.PUBLIC else _("internal"))
        return ngettext("the standings of %(players)s player (%(which)s)",
                        "the standings of %(players)s players (%(which)s)",
                        self.players) % {"players": self.players, "which": which}

    def add(self, where: str, text: str) -> None:
        self.differences.append(Difference(where, text))


def verify_tournament(*, tournament: Tournament) -> Report:
    tournament = Tournament.objects.get(pk=tournament.pk)  # as stored (the lot's seed)
    report = Report(tournament)
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    amended = _amended_placements(tournament)
    games = (
        Game.objects.filter(table__round__tournament=tournament)
        .select_related("table__round")
        .order_by("table__round__number", "table__number")
    )
    for game in games:
        report.games += 1
        _verify_game(report, game, names, amended)
    _verify_standings(report, tournament, names)
    _verify_final(report, tournament, names)
    _verify_winner(report, tournament, names)
    return report


def _where(game: Game) -> str:
    return _("Round %(round)s, table %(table)s") % {
        "round": game.table.round.number, "table": game.table.number}


class Amendments(dict[int, list[tuple[int, int]]]):
    """Placement id → the (before, after) net worth of each recorded ruling that changed it
    (:func:`_amended_placements`); ``unlinked``: amendments imported from an older export,
    which names no result (filed under the tournament: they prove no line's figures)."""

    unlinked: bool = False


def _amended_placements(tournament: Tournament) -> Amendments:
    """Placements whose amendment the audit log holds (the placement's own entry, filed under
    the staff action ``result.amend``; an imported one is filed under its line when the export
    named it), each with the net worth its rulings set, oldest first: (before, after) per
    ruling that changed it (none: a ruling moved only its place)."""
    found = audit.entries(tournament, what="result.amend")
    entries = found.filter(content_type__model="placement").order_by(
        "timestamp", "pk").values_list("object_id", "changes")
    rulings_of = Amendments()
    for pk, changes in entries:
        if pk is None:
            continue
        ruled = rulings_of.setdefault(int(pk), [])
        worth = _changed(changes, "net_worth")
        if worth is not None:
            ruled.append(worth)
    rulings_of.unlinked = found.filter(additional_data__imported=True).exclude(
        content_type__model="placement").exists()
    return rulings_of


def _unproven(report: Report, where: str, name, amended: Amendments) -> None:
    """A line marked as amended without its ruling in the audit log (an older export's
    imported amendments name no result: said so, still a difference)."""
    if amended.unlinked:
        report.add(where, _("%(player)s's figures are marked as amended; the audit log holds "
                            "no amendment of this result, only amendments imported from an "
                            "older export that name no result (they cannot be checked)")
                   % {"player": name})
        return
    report.add(where, _("%(player)s's figures are marked as amended, but the audit log holds "
                        "no amendment of this result") % {"player": name})


def _changed(changes, name: str) -> tuple[int, int] | None:
    """A field's (before, after) as an audit entry holds it (django-auditlog keeps text)."""
    if isinstance(changes, str):
        changes = json.loads(changes or "{}")
    pair = (changes or {}).get(name)
    try:
        return int(pair[0]), int(pair[1])
    except (TypeError, ValueError, IndexError):
        return None


def _ruled_worth(report: Report, where: str, placement, name, written: int,
                 amended: Amendments) -> int:
    """The net worth of an amended placement as its recorded rulings give it: the first
    ruling changed the figure ``written`` (the count, the sheet's total), the last one's is
    the figure of record; the stored figure must be that one."""
    ruled = amended.get(placement.pk, [])
    if ruled and ruled[0][0] != written:
        report.add(where, _("%(player)s: the recorded ruling changed a net worth of "
                            "%(before)s, the result's own figure is %(written)s") % {
            "player": name, "before": ruled[0][0], "written": written})
    worth = ruled[-1][1] if ruled else written
    if placement.net_worth != worth:
        report.add(where, _("%(player)s: stored net worth %(stored)s, the recorded ruling "
                            "gives %(worth)s") % {
            "player": name, "stored": placement.net_worth, "worth": worth})
    return worth


def _replay(game: Game, events: list[dict]) -> rules.Game:
    engine = engine_cache.new_engine(game)
    engine.extend(events)
    return engine


def _verify_game(report: Report, game: Game, names: dict[int, str],
                 amended: Amendments) -> None:
    where = _where(game)
    rows = list(game.events.order_by("seq").values_list("seq", "data"))  # one read of the record
    seqs = [seq for seq, _data in rows]
    if seqs != list(range(len(seqs))) or game.event_count != len(seqs):
        report.add(where, _("the record's events are not numbered 0 to %(last)s without gaps "
                            "(the game says %(count)s events)") % {
            "last": len(seqs) - 1, "count": game.event_count})
    try:
        engine = _replay(game, [data for _seq, data in rows])
    except rules.RuleViolation as violation:
        report.add(where, _("the record cannot be replayed: %(reason)s") % {
            "reason": violation.message_en})
        return
    # its lines read once: checked here, and read again by the pages' selector (_verify_shown)
    result = GameResult.objects.filter(game=game).prefetch_related("placements").first()
    from_paper = result is not None and result.from_paper
    if not from_paper:
        if engine.status != game.status:
            report.add(where, _("the game is stored as “%(stored)s”, its record replays to "
                                "“%(replayed)s”") % {"stored": game.status,
                                                       "replayed": engine.status})
        summary = services.summarize(engine)
        for key, worth in summary["net_worth"].items():
            shown = (game.summary or {}).get("net_worth", {}).get(key)
            if shown != worth:
                report.add(where, _("the public pages show %(player)s with %(shown)s, the "
                                    "record gives %(worth)s") % {
                    "player": names.get(int(key), key), "shown": shown, "worth": worth})
    if result is None:
        return
    report.results += 1
    _verify_result(report, where, game, engine, result, names, amended)


def _verify_result(
    report: Report, where: str, game: Game, engine: rules.Game, result: GameResult,
    names: dict[int, str], amended: Amendments,
) -> None:
    placements = list(result.placements.all())
    seated = {int(key) for key in game.players}
    if {p.player_id for p in placements} != seated:
        report.add(where, _("the result's players are not the players of the game"))
        return
    if result.status == GameResult.Status.CONFIRMED and result.confirmed_by_id and (
        result.confirmed_by_id == result.counted_by_id
        and (result.from_paper or result.confirmed_via == "head_referee")
    ):
        report.add(where, _("the result was counted and confirmed by the same person"))
    if result.from_paper:
        record = _verify_paper(report, where, placements, names, amended)
        _verify_shown(report, where, game, result, placements, record, names)
        return
    if engine.status != Game.Status.FINISHED:
        report.add(where, _("a result is stored, but the record does not end the game"))
        return
    replayed = {int(row.player): row for row in rules.standings(engine.state)}
    figures = {}
    for placement in placements:
        row = replayed[placement.player_id]
        name = names.get(placement.player_id, placement.player_id)
        if placement.bankrupt != row.bankrupt:
            report.add(where, _("%(player)s is stored as %(stored)s, the record says "
                                "%(replayed)s") % {
                "player": name, "stored": _bankrupt_words(placement.bankrupt),
                "replayed": _bankrupt_words(row.bankrupt)})
        is_amended = bool(placement.breakdown.get("amended"))
        if is_amended and placement.pk not in amended:
            _unproven(report, where, name, amended)
        worth = placement.net_worth
        if is_amended and placement.pk in amended:
            worth = _ruled_worth(report, where, placement, name, row.net_worth, amended)
        if not is_amended and (placement.place, placement.net_worth) != (row.place,
                                                                          row.net_worth):
            report.add(where, _("%(player)s: stored place %(stored)s with %(stored_worth)s, the "
                                "record gives place %(place)s with %(worth)s") % {
                "player": name, "stored": placement.place,
                "stored_worth": placement.net_worth, "place": row.place, "worth": row.net_worth})
        figures[placement.player_id] = (row.bankrupt, worth, row.place)
    # The result of record: the replay's places, or the ones the ruled figures give.
    places = {pid: replayed[pid].place for pid in figures}
    if any(p.breakdown.get("amended") for p in placements):
        places = rulings.amended_places(figures)
        _compare_places(report, where, placements, names, places,
                        _("%(player)s: stored place %(stored)s, the amended figures give place "
                          "%(place)s"))
    record = {pid: (places[pid], worth, out) for pid, (out, worth, _pl) in figures.items()}
    _verify_shown(report, where, game, result, placements, record, names)


def _bankrupt_words(bankrupt: bool) -> str:
    return _("bankrupt") if bankrupt else _("still in")


def _verify_paper(report: Report, where: str, placements, names: dict[int, str],
                  amended: Amendments,
                  ) -> dict[int, tuple[int, int, bool]] | None:
    """A paper result against its sheet: the parts are what the paper said, so they add up to
    the sheet's own total as written (an amended line keeps it: ``counted_net_worth``); an
    amended figure is the one the recorded ruling gives; the places follow from the figures.
    Returns the result of record per player (place, net worth, bankrupt); None when an older
    sheet's places cannot be re-derived."""
    lines = []
    worths = {}
    for placement in placements:
        parts = {key: placement.breakdown[key] for key in paper.BREAKDOWN
                 if key in placement.breakdown}
        name = names.get(placement.player_id, placement.player_id)
        is_amended = bool(placement.breakdown.get("amended"))
        written = int(placement.breakdown.get("counted_net_worth", placement.net_worth)) \
            if is_amended else placement.net_worth
        if parts and not placement.bankrupt and sum(int(v) for v in parts.values()) != written:
            report.add(where, _("%(player)s: the sheet's parts add up to %(sum)s, the stored "
                                "net worth is %(worth)s") % {
                "player": name, "sum": sum(int(v) for v in parts.values()),
                "worth": written})
        worth = placement.net_worth
        if is_amended and placement.pk not in amended:
            _unproven(report, where, name, amended)
        elif is_amended:
            worth = _ruled_worth(report, where, placement, name, written, amended)
        worths[placement.player_id] = worth
        order = placement.breakdown.get("bankrupt_order")
        lines.append(paper.PaperLine(
            player_id=placement.player_id,
            bankrupt_order=int(order) if placement.bankrupt and order else None,
            net_worth=worth,
        ))
    if any(p.bankrupt and not p.breakdown.get("bankrupt_order") for p in placements):
        return None  # an older sheet without the order: its places cannot be re-derived
    places = {line.player_id: place for line, place in paper.places(lines)}
    _compare_places(report, where, placements, names, places,
                    _("%(player)s: stored place %(stored)s, the paper sheet gives place "
                      "%(place)s"))
    return {p.player_id: (places[p.player_id], worths[p.player_id], p.bankrupt)
            for p in placements}


def _verify_shown(report: Report, where: str, game: Game, result: GameResult, placements,
                  record: dict[int, tuple[int, int, bool]] | None,
                  names: dict[int, str]) -> None:
    """What every public page shows of the game (its figures of record, as the one selector
    the pages read gives them: ``referee.selectors.figures_of_record``) against the result
    of record re-derived here (``record``: place, net worth, bankrupt per player), winner
    included."""
    if record is None:
        return
    shown = referee_selectors.figures_of_record(game, result)
    for player, (place, worth, out) in record.items():
        key = str(player)
        name = names.get(player, player)
        worth_shown = shown["net_worth"].get(key)
        if out and result.from_paper:
            worth = None  # a sheet gives no net worth for a bankrupt player
        if (shown["places"].get(key), worth_shown) != (place, worth):
            report.add(where, _("the public pages show %(player)s in place %(shown_place)s "
                                "with %(shown)s, the result of record gives place %(place)s "
                                "with %(worth)s") % {
                "player": name, "shown_place": _shown(shown["places"].get(key)),
                "shown": _shown(worth_shown), "place": place, "worth": _shown(worth)})
    first = [player for player, (place, _w, out) in record.items() if place == 1 and not out]
    winner = str(first[0]) if len(first) == 1 else None
    if shown["leader"] != winner:
        report.add(where, _("the public pages name %(shown)s the table's winner, the result of "
                            "record %(winner)s") % {
            "shown": names.get(int(shown["leader"]), "–") if shown["leader"] else "–",
            "winner": names.get(int(winner), "–") if winner else "–"})


def _compare_places(report: Report, where: str, placements, names: dict[int, str],
                    places: dict[int, int], message: str) -> None:
    """Each stored place against the one the result's own source gives (``message`` names
    the source: the amended figures, the paper sheet)."""
    for placement in placements:
        if placement.place != places[placement.player_id]:
            report.add(where, message % {
                "player": names.get(placement.player_id), "stored": placement.place,
                "place": places[placement.player_id]})


def _verify_standings(report: Report, tournament: Tournament, names: dict[int, str]) -> None:
    settings = settings_for(tournament)
    players = sorted(names)
    deducted = incidents.deductions(tournament)
    out = dropped_out(tournament)
    in_final = seated_final(tournament)
    for scope, label in SCOPES.items():
        # The places as every page derives them from the stored figures.
        stored = {row.player_id: row for row in standings.placed_rows(tournament, scope=scope)}
        if not stored:
            continue  # nothing computed yet: nothing shown
        hold = scope == Scope.PUBLIC and not tournament.results_public_immediately
        rows = result_rows(tournament, complete_rounds_only=hold)
        lines: dict[int, PlayerLine] = {
            line.player: line for line in compute_standings(
                players=players, results=rows, settings=settings, deductions=deducted,
                out=out, seated_final=in_final)
        }
        report.rows += len(stored)
        report.players = max(report.players, len(stored))
        report.scopes.append(scope)
        for player, line in lines.items():
            row = stored.get(player)
            name = names.get(player, player)
            if row is None:
                report.add(str(label), _("%(player)s is missing") % {"player": name})
                continue
            for column, words in COLUMNS.items():
                have, want = getattr(row, column), getattr(line, column)
                if have != want:
                    report.add(str(label), _("%(player)s: stored %(column)s %(have)s, the "
                                             "results give %(want)s") % {
                        "player": name, "column": words, "have": _shown(have),
                        "want": _shown(want)})
        for player in set(stored) - set(lines):
            report.add(str(label), _("%(player)s is listed but is no player of the tournament")
                       % {"player": names.get(player, player)})


def _shown(value) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def _verify_final(report: Report, tournament: Tournament, names: dict[int, str]) -> None:
    """A seated final's players are those the preliminary results qualify (``finalists``:
    the rule the desk's list and the standings' mark follow)."""
    final = tournament.rounds.filter(kind=Round.Kind.FINAL).first()
    if final is None:
        return
    seated = set(Seat.objects.filter(round=final).values_list("player_id", flat=True))
    chosen = finalists(tournament, kept=seated)  # a finalist may leave once seated
    if seated != set(chosen):
        def listed(players) -> str:
            return ", ".join(sorted(str(names.get(p, p)) for p in players)) or "–"

        report.add(_("Final"), _("round %(number)s seats %(seated)s, but the preliminary "
                                 "results qualify %(chosen)s") % {
            "number": final.number, "seated": listed(seated), "chosen": listed(chosen)})


def _verify_winner(report: Report, tournament: Tournament, names: dict[int, str]) -> None:
    if tournament.winner_id is None:
        return
    rows = standings.placed_rows(tournament, scope=Scope.LIVE)
    first = rows[0].player_id if rows else None
    if first != tournament.winner_id:
        report.add(_("Winner"), _("%(winner)s is crowned, but the standings put %(first)s "
                                  "first") % {"winner": names.get(tournament.winner_id),
                                              "first": names.get(first, "–")})
