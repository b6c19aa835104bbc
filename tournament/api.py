"""REST API for tournaments and players: public reads, organizer-only writes.

Views are thin: serializers check the shape, services in ``tournaments``, ``players`` and
``csv_import`` decide and raise domain errors, which ``config.errors`` turns into 4xx JSON.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from config.parsers import FormParser, MultiPartParser
from tournament import (
    access,
    lifecycle,
    selectors,
    staff,
    tournaments,
)
from tournament.access import Action
from tournament.models import Player, Tournament
from tournament.players import csv_import
from tournament.players import services as players
from tournament.serializers import (
    CsvImportErrorSerializer,
    CsvUploadSerializer,
    DomainErrorSerializer,
    ImportResultSerializer,
    PlayerSerializer,
    PlayerWriteSerializer,
    PublicPlayerSerializer,
    SettingsErrorSerializer,
    TournamentSerializer,
    TournamentWriteSerializer,
    TransitionSerializer,
)

#: A tournament's slug in a path; anything else (a NUL character, say) is a 404 before any query.
SLUG_PATTERN = r"[-a-zA-Z0-9_]+"

REFUSED = OpenApiResponse(DomainErrorSerializer, description="Refused: code and both languages.")
FORBIDDEN = OpenApiResponse(DomainErrorSerializer, description="Organizers only.")


class TournamentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Tournaments. Everyone reads those past draft; organizers also see drafts and write."""

    serializer_class = TournamentSerializer
    permission_classes = [access.ApiRule]
    access_rules = {
        "create": Action.CREATE,
        "partial_update": Action.SETTINGS,
        "transition": Action.SETTINGS,
    }
    lookup_field = "slug"
    lookup_value_regex = SLUG_PATTERN

    def get_queryset(self):
        visible = selectors.public_tournaments() | access.staffed_tournaments(self.request.user)
        return visible.select_related("winner__club").order_by("-date", "name")

    def get_object(self) -> Tournament:
        """Once per request: the gate finds it first (a 404 for one not visible here)."""
        if not hasattr(self, "_tournament"):
            self._tournament = super().get_object()
        return self._tournament

    def get_access_tournament(self) -> Tournament:
        return self.get_object()

    @extend_schema(
        request=TournamentWriteSerializer,
        responses={201: TournamentSerializer, 400: SettingsErrorSerializer, 403: FORBIDDEN},
        description="Create a tournament (as a draft). Organizers only.",
    )
    def create(self, request):
        serializer = TournamentWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = tournaments.create_tournament(**serializer.validated_data)
        staff.ensure_role(tournament=tournament, user=request.user, role=staff.Role.ORGANIZER)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=TournamentWriteSerializer,
        responses={
            200: TournamentSerializer,
            400: SettingsErrorSerializer,
            403: FORBIDDEN,
            409: OpenApiResponse(
                DomainErrorSerializer,
                description="Seating and scoring settings are frozen once the tournament runs.",
            ),
        },
        description="Change some settings. Organizers only.",
    )
    def partial_update(self, request, slug=None):
        tournament = self.get_object()
        serializer = TournamentWriteSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        tournament = tournaments.update_tournament(
            tournament=tournament, **serializer.validated_data
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        request=TransitionSerializer,
        responses={200: TournamentSerializer, 403: FORBIDDEN, 409: REFUSED},
        description=(
            "Change the status: draft → registration → running → finished, or registration → "
            "draft while no round exists. Organizers only."
        ),
    )
    @action(detail=True, methods=["post"])
    def transition(self, request, slug=None):
        tournament = self.get_object()
        serializer = TransitionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tournament = lifecycle.transition(
            tournament=tournament, to=serializer.validated_data["status"]
        )
        return Response(TournamentSerializer(tournament).data)


def _state_change_schema(*, description: str | None = None):
    """The schema of a player's state change (check-in, drop-out and their undoing): no body,
    the player out (or the refusal)."""
    return extend_schema(
        request=None,
        responses={200: PlayerSerializer, 403: FORBIDDEN, 409: REFUSED},
        description=description,
    )


