"""Public standings API: cached JSON with ETag; most spectator polls end in a 304."""

from __future__ import annotations

import json
from collections.abc import Callable

from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from public import selectors as public_selectors
from public.fragments import etag_response, public_tournament
from scoring import cache
from scoring.standings import selectors

CACHE_CONTROL = "public, max-age=2, must-revalidate"


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
    document = {"tournament": tournament.slug, **public_selectors.table_overview(tournament)}
    return json.dumps(document, cls=DjangoJSONEncoder, ensure_ascii=False).encode()


def cached_json(request: HttpRequest, slug: str, name: str, build) -> HttpResponse:
    encoded = cache.cached_body(slug, name, [name], lambda: build(slug))
    response = etag_response(request, encoded, content_type="application/json")
    response["Cache-Control"] = CACHE_CONTROL
    return response


class PublicCachedView(APIView):
    """Public and cached: no session lookup on the hot path."""

    authentication_classes: list = []
    permission_classes = [AllowAny]


def answered_early(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``view`` (a public cached document's) marked for ``public.early``: given before the
    session, through DRF's own dispatch, in the visitor's language (an error's words)."""
    view.early = (view, True)  # type: ignore[attr-defined]
    return view


class StandingsView(PublicCachedView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Public standings of a tournament (one row per player, best first)",
    )
    def get(self, request, slug: str) -> HttpResponse:
        return cached_json(request, slug, cache.STANDINGS, standings_document)


class TableOverviewView(PublicCachedView):
    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Every table of the current round: state, clock, provisional leader",
    )
    def get(self, request, slug: str) -> HttpResponse:
        return cached_json(request, slug, cache.TABLES, overview_document)
