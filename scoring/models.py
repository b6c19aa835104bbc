"""Stored standings: recomputed only when a result changes, read cheaply by every spectator."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import tournament_reference


class Scope(models.TextChoices):
    LIVE = "live", _("Live (organizers)")
    PUBLIC = "public", _("Public")


class StandingsVersion(models.Model):
    """One per tournament and scope: what the stored rows were computed from."""

    tournament = tournament_reference("standings_versions")
    scope = models.CharField(_("scope"), max_length=10, choices=Scope.choices)
    version = models.PositiveIntegerField(_("version"), default=0)
    signature = models.CharField(_("input signature"), max_length=64, blank=True)
    through_round = models.PositiveSmallIntegerField(_("rounds included"), default=0)
    computed_at = models.DateTimeField(_("computed"), auto_now=True)

    class Meta:
        verbose_name = _("standings version")
        verbose_name_plural = _("standings versions")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "scope"], name="standings_version_once"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} {self.scope} v{self.version}"


class StandingRow(models.Model):
    """A player's figures in one scope. Their order, place, deciding key and qualification
    are derived on read (``scoring.standings.selectors``): they shift with every result above
    a player, the figures do not, so a confirmation writes only the rows it changes."""

    tournament = tournament_reference("standing_rows")
    scope = models.CharField(_("scope"), max_length=10, choices=Scope.choices)
    player = models.ForeignKey(
        "tournament.Player",
        on_delete=models.CASCADE,
        related_name="standing_rows",
        verbose_name=_("player"),
    )
    points = models.IntegerField(_("points"), default=0)
    net_worth_sum = models.BigIntegerField(_("summed net worth"), default=0)
    best_net_worth = models.BigIntegerField(_("best net worth"), default=0)
    table_wins = models.PositiveIntegerField(_("table wins"), default=0)
    games = models.PositiveIntegerField(_("games"), default=0)
    rounds = models.JSONField(_("per round"), default=dict)
    final_place = models.PositiveSmallIntegerField(_("place in the final"), null=True, blank=True)
    deducted = models.PositiveIntegerField(
        _("points deducted"), default=0, help_text=_("Penalties by the head referee.")
    )
    tie_order = models.PositiveIntegerField(
        _("order among equals"), default=0,
        help_text=_("0 unless head-to-head reorders the players equal on the figures "
                    "before it."),
    )
    tie_break = models.CharField(
        _("tie decided by"), max_length=20, blank=True,
        help_text=_("What puts the player below the one before among equals."),
    )

    class Meta:
        ordering = ["tournament", "scope", "player"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "scope", "player"], name="standing_player_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.points}"


class HallScreen(models.Model):
    """A screen in the hall (a TV or projector in kiosk mode at ``/t/<slug>/hall/<key>/``): what
    it shows is chosen at the desk and followed within seconds, no one touches the screen."""

    class Mode(models.TextChoices):
        AUTO = "auto", _("Automatic (seating list before a round, clock while it runs, "
                         "standings between rounds)")
        SEATING = "seating", _("Seating list: name → table")
        CLOCK = "clock", _("Round clock and table states")
        STANDINGS = "standings", _("Standings and the qualification line")

    tournament = tournament_reference("hall_screens")
    name = models.CharField(_("name"), max_length=40)
    key = models.SlugField(_("address"), max_length=40)
    mode = models.CharField(_("shows"), max_length=12, choices=Mode.choices, default=Mode.AUTO)
    changed_at = models.DateTimeField(_("changed"), auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("hall screen")
        verbose_name_plural = _("hall screens")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "key"], name="hall_screen_key_once"),
            models.CheckConstraint(condition=models.Q(mode__in=["auto", "seating", "clock",
                                                                "standings"]),
                                   name="hall_screen_mode_known"),
        ]

    def __str__(self) -> str:
        return self.name
