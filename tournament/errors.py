"""Every refusal of the tournament app in one place: the domain errors, each with a stable code,
and the words of each refusal (German in the catalogue), grouped by the module that gives it."""

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError, PermissionDenied
from tournament.wording import Problem, lazy_join


class RoundNotEditable(Conflict, code="round_not_editable"): ...


class NotEnoughPlayers(DomainError, code="not_enough_players"): ...


class SeatingImpossible(DomainError, code="seating_impossible"): ...


#: The seating generator's refusal to split the players into tables, in the reader's language
#: (the generator itself words it in English only: it imports nothing of ours).
SPLIT_IMPOSSIBLE = _(
    "%(players)s players cannot be seated at %(tables)s tables of at least %(minimum)s: one "
    "table would have only %(smallest)s. Allow smaller tables under “Options” (“Smallest "
    "table”) or check in more players."
)


ROUND_NOT_EDITABLE = _("Round %(number)s is already %(status)s; its seating can no longer change.")
NOT_ENOUGH_PLAYERS = _("Only %(count)s players are checked in; a table needs at least %(minimum)s.")


# --- Rounds, seating edits and bankers ---------------------------------------------------


class StaleVersion(Conflict, code="stale_version"):
    """A seating edit based on an older version: never merged, always refused."""


class InvalidTransition(Conflict, code="invalid_transition"): ...


class TournamentNotRunning(Conflict, code="tournament_not_running"): ...


class RoundNotComplete(Conflict, code="round_not_complete"): ...


class TournamentClosedForRounds(Conflict, code="tournament_closed_for_rounds"): ...


class InvalidSeatingEdit(DomainError, code="invalid_seating_edit"): ...


class TableSizeViolation(DomainError, code="table_size"): ...


class BankerUnavailable(DomainError, code="banker_unavailable"): ...


class InvalidUsername(DomainError, code="invalid_username"): ...


class RoundComplete(Conflict, code="round_complete"): ...


STALE_VERSION = _(
    "The seating of round %(number)s was changed meanwhile (you edited version %(yours)s, it is "
    "now version %(current)s). Nothing was saved: open the seating again and make your change there."
)
CANNOT_SEAT = _(
    "Round %(number)s (%(status)s) cannot be seated again. Rule: only a draft or seated round "
    "can be (re-)seated; unlock a locked round first."
)
FINAL_FROM_QUALIFIERS = _(
    "Round %(number)s is the final: it is seated from the qualifiers only. Seat it (or seat it "
    "again) on the round desk, which asks first."
)
CANNOT_DELETE = _(
    "Round %(number)s (%(status)s) cannot be deleted or seated again: only a round that is not "
    "closed and has no later round can."
)
CANNOT_LOCK = _(
    "Round %(number)s (%(status)s) cannot be locked. Rule: only a seated round can be locked."
)
CANNOT_UNLOCK = _(
    "Round %(number)s (%(status)s) cannot be unlocked. Rule: only a locked round that has not "
    "started can be unlocked."
)
CANNOT_START = _(
    "Round %(number)s (%(status)s) cannot be started. Rule: only a round whose seating is locked "
    "can be started."
)
CANNOT_EDIT = _(
    "The seating of round %(number)s (%(status)s) cannot be edited. Rule: seats can only be "
    "swapped or moved while the round is seated and not locked."
)
TOURNAMENT_NOT_RUNNING = _(
    "The tournament's status is “%(status)s”: a round can only start while the tournament is "
    "running. Start the tournament first."
)
ANOTHER_ROUND_RUNNING = _("Round %(number)s is still running: only one round runs at a time.")
ROUND_NOT_COMPLETE = _(
    "Round %(number)s is not complete yet (“%(status)s”): close it before creating the next "
    "round."
)
TOURNAMENT_CLOSED_FOR_ROUNDS = _(
    "The tournament's status is “%(status)s”: rounds can only be created during registration "
    "or while it runs."
)
PLAYER_NOT_SEATED = _("%(player)s is not seated in round %(number)s.")
SAME_TABLE = _("%(a)s and %(b)s already sit at the same table; a swap would change nothing.")
SAME_PLAYER = _("Choose two different players to swap.")
NO_SUCH_TABLE = _("Round %(number)s has no table %(table)s.")
ALREADY_AT_TABLE = _("%(player)s already sits at table %(table)s.")
TABLE_TOO_FULL = _(
    "Table %(table)s would have %(size)s players; a table seats at most %(maximum)s."
)
TABLE_TOO_SHORT = _(
    "Table %(table)s would keep only %(size)s players; a table needs at least %(minimum)s "
    "(allow smaller tables with the minimum size)."
)
INVALID_MIN_SIZE = _("The minimum table size must be between 2 and %(maximum)s.")
BANKER_BUSY = _("%(banker)s already banks table %(table)s in this round; one table per banker.")
BANKER_ROUND_COMPLETE = _("Round %(number)s is complete; its bankers no longer change.")
INVALID_USERNAME = _(
    "“%(username)s” is not a valid username: use letters, digits and @/./+/-/_ only "
    "(at most 150 characters)."
)


