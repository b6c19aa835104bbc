"""The console API: post events, read a table's state and its record. Thin: services decide."""

from __future__ import annotations

import datetime as dt
import json
import zlib

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.compression import (
    Encoded,
    encode,
    encoded_response,
    etag_matches,
)
from config.prepared import PreparedRead
from referee import (
    engine_cache,
    errors,
    follow,
    selectors,
    services,
    timers,
)
from referee.answer_cache import record_key, state_etag, state_key
from referee.console.views import main_html
from referee.models import Game
from referee.words import named_violation, names_for
from tournament import access
from tournament.access import can_run_table, table_author
from tournament.models import Table, Tournament
from tournament.selectors import results_held, round_is_public


class _CsrfSession(SessionAuthentication):
    """Session auth that also enforces CSRF for banker-link sessions (no logged-in user)."""

    def authenticate(self, request):
        result = super().authenticate(request)
        if result is None and request.method not in ("GET", "HEAD", "OPTIONS"):
            self.enforce_csrf(request)
        return result


class CsrfSessionScheme(SessionScheme):
    """The console's session auth is the ordinary session cookie in the OpenAPI schema."""

    target_class = "referee.api._CsrfSession"
    name = "consoleSession"


#: The table with its round and tournament (every view here reads them), compiled once (issue
#: 29: the compilation was most of the read). Not its banker: the checks compare
#: ``banker_id``.
_TABLE = PreparedRead(lambda pk: Table.objects.select_related("round__tournament").filter(pk=pk))


def _table(table_id: int) -> Table:
    table = _TABLE.first(table_id)
    if table is None:
        raise Http404
    return table


def _public(table: Table) -> bool:
    """The public reads tables of public tournaments whose round has started (a seated round
    is the organizers' until it starts)."""
    return (table.round.tournament.status != Tournament.Status.DRAFT
            and round_is_public(table.round))


def _readable(request: Request, table: Table) -> bool:
    """Bankers and organizers read everything; the public what ``_public`` allows."""
    if can_run_table(request._request, table):
        return True
    if table.round.tournament.status == Tournament.Status.DRAFT:
        raise errors.NotFound(errors.NO_SUCH_TABLE)
    if not round_is_public(table.round):
        raise errors.NotFound(errors.ROUND_NOT_STARTED, params={"number": table.round.number})
    return False


EventBody = inline_serializer(
    "EventPost",
    fields={
        "event": serializers.JSONField(help_text="A game-record event, e.g. {\"type\": \"buy\", …}"),
        "expected_seq": serializers.IntegerField(
            required=False, help_text="The sequence number this event should get (409 if stale)."
        ),
        "waited_ms": serializers.IntegerField(
            required=False,
            help_text="How long the action waited on the phone (its offline queue), by the "
                      "phone's own clock: from 10 s on the event keeps when it was made "
                      "(``made_at``) besides its arrival (``at``, the server's clock, which the "
                      "rules' times use).",
        ),
    },
)


class _AsciiJSONRenderer(JSONRenderer):
    ensure_ascii = True


