"""What every model of the tournament app shares: the columns' limits, who did something to a
row, and the tournament a row belongs to."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: The largest id (BigAutoField) and table number (PositiveSmallIntegerField) the columns hold:
#: forms and serializers refuse larger ones (a lookup with one is an error on SQLite).
MAX_ID = 2**63 - 1
MAX_TABLE_NUMBER = 32767


def account_reference(verbose_name, **options) -> models.ForeignKey:
    """Who did something to a row (counted, confirmed, recorded …): the row outlives the
    account, and the account keeps no reverse accessor."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=verbose_name,
        **options,
    )


def tournament_reference(related_name: str) -> models.ForeignKey:
    """The tournament a row belongs to: the row goes with it (deleting a tournament deletes
    its players, rounds, staff roles …)."""
    return models.ForeignKey(
        "tournament.Tournament",
        on_delete=models.CASCADE,
        related_name=related_name,
        verbose_name=_("tournament"),
    )


class InTournament:
    """A row of one tournament: its audit log entries name that tournament
    (``tournament.audit`` reads ``get_additional_data()``). ``tournament_path`` is the path of
    attributes from the row to the tournament's id."""

    tournament_path = "tournament_id"

    def get_additional_data(self) -> dict:
        value = self
        for name in self.tournament_path.split("."):
            value = getattr(value, name)
        return {"tournament": value}