USERNAME_MIXED_SCRIPTS = _(
    "“%(username)s” mixes letters of different scripts (say, a Cyrillic “о” among Latin "
    "letters), so it can pass for another name. Use the letters of one script."
)
USERNAME_LOOKS_LIKE = _(
    "“%(username)s” looks like an existing account's name. Choose a name that cannot be taken "
    "for another one."
)


INVALID_FORM = _("Please check these fields: %(fields)s.")


class FieldLabels:
    """The refused fields' labels, joined when the message is shown: lazy labels then speak
    the reader's language (each language of :meth:`DomainError.message_in`), never a raw name."""

    def __init__(self, labels: Iterable[Any]) -> None:
        self.labels = tuple(labels)

    def __str__(self) -> str:
        return ", ".join(str(label) for label in self.labels)


class InvalidForm(DomainError, code="invalid_form"):
    """A form that cannot be taken as sent. ``fields`` are the fields' labels (lazy, so that
    the message names them in the reader's language): ``InvalidForm(fields=[POINTS])``."""

    def __init__(
        self, message: Any = INVALID_FORM, *, fields: Iterable[Any] = (), **kwargs: Any
    ) -> None:
        labels = tuple(fields)
        if labels:
            kwargs["params"] = {**(kwargs.get("params") or {}), "fields": FieldLabels(labels)}
        super().__init__(message, **kwargs)


def form_fields(form: Any) -> list[Any]:
    """The labels of a bound form's refused fields (errors not tied to a field: "the form")."""
    return [form.fields[name].label or form[name].label for name in form.errors
            if name in form.fields] or [_("the form")]


class PenaltyAfterCrowning(Conflict, code="penalty_after_crowning"): ...


PENALTY_AFTER_CROWNING = _(
    "The tournament is finished and its winner crowned: a ruling “%(level)s” would change the "
    "standings the crowning rests on, so it is no longer recorded. Record a note or a warning instead; "
    "anything more the head referee decides with the organizer. To correct the final itself, "
    "first undo the crowning on the round desk (“Undo the crowning: reopen the final”)."
)


class UnknownAccount(DomainError, code="unknown_account"): ...


class AccountExists(Conflict, code="account_exists"): ...


class LastOrganizer(Conflict, code="last_organizer"): ...


UNKNOWN_ACCOUNT = _(
    "There is no active account “%(username)s”. Tick “create a new account” to make one."
)
ACCOUNT_EXISTS = _("The account “%(username)s” exists already: appoint it instead.")


class UnknownBanker(DomainError, code="unknown_banker"):
    http_status = 404


UNKNOWN_BANKER = _(
    "“%(banker)s” is not a banker of this tournament. Appoint the account as a banker on the "
    "staff page, or enter a new username."
)
BANKER_NAME_TAKEN = _(
    "The username “%(username)s” is taken. Choose another one, or appoint the account as a "
    "banker on the staff page."
)
LAST_ORGANIZER = _("A tournament keeps at least one organizer: appoint another one first.")


# ---------------------------------------------------- the tournament's status


class TransitionRefused(Conflict, code="tournament_transition_refused"):
    """A status change the state machine does not allow; the specific code names the rule."""


STATUS_UNKNOWN = _("There is no tournament status “%(to)s”.")
STATUS_UNCHANGED = _("The tournament is already %(status)s.")
TRANSITION_NOT_ALLOWED = _(
    "A tournament cannot go from %(from)s to %(to)s. From %(from)s it can only go to: %(allowed)s."
)
TRANSITION_FINAL = _("A finished tournament is final; its status cannot change any more.")
HAS_ROUNDS = _("The tournament cannot go back to draft: %(count)s round(s) exist already.")
TOO_FEW_TO_START = _(
    "The tournament cannot start with %(count)s checked-in player(s); a table needs at least "
    "%(minimum)s."
)
ROUND_OPEN = _(
    "The tournament cannot finish while round %(number)s is %(status)s; close that round first."
)


# -------------------------------------------------------- tournament settings

SETTINGS_INVALID = _("These settings cannot be saved: %(details)s.")
SETTINGS_FROZEN = _(
    "These settings can no longer change: %(fields)s. The tournament is %(status)s, and seating "
    "and scoring depend on them."
)


SETTINGS_FROZEN_FINAL = _(
    "These settings can no longer change: %(fields)s. The final (round %(number)s) is seated "
    "by them. If none of its games has begun, delete the final on the round desk (“Delete this "
    "round”), change the setting, and seat the final again."
)


