"""API of the tournament export and import (organizers only).

``GET /api/v1/tournaments/{slug}/export`` answers the whole tournament as one JSON document;
``POST /api/v1/tournaments/import`` takes such a document (as the JSON body, or a multipart
``file``) and rebuilds the tournament, under ``?slug=`` if given. A refused document answers
400 with the reason in German and English; nothing is saved.

Mount in ``config/urls.py``: ``path("api/v1/", include("scoring.api_exchange"))``.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import BasePermission
from rest_framework.response import Response
from rest_framework.views import APIView

from config.parsers import JSONParser, MultiPartParser
from tournament import roles
from tournament.models import Tournament

from . import exchange
from .organizer import export_filename


class IsOrganizer(BasePermission):
    message = _("Only organizers may export or import a tournament.")

    def has_permission(self, request, view) -> bool:
        return roles.is_organizer(request.user)


class ExportView(APIView):
    permission_classes = [IsOrganizer]

    @extend_schema(
        responses={200: OpenApiTypes.OBJECT},
        summary="Export a whole tournament as one JSON document (organizers only)",
        description=(
            "Settings, clubs, players (with private data), rounds, tables, seating, bankers by "
            "username, every game record, results with their confirmation state, and the "
            "standings at export time. Format `monopoly-championship-export/1`."
        ),
    )
    def get(self, request, slug: str) -> HttpResponse:
        tournament = get_object_or_404(Tournament, slug=slug)
        response = HttpResponse(exchange.export_json(tournament), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{export_filename(tournament)}"'
        response["Cache-Control"] = "no-store"
        return response


class ImportView(APIView):
    permission_classes = [IsOrganizer]
    parser_classes = [JSONParser, MultiPartParser]

    @extend_schema(
        request={"application/json": OpenApiTypes.OBJECT,
                 "multipart/form-data": {"type": "object",
                                         "properties": {"file": {"type": "string",
                                                                 "format": "binary"}}}},
        parameters=[
            OpenApiParameter(
                "slug", str, description="A new short name (default: the document's)."
            )
        ],
        responses={201: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
        summary="Import a tournament from an export document (organizers only)",
        description=(
            "Every game record is replayed through the rules engine; any refusal (a bad field, "
            "an unknown player, an illegal event, a taken slug) answers 400 and nothing is "
            "saved."
        ),
    )
    def post(self, request) -> Response:
        upload = request.FILES.get("file")
        if upload is not None:
            if upload.size > exchange.MAX_BYTES:
                raise exchange.ImportRefused(
                    exchange.TOO_BIG, params={"megabytes": exchange.MAX_BYTES // (1024 * 1024)}
                )
            document = upload.read()
        else:
            document = request.data
        slug = request.query_params.get("slug") or None
        outcome = exchange.import_document(document, slug=slug)
        tournament = outcome.tournament
        return Response(
            {
                "warnings": [str(warning) for warning in outcome.warnings],
                "slug": tournament.slug,
                "name": tournament.name,
                "players": tournament.players.count(),
                "rounds": tournament.rounds.count(),
                "url": reverse("organizer:tournament", args=[tournament.slug]),
            },
            status=status.HTTP_201_CREATED,
        )


urlpatterns = [
    path("tournaments/import", ImportView.as_view(), name="tournament-import"),
    path("tournaments/<slug:slug>/export", ExportView.as_view(), name="tournament-export"),
]
