"""A table's game: its append-only event log, the clock's deadlines and the confirmed result.

The state of a game is never stored as the truth: it is what the rules engine derives from the
events. The few fields on :class:`Game` that mirror it (status, clock, counts) exist so that
pages and timers can query without replaying.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import InTournament, account_reference


class Game(models.Model):
    #: Wrong confirmation codes a table may type (from any address) before only the head
    #: referee or an organizer can confirm: 4 digits must not be guessable by many devices.
    WRONG_CODES_MAX = 10
    class Status(models.TextChoices):
        SETUP = "setup", _("Set-up (dealing)")
        RUNNING = "running", _("Running")
        FINAL_ROUND = "final_round", _("Final round of turns")
        FINISHED = "finished", _("Ended")

    table = models.OneToOneField(
        "tournament.Table", on_delete=models.CASCADE, related_name="game", verbose_name=_("table")
    )
    ruleset = models.CharField(_("ruleset"), max_length=40)
    board = models.CharField(_("board"), max_length=40)
    overrides = models.JSONField(_("ruleset overrides"), default=dict, blank=True)
    ledger = models.BooleanField(_("ledger mode"), default=False)
    players = models.JSONField(_("seat order"), help_text=_("Player ids as strings, in turn order."))
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.SETUP
    )
    end_reason = models.CharField(_("end reason"), max_length=30, blank=True)
    confirmation_code = models.CharField(
        _("confirmation code"),
        max_length=4,
        help_text=_("Printed on the score sheet; a player of the table enters it to confirm."),
    )
    wrong_codes = models.PositiveSmallIntegerField(
        _("wrong confirmation codes"),
        default=0,
        help_text=_(
            "Wrong codes typed at this table, from any device. After ten only the head "
            "referee or an organizer confirms."
        ),
    )
    extra_minutes = models.PositiveSmallIntegerField(
        _("extra minutes"),
        default=0,
        help_text=_("Granted by the head referee; already added to the time overrides."),
    )
    event_count = models.PositiveIntegerField(
        _("events"), default=0, help_text=_("The next event's sequence number.")
    )
    # --- The clock: wall-clock deadlines, re-planned on pause/resume ------------------------
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    paused_at = models.DateTimeField(_("paused since"), null=True, blank=True)
    paused_seconds = models.FloatField(_("paused seconds before the current pause"), default=0)
    auction_stop_due = models.DateTimeField(_("auction stop due"), null=True, blank=True)
    time_up_due = models.DateTimeField(_("time limit due"), null=True, blank=True)
    auction_stop_done = models.BooleanField(_("auction stop declared"), default=False)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    last_event_at = models.DateTimeField(_("last event"), null=True, blank=True)
    banker_seen_at = models.DateTimeField(_("banker last seen"), null=True, blank=True)
    summary = models.JSONField(
        _("summary"),
        default=dict,
        blank=True,
        help_text=_("Net worth per player and the provisional leader, for overview pages."),
    )
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    #: The revision its last result had when a reopened count took the result away: a result
    #: counted anew continues from here, so no page that saw the old one matches the new one.
    result_revision = models.PositiveIntegerField(
        _("revision of its last result"), default=0, db_default=0,
        help_text=_("Kept when a count is reopened: the result goes, its number stays."),
    )

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(fields=["auction_stop_due"], name="game_auction_stop_due"),
            models.Index(fields=["time_up_due"], name="game_time_up_due"),
        ]

    def __str__(self) -> str:
        return f"{self.table} ({self.get_status_display()})"

    @property
    def is_paused(self) -> bool:
        return self.paused_at is not None

    def game_seconds(self, now=None) -> float | None:
        """Game time: wall time since the start minus table-wide pauses."""
        if self.started_at is None:
            return None
        now = now or timezone.now()
        until = self.paused_at or self.ended_at or now
        return max(0.0, (until - self.started_at).total_seconds() - self.paused_seconds)


class GameEvent(models.Model):
    """One event of the record, never edited or deleted; corrections are ``void`` events."""

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="events", verbose_name=_("game")
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    type = models.CharField(_("type"), max_length=20)
    data = models.JSONField(_("event"))
    author = account_reference(
        _("author"), help_text=_("Empty: recorded by the server's clock.")
    )
    recorded_at = models.DateTimeField(_("server time"), default=timezone.now)
    game_seconds = models.FloatField(_("game clock"), null=True, blank=True)
    idempotency_key = models.CharField(_("idempotency key"), max_length=100, blank=True)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="game_event_seq_unique"),
            models.UniqueConstraint(
                fields=["game", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="game_event_idempotency_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} {self.type}"


class GameResult(models.Model):
    """The net-worth count of an ended game; final only once a second person confirmed it."""

    class Status(models.TextChoices):
        COUNTED = "counted", _("Counted, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, related_name="result", verbose_name=_("game")
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.COUNTED
    )
    counted_at = models.DateTimeField(_("counted"), default=timezone.now)
    counted_by = account_reference(_("counted by"))
    confirmed_at = models.DateTimeField(_("confirmed"), null=True, blank=True)
    confirmed_by = account_reference(_("confirmed by"))
    confirmed_via = models.CharField(_("confirmed via"), max_length=20, blank=True)
    from_paper = models.BooleanField(
        _("from the paper sheet"),
        default=False,
        help_text=_("Entered by the head referee from the table's paper score sheet."),
    )
    dispute_note = models.TextField(_("dispute note"), blank=True)
    disputed_by = account_reference(_("disputed by"))
    resolved_note = models.TextField(_("head referee's ruling"), blank=True)
    reopened_at = models.DateTimeField(
        _("reopened"), null=True, blank=True,
        help_text=_("When the head referee last reopened the confirmed result."),
    )
    reopened_by = account_reference(_("reopened by"))
    revision = models.PositiveIntegerField(
        _("revision"), default=1, db_default=1,
        help_text=_(
            "Raised by every write to the result (count, paper sheet, amendment, dispute, "
            "ruling, reopening): a page's decision is refused once the result moved on."
        ),
    )

    class Meta:
        verbose_name = _("game result")
        verbose_name_plural = _("game results")

    def __str__(self) -> str:
        return f"{self.game} – {self.get_status_display()}"

    def get_additional_data(self) -> dict:
        """The tournament, and the game: a game's history finds the entries of every result it
        had by it (a count taken back deletes its result; the next one is a new row)."""
        game = self.game if GameResult.game.is_cached(self) else None
        if game is not None and Game.table.is_cached(game) and type(game.table).round.is_cached(
            game.table
        ):  # read with its game, table and round (a confirmation): no query
            return {"tournament": game.table.round.tournament_id, "game": self.game_id}
        return {
            "tournament": Game.objects.filter(pk=self.game_id)
            .values_list("table__round__tournament_id", flat=True)
            .first(),
            "game": self.game_id,
        }


class Placement(InTournament, models.Model):
    """A player's place and net worth in one game, as counted."""

    tournament_path = "player.tournament_id"

    result = models.ForeignKey(
        GameResult, on_delete=models.CASCADE, related_name="placements", verbose_name=_("result")
    )
    player = models.ForeignKey(
        "tournament.Player",
        on_delete=models.RESTRICT,
        related_name="placements",
        verbose_name=_("player"),
    )
    place = models.PositiveSmallIntegerField(_("place"))
    net_worth = models.BigIntegerField(_("net worth"))
    breakdown = models.JSONField(_("breakdown"), default=dict)
    bankrupt = models.BooleanField(_("bankrupt"), default=False)

    class Meta:
        ordering = ["result", "place"]
        verbose_name = _("placement")
        verbose_name_plural = _("placements")
        constraints = [
            models.UniqueConstraint(fields=["result", "player"], name="placement_player_once"),
            models.CheckConstraint(condition=models.Q(place__gte=1), name="placement_place_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.place}. {self.player} ({self.net_worth})"

    def get_additional_data(self) -> dict:
        """The tournament, and the result: a result page's history finds the entries of its
        placements by it, also of those a later count replaced."""
        return {**super().get_additional_data(), "result": self.result_id}
