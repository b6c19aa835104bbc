"""The console API: post events, read a table's state and its record. Thin: services decide."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from drf_spectacular.authentication import SessionScheme
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.models import Table, Tournament

from . import engine_cache, errors, selectors, services, timers
from .access import can_run_table
from .console_data import named_violation, names_for


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


def _table(table_id: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament", "banker"), pk=table_id
    )


def _require_writer(request: Request, table: Table) -> None:
    if not can_run_table(request._request, table):
        raise errors.NotYourTable(errors.NOT_YOUR_TABLE)


def _readable(request: Request, table: Table) -> bool:
    """Bankers and organizers read everything; the public reads tables of public tournaments."""
    if can_run_table(request._request, table):
        return True
    if table.round.tournament.status == Tournament.Status.DRAFT:
        raise errors.NotFound(errors.NO_SUCH_TABLE)
    return False


EventBody = inline_serializer(
    "EventPost",
    fields={
        "event": serializers.JSONField(help_text="A game-record event, e.g. {\"type\": \"buy\", …}"),
        "expected_seq": serializers.IntegerField(
            required=False, help_text="The sequence number this event should get (409 if stale)."
        ),
    },
)


class TableEventsView(APIView):
    authentication_classes = [_CsrfSession]
    permission_classes = [AllowAny]  # table-bound: checked per table below

    @extend_schema(
        request=EventBody,
        parameters=[
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
        table = _table(table_id)
        _require_writer(request, table)
        body = request.data if isinstance(request.data, dict) else {}
        event = body.get("event")
        expected = body.get("expected_seq")
        if expected is not None and (isinstance(expected, bool) or not isinstance(expected, int)):
            raise errors.DomainError(errors.BAD_EXPECTED_SEQ, code="bad_expected_seq")
        key = request.headers.get("Idempotency-Key", "").strip()[:100]
        if any(ord(char) < 32 or ord(char) == 127 for char in key):  # NUL: PostgreSQL refuses
            raise errors.DomainError(errors.BAD_IDEMPOTENCY_KEY, code="bad_idempotency_key")
        game = services.ensure_game(table=table)
        author = request.user if request.user.is_authenticated else None
        try:
            outcome = services.post_event(
                game_id=game.pk, event=event, author=author, expected_seq=expected,
                idempotency_key=key,
            )
        except errors.StaleSequence as stale:
            game.refresh_from_db()
            body = {**stale.as_dict(), "state": selectors.game_state(game, public=False)}
            return Response(body, status=status.HTTP_409_CONFLICT)
        except errors.EventRefused as refused:
            # The engine knows players by id; a banker reads names.
            game.refresh_from_db()
            engine = engine_cache.engine_for(game)
            named = named_violation(refused.violation, names_for(game, engine))
            raise errors.EventRefused(named) from None
        answer = {
            "seq": outcome.event.seq,
            "event": outcome.event.data,
            "replayed": not outcome.created,
            "state": selectors.game_state(outcome.game, public=False),
        }
        return Response(answer, status=201 if outcome.created else 200)


class TableStateView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="A table's game state")
    def get(self, request: Request, table_id: int) -> Response:
        table = _table(table_id)
        private = _readable(request, table)
        game = services.ensure_game(table=table)
        services.enforce_deadlines(game_id=game.pk)
        game.refresh_from_db()
        etag = f'"g{game.pk}-{game.event_count}-{timers.version(game.pk)}-{int(private)}"'
        if request.headers.get("If-None-Match") == etag:
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
        response = Response(selectors.game_state(game, public=not private))
        response["ETag"] = etag
        patch_cache_control(response, no_cache=True, private=private, public=not private)
        return response


class TableRecordView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT}, summary="The game record (JSON)")
    def get(self, request: Request, table_id: int) -> Response:
        table = _table(table_id)
        _readable(request, table)
        game = services.ensure_game(table=table)
        response = Response(selectors.record(game))
        response["Content-Disposition"] = (
            f'inline; filename="table-{table.round.number}-{table.number}.json"'
        )
        return response