class TableEventsView(APIView):
    """Writers only: who may not write is refused before the body is read.

    The CSRF check (part of authentication) reads the body, and a body can be megabytes of
    nesting; the table's writer is known from the session alone, so ``initial`` asks the gate
    first (DRF asks it again after authentication, from the same per-request answers).
    """

    authentication_classes = [_CsrfSession]
    permission_classes = [access.ApiRule]
    access_rules = {None: access.TableRule.RUN}

    def get_access_table(self) -> Table:
        if not hasattr(self, "table"):  # the post uses it: one query, with the session's link
            table_id = self.kwargs["table_id"]
            self.table = access.table_by_link(self.request._request, table_id) or _table(table_id)
        return self.table

    def initial(self, request: Request, *args, **kwargs) -> None:
        self.check_permissions(request)
        super().initial(request, *args, **kwargs)

    def get_renderers(self):
        """The console's answer carries its ~70 kB fragment as a JSON string: written with
        ASCII escapes, which Python's encoder writes twice as fast as UTF-8 (issue 29; the
        same JSON once parsed, a few bytes more on the wire before compression)."""
        if self.request.GET.get("fragment") == "main":
            return [_AsciiJSONRenderer()]
        return super().get_renderers()

    @extend_schema(
        request=EventBody,
        parameters=[
            OpenApiParameter(
                "fragment", OpenApiTypes.STR, OpenApiParameter.QUERY, enum=["main"],
                description="The banker's console: the answer carries the console's fragment "
                            "(``main``, HTML) and a short state (seq, status, clock) instead "
                            "of the full state.",
            ),
            OpenApiParameter(
                "Idempotency-Key", OpenApiTypes.STR, OpenApiParameter.HEADER,
                description="A retry with the same key returns the first answer, never a second event.",
            )
        ],
        responses={201: OpenApiTypes.OBJECT, 200: OpenApiTypes.OBJECT, 409: OpenApiTypes.OBJECT,
                   422: OpenApiTypes.OBJECT},
        summary="Post one event to a table's game",
    )
    def post(self, request: Request, table_id: int) -> Response:
        table = self.table
        body = request.data if isinstance(request.data, dict) else {}
        event = body.get("event")
        expected = body.get("expected_seq")
        if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
            raise errors.DomainError(errors.BAD_EXPECTED_SEQ, code="bad_expected_seq")
        key = request.headers.get("Idempotency-Key", "").strip()[:100]
        if any(ord(char) < 32 or ord(char) == 127 for char in key):  # NUL: PostgreSQL refuses
            raise errors.DomainError(errors.BAD_IDEMPOTENCY_KEY, code="bad_idempotency_key")
        author = table_author(request._request, table)
        waited = body.get("waited_ms")
        if isinstance(waited, bool) or not isinstance(waited, int) or waited < 0:
            waited = None  # a record for people, never a refusal: left out when unreadable
        try:
            # The table, not the game: the post finds (or creates) and locks the game at once.
            outcome = services.post_event(
                table=table, event=event, author=author, expected_seq=expected,
                idempotency_key=key,
                waited=None if waited is None else dt.timedelta(milliseconds=min(waited, 2**40)),
            )
        except errors.StaleSequence as stale:
            game = selectors.table_game(table)
            body = {**stale.as_dict(), "state": selectors.game_state(game, public=False)}
            return Response(body, status=status.HTTP_409_CONFLICT)
        except errors.EventRefused as refused:
            # The engine knows players by id; a banker reads names.
            game = selectors.table_game(table)
            engine = engine_cache.engine_for(game)
            named = named_violation(refused.violation, names_for(game, engine))
            raise errors.EventRefused(named) from None
        answer = {
            "seq": outcome.event.seq,
            "event": outcome.event.data,
            "replayed": not outcome.created,
        }
        if request.query_params.get("fragment") == "main":
            answer.update(_console_answer(request, table, outcome.game, written=outcome.created))
        else:
            answer["state"] = selectors.game_state(outcome.game, public=False,
                                                   result=outcome.result)
        return Response(answer, status=201 if outcome.created else 200)


def _console_answer(request: Request, table: Table, game: Game, *, written: bool) -> dict:
    """What the console redraws from, so that an action is one request (issue 29): the
    fragment ``/banker/table/<id>/main/`` would answer now (the selected player from the
    query's ``player``), rendered from the game the post has, and the clock; not the full
    state, which only other clients read. A retry renders the fragment as the table is then.
    ``written``: the post stored its event, so the game has no result (the writability check
    refuses a counted game): the fragment of a game the event ended reads none."""
    engine = engine_cache.engine_for(game)
    # the state API's ETag of this state: the console's next poll is a 304 (read once, for
    # the answer and the fragment's data)
    etag = state_etag(table_id=table.pk, game=game, private=True)
    return {
        "state": {"seq": game.event_count, "status": game.status,
                  "clock": selectors.clock(game, engine, timezone.now()), "etag": etag},
        "main": main_html(request._request, table=table, game=game, no_result=written,
                          state_etag=etag),
    }


