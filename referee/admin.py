from django.contrib import admin

from referee.models import (
    Game,
    GameEvent,
    GameResult,
    Placement,
)


class GameEventInline(admin.TabularInline):
    model = GameEvent
    extra = 0
    can_delete = False
    fields = ["seq", "type", "data", "author", "recorded_at", "game_seconds"]
    readonly_fields = fields
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False  # the log is append-only; corrections are void events


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["table", "status", "end_reason", "event_count", "started_at", "ruleset"]
    list_filter = ["status", "ruleset", "table__round__tournament"]
    search_fields = ["table__round__tournament__name", "table__seats__player__name"]
    list_select_related = ["table__round__tournament"]
    readonly_fields = ["event_count", "players", "started_at", "paused_at", "paused_seconds",
                       "auction_stop_due", "time_up_due", "ended_at", "last_event_at"]
    inlines = [GameEventInline]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "type", "author", "recorded_at"]
    list_filter = ["type", "game__table__round__tournament"]
    search_fields = ["type", "idempotency_key", "game__table__round__tournament__name"]
    list_select_related = ["game__table__round__tournament", "author"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


class PlacementInline(admin.TabularInline):
    model = Placement
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(GameResult)
class GameResultAdmin(admin.ModelAdmin):
    list_display = ["game", "status", "counted_at", "confirmed_at", "confirmed_via"]
    list_filter = ["status", "game__table__round__tournament"]
    search_fields = ["game__table__round__tournament__name", "dispute_note"]
    list_select_related = ["game__table__round__tournament"]
    inlines = [PlacementInline]


@admin.register(Placement)
class PlacementAdmin(admin.ModelAdmin):
    list_display = ["player", "place", "net_worth", "bankrupt", "result"]
    list_filter = ["result__game__table__round__tournament", "place", "bankrupt"]
    search_fields = ["player__name"]
    list_select_related = ["player", "result__game__table__round__tournament"]
