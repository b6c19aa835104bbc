"""REST API of tables and their bankers: a table with its seats, the banker assigned to it,
its private banker link.

Reads are public for tables of public tournaments' started rounds and show public names only
(organizers also get full names and bankers); writes are for organizers (staff). Banker link
tokens are only ever shown to organizers.
"""

from __future__ import annotations

import re

from django.db.models import Prefetch, Q, QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404  # DRF's: /tables/null/ is a 404, not a 500
from rest_framework.request import Request
from rest_framework.response import Response

from tournament import access, banker_links, selectors
from tournament.access import Action
from tournament.models import BankerLink, Round, Seat, Table, Tournament
from tournament.rounds import services
from tournament.rounds.api import REFUSED, TableSerializer, validated

# --- Serializers -------------------------------------------------------------------------------


class AssignBankerSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150, allow_null=True, help_text="The banker's username; null: no banker."
    )
    create = serializers.BooleanField(
        default=False, help_text="Create a banker user with this username if there is none."
    )


class BankerLinkSerializer(serializers.ModelSerializer):
    banker = serializers.SlugRelatedField(slug_field="username", read_only=True)
    token = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField(help_text="Absolute URL of the private link.")

    class Meta:
        model = BankerLink
        fields = ["table", "banker", "created_at", "revoked_at", "token", "url"]
        read_only_fields = fields

    def get_token(self, link: BankerLink) -> str:
        return banker_links.make_token(link)

    def get_url(self, link: BankerLink) -> str:
        return self.context["request"].build_absolute_uri(banker_links.link_path(link))


# --- Views -------------------------------------------------------------------------------------


@extend_schema_view(
    list=extend_schema(
        summary="Tables with their seats",
        parameters=[OpenApiParameter("round", OpenApiTypes.INT, description="Round id.")],
    ),
    retrieve=extend_schema(summary="A table with its seats"),
)
class TableViewSet(viewsets.ReadOnlyModelViewSet):
    permission_classes = [access.ApiRule]
    access_rules = {"banker": Action.BANKERS, "link": Action.BANKERS}
    serializer_class = TableSerializer

    def get_queryset(self) -> QuerySet[Table]:
        seats = Seat.objects.select_related("player__club").order_by("position")
        tables = Table.objects.select_related("banker", "round").prefetch_related(
            Prefetch("seats", queryset=seats)
        )
        staffed = access.staffed_tournaments(self.request.user)
        tables = tables.filter(
            Q(round__tournament__in=staffed)
            | (
                Q(round__tournament__in=selectors.public_tournaments())
                & ~Q(round__status=Round.Status.DRAFT)
            )
        )
        round_id = self.request.query_params.get("round")
        if round_id:
            if not re.fullmatch(r"[0-9]{1,18}", round_id):  # isdigit() takes "²", int() not
                return tables.none()
            tables = tables.filter(round_id=int(round_id))
        return tables.order_by("round_id", "number")

    def get_access_tournament(self) -> Tournament:
        return self._table().round.tournament

    def _table(self) -> Table:
        if not hasattr(self, "_the_table"):
            self._the_table = get_object_or_404(
                Table.objects.select_related("round__tournament"), pk=self.kwargs["pk"]
            )
        return self._the_table

    @extend_schema(
        summary="Assign (or re-assign, or clear) the table's banker",
        description=(
            "A change of banker revokes the table's live link and issues a new one. "
            "The username is one of the tournament's bankers; with create=true a new one "
            "becomes a new banker user (a name taken outside the tournament is refused: "
            "appoint that account on the staff page)."
        ),
        request=AssignBankerSerializer,
        responses={200: TableSerializer, **REFUSED},
    )
    @action(detail=True, methods=["post"])
    def banker(self, request: Request, pk=None) -> Response:
        data = validated(AssignBankerSerializer, request)
        table = self._table()
        username = data["username"]
        banker = None
        if username is not None:
            banker = services.banker_by_name(
                tournament=table.round.tournament, username=username, create=data["create"]
            )
        services.assign_banker(table=table, banker=banker)
        table = self.get_queryset().get(pk=table.pk)
        return Response(self.get_serializer(table).data)

    @extend_schema(
        methods=["GET"],
        summary="The table's live private banker link (organizers only)",
        request=None,
        responses={200: BankerLinkSerializer, 404: OpenApiResponse(description="No live link.")},
    )
    @extend_schema(
        methods=["POST"],
        summary="Issue a new private banker link (revokes the live one)",
        request=None,
        responses={201: BankerLinkSerializer},
    )
    @extend_schema(
        methods=["DELETE"],
        summary="Revoke the table's live link",
        request=None,
        responses={204: None},
    )
    @action(detail=True, methods=["get", "post", "delete"])
    def link(self, request: Request, pk=None) -> Response:
        table = self._table()
        if request.method == "POST":
            link = services.issue_link(table=table)
            data = BankerLinkSerializer(link, context=self.get_serializer_context()).data
            return Response(data, status=status.HTTP_201_CREATED)
        if request.method == "DELETE":
            services.revoke_link(table=table)
            return Response(status=status.HTTP_204_NO_CONTENT)
        link = banker_links.live_link(table)
        if link is None:
            return Response({"detail": "No live link."}, status=status.HTTP_404_NOT_FOUND)
        return Response(BankerLinkSerializer(link, context=self.get_serializer_context()).data)


def register(router) -> None:
    router.register("tables", TableViewSet, basename="table")
