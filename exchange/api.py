"""API of the tournament export and import (organizers only).

``GET /api/v1/tournaments/{slug}/export`` answers the whole tournament as one JSON document;
``POST /api/v1/tournaments/import`` takes such a document (as the JSON body, or a multipart
``file``) and rebuilds the tournament, under ``?slug=`` if given. A refused document answers
400 with the reason in German and English; nothing is saved.

Mounted by ``exchange.api_urls``.
"""

from __future__ import annotations

import json

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from config.parsers import JSONParser, MultiPartParser
from exchange import jobs, tasks
from exchange import services as exchange
from exchange.views import export_filename
from tournament import access, staff
from tournament.access import Action
from tournament.models import Tournament


class ExportView(APIView):
    permission_classes = [access.ApiRule]
    access_rules = {None: Action.EXPORT}

    def get_access_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament, slug=self.kwargs["slug"])
        return self._tournament

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
        tournament = self.get_access_tournament()
        response = HttpResponse(exchange.export_json(tournament), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{export_filename(tournament)}"'
        response["Cache-Control"] = "no-store"
        return response


class ImportView(APIView):
    permission_classes = [access.ApiRule]
    access_rules = {None: Action.CREATE}  # a new tournament: the body names it (access.ANYWHERE)
    parser_classes = [JSONParser, MultiPartParser]
    max_json_bytes = exchange.MAX_BYTES  # a whole tournament (config.parsers)

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
        responses={201: OpenApiTypes.OBJECT, 202: OpenApiTypes.OBJECT, 400: OpenApiTypes.OBJECT},
        summary="Import a tournament from an export document (organizers only)",
        description=(
            "Every game record is replayed through the rules engine; any refusal (a bad field, "
            "an unknown player, an illegal event, a taken slug) answers 400 and nothing is "
            "saved. A document over 1 MB is imported by a background job: 202 with the job's "
            "URL (`/api/v1/tournaments/import/jobs/{job_id}`), whose state says the progress "
            "and, at the end, the new tournament or the refusal."
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
        size = len(document) if isinstance(document, bytes) else int(
            request.headers.get("Content-Length") or 0)
        if size > jobs.INLINE_BYTES:  # a big document runs as a job: 202 and where to look
            data = document if isinstance(document, bytes) else json.dumps(document).encode()
            job_id = tasks.start_import(data=data, slug=slug, user=request.user)
            url = reverse("tournament-import-job", args=[job_id])
            return Response({"job": job_id, "state": jobs.QUEUED, "url": url},
                            status=status.HTTP_202_ACCEPTED, headers={"Location": url})
        outcome = exchange.import_document(document, slug=slug)
        tournament = outcome.tournament
        staff.ensure_role(tournament=tournament, user=request.user, role=staff.Role.ORGANIZER)
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


class ImportJobView(APIView):
    permission_classes = [access.ApiRule]
    access_rules = {None: Action.CREATE}  # and the job's own starter (access.owns_job)

    @extend_schema(responses={200: OpenApiTypes.OBJECT},
                   summary="A background import's state and progress (who started it only)")
    def get(self, request, job_id: str) -> Response:
        job = jobs.read(job_id)
        if not access.owns_job(request.user, job):
            raise Http404("no such import job")
        return Response({key: job.get(key) for key in (
            "id", "state", "done", "total", "result_slug", "message_de", "message_en",
            "warnings")})
