"""Public standings API: cached JSON with ETag; most spectator polls end in a 304."""

from __future__ import annotations

import json

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from config.errors import NotFound
from tournament import selectors as tournament_selectors

from . import cache, selectors
from .errors import NO_SUCH_TOURNAMENT

CACHE_CONTROL = "public, max-age=2, must-revalidate"


def public_tournament(slug: str):
    tournament = tournament_selectors.public_tournaments().filter(slug=slug).first()
    if tournament is None:
        raise NotFound(NO_SUCH_TOURNAMENT, params={"slug": slug})
    return tournament


def standings_document(slug: str) -> bytes:
    tournament = public_tournament(slug)
    document = {
        "tournament": tournament.slug,
        "name": tournament.name,
        "format": tournament.format,
        "finalists": tournament.finalists,
        **selectors.standings_meta(tournament),
        "standings": selectors.standings(tournament),
    }
    return json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False).encode()


def overview_document(slug: str) -> bytes:
    tournament = public_tournament(slug)
    document = {"tournament": tournament.slug, **selectors.table_overview(tournament)}
    return json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False).encode()


def cached_json(request: HttpRequest, slug: str, name: str, build) -> HttpResponse:
    body, etag = cache.get_or_build(slug, name, lambda: build(slug))
    if etag in request.headers.get("If-None-Match", ""):
        response = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = CACHE_CONTROL
    return response


class StandingsView(APIView):
    authentication_classes: list = []  # public and cached: no session lookup on the hot path
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Public standings of a tournament (one row per player, best first)",
    )
    def get(self, request, slug: str) -> HttpResponse:
        return cached_json(request, slug, cache.STANDINGS, standings_document)


class TableOverviewView(APIView):
    authentication_classes: list = []
    permission_classes = [AllowAny]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Every table of the current round: state, clock, provisional leader",
    )
    def get(self, request, slug: str) -> HttpResponse:
        return cached_json(request, slug, cache.TABLES, overview_document)
