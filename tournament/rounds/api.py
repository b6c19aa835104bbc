"""REST API of rounds and their seating (tables and their bankers: :mod:`.api_tables`).

Reads are public for rounds of public tournaments and show public names only (organizers also
get full names and bankers); writes are for organizers (staff). Seating edits carry the round's
``version`` and answer 409 ``stale_version`` when it is no longer current.
"""

from __future__ import annotations

import re

from django.db.models import Count, Q, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404  # DRF's: /rounds/null/ is a 404, not a 500
from rest_framework.request import Request
from rest_framework.response import Response

from tournament import access, selectors
from tournament.access import Action
from tournament.api import SLUG_PATTERN
from tournament.models import (
    MAX_ID,
    MAX_TABLE_NUMBER,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournament.rounds import services

# --- Permissions -------------------------------------------------------------------------------


def _is_staff(context, tournament_id: int) -> bool:
    """Full names and bankers: for the tournament's staff (decided by :mod:`.access`)."""
    return access.sees_staff_data(context.get("request"), tournament_id)


# --- Serializers -------------------------------------------------------------------------------


class SeatSerializer(serializers.ModelSerializer):
    public_name = serializers.CharField(source="player.public_name", read_only=True)
    name = serializers.SerializerMethodField(help_text="Full name; organizers only (else null).")

    class Meta:
        model = Seat
        fields = ["position", "player", "public_name", "name"]
        read_only_fields = fields

    def get_name(self, seat: Seat) -> str | None:
        return seat.player.name if _is_staff(self.context, seat.player.tournament_id) else None


class TableSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    banker = serializers.SerializerMethodField(help_text="Banker's username; organizers only.")

    class Meta:
        model = Table
        fields = ["id", "round", "number", "banker", "seats"]
        read_only_fields = fields

    def get_banker(self, table: Table) -> str | None:
        if table.banker is None or not _is_staff(self.context, table.round.tournament_id):
            return None
        return table.banker.get_username()


class RoundSerializer(serializers.ModelSerializer):
    tournament = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    table_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Round
        fields = [
            "id",
            "tournament",
            "number",
            "kind",
            "status",
            "version",
            "started_at",
            "closed_at",
            "table_count",
        ]
        read_only_fields = fields


class TableQualitySerializer(TableSerializer):
    repeats = serializers.IntegerField(read_only=True, help_text="Pairs here who met before.")
    same_club = serializers.IntegerField(read_only=True, help_text="Club-mate pairs here.")

    class Meta(TableSerializer.Meta):
        fields = [*TableSerializer.Meta.fields, "repeats", "same_club"]
        read_only_fields = fields


class RoundDetailSerializer(RoundSerializer):
    repeated_pairs = serializers.IntegerField(read_only=True)
    same_club_pairs = serializers.IntegerField(read_only=True)
    tables = serializers.SerializerMethodField()

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "repeated_pairs", "same_club_pairs", "tables"]
        read_only_fields = fields

    @extend_schema_field(TableQualitySerializer(many=True))
    def get_tables(self, round_: Round) -> list[dict]:
        overview = self.context["overview"]
        rows = []
        for line in overview.tables:
            line.table.repeats = line.repeats
            line.table.same_club = line.same_club
            rows.append(line.table)
        return TableQualitySerializer(rows, many=True, context=self.context).data


def _round_detail(round_: Round, context: dict) -> dict:
    overview = selectors.seating_overview(round_)
    round_.repeated_pairs = overview.repeats
    round_.same_club_pairs = overview.same_club
    round_.table_count = len(overview.tables)
    return RoundDetailSerializer(round_, context={**context, "overview": overview}).data


class RoundCreateSerializer(serializers.Serializer):
    tournament = serializers.SlugRelatedField(
        slug_field="slug", queryset=Tournament.objects.all(), help_text="The tournament's slug."
    )
    kind = serializers.ChoiceField(choices=Round.Kind.choices, default=Round.Kind.PRELIMINARY)


def min_size_field() -> serializers.IntegerField:
    """The smallest table a seating may make, for a seating and for a move (a new field each:
    a serializer field belongs to one serializer)."""
    return serializers.IntegerField(
        min_value=2, max_value=8, required=False, allow_null=True,
        help_text="Smallest table allowed; empty: table size - 1.",
    )


class VersionSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="The round version the change is based on; refused with 409 when stale.",
    )


class SeatInputSerializer(VersionSerializer):
    seed = serializers.IntegerField(
        min_value=0, max_value=2**32 - 1, required=False, allow_null=True,
        help_text="Seed of the generator and turn order; empty: derived from the round.",
    )
    seconds = serializers.FloatField(
        min_value=0.0, max_value=30.0, default=5.0, help_text="Search time limit."
    )
    min_size = min_size_field()


class SeatOutputSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    repeated_pairs = serializers.IntegerField()
    same_club_pairs = serializers.IntegerField()
    round = RoundDetailSerializer()


class EditSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0, help_text="The round version shown to the editor; 409 when stale."
    )


class SwapInputSerializer(EditSerializer):
    a = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="Player id.")
    b = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="Player id.")


class MoveInputSerializer(EditSerializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="Player id.")
    to_table = serializers.IntegerField(
        min_value=1, max_value=MAX_TABLE_NUMBER, help_text="Table number in this round."
    )
    min_size = min_size_field()


class SeatingCountsSerializer(serializers.Serializer):
    """Repeated pairs and club-mate pairs before and after a seating change."""

    repeats_before = serializers.IntegerField()
    repeats_after = serializers.IntegerField()
    same_club_before = serializers.IntegerField()
    same_club_after = serializers.IntegerField()


class TableChangeSerializer(SeatingCountsSerializer):
    number = serializers.IntegerField()
    size_before = serializers.IntegerField()
    size_after = serializers.IntegerField()


class PreviewSerializer(SeatingCountsSerializer):
    action = serializers.CharField()
    tables = TableChangeSerializer(many=True)


ERROR = inline_serializer(
    "DomainErrorResponse",
    fields={
        "code": serializers.CharField(),
        "detail": serializers.CharField(),
        "message_de": serializers.CharField(),
        "message_en": serializers.CharField(),
    },
)
REFUSED = {
    400: OpenApiResponse(ERROR, description="Refused; the message names the rule."),
    403: OpenApiResponse(description="Organizers only."),
    409: OpenApiResponse(ERROR, description="Stale version or invalid state change."),
}

# --- Views -------------------------------------------------------------------------------------


def _step_schema(summary: str):
    """The schema of a step (lock, unlock, start): the version the client saw in, the round
    out (or the refusal)."""
    return extend_schema(
        summary=summary, request=VersionSerializer, responses={200: RoundDetailSerializer, **REFUSED}
    )


