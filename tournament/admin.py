from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from .models import (
    BankerLink,
    Club,
    Incident,
    Player,
    Round,
    Seat,
    StaffRole,
    Table,
    Tournament,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "short_name", "member_count"]
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


# The admin sees every tournament at once, so it is for superusers only (the one global role);
# everyone else works on the tournament pages, where tournament.access decides.
admin.site.has_permission = lambda request: bool(
    request.user.is_active and request.user.is_superuser
)