class SettingsInvalid(DomainError, code="tournament_settings_invalid"):
    """One or more settings cannot be honoured; ``problems`` lists each with its field."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        if len(problems) == 1:
            super().__init__(problems[0].message, params=problems[0].params)
        else:
            super().__init__(
                SETTINGS_INVALID, params={"details": lazy_join([p.text for p in problems], "; ")}
            )

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = super().as_dict()
        data["errors"] = [problem.as_dict() for problem in self.problems]
        return data


class SettingsFrozen(Conflict, code="tournament_settings_frozen"): ...


RETENTION_INVALID = _("Keep players' data: a number of months from 1 to %(max)s, or empty.")
TOURNAMENT_NAME_MISSING = _("The tournament needs a name.")
TOURNAMENT_NAME_TOO_LONG = _("The name is longer than %(max)s characters.")
SLUG_INVALID = _("The short name “%(slug)s” may only contain letters, digits, - and _.")
SLUG_RESERVED = _("The short name “%(slug)s” is reserved.")
SLUG_TOO_LONG = _("The short name is longer than 60 characters.")
SLUG_TAKEN = _("Another tournament already uses the short name “%(slug)s”.")
DATE_MISSING = _("The tournament needs a date.")
RULESET_UNKNOWN = _("There is no ruleset “%(key)s”. Known: %(known)s.")
BOARD_UNKNOWN = _("There is no board “%(key)s”. Known: %(known)s.")
TABLE_SIZE_INVALID = _("A table seats between 2 and 8 players.")
TABLE_SIZE_RULESET = _(
    "The ruleset “%(ruleset)s” plays with %(min)s to %(max)s players per table, not %(size)s."
)
PRELIMINARY_ROUNDS_INVALID = _("The number of preliminary rounds must be between 0 and %(max)s.")
FORMAT_UNKNOWN = _("There is no format “%(key)s”.")
FINALISTS_INVALID = _("The final needs at least 2 players.")
FINALISTS_EXCEED_TABLE = _(
    "When the final decides, the final is one table: at most %(size)s players, not %(count)s."
)
MINUTES_INVALID = _(
    "The %(setting)s must be between 1 and %(max)s, or empty for the ruleset's value."
)
AUCTION_STOP_AFTER_LIMIT = _(
    "The auction stop (%(stop)s min) must come before the time limit (%(limit)s min)."
)
PUBLIC_BASE_URL_INVALID = _("The public address must look like https://host.example.org (no path).")
TIME_LIMIT_MODE_UNKNOWN = _("There is no time-limit mode “%(key)s”.")
PRESET_UNKNOWN = _("There is no format preset “%(key)s”.")


# -------------------------------------------------------------------- privacy


class AlreadyErased(Conflict, code="player_already_erased"): ...


ALREADY_ERASED = _("This player's data has already been anonymized.")


# --------------------------------------------------------------------- access

REFUSED = _(
    "Your account has no role in this tournament that allows this. Ask its organizer."
)
CREATE_REFUSED = _(
    "Only an organizer's staff account may create or import a tournament. Ask an organizer."
)
ORGANIZERS_ONLY = _(
    "This action is for the organizers. Your role in this tournament (%(roles)s) does not "
    "allow it."
)
NOT_YOUR_ROLE = _(
    "This action is for these roles: %(allowed)s. Your role in this tournament (%(roles)s) "
    "does not allow it."
)


class NotYourTable(PermissionDenied, code="not_your_table"): ...


NOT_YOUR_TABLE = _("Only this table's banker, the head referee or an organizer may do that.")


# --- Sign-up (tournament.signups) ----------------------------------------------------------


class SignupClosed(Conflict, code="signup_closed"): ...


class SignupFull(Conflict, code="signup_full"): ...


class SignupLinkInvalid(DomainError, code="signup_link_invalid"):
    http_status = 404


class SignupNotAllowed(Conflict, code="signup_not_allowed"): ...


SIGNUP_CLOSED = _("The sign-up for this tournament is closed.")
SIGNUP_NOT_YET = _("The sign-up opens on %(when)s.")
SIGNUP_FULL = _("All places are taken and there is no waiting list.")
SIGNUP_EMAIL_INVALID = _("Please enter a valid e-mail address.")
SIGNUP_LINK_INVALID = _(
    "This link is not valid (any more). Links to confirm a sign-up are valid for 48 hours: "
    "please sign up again."
)
SIGNUP_WITHDRAW_STARTED = _(
    "The tournament has begun: to withdraw now, please tell the check-in desk."
)
SIGNUP_NO_FEE = _("%(name)s did not sign up online: there is no entry fee to mark.")
SIGNUP_NOT_WAITING = _("%(name)s is not on the waiting list.")
SIGNUP_NOT_PENDING = _("%(name)s has already confirmed the sign-up.")
SIGNUP_REASON_MISSING = _("Give a reason for moving someone up by hand.")
SIGNUP_CAPACITY_INVALID = _("The number of places must be between 2 and 10,000.")
SIGNUP_WINDOW_INVALID = _("The sign-up must close after it opens.")