STATE_TIMEOUT = 600  # a rendered state, keyed by its ETag: never stale, only evicted
RECORD_TIMEOUT = 3600
RECORD_CACHE_MAX = 8 * 1024 * 1024  # larger records are built per request (ETag still 304s)


def _json(data) -> bytes:
    return json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False).encode()


def _cached(key: str, etag: str, build, *, timeout: int, limit: int | None = None) -> Encoded:
    """The body compressed once (``config.compression``) and kept under one key per table
    and reader (a change makes a new ETag and replaces it, so no old copy lingers; an erasure
    drops it: ``forget_table``)."""
    encoded = cache.get(key)
    if not isinstance(encoded, Encoded) or encoded.etag != etag:
        encoded = encode(build(), etag)
        if limit is None or len(encoded.body) <= limit:
            cache.set(key, encoded, timeout=timeout)
    return encoded


class TableStateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A table's game state")
    def get(self, request: Request, table_id: int) -> HttpResponse:
        # Before the database: what the answer's ETag is kept under (``referee.follow``).
        followed = follow.Follow(table_id)
        table = _table(table_id)
        private = _readable(request, table)
        game = selectors.table_game(table, with_result=True)
        if game.pk is not None:
            # Deadlines are derived from the state; a read enforces them (no worker needed),
            # but locks the row only when one is due: a poll in between takes no lock.
            now = timezone.now()
            if any(due and due <= now for due in (game.auction_stop_due, game.time_up_due)):
                services.enforce_deadlines(game_id=game.pk, now=now)
                game = selectors.table_game(table, with_result=True)
        # Closing the round changes what the public sees.
        held = not private and results_held(table.round)
        etag = state_etag(table_id=table.pk, game=game, private=private, held=held)
        if game.pk is not None:  # the next poll naming it is answered before the session
            followed.keep(etag=etag, private=private, public=_public(table),
                          due=(game.auction_stop_due, game.time_up_due))
        if etag_matches(request, etag):  # the body is not even built
            return encoded_response(request, Encoded(b"", etag), content_type="application/json")
        encoded = _cached(
            state_key(table.pk, private=private, held=held), etag,
            lambda: _json(selectors.game_state(
                game, public=not private,
                result=selectors.summarize_result(selectors.result_of(game)),
            )),
            timeout=STATE_TIMEOUT,
        )
        response = encoded_response(request, encoded, content_type="application/json")
        # One of the two, never ``public=False``: Django writes a False value as ``public=False``.
        patch_cache_control(response, no_cache=True, **{"private" if private else "public": True})
        return response


class TableRecordView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The game record (JSON)")
    def get(self, request: Request, table_id: int) -> HttpResponse:
        table = _table(table_id)
        private = _readable(request, table)
        if not private and results_held(table.round):
            # The record replays to the places: held with them.
            raise errors.ResultsHeld(errors.RESULTS_HELD, params={"number": table.round.number})
        game = selectors.table_game(table)
        seating = zlib.crc32(",".join(game.players).encode())
        # The game's version too: an erasure rewrites event texts without a new event.
        version = timers.version(game.pk) if game.pk is not None else 0
        etag = (f'"r{table.pk}-{game.pk or 0}-{game.event_count}-{seating}-{version}'
                f'-{int(private)}"')
        if etag_matches(request, etag):
            return encoded_response(request, Encoded(b"", etag), content_type="application/json")
        encoded = _cached(
            record_key(table.pk, private=private), etag,
            lambda: _json(selectors.record(game, public=not private)),
            timeout=RECORD_TIMEOUT, limit=RECORD_CACHE_MAX,
        )
        response = encoded_response(request, encoded, content_type="application/json")
        response["Content-Disposition"] = (
            f'inline; filename="table-{table.round.number}-{table.number}.json"'
        )
        patch_cache_control(response, no_cache=True, private=True)
        return response
