"""Stored standings: recomputed only when a result changes, read cheaply by every spectator."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class Scope(models.TextChoices):
    LIVE = "live", _("Live (organizers)")
    PUBLIC = "public", _("Public")


class StandingsVersion(models.Model):
    """One per tournament and scope: what the stored rows were computed from."""

    tournament = models.ForeignKey(
        "tournament.Tournament",
        on_delete=models.CASCADE,
        related_name="standings_versions",
        verbose_name=_("tournament"),
    )
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
    tournament = models.ForeignKey(
        "tournament.Tournament",
        on_delete=models.CASCADE,
        related_name="standing_rows",
        verbose_name=_("tournament"),
    )
    scope = models.CharField(_("scope"), max_length=10, choices=Scope.choices)
    player = models.ForeignKey(
        "tournament.Player",
        on_delete=models.CASCADE,
        related_name="standing_rows",
        verbose_name=_("player"),
    )
    rank = models.PositiveIntegerField(_("rank"))
    position = models.PositiveIntegerField(_("position"), help_text=_("Order of the list."))
    points = models.IntegerField(_("points"), default=0)
    net_worth_sum = models.IntegerField(_("summed net worth"), default=0)
    best_net_worth = models.IntegerField(_("best net worth"), default=0)
    table_wins = models.PositiveIntegerField(_("table wins"), default=0)
    games = models.PositiveIntegerField(_("games"), default=0)
    rounds = models.JSONField(_("per round"), default=dict)
    decided_by = models.CharField(_("decided by"), max_length=20, blank=True)
    qualified = models.BooleanField(_("qualified"), default=False)
    final_place = models.PositiveSmallIntegerField(_("place in the final"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "scope", "position"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "scope", "player"], name="standing_player_once"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "scope", "position"])]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player}"
