"""The leaderboard: rows, round columns, tie-break marks, the qualification line."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from config.compression import Encoded
from public.fragments import FRAGMENT_TIMEOUT, cached_fragment, club_label, public_tournament
from scoring import cache
from scoring.models import Scope
from scoring.standings import selectors
from tournament import names
from tournament.models import Round, Tournament

# Which measure ranks first in each format. A tie-break that decided is marked with its number
# in the tournament's chain (the primary measure is 1), the final with "F"; a legend explains.
# The marks are circled (① … ⑳, Ⓕ): a bare digit beside the place read "2.2" (issue 28).
FINAL_MARK = "Ⓕ"
PRIMARY = {"placement_points": "points", "net_worth_sum": "net_worth_sum",
           "table_winners": "table_wins"}
TOP_ROWS = 30  # the leaderboard opens with the top of the table ...
TOP_SLACK = 20  # ... unless the whole field is hardly longer
FIND_ROWS = 25  # "find me": at most this many matches
FIND_MIN_LENGTH = 2
FIND_QUERY_LENGTH = 60
CRITERIA = {
    **{choice.value: choice.label for choice in Tournament.TieBreak},
    "table_wins": gettext_lazy("Table wins"),
    "final": gettext_lazy("Final"),
}



def circled(number: int) -> str:
    """① for 1 … ⑳ for 20 (a chain is at most six long)."""
    return chr(0x2460 + number - 1) if 1 <= number <= 20 else f"({number})"


@dataclass
class RoundColumn:
    number: int
    label: str
    final: bool


@dataclass
class StandingLine:
    row: dict[str, Any]
    cells: list[dict[str, Any] | None]
    mark: str = ""
    mark_title: str = ""
    cut_after: bool = False



def round_label(number: int, kind: str) -> str:
    if kind == Round.Kind.FINAL:
        return _("Final")
    return _("R%(number)s") % {"number": number}


def top_rows(tournament: Tournament, rows: list[dict[str, Any]]) -> int:
    """How many rows the page opens with: the top, down to just below the qualification
    line; a small field is shown whole."""
    if len(rows) <= TOP_ROWS + TOP_SLACK:
        return len(rows)
    last_qualified = max((i for i, row in enumerate(rows) if row["qualified"]), default=-1)
    return max(TOP_ROWS, last_qualified + 3)


def _lines(
    rows: list[dict[str, Any]], columns: list[RoundColumn], *, primary: str,
    marks: dict[str, str],
) -> tuple[list[StandingLine], dict[str, tuple[str, str]]]:
    """A line per row with its round cells, the mark of the tie-break that decided its place
    (and the marks used, for the legend) and the qualification line below the last qualifier."""
    played = any(row["rounds"] for row in rows)
    last_qualified = max((i for i, row in enumerate(rows) if row["qualified"]), default=-1)
    lines = []
    used_marks: dict[str, tuple[str, str]] = {}
    for index, row in enumerate(rows):
        cells = []
        for column in columns:
            cell = row["rounds"].get(str(column.number))
            cells.append(dict(cell) if cell else None)
        row = {**row, "club": club_label(row["name"], row["club"])}
        line = StandingLine(row=row, cells=cells)
        decided = row["decided_by"]
        if decided and decided != primary and decided in marks:
            line.mark, line.mark_title = marks[decided], str(CRITERIA.get(decided, decided))
            used_marks[decided] = (line.mark, line.mark_title)
        line.cut_after = played and index == last_qualified and index < len(rows) - 1
        lines.append(line)
    return lines, used_marks


def public_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """The public standings' rows, read and placed once per change and shared by every
    fragment that shows them (the top in each language, the whole list, the projector, a
    search): with 1,000 players one read is ~60 ms, and a hall rebuilds the top in both
    languages every few seconds. Kept no longer than the fragments made of them."""
    return cache.cached_value(tournament.slug, "standings-rows", [cache.STANDINGS],
                              lambda: selectors.standings(tournament, scope=Scope.PUBLIC),
                              timeout=FRAGMENT_TIMEOUT)


def leaderboard(tournament: Tournament, *, limit: int | None = None, top: bool = False,
                query: str = "") -> dict[str, Any]:
    """Rows, round columns, the qualification line and the hold notice. Three queries.
    ``top``: only the top (``top_rows``); ``query``: only the rows whose name or club
    matches (German folding: "weiss" finds Weiß)."""
    rows = public_rows(tournament)
    meta = selectors.standings_meta(tournament, scope=Scope.PUBLIC)
    rounds = {
        number: (kind, status)
        for number, kind, status in tournament.rounds.exclude(status=Round.Status.DRAFT)
        .order_by("number").values_list("number", "kind", "status")
    }
    present = sorted({int(key) for row in rows for key in row["rounds"]})
    columns = [
        RoundColumn(n, round_label(n, rounds.get(n, ("preliminary", ""))[0]),
                    rounds.get(n, ("", ""))[0] == Round.Kind.FINAL)
        for n in present
    ]
    primary = PRIMARY.get(tournament.format, "points")
    chain = [primary] + [key for key in (tournament.tie_breaks or ()) if key != primary]
    marks = {key: circled(i) for i, key in enumerate(chain, start=1)}
    marks["final"] = FINAL_MARK
    lines, used_marks = _lines(rows, columns, primary=primary, marks=marks)
    current = max(rounds, default=None)
    held_round = None
    if meta["held"] and current is not None and rounds[current][1] == Round.Status.RUNNING:
        held_round = current
    total = len(lines)
    if query:
        lines = [line for line in lines
                 if names.matches(query, line.row["name"], line.row["club"] or "")][:FIND_ROWS]
        for line in lines:
            line.cut_after = False
    elif top:
        lines = lines[:top_rows(tournament, rows)]
    if limit is not None:
        lines = lines[:limit]
    return {
        "total": total,
        "shown": len(lines),
        "truncated": not query and len(lines) < total,
        "query": query,
        "tournament": tournament,
        "lines": lines,
        "columns": columns,
        "meta": meta,
        "computed_at": dt.datetime.fromisoformat(meta["computed_at"])
        if meta["computed_at"] else None,
        "held": meta["held"],
        "held_round": held_round,
        "primary": primary,
        "show_table_wins": primary == "table_wins",
        "colspan": 4 + len(columns) + (primary == "table_wins"),
        "legend": sorted(used_marks.values(), key=lambda item: (item[0] == FINAL_MARK, item[0])),
        "provisional": any(cell and not cell["final"] for line in lines for cell in line.cells),
        "finalists": tournament.finalists,
    }


def standings_fragment(slug: str) -> Encoded:
    """The whole list (on demand: "show all")."""
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("public/_standings.html", leaderboard(tournament))

    return cached_fragment(slug, "standings", [cache.STANDINGS], build)


def standings_top_fragment(slug: str) -> Encoded:
    """The top of the table, what the leaderboard opens with."""
    def build() -> str:
        tournament = public_tournament(slug)
        return render_to_string("public/_standings.html", leaderboard(tournament, top=True))

    return cached_fragment(slug, "standings-top", [cache.STANDINGS], build)


def clean_query(text: str) -> str:
    """A search as typed, trimmed to something sensible (the fold happens when matching)."""
    return " ".join((text or "").split())[:FIND_QUERY_LENGTH]


def find_fragment(slug: str, query: str) -> Encoded:
    """The rows a "find me" search matches; cached per folded query and standings change."""
    query = clean_query(query)
    folded = names.search_fold(query)

    def build() -> str:
        tournament = public_tournament(slug)
        if len(folded.replace(" ", "")) < FIND_MIN_LENGTH:
            return render_to_string("public/_find.html", {"too_short": True, "query": query})
        data = leaderboard(tournament, query=query)
        return render_to_string("public/_find.html", {**data, "query": query})

    digest = hashlib.sha1(folded.encode()).hexdigest()[:16]  # noqa: S324 - a cache key
    return cached_fragment(slug, f"find:{digest}", [cache.STANDINGS], build)
