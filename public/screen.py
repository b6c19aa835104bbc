"""The projector: standings and tables in pages that the screen turns."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string

from config.compression import Encoded
from public.fragments import cached_fragment, public_tournament
from public.leaderboard import leaderboard
from public.tables import overview
from scoring import cache

SCREEN_ROWS = 10  # standings rows per projector page
SCREEN_STANDINGS = 40  # the projector shows the top 40 (4 pages)
SCREEN_TABLES = 6  # table cards per projector page


def _pages(items: list[Any], size: int) -> list[list[Any]]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def screen_standings_fragment(slug: str) -> Encoded:
    def build() -> str:
        tournament = public_tournament(slug)
        data = leaderboard(tournament, limit=SCREEN_STANDINGS)
        data["colspan"] = 3 + len(data["columns"])
        data["pages"] = [
            {"lines": page, "first": i * SCREEN_ROWS + 1,
             "last": i * SCREEN_ROWS + len(page)}
            for i, page in enumerate(_pages(data["lines"], SCREEN_ROWS))
        ]
        return render_to_string("public/_screen_standings.html", data)

    return cached_fragment(slug, "screen-standings", [cache.STANDINGS], build)


def screen_tables_fragment(slug: str) -> Encoded:
    def build() -> str:
        tournament = public_tournament(slug)
        data = overview(tournament)
        data["pages"] = _pages(data["tables"], SCREEN_TABLES)
        return render_to_string("public/_screen_tables.html", data)

    return cached_fragment(slug, "screen-tables", [cache.TABLES], build)