@extend_schema_view(
    list=extend_schema(
        summary="Rounds",
        parameters=[OpenApiParameter("tournament", OpenApiTypes.STR, description="Slug.")],
    ),
    retrieve=extend_schema(summary="A round with its seating and quality"),
)
class RoundViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    permission_classes = [access.ApiRule]
    access_rules = {
        "create": Action.ROUNDS,
        "seat": Action.ROUNDS,
        "swap": Action.ROUNDS,
        "swap_preview": Action.VIEW,
        "move": Action.ROUNDS,
        "move_preview": Action.VIEW,
        "lock": Action.ROUNDS,
        "unlock": Action.ROUNDS,
        "start": Action.ROUNDS,
    }
    serializer_class = RoundSerializer

    def get_queryset(self) -> QuerySet[Round]:
        rounds = Round.objects.select_related("tournament").annotate(
            table_count=Count("tables")
        )
        staffed = access.staffed_tournaments(self.request.user)
        rounds = rounds.filter(
            Q(tournament__in=staffed)
            | (Q(tournament__in=selectors.public_tournaments()) & ~Q(status=Round.Status.DRAFT))
        )
        slug = self.request.query_params.get("tournament")
        if slug:
            if not re.fullmatch(SLUG_PATTERN, slug):
                return rounds.none()  # no tournament has it (nor a NUL for PostgreSQL)
            rounds = rounds.filter(tournament__slug=slug)
        return rounds.order_by("tournament__date", "tournament__slug", "number")

    def retrieve(self, request: Request, *args, **kwargs) -> Response:
        return Response(_round_detail(self.get_object(), self.get_serializer_context()))

    def get_access_tournament(self) -> Tournament:
        """The round's tournament, found before the body is read (a stranger learns nothing
        from a 400); a new round's is the one its body names (read and checked first)."""
        if self.action == "create":
            return self._create_data()["tournament"]
        return self._round().tournament

    def _create_data(self) -> dict:
        if not hasattr(self, "_new_round"):
            self._new_round = validated(RoundCreateSerializer, self.request)
        return self._new_round

    def _round(self) -> Round:
        if not hasattr(self, "_the_round"):
            self._the_round = get_object_or_404(
                Round.objects.select_related("tournament"), pk=self.kwargs["pk"]
            )
        return self._the_round

    def _detail(self, round_: Round, code: int = status.HTTP_200_OK) -> Response:
        round_.refresh_from_db()
        return Response(_round_detail(round_, self.get_serializer_context()), status=code)

    def _step(self, request: Request, service) -> Response:
        """Lock, unlock or start: the round one step on, at the version the client saw."""
        data = validated(VersionSerializer, request)
        return self._detail(service(round_=self._round(), version=data.get("version")))

    @extend_schema(
        summary="Create the next round (draft)",
        request=RoundCreateSerializer,
        responses={201: RoundDetailSerializer, **REFUSED},
    )
    def create(self, request: Request, *args, **kwargs) -> Response:
        data = self._create_data()
        round_ = services.create_round(tournament=data["tournament"], kind=data["kind"])
        return self._detail(round_, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Seat (or re-seat) the round with the generator",
        request=SeatInputSerializer,
        responses={200: SeatOutputSerializer, **REFUSED},
    )
    @action(detail=True, methods=["post"])
    def seat(self, request: Request, pk=None) -> Response:
        data = validated(SeatInputSerializer, request)
        outcome = services.seat_round(
            round_=self._round(),
            version=data.get("version"),
            seed=data.get("seed"),
            seconds=data["seconds"],
            min_size=data.get("min_size"),
        )
        return Response(
            {
                "seed": outcome.seed,
                "repeated_pairs": outcome.repeated_pairs,
                "same_club_pairs": outcome.same_club_pairs,
                "round": _round_detail(outcome.round, self.get_serializer_context()),
            }
        )

    @extend_schema(
        summary="Swap two players' seats",
        request=SwapInputSerializer,
        responses={200: RoundDetailSerializer, **REFUSED},
    )
    @action(detail=True, methods=["post"])
    def swap(self, request: Request, pk=None) -> Response:
        data = validated(SwapInputSerializer, request)
        round_ = self._round()
        services.swap_players(round_=round_, a=data["a"], b=data["b"], version=data["version"])
        return self._detail(round_)

    @extend_schema(
        summary="Preview a swap: the repeat/club counts if it were saved (saves nothing)",
        request=SwapInputSerializer,
        responses={200: PreviewSerializer, **REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="swap/preview")
    def swap_preview(self, request: Request, pk=None) -> Response:
        data = validated(SwapInputSerializer, request)
        overview = _fresh_overview(self._round(), data["version"])
        preview = selectors.preview_swap(overview, a=data["a"], b=data["b"])
        return Response(PreviewSerializer(preview).data)

    @extend_schema(
        summary="Move one player to another table",
        request=MoveInputSerializer,
        responses={200: RoundDetailSerializer, **REFUSED},
    )
    @action(detail=True, methods=["post"])
    def move(self, request: Request, pk=None) -> Response:
        data = validated(MoveInputSerializer, request)
        round_ = self._round()
        services.move_player(
            round_=round_,
            player=data["player"],
            to_table=data["to_table"],
            version=data["version"],
            min_size=data.get("min_size"),
        )
        return self._detail(round_)

    @extend_schema(
        summary="Preview a move: the repeat/club counts if it were saved (saves nothing)",
        request=MoveInputSerializer,
        responses={200: PreviewSerializer, **REFUSED},
    )
    @action(detail=True, methods=["post"], url_path="move/preview")
    def move_preview(self, request: Request, pk=None) -> Response:
        data = validated(MoveInputSerializer, request)
        overview = _fresh_overview(self._round(), data["version"])
        preview = selectors.preview_move(
            overview,
            player=data["player"],
            to_table=data["to_table"],
            min_size=data.get("min_size"),
        )
        return Response(PreviewSerializer(preview).data)

    @_step_schema("Lock the seating")
    @action(detail=True, methods=["post"])
    def lock(self, request: Request, pk=None) -> Response:
        return self._step(request, services.lock_round)

    @_step_schema("Unlock a locked seating that has not started")
    @action(detail=True, methods=["post"])
    def unlock(self, request: Request, pk=None) -> Response:
        return self._step(request, services.unlock_round)

    @_step_schema("Start the round (the tournament must be running)")
    @action(detail=True, methods=["post"])
    def start(self, request: Request, pk=None) -> Response:
        return self._step(request, services.start_round)


def validated(serializer_class, request: Request) -> dict:
    """The request's data, checked by the serializer (a 400 naming the fields if not)."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _fresh_overview(round_: Round, version: int):
    """The seating for a preview, refused like a save when the version is stale."""
    from tournament import errors

    if version != round_.version:
        raise errors.StaleVersion(
            errors.STALE_VERSION,
            params={"number": round_.number, "yours": version, "current": round_.version},
        )
    return selectors.seating_overview(round_)


def register(router) -> None:
    router.register("rounds", RoundViewSet, basename="round")
