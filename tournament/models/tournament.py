"""The tournament and its settings (formats, time-limit modes, tie-breaks), and its clubs."""

from __future__ import annotations

from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournament.models.base import InTournament, tournament_reference


class Club(InTournament, models.Model):
    """A club or family: its members are kept apart when seating. Each tournament has its own
    (a family's name is personal data: one tournament's desk never sees another's clubs)."""

    tournament = tournament_reference("clubs")
    name = models.CharField(_("name"), max_length=120)
    short_name = models.CharField(_("short name"), max_length=20, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="club_name_unique_per_tournament"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def label(self) -> str:
        return self.short_name or self.name


def default_placement_points() -> list[int]:
    return [6, 5, 4, 3, 2, 1]


def default_tie_breaks() -> list[str]:
    return ["points", "net_worth_sum", "best_net_worth", "head_to_head", "lot"]


class Format(models.TextChoices):
    TABLE_WINNERS = "table_winners", _("Table winners advance (best runners-up fill up)")
    PLACEMENT_POINTS = "placement_points", _("Placement points summed over rounds")
    NET_WORTH_SUM = "net_worth_sum", _("Net worth summed over rounds")


class TimeLimitMode(models.TextChoices):
    AT_ONCE = "at_once", _("End at once")
    FINISH_ROUND = "finish_round", _("Finish the round of turns (equal turns)")


class TieBreak(models.TextChoices):
    POINTS = "points", _("Points")
    NET_WORTH_SUM = "net_worth_sum", _("Summed net worth")
    BEST_NET_WORTH = "best_net_worth", _("Best single net worth")
    HEAD_TO_HEAD = "head_to_head", _("Head-to-head")
    LOT = "lot", _("Lot (recorded seeded draw)")


class Tournament(InTournament, models.Model):
    tournament_path = "pk"

    Format = Format
    TimeLimitMode = TimeLimitMode
    TieBreak = TieBreak

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    ruleset = models.CharField(_("ruleset"), max_length=40, default="karlsruhe")
    board = models.CharField(_("board"), max_length=40, default="classic-de")
    table_size = models.PositiveSmallIntegerField(_("table size"), default=6)
    larger_tables = models.BooleanField(
        _("tables of the size or one more"),
        default=False,
        help_text=_(
            "Where the numbers do not divide, some tables get one player more (official "
            "tournament rules: tables of 4, and 5) instead of one less."
        ),
    )
    preliminary_rounds = models.PositiveSmallIntegerField(_("preliminary rounds"), default=3)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    results_public_immediately = models.BooleanField(
        _("results public at once"),
        default=True,
        help_text=_("Otherwise the public sees the previous round until the round is closed."),
    )
    # --- How players advance and win (data, not code paths) ---------------------------------
    format = models.CharField(
        _("format"), max_length=30, choices=Format.choices, default=Format.PLACEMENT_POINTS
    )
    final_decides = models.BooleanField(
        _("the final decides"),
        default=True,
        help_text=_("The final table's own result decides the title, whatever came before."),
    )
    placement_points = models.JSONField(
        _("points per place"),
        default=default_placement_points,
        help_text=_("Points for 1st, 2nd, … place at a table, e.g. 6,5,4,3,2,1."),
    )
    tie_breaks = models.JSONField(
        _("tie-break chain"),
        default=default_tie_breaks,
        help_text=_("Applied in order: points, net_worth_sum, best_net_worth, head_to_head, lot."),
    )
    finalists = models.PositiveSmallIntegerField(
        _("players in the final"), default=6, help_text=_("Usually one table.")
    )
    lot_seed = models.BigIntegerField(
        _("seed of the drawn lot"),
        null=True,
        blank=True,
        help_text=_("Recorded when the lot first decides a tie, so the draw can be repeated."),
    )
    # --- Time overrides (empty: the ruleset's value) -----------------------------------------
    time_limit_minutes = models.PositiveSmallIntegerField(
        _("time limit (minutes)"), null=True, blank=True
    )
    auction_stop_minutes = models.PositiveSmallIntegerField(
        _("auction stop (minutes)"), null=True, blank=True
    )
    time_limit_mode = models.CharField(
        _("at the time limit"),
        max_length=20,
        choices=TimeLimitMode.choices,
        blank=True,
        help_text=_("Empty: as the ruleset says."),
    )
    strict_cash = models.BooleanField(
        _("strict cash tracking"),
        default=False,
        help_text=_(
            "Every payment is booked (ledger mode): a payment beyond a player's cash is refused "
            "instead of only warned about. Applies to games started afterwards."
        ),
    )
    public_base_url = models.URLField(
        _("public address"),
        max_length=200,
        blank=True,
        help_text=_(
            "How phones in the hall reach this site, e.g. https://meisterschaft.example.org; "
            "QR codes and links on prints use it. Empty: the address the print page was "
            "opened with."
        ),
    )
    # --- Players' data (DSGVO) -------------------------------------------------------------
    retention_months = models.PositiveSmallIntegerField(
        _("keep players' data (months)"),
        null=True,
        blank=True,
        help_text=_(
            "Months after the tournament day when its players are anonymized (names, clubs, "
            "e-mail and notes replaced; results stay). Empty: kept until erased by hand."
        ),
    )
    search_engines_may_index = models.BooleanField(
        _("search engines may index the public pages"),
        default=False,
        help_text=_("Off: the public pages ask search engines not to list them (noindex)."),
    )
    winner = models.ForeignKey(
        "Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("winner"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2) & models.Q(table_size__lte=8),
                name="tournament_table_size_2_to_8",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("public:tournament", kwargs={"slug": self.slug})
