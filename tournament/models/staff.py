"""Who has which role in a tournament, and the incidents (penalties) recorded against players."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.base import InTournament, account_reference, tournament_reference
from tournament.models.players import Player


class StaffRole(InTournament, models.Model):
    """A person's authority in one tournament; only a superuser reaches every tournament.

    A person may hold several roles in one tournament (an organizer who is also head referee).
    The banker role puts an account on the tournament's banker list; the table it banks in a
    round is ``Table.banker``.
    """

    class Role(models.TextChoices):
        ORGANIZER = "organizer", _("Organizer")
        DESK = "desk", _("Desk")
        HEAD_REFEREE = "head_referee", _("Head referee")
        BANKER = "banker", _("Banker")

    tournament = tournament_reference("staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="staff_roles",
        verbose_name=_("account"),
    )
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(_("appointed"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "role", "user__username"]
        verbose_name = _("staff role")
        verbose_name_plural = _("staff roles")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user", "role"], name="staff_role_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_role_display()} ({self.tournament})"


class Incident(InTournament, models.Model):
    """A head referee's ruling on a player's conduct (lending money, rent deals, …).

    Levels escalate: note → warning → point deduction → disqualification. Deductions are
    subtracted in the standings; a disqualification also drops the player out.
    """

    class Level(models.TextChoices):
        NOTE = "note", _("Note")
        WARNING = "warning", _("Warning")
        DEDUCTION = "deduction", _("Point deduction")
        DISQUALIFICATION = "disqualification", _("Disqualification")

    tournament = tournament_reference("incidents")
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="incidents", verbose_name=_("player")
    )
    level = models.CharField(_("level"), max_length=20, choices=Level.choices)
    points = models.PositiveSmallIntegerField(_("points deducted"), default=0)
    round_number = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    note = models.TextField(_("what happened"))
    recorded_by = account_reference(_("recorded by"))
    recorded_at = models.DateTimeField(_("recorded"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "player", "recorded_at"]
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")

    def __str__(self) -> str:
        return f"{self.player}: {self.get_level_display()}"
