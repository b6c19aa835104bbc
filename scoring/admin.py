from django.contrib import admin

from scoring.models import HallScreen, StandingRow, StandingsVersion


@admin.register(StandingsVersion)
class StandingsVersionAdmin(admin.ModelAdmin):
    list_display = ["tournament", "scope", "version", "through_round", "computed_at"]
    list_filter = ["scope", "tournament"]
    search_fields = ["tournament__name", "tournament__slug"]
    list_select_related = ["tournament"]


@admin.register(StandingRow)
class StandingRowAdmin(admin.ModelAdmin):
    """The stored figures; the places are derived on read (the public pages show them)."""

    list_display = ["player", "points", "net_worth_sum", "games", "final_place", "scope",
                    "tournament"]
    list_filter = ["tournament", "scope"]
    ordering = ["tournament", "scope", "-points", "-net_worth_sum"]
    search_fields = ["player__name", "player__club__name"]
    list_select_related = ["player", "tournament"]


@admin.register(HallScreen)
class HallScreenAdmin(admin.ModelAdmin):
    list_display = ["name", "key", "mode", "tournament", "changed_at"]
    list_filter = ["tournament", "mode"]
    search_fields = ["name", "key", "tournament__name"]
    list_select_related = ["tournament"]
