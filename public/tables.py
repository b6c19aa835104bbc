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

from django.conf import settings
from django.core.cache import cache as django_cache
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config.compression import Encoded
from public import selectors as public_selectors
from public.fragments import (
    cached_fragment,
    clock_data,
    public_tournament,
)
from referee.selectors import STATE_LABELS
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


#: What the version document shows: the standings and the overview's cards (not every event).
VERSIONS = (cache.STANDINGS, cache.CARDS)
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
        _render_announced_cards(tournament, document)
        django_cache.add(full_key, document, timeout=VERSIONS_KEPT)
        document = django_cache.get(full_key) or document
    return document


def _previous_generation(generation: str) -> str | None:
    """The document one card change before ``generation`` ("3-17" → "3-16")."""
    parts = generation.split("-")
    position = VERSIONS.index(cache.CARDS)
    if len(parts) != len(VERSIONS) or not parts[position].isdigit() or int(parts[position]) < 2:
        return None
    parts[position] = str(int(parts[position]) - 1)
    return "-".join(parts)


def _render_announced_cards(tournament: Tournament, document: dict[str, Any]) -> None:
    """The cards a new version document announces, rendered before it is published.

    Every phone on the tables page asks for a changed card within one poll of learning its
    version; rendered lazily, the first few hundred of them found it missing at once and each
    built it from the database (a full hall: a third of the server's time). The document is
    built once per change (single flight), so it renders the cards that changed since the
    document before it, in every language; a card it misses (the previous document expired,
    two changes at once) is still built on demand."""
    previous = _previous_generation(document["g"])
    before = django_cache.get(_versions_key(tournament.slug, previous)) if previous else None
    changed = _changed(before, document) if document.get("r") else None
    if not changed:
        return
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            cards(tournament, overview(tournament, numbers=[int(n) for n in changed][:MAX_CARDS]))


def _changed(before: dict[str, Any] | None, now: dict[str, Any]) -> dict[str, str] | None:
    """The cards whose version changed from the document ``before`` to ``now``; None when
    there is no such delta (``before`` unknown, the round changed, a table went)."""
    if before is None or now["r"] != before["r"] or set(before["t"]) - set(now["t"]):
        return None
    return {number: version for number, version in now["t"].items()
            if before["t"].get(number) != version}


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


#: A page with more changed cards than this takes the whole tables fragment (public.js).
CARDS_IN_A_DELTA = 60


def versions_delta(slug: str, since: str, *, with_cards: bool = False) -> Encoded | None:
    """What changed since the document ``since`` a page already has (``d``: the cards whose
    version changed): a few dozen bytes where the whole document of 167 tables is a kilobyte.
    ``with_cards`` (the tables page): the changed cards themselves too (``c``, in the active
    language), so the page follows in one request per poll instead of two. None when
    ``since`` is unknown (expired, made up) or the round changed: the page then takes the
    whole document.

    A hall's phones poll it every 1.5 s, and the ones that polled last at the same change
    ask for the same delta: both documents are immutable under their names, and so are the
    cards under their versions, so the delta is kept (compressed, built by one caller while
    the others wait: ``cached_encoded``) under its two names and the language — after the
    first phone, a poll is two reads of the cache."""
    if not since or len(since) > 40:
        return None
    generation = cache.generations(slug, VERSIONS)
    language = (translation.get_language() or "de") if with_cards else "-"

    def build() -> bytes:
        body = _delta(slug, since, generation, with_cards=with_cards)
        if body is None:
            raise _NoDelta
        return body

    try:
        return cache.cached_encoded(delta_key(slug, since, generation, language), build,
                                    timeout=VERSIONS_KEPT)
    except _NoDelta:
        return None


def delta_key(slug: str, since: str, generation: str, language: str) -> str:
    """Under the tournament's prefix: an erasure empties it (the cards carry names)."""
    return cache.key(slug, f"versions-delta:{since}:{generation}:{language}")


class _NoDelta(Exception):
    """``since`` names no document the delta can start from."""


def _delta(slug: str, since: str, generation: str, *, with_cards: bool) -> bytes | None:
    keys = (_versions_key(slug, since), _versions_key(slug, generation))
    found = django_cache.get_many(keys)
    before = found.get(keys[0])
    if before is None:
        return None
    now = current_versions(slug, generation, known=found.get(keys[1]))
    changed = _changed(before, now)
    if changed is None:
        return None
    delta: dict[str, Any] = {"g": now["g"], "s": now["s"], "r": now["r"], "d": changed}
    if with_cards and changed and len(changed) <= CARDS_IN_A_DELTA:
        round_key, cards_found = _cards(slug, now, [int(number) for number in changed])
        if round_key == now["r"]:
            delta["c"] = {str(n): html for n, html in cards_found.items()}
    return json.dumps(delta, separators=(",", ":"), ensure_ascii=False).encode()


def cards_document(slug: str, numbers: Sequence[int]) -> bytes:
    """The cards of the tables asked for, as JSON {number: html} (the ones that changed).

    Every spectator asks for another set, so the answer is not cached as a whole; but the
    cached version document names each card's version, and a card is cached under its
    version: the usual answer is three cache reads, no query. Only a card not in the cache is
    built from the database."""
    round_key, found = _cards(slug, current_versions(slug), sorted(set(numbers))[:MAX_CARDS])
    return json.dumps({"r": round_key, "cards": {str(n): html for n, html in found.items()}},
                      separators=(",", ":"), ensure_ascii=False).encode()


def _cards(slug: str, document: dict[str, Any], wanted: list[int]
           ) -> tuple[str | None, dict[int, str]]:
    """The round's key and the cards of ``wanted`` (sorted), in the active language: from the
    cache by the versions ``document`` names; a card not there is built from the database
    (all of them when the round changed meanwhile)."""
    round_key = document.get("r")
    found: dict[int, str] = {}
    if round_key:
        versions = document["t"]
        keys = {n: _card_key(slug, round_key, n, versions[str(n)])
                for n in wanted if str(n) in versions}
        known = django_cache.get_many(list(keys.values()))
        found = {n: known[key] for n, key in keys.items() if key in known}
    missing = [n for n in wanted if n not in found]
    if missing:
        tournament = public_tournament(slug)
        data = overview(tournament, numbers=missing)
        built_round = data["round"]["key"] if data["round"] else None
        if built_round != round_key:  # the round changed meanwhile: all from the database
            data, found, round_key = overview(tournament, numbers=wanted), {}, built_round
        found.update(cards(tournament, data))
    return round_key, {n: found[n] for n in wanted if n in found}


def parse_numbers(text: str) -> list[int]:
    """ "1,5,17" → [1, 5, 17]; anything else is dropped (a hostile query costs nothing)."""
    out = []
    for part in (text or "").split(",")[:MAX_CARDS]:
        part = part.strip()
        if part.isdigit() and len(part) <= 4:
            out.append(int(part))
    return out
