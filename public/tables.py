"""The current round's tables with their clocks (the tables page and the projector).

The overview is made of one card per table, each cached under its version (state, clock base,
leader, bankruptcies: ``selectors.card_version``) — not under every event, so a hall of 167
playing tables changes a card only now and then. The live pages poll a tiny version document
(``versions_document``) and fetch only the cards whose version changed (``cards_document``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.core.cache import cache as django_cache
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config.compression import Encoded
from public import selectors as public_selectors
from public.fragments import (
    STATE_LABELS,
    cached_fragment,
    clock_data,
    public_tournament,
)
from scoring import cache
from tournament.models import Round, Tournament

CARD_TIMEOUT = 900  # a card is keyed by its version: it is never stale, only evicted
MAX_CARDS = 200  # per request of changed cards


def overview(tournament: Tournament, *, numbers: Sequence[int] | None = None) -> dict[str, Any]:
    """The current round's tables with their clocks (for the browser to run)."""
    data = public_selectors.table_overview(tournament, numbers=numbers)
    now = timezone.now()
    tables = []
    for card in data["tables"]:
        tables.append({
            **card,
            "state_label": STATE_LABELS.get(card["state"], card["state"]),
            "clock": clock_data(card["state"], card["game_seconds"], now),
            "provisional": card["state"] not in ("confirmed", "not_started"),
        })
    round_info = data["round"]
    title = ""
    if round_info:
        title = (_("Final") if round_info["kind"] == Round.Kind.FINAL
                 else _("Round %(number)s") % {"number": round_info["number"]})
    return {"tournament": tournament, "round": round_info, "round_title": title,
            "tables": tables}


def _card_key(slug: str, round_key: str, number: int, version: str) -> str:
    language = translation.get_language() or "de"
    return cache.key(slug, f"card:{round_key}:{number}:{version}:{language}")


def cards(tournament: Tournament, data: dict[str, Any]) -> dict[int, str]:
    """Each table's card (HTML), from the cache where its version is known."""
    if not data["round"]:
        return {}
    round_key = data["round"]["key"]
    keys = {t["number"]: _card_key(tournament.slug, round_key, t["number"], t["version"])
            for t in data["tables"]}
    known = django_cache.get_many(list(keys.values()))
    out, new = {}, {}
    for t in data["tables"]:
        key = keys[t["number"]]
        html = known.get(key)
        if html is None:
            html = render_to_string("public/_table_card.html",
                                    {"t": t, "tournament": tournament,
                                     "round_number": data["round"]["number"]})
            new[key] = html
        out[t["number"]] = html
    if new:
        django_cache.set_many(new, timeout=CARD_TIMEOUT)
    return out


def tables_fragment(slug: str) -> Encoded:
    def build() -> str:
        tournament = public_tournament(slug)
        data = overview(tournament)
        return render_to_string("public/_tables.html",
                                {**data, "cards": list(cards(tournament, data).values())})

    return cached_fragment(slug, "tables", [cache.TABLES], build)


VERSIONS = (cache.STANDINGS, cache.TABLES)  # what the version document shows
VERSIONS_KEPT = 300  # seconds a version document stays known as the base of a delta


def _versions_key(slug: str, generation: str) -> str:
    return cache.key(slug, f"versions-doc:{generation}")


def versions_data(slug: str, generation: str) -> dict[str, Any]:
    """The version document of ``generation`` (``g``): the standings' generation (``s``), the
    round's key (``r``) and each table card's version (``t``). Kept as data, first writer wins,
    so a delta is always taken from exactly what a spectator was sent under that name."""
    full_key = _versions_key(slug, generation)
    document = django_cache.get(full_key)
    if document is None:
        tournament = public_tournament(slug)
        standings = int(generation.split("-")[VERSIONS.index(cache.STANDINGS)])
        document = {"g": generation, "s": standings,
                    **public_selectors.table_versions(tournament)}
        django_cache.add(full_key, document, timeout=VERSIONS_KEPT)
        document = django_cache.get(full_key) or document
    return document


