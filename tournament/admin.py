from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournament.models import (
    BankerLink,
    Club,
    Incident,
    Player,
    Round,
    Seat,
    Signup,
    SignupMail,
    SignupSettings,
    StaffRole,
    Table,
    Tournament,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "short_name", "tournament", "member_count"]
    list_filter = ["tournament"]
    search_fields = ["name", "short_name"]

    @admin.display(description=_("players"))
    def member_count(self, obj: Club) -> int:
        return obj.players.count()


class RoundInline(admin.TabularInline):
    model = Round
    extra = 0
    fields = ["number", "kind", "status", "started_at"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "date", "venue", "status", "ruleset", "board", "table_size"]
    list_filter = ["status", "ruleset", "date"]
    search_fields = ["name", "slug", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "date"
    inlines = [RoundInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = [
        "name",
        "club",
        "tournament",
        "public_name_consent",
        "checked_in",
        "dropped_out",
    ]
    list_filter = ["tournament", "checked_in", "dropped_out", "public_name_consent", "club"]
    list_editable = ["checked_in"]
    search_fields = ["name", "email", "club__name"]
    list_select_related = ["club", "tournament"]
    autocomplete_fields = ["club"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    fields = ["number", "banker"]
    autocomplete_fields = ["banker"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "kind", "status", "started_at"]
    list_filter = ["tournament", "kind", "status"]
    search_fields = ["tournament__name"]
    list_select_related = ["tournament"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["position", "player"]
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["__str__", "number", "round", "banker"]
    list_filter = ["round__tournament", "round"]
    search_fields = ["round__tournament__name", "banker__username", "seats__player__name"]
    list_select_related = ["round__tournament", "banker"]
    autocomplete_fields = ["banker"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["player", "table", "position", "round"]
    list_filter = ["round__tournament", "round"]
    search_fields = ["player__name", "player__club__name"]
    list_select_related = ["player", "table__round__tournament", "round__tournament"]
    autocomplete_fields = ["player"]


@admin.register(BankerLink)
class BankerLinkAdmin(admin.ModelAdmin):
    list_display = ["table", "banker", "created_at", "revoked_at"]
    list_filter = ["table__round__tournament", "revoked_at"]
    search_fields = ["banker__username", "table__round__tournament__name"]
    list_select_related = ["table__round__tournament", "banker"]


@admin.register(Incident)
class IncidentAdmin(admin.ModelAdmin):
    list_display = ["player", "level", "points", "tournament", "recorded_by", "recorded_at"]
    list_filter = ["level", "tournament"]
    search_fields = ["player__name", "note"]


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "tournament", "created_at"]
    list_filter = ["role", "tournament"]
    search_fields = ["user__username", "tournament__name"]
    autocomplete_fields = ["user"]


@admin.register(SignupSettings)
class SignupSettingsAdmin(admin.ModelAdmin):
    list_display = ["tournament", "is_open", "opens_at", "closes_at", "capacity", "waiting_list"]
    list_select_related = ["tournament"]
    search_fields = ["tournament__name", "tournament__slug"]


@admin.register(Signup)
class SignupAdmin(admin.ModelAdmin):
    """Read mostly: the pages change sign-ups through the services (places, waiting list)."""

    list_display = ["name", "email", "tournament", "status", "created_at", "confirmed_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["name", "email"]
    list_select_related = ["tournament"]
    readonly_fields = ["email_key", "token", "player", "status", "created_at", "confirmed_at",
                       "waiting_since", "withdrawn_at"]


@admin.register(SignupMail)
class SignupMailAdmin(admin.ModelAdmin):
    list_display = ["to", "subject", "kind", "status", "attempts", "created_at", "sent_at"]
    list_filter = ["status", "kind", "tournament"]
    search_fields = ["to", "subject"]
    list_select_related = ["tournament"]
    readonly_fields = ["tournament", "signup", "kind", "to", "language", "subject", "body",
                       "status", "attempts", "error", "created_at", "sent_at"]
