"""Rounds, their tables and seats, and the bankers' private links to a table."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models.base import InTournament, tournament_reference
from tournament.models.players import Player


def _numbered_within(parent: str, *, name: str) -> list[models.BaseConstraint]:
    """``number`` counts from 1 and is unique within ``parent`` (a tournament's rounds, a
    round's tables); ``name`` prefixes the constraints' names."""
    return [
        models.UniqueConstraint(fields=[parent, "number"], name=f"{name}_number_unique"),
        models.CheckConstraint(condition=models.Q(number__gte=1), name=f"{name}_number_gte_1"),
    ]


class Round(InTournament, models.Model):
    class Kind(models.TextChoices):
        PRELIMINARY = "preliminary", _("Preliminary round")
        FINAL = "final", _("Final")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        SEATED = "seated", _("Seated")
        LOCKED = "locked", _("Seating locked")
        RUNNING = "running", _("Running")
        COMPLETE = "complete", _("Complete")

    tournament = tournament_reference("rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    kind = models.CharField(
        _("kind"), max_length=20, choices=Kind.choices, default=Kind.PRELIMINARY
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    version = models.PositiveIntegerField(
        _("seating version"),
        default=0,
        help_text=_("Raised by every seating change: a save based on an older version is refused."),
    )

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = _numbered_within("tournament", name="round")

    def __str__(self) -> str:
        return f"{self.tournament} – {self.get_kind_display()} {self.number}"


class Table(InTournament, models.Model):
    """One table of a round: up to six players and a banker who does not play."""

    tournament_path = "round.tournament_id"

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table number"))
    banker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="banked_tables",
        verbose_name=_("banker"),
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = _numbered_within("round", name="table")

    def __str__(self) -> str:
        return f"{self.round} – {_('Table')} {self.number}"


class Seat(InTournament, models.Model):
    """A player's place at a table; ``position`` is the turn order (1 starts)."""

    tournament_path = "round.tournament_id"

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            # A player sits at one table per round; a seat holds one player.
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.position}. {self.player}"


class BankerLink(InTournament, models.Model):
    """A private, table-bound, revocable link that opens a table's console without a password.

    The URL carries a signed token naming the table and this link's nonce; revoking sets
    ``revoked_at`` and the link stops working at once.
    """

    tournament_path = "table.round.tournament_id"

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="banker_links", verbose_name=_("table")
    )
    banker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="banker_links",
        verbose_name=_("banker"),
    )
    nonce = models.CharField(_("nonce"), max_length=32, unique=True)
    # The previous round's link of the same banker at the same table number: its printed card
    # keeps working for this table (a new card prints only where something changed).
    carried_from = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="carried_to",
        verbose_name=_("carried over from"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("banker link")
        verbose_name_plural = _("banker links")
        constraints = [
            # At most one live link per table: issuing a new one revokes the old.
            models.UniqueConstraint(
                fields=["table"],
                condition=models.Q(revoked_at__isnull=True),
                name="banker_link_one_live_per_table",
            ),
        ]

    def __str__(self) -> str:
        state = _("revoked") if self.revoked_at else _("live")
        return f"{self.table} ({state})"

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None