def versions_document(slug: str, generation: str | None = None) -> Encoded:
    """What a live page polls first: the whole version document. Built once per change, one
    query; mostly a 304 after two reads of the cache (the generations, the body)."""
    generation = generation or cache.generations(slug, VERSIONS)

    def build() -> bytes:
        return json.dumps(versions_data(slug, generation), separators=(",", ":")).encode()

    return cache.cached_encoded(cache.key(slug, f"versions:{generation}"), build)


def current_versions(slug: str, generation: str | None = None, *,
                     known: dict[str, Any] | None = None) -> dict[str, Any]:
    """The current version document as data: the generations, then the document kept under
    them (``known``: already read with other keys). After a change (several a second in a
    hall) it is missing, and one caller builds it while the others wait (single flight,
    through the cached body)."""
    generation = generation or cache.generations(slug, VERSIONS)
    document = known if known is not None else django_cache.get(_versions_key(slug, generation))
    if document is None:
        document = json.loads(versions_document(slug, generation).body)
    return document


def versions_delta(slug: str, since: str) -> bytes | None:
    """What changed since the document ``since`` a page already has (``d``: the cards whose
    version changed): a few dozen bytes where the whole document of 167 tables is a kilobyte —
    a hall's phones poll it every 1.5 s, so it costs two reads of the cache (the generations,
    then both documents at once). None when ``since`` is unknown (expired, made up) or the
    round changed: the page then takes the whole document."""
    if not since or len(since) > 40:
        return None
    generation = cache.generations(slug, VERSIONS)
    keys = (_versions_key(slug, since), _versions_key(slug, generation))
    found = django_cache.get_many(keys)
    before = found.get(keys[0])
    if before is None:
        return None
    now = current_versions(slug, generation, known=found.get(keys[1]))
    if now["r"] != before["r"] or set(before["t"]) - set(now["t"]):
        return None
    changed = {number: version for number, version in now["t"].items()
               if before["t"].get(number) != version}
    return json.dumps({"g": now["g"], "s": now["s"], "r": now["r"], "d": changed},
                      separators=(",", ":")).encode()


def cards_document(slug: str, numbers: Sequence[int]) -> bytes:
    """The cards of the tables asked for, as JSON {number: html} (the ones that changed).

    Every spectator asks for another set, so the answer is not cached as a whole; but the
    cached version document names each card's version, and a card is cached under its
    version: the usual answer is two cache reads, no query (a hall of 300 phones asks
    several times a second). A card not in the cache is built from the database."""
    wanted = sorted(set(numbers))[:MAX_CARDS]
    cached = _cached_cards(slug, wanted)
    if cached is not None:
        return cached
    tournament = public_tournament(slug)
    data = overview(tournament, numbers=wanted)
    found = cards(tournament, data)
    return json.dumps({"r": data["round"]["key"] if data["round"] else None,
                       "cards": {str(n): html for n, html in found.items()}},
                      separators=(",", ":"), ensure_ascii=False).encode()


def _cached_cards(slug: str, wanted: Sequence[int]) -> bytes | None:
    document = current_versions(slug)
    if not document.get("r"):
        return None
    versions = document["t"]
    keys = {n: _card_key(slug, document["r"], n, versions[str(n)])
            for n in wanted if str(n) in versions}
    known = django_cache.get_many(list(keys.values()))
    if len(known) != len(keys):
        return None
    return json.dumps({"r": document["r"],
                       "cards": {str(n): known[key] for n, key in keys.items()}},
                      separators=(",", ":"), ensure_ascii=False).encode()


def parse_numbers(text: str) -> list[int]:
    """ "1,5,17" → [1, 5, 17]; anything else is dropped (a hostile query costs nothing)."""
    out = []
    for part in (text or "").split(",")[:MAX_CARDS]:
        part = part.strip()
        if part.isdigit() and len(part) <= 4:
            out.append(int(part))
    return out
