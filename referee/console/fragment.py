"""The console's fragment on the wire: compressed, and conditional (ETag/304) like the public pages.

A banker's phone asks for the fragment when something may have changed (a deadline due, a
state poll that saw another sequence number, the network back); most of those times nothing
did, and the 70 KB answer was sent again. Its ETag names everything the fragment shows: the
game (its events and its version, which every change of the result or a player's name bumps),
the confirmation codes left, the extra minutes, the table's banker, the language, the selected
player, the feed's length and who reads it (the head referee sees other buttons). The body is
not cached: it carries the clock of its moment.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language

from config.compression import MIN_SIZE, Encoded, choose, compress, encoded_response, etag_matches
from referee import timers
from referee.models import Game
from tournament import access
from tournament.models import Table


def etag(request: HttpRequest, *, table: Table, game: Game) -> str:
    """The fragment's version for this reader (no query: the game row and the cache)."""
    version = timers.version(game.pk) if game.pk is not None else 0
    wanted = f"{request.GET.get('player', '')}|{request.GET.get('feed', '')}"
    role = (f"{int(access.is_head_referee(request.user, table.round.tournament_id))}"
            f"{int(access.runs_as_head_referee(request, table))}")
    return (f'"m{table.pk}-{game.pk or 0}-{game.event_count}-{version}-{game.wrong_codes}'
            f'-{game.extra_minutes}-{table.banker_id or 0}-{get_language()}-{role}'
            f'-{zlib.crc32(wanted.encode())}"')


def conditional(request: HttpRequest, *, etag: str, render: Callable[[], str]) -> HttpResponse:
    """304 when the reader has this version; else the body, compressed for this reader only
    (made per request: the clock in it is of its moment, so it is not kept)."""
    coding = choose(request)
    if etag_matches(request, etag):  # the body is not even built; the ETag as the reader has it
        encoded = Encoded(b"", etag, {coding: b""} if coding else {})
    else:
        body = render().encode()
        coding = coding if len(body) >= MIN_SIZE else ""
        encoded = Encoded(body, etag, {coding: compress(body, coding, fast=True)} if coding else {})
    response = encoded_response(request, encoded, content_type="text/html; charset=utf-8")
    patch_cache_control(response, private=True, no_cache=True)
    return response
