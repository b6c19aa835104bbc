"""API shapes. Serializers check the shape of input; services decide what is allowed."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from tournament import tournaments
from tournament.models import Player, Tournament

# --------------------------------------------------------------------------- tournaments


class TournamentSerializer(serializers.ModelSerializer):
    """A tournament as everyone sees it (drafts are only shown to organizers)."""

    status_label = serializers.CharField(source="get_status_display", read_only=True)
    winner = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "slug", "name", "date", "venue", "status", "status_label",
            # every setting, in the settings page's order
            *(f for f in tournaments.SETTINGS_FIELDS if f not in ("name", "slug", "date", "venue")),
            "winner",
        ]
        read_only_fields = fields

    def get_winner(self, tournament: Tournament) -> str | None:
        """The winner's public name (initials and club without consent)."""
        return tournament.winner.public_name if tournament.winner_id else None


class TournamentWriteSerializer(serializers.Serializer):
    """Settings of a new or changed tournament; omitted settings keep their value."""

    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=60)
    date = serializers.DateField()
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    ruleset = serializers.ChoiceField(choices=[], required=False)
    board = serializers.ChoiceField(choices=[], required=False)
    table_size = serializers.IntegerField(min_value=2, max_value=8, required=False)
    preliminary_rounds = serializers.IntegerField(min_value=0, required=False)
    format = serializers.ChoiceField(choices=Tournament.Format.choices, required=False)
    final_decides = serializers.BooleanField(required=False)
    placement_points = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text=_("Points for 1st, 2nd, … place at a table, e.g. [6, 5, 4, 3, 2, 1]."),
    )
    tie_breaks = serializers.ListField(
        child=serializers.ChoiceField(choices=Tournament.TieBreak.choices),
        required=False,
        help_text=_("Applied in order; each key at most once."),
    )
    finalists = serializers.IntegerField(min_value=0, required=False)
    time_limit_minutes = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text=_("Empty: the ruleset's.")
    )
    auction_stop_minutes = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text=_("Empty: the ruleset's.")
    )
    time_limit_mode = serializers.ChoiceField(
        choices=Tournament.TimeLimitMode.choices,
        required=False,
        allow_blank=True,
        help_text=_("Empty: as the ruleset says."),
    )
    results_public_immediately = serializers.BooleanField(required=False)
    strict_cash = serializers.BooleanField(required=False)
    public_base_url = serializers.CharField(max_length=200, required=False, allow_blank=True)
    retention_months = serializers.IntegerField(
        min_value=1, max_value=240, required=False, allow_null=True,
        help_text=_("Months after the tournament day when its players are anonymized."),
    )
    search_engines_may_index = serializers.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The engine's registries, read when the serializer is used (not at import).
        self.fields["ruleset"].choices = tournaments.ruleset_choices()
        self.fields["board"].choices = tournaments.board_choices()


class TransitionSerializer(serializers.Serializer):
    status = serializers.ChoiceField(
        choices=Tournament.Status.choices, help_text=_("The status to move the tournament to.")
    )


# --------------------------------------------------------------------------- players


class PlayerSerializer(serializers.ModelSerializer):
    """A player as organizers see it: everything, including e-mail and the private note."""

    club = serializers.CharField(source="club.name", default="", read_only=True)
    public_name = serializers.CharField(read_only=True)

    class Meta:
        model = Player
        fields = [
            "id",
            "name",
            "public_name",
            "club",
            "email",
            "public_name_consent",
            "checked_in",
            "dropped_out",
            "dropped_out_at",
            "private_note",
            "created_at",
        ]
        read_only_fields = fields


class PublicPlayerSerializer(serializers.ModelSerializer):
    """A player as the public sees it: the public name only (initials + club without consent)."""

    public_name = serializers.CharField(read_only=True)
    club = serializers.CharField(source="club.label", default="", read_only=True)

    class Meta:
        model = Player
        fields = ["id", "public_name", "club", "checked_in", "dropped_out"]
        read_only_fields = fields


class PlayerWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    club = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text=_("Club or family, by name or short name; created when unknown."),
    )
    email = serializers.CharField(max_length=254, required=False, allow_blank=True)
    public_name_consent = serializers.BooleanField(required=False, default=False)
    private_note = serializers.CharField(required=False, allow_blank=True)
    checked_in = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text=_("Only when adding. Empty: checked in when the tournament is running."),
    )


class CsvUploadSerializer(serializers.Serializer):
    file = serializers.FileField(
        help_text=_(
            "CSV with a header row: name, club, e-mail, consent (German names accepted); "
            "comma or semicolon; UTF-8 or Windows-1252."
        )
    )


class ImportResultSerializer(serializers.Serializer):
    created = serializers.IntegerField()
    clubs_created = serializers.ListField(child=serializers.CharField())
    encoding = serializers.CharField()
    delimiter = serializers.CharField()
    players = PlayerSerializer(many=True)
    warnings = serializers.ListField(
        child=serializers.DictField(),
        help_text=_("Saved, but to check: line, code, message_de, message_en (no consent "
                    "column; a name that looks like another one)."),
    )


# --------------------------------------------------------------------------- errors (docs)


class MessageSerializer(serializers.Serializer):
    """A stable code and the message in both languages."""

    code = serializers.CharField()
    message_de = serializers.CharField()
    message_en = serializers.CharField()


class DomainErrorSerializer(MessageSerializer):
    """Every refused request: a stable code and the message in both languages."""

    detail = serializers.CharField()


class LineErrorSerializer(MessageSerializer):
    line = serializers.IntegerField()


class CsvImportErrorSerializer(DomainErrorSerializer):
    errors = LineErrorSerializer(many=True)


class SettingProblemSerializer(MessageSerializer):
    field = serializers.CharField()


class SettingsErrorSerializer(DomainErrorSerializer):
    errors = SettingProblemSerializer(many=True, required=False)