@extend_schema(
    parameters=[
        OpenApiParameter(
            "tournament_slug", OpenApiTypes.STR, OpenApiParameter.PATH, description="Tournament"
        )
    ]
)
class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A tournament's players. Organizers see everything; the public sees public names only."""

    permission_classes = [access.ApiRule]
    access_rules = {
        "create": Action.CHECK_IN,
        "partial_update": Action.PLAYERS,
        "check_in": Action.CHECK_IN,
        "undo_check_in": Action.CHECK_IN,
        "drop_out": Action.DROP_OUT,
        "undo_drop_out": Action.DROP_OUT,
        "import_csv": Action.PLAYERS,
    }
    queryset = Player.objects.none()

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            queryset = selectors.public_tournaments() | access.staffed_tournaments(
                self.request.user
            )
            self._tournament = get_object_or_404(
                queryset.distinct(), slug=self.kwargs["tournament_slug"]
            )
        return self._tournament

    def get_access_tournament(self) -> Tournament:
        return self.get_tournament()

    def initial(self, request, *args, **kwargs) -> None:
        """A tournament not visible here is a 404 for the public reads too (the gate has found
        it already for a ruled operation, before the body is read)."""
        super().initial(request, *args, **kwargs)
        if not getattr(self, "swagger_fake_view", False):
            self.get_tournament()

    def _staff(self) -> bool:
        return access.sees_staff_data(self.request, self.get_tournament())

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Player.objects.none()
        return self.get_tournament().players.select_related("club").order_by("name")

    def get_serializer_class(self):
        if getattr(self, "swagger_fake_view", False) or self._staff():
            return PlayerSerializer
        return PublicPlayerSerializer

    @extend_schema(
        responses=PlayerSerializer(many=True),
        description=(
            "Organizers get every field. Everyone else gets only id, public_name, club, "
            "checked_in and dropped_out (no e-mail, note or the name of players without "
            "consent); drafts are not public."
        ),
    )
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @extend_schema(
        responses=PlayerSerializer,
        description="Organizers get every field; everyone else the public fields only.",
    )
    def retrieve(self, request, *args, **kwargs):
        return super().retrieve(request, *args, **kwargs)

    @extend_schema(
        request=PlayerWriteSerializer,
        responses={201: PlayerSerializer, 400: REFUSED, 403: FORBIDDEN, 409: REFUSED},
        description="Add a player; while the tournament runs, a late entry is checked in.",
    )
    def create(self, request, tournament_slug=None):
        serializer = PlayerWriteSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        player = players.add_player(tournament=self.get_tournament(), **serializer.validated_data)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        request=PlayerWriteSerializer,
        responses={200: PlayerSerializer, 400: REFUSED, 403: FORBIDDEN, 409: REFUSED},
        description="Change a player's name, club, e-mail, consent or note.",
    )
    def partial_update(self, request, tournament_slug=None, pk=None):
        player = self.get_object()
        serializer = PlayerWriteSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        data.pop("checked_in", None)
        player = players.update_player(
            player=player,
            name=data.get("name", player.name),
            club=data.get("club", player.club.name if player.club else ""),
            email=data.get("email", player.email),
            public_name_consent=data.get("public_name_consent", player.public_name_consent),
            private_note=data.get("private_note", player.private_note),
        )
        return Response(PlayerSerializer(player).data)

    def _state_change(self, service) -> Response:
        player = service(player=self.get_object())
        return Response(PlayerSerializer(player).data)

    @_state_change_schema()
    @action(detail=True, methods=["post"], url_path="check-in")
    def check_in(self, request, tournament_slug=None, pk=None):
        return self._state_change(players.check_in)

    @_state_change_schema()
    @action(detail=True, methods=["post"], url_path="undo-check-in")
    def undo_check_in(self, request, tournament_slug=None, pk=None):
        return self._state_change(players.undo_check_in)

    @_state_change_schema(
        description="The player leaves: kept in past rounds, skipped by future seating."
    )
    @action(detail=True, methods=["post"], url_path="drop-out")
    def drop_out(self, request, tournament_slug=None, pk=None):
        return self._state_change(players.drop_out)

    @_state_change_schema()
    @action(detail=True, methods=["post"], url_path="undo-drop-out")
    def undo_drop_out(self, request, tournament_slug=None, pk=None):
        return self._state_change(players.undo_drop_out)

    @extend_schema(
        request={"multipart/form-data": CsvUploadSerializer},
        responses={
            201: ImportResultSerializer,
            400: OpenApiResponse(
                CsvImportErrorSerializer,
                description="The whole file was refused; `errors` lists every bad line.",
            ),
            403: FORBIDDEN,
        },
        description="Import players from a CSV file, all or nothing.",
    )
    @action(
        detail=False,
        methods=["post"],
        url_path="import",
        parser_classes=[MultiPartParser, FormParser],
    )
    def import_csv(self, request, tournament_slug=None):
        serializer = CsvUploadSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        upload = serializer.validated_data["file"]
        data = upload.read(csv_import.MAX_BYTES + 1)  # import_players refuses anything larger
        result = csv_import.import_players(tournament=self.get_tournament(), data=data)
        body = {
            "created": len(result.players),
            "clubs_created": [club.name for club in result.clubs],
            "encoding": result.encoding,
            "delimiter": result.delimiter,
            "players": PlayerSerializer(result.players, many=True).data,
            "warnings": [warning.as_dict() for warning in result.warnings],
        }
        return Response(body, status=status.HTTP_201_CREATED)


def register(router) -> None:
    router.register("tournaments", TournamentViewSet, basename="tournament")
    router.register(
        rf"tournaments/(?P<tournament_slug>{SLUG_PATTERN})/players",
        PlayerViewSet,
        basename="tournament-player",
    )
