"""Players, with the personal codes on their cards."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models.functions import Length, Lower
from django.db.models.lookups import LessThanOrEqual
from django.utils.translation import gettext_lazy as _

from tournament.models.base import InTournament, tournament_reference
from tournament.models.tournament import Club
from tournament.names import initials as name_initials

#: A player's personal code: letters and digits nobody confuses (no 0/O, 1/I/L), 8 of them:
#: 31^8 ≈ 8.5·10^11 codes, so a guess finds nobody. Printed as "KM7Q-4XPZ".
PASS_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
PASS_CODE_LENGTH = 8


#: Characters of a player's private note: like an incident's note (``config.inputs.NOTE_MAX``).
PRIVATE_NOTE_MAX = 2000


def new_pass_code() -> str:
    return "".join(secrets.choice(PASS_CODE_ALPHABET) for _ in range(PASS_CODE_LENGTH))


class Player(InTournament, models.Model):
    tournament = tournament_reference("players")
    name = models.CharField(_("name"), max_length=120)
    club = models.ForeignKey(
        Club,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("club"),
    )
    email = models.EmailField(_("e-mail"), blank=True)
    public_name_consent = models.BooleanField(
        _("name may be shown publicly"),
        default=False,
        help_text=_("Without consent the public sees initials and club only."),
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    alternate_rank = models.PositiveSmallIntegerField(
        _("alternate (rank)"),
        null=True,
        blank=True,
        help_text=_(
            "A standby, not seated: replaces a no-show before a round starts, the best-ranked "
            "first."
        ),
    )
    dropped_out = models.BooleanField(_("dropped out"), default=False)
    dropped_out_at = models.DateTimeField(_("dropped out at"), null=True, blank=True)
    private_note = models.TextField(
        _("private note"), blank=True, max_length=PRIVATE_NOTE_MAX,
        help_text=_("Only organizers see this; never public."),
    )
    pass_code = models.CharField(
        _("personal code"), max_length=PASS_CODE_LENGTH, unique=True, default=new_pass_code,
        editable=False,
        help_text=_("Opens the player's own page (where to sit, results) without a login. "
                    "A new code makes the old one (and its printed card) useless."),
    )
    erased_at = models.DateTimeField(
        _("anonymized"),
        null=True,
        blank=True,
        help_text=_("Name, club, e-mail and note were replaced by a pseudonym (on request or "
                    "after the retention period); the results stay."),
    )
    created_at = models.DateTimeField(_("registered"), auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                "tournament", Lower("name"), name="player_name_unique_per_tournament"
            ),
            models.UniqueConstraint(
                fields=["tournament", "alternate_rank"],
                condition=models.Q(alternate_rank__isnull=False),
                name="player_alternate_rank_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(alternate_rank__isnull=True) | models.Q(alternate_rank__gte=1),
                name="player_alternate_rank_gte_1",
            ),
            models.CheckConstraint(
                condition=LessThanOrEqual(Length("private_note"), PRIVATE_NOTE_MAX),
                name="player_private_note_bounded",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "checked_in", "dropped_out"])]

    def __str__(self) -> str:
        return self.name

    @property
    def initials(self) -> str:
        return name_initials(self.name)

    @property
    def public_name(self) -> str:
        """What spectators see: the name with consent, else initials and club."""
        if self.public_name_consent:
            return self.name
        club = self.club.label if self.club_id and self.club else ""
        return f"{self.initials} ({club})" if club else self.initials
