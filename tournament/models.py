"""Data and invariants of the organizer's domain. Logic that changes them lives in services."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
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


class Club(models.Model):
    """A club or family: its members are kept apart when seating."""

    name = models.CharField(_("name"), max_length=120, unique=True)
    short_name = models.CharField(_("short name"), max_length=20, blank=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

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



#: A player's personal code: letters and digits nobody confuses (no 0/O, 1/I/L), 8 of them:
#: 31^8 ≈ 8.5·10^11 codes, so a guess finds nobody. Printed as "KM7Q-4XPZ".
PASS_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
PASS_CODE_LENGTH = 8


def new_pass_code() -> str:
    return "".join(secrets.choice(PASS_CODE_ALPHABET) for _ in range(PASS_CODE_LENGTH))


class Player(InTournament, models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="players", verbose_name=_("tournament")
    )
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
        _("private note"), blank=True, help_text=_("Only organizers see this; never public.")
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
        ]
        indexes = [models.Index(fields=["tournament", "checked_in", "dropped_out"])]

    def __str__(self) -> str:
        return self.name

    @property
    def initials(self) -> str:
        parts = [part for part in self.name.replace("-", " ").split() if part]
        return "".join(f"{part[0].upper()}." for part in parts) or "?"

    @property
    def public_name(self) -> str:
        """What spectators see: the name with consent, else initials and club."""
        if self.public_name_consent:
            return self.name
        club = self.club.label if self.club_id and self.club else ""
        return f"{self.initials} ({club})" if club else self.initials


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

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
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
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_gte_1"),
        ]

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
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="table_number_gte_1"),
        ]

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

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="staff", verbose_name=_("tournament")
    )
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

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="incidents", verbose_name=_("tournament")
    )
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
