"""Tournament settings and the tournament's state machine (writes; keyword arguments only).

Draft → registration → running → finished, plus registration → draft while no round exists.
Settings that seating or scoring depend on are frozen once the tournament runs. Every refusal is
a :class:`~config.errors.DomainError` with a stable code and a message that names the rule.

The rules engine (``referee.rules``) is imported lazily and only here, in
:func:`ruleset_choices`, :func:`board_choices` and :func:`ruleset_defaults`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError

from .models import Round, Tournament

Status = Tournament.Status

# --------------------------------------------------------------------------- lazy helpers


def _join(items: Iterable[Any], separator: str) -> str:
    return separator.join(str(item) for item in items)


def _format(message: Any, params: Mapping[str, Any]) -> str:
    return str(message) % dict(params) if params else str(message)


#: A lazily translated ", ".join(...): rendered in whatever language is active when shown.
lazy_join = lazy(_join, str)
#: A lazily translated ``message % params``.
lazy_format = lazy(_format, str)


def field_label(name: str) -> Any:
    """The (lazily translated) verbose name of a Tournament field."""
    return Tournament._meta.get_field(name).verbose_name


# --------------------------------------------------------------------------- the rules engine


def _rules():
    from referee import rules  # the pure rules library; lazy so Django starts without it

    return rules


def ruleset_choices() -> list[tuple[str, str]]:
    """(key, name) of every ruleset the engine knows."""
    return [(key, ruleset.name) for key, ruleset in _rules().RULESETS.items()]


def board_choices() -> list[tuple[str, str]]:
    """(key, name) of every built-in board of the engine."""
    rules = _rules()
    return [(key, rules.get_board(key).name) for key in rules.BOARD_KEYS]


def ruleset_defaults(key: str) -> dict[str, Any] | None:
    """What a tournament inherits from a ruleset when it sets nothing itself (None if unknown)."""
    ruleset = _rules().RULESETS.get(key)
    if ruleset is None:
        return None
    return {
        "time_limit_minutes": ruleset.time_limit_minutes,
        "auction_stop_minutes": ruleset.auction_stop_minute,
        "time_limit_mode": str(ruleset.time_limit_mode),
        "table_size": ruleset.table_size,
        "players_min": ruleset.players_min,
        "players_max": ruleset.players_max,
        "default_board": ruleset.default_board,
    }


def effective_times(tournament: Tournament) -> dict[str, Any]:
    """The time limit, auction stop and time-limit mode in force: override, else the ruleset's."""
    defaults = ruleset_defaults(tournament.ruleset) or {}
    return {
        "time_limit_minutes": tournament.time_limit_minutes or defaults.get("time_limit_minutes"),
        "auction_stop_minutes": tournament.auction_stop_minutes
        or defaults.get("auction_stop_minutes"),
        "time_limit_mode": tournament.time_limit_mode or defaults.get("time_limit_mode", ""),
    }


# --------------------------------------------------------------------------- errors


@dataclass(frozen=True)
class Problem:
    """One broken setting: the field, a stable code and a bilingual message."""

    field: str
    code: str
    message: Any
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> Any:
        return lazy_format(self.message, self.params)


class SettingsInvalid(DomainError):
    """One or more settings cannot be honoured; ``problems`` lists each with its field."""

    code = "tournament_settings_invalid"

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
        data["errors"] = [
            {
                "field": problem.field,
                "code": problem.code,
                "message_de": _in_language(problem.text, "de"),
                "message_en": _in_language(problem.text, "en"),
            }
            for problem in self.problems
        ]
        return data


class SettingsFrozen(Conflict):
    code = "tournament_settings_frozen"


class TransitionRefused(Conflict):
    """A status change the state machine does not allow; the specific code names the rule."""

    code = "tournament_transition_refused"


def _in_language(text: Any, language: str) -> str:
    from django.utils import translation

    with translation.override(language):
        return str(text)


SETTINGS_INVALID = _("These settings cannot be saved: %(details)s.")
SETTINGS_FROZEN = _(
    "These settings can no longer change: %(fields)s. The tournament is %(status)s, and seating "
    "and scoring depend on them."
)
STATUS_UNKNOWN = _("There is no tournament status “%(to)s”.")
STATUS_UNCHANGED = _("The tournament is already %(status)s.")
TRANSITION_NOT_ALLOWED = _(
    "A tournament cannot go from %(from)s to %(to)s. From %(from)s it can only go to: %(allowed)s."
)
TRANSITION_FINAL = _("A finished tournament is final; its status cannot change any more.")
HAS_ROUNDS = _("The tournament cannot go back to draft: %(count)s round(s) exist already.")
NOT_ENOUGH_PLAYERS = _(
    "The tournament cannot start with %(count)s checked-in player(s); a table needs at least "
    "%(minimum)s."
)
ROUND_OPEN = _(
    "The tournament cannot finish while round %(number)s is %(status)s; close that round first."
)

# --------------------------------------------------------------------------- the state machine

#: The allowed moves, as data. Guards (rounds, players) are checked in :func:`transition`.
TRANSITIONS: dict[str, tuple[str, ...]] = {
    Status.DRAFT: (Status.REGISTRATION,),
    Status.REGISTRATION: (Status.DRAFT, Status.RUNNING),
    Status.RUNNING: (Status.FINISHED,),
    Status.FINISHED: (),
}

#: Rounds in these states are being played (or about to be): the tournament cannot finish.
OPEN_ROUND_STATES = (Round.Status.LOCKED, Round.Status.RUNNING)


def allowed_transitions(tournament: Tournament) -> list[tuple[str, Any]]:
    """(status, label) of the moves the state machine allows from the tournament's status."""
    return [(to, Status(to).label) for to in TRANSITIONS.get(tournament.status, ())]


def minimum_players(tournament: Tournament) -> int:
    """Fewest checked-in players a round can be seated with (a short table of size - 1)."""
    return max(2, tournament.table_size - 1)


@transaction.atomic
def transition(*, tournament: Tournament, to: str) -> Tournament:
    """Move the tournament to status ``to`` or raise :class:`TransitionRefused`."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    current = tournament.status
    if to not in Status.values:
        raise TransitionRefused(STATUS_UNKNOWN, code="tournament_status_unknown", params={"to": to})
    if to == current:
        raise TransitionRefused(
            STATUS_UNCHANGED,
            code="tournament_status_unchanged",
            params={"status": Status(current).label},
        )
    allowed = TRANSITIONS[current]
    if not allowed:
        raise TransitionRefused(TRANSITION_FINAL, code="tournament_finished")
    if to not in allowed:
        raise TransitionRefused(
            TRANSITION_NOT_ALLOWED,
            code="tournament_transition_not_allowed",
            params={
                "from": Status(current).label,
                "to": Status(to).label,
                "allowed": lazy_join([Status(s).label for s in allowed], ", "),
            },
        )
    if current == Status.REGISTRATION and to == Status.DRAFT:
        count = tournament.rounds.count()
        if count:
            raise TransitionRefused(
                HAS_ROUNDS, code="tournament_has_rounds", params={"count": count}
            )
    if to == Status.RUNNING:
        count = tournament.players.filter(checked_in=True, dropped_out=False).count()
        minimum = minimum_players(tournament)
        if count < minimum:
            raise TransitionRefused(
                NOT_ENOUGH_PLAYERS,
                code="tournament_not_enough_players",
                params={"count": count, "minimum": minimum},
            )
    if to == Status.FINISHED:
        open_round = (
            tournament.rounds.filter(status__in=OPEN_ROUND_STATES).order_by("number").first()
        )
        if open_round is not None:
            raise TransitionRefused(
                ROUND_OPEN,
                code="tournament_round_open",
                params={"number": open_round.number, "status": open_round.get_status_display()},
            )
    tournament.status = to
    tournament.save(update_fields=["status"])
    return tournament


# --------------------------------------------------------------------------- settings

#: Every setting an organizer edits (status, winner and lot seed change by other means).
SETTINGS_FIELDS = (
    "name",
    "slug",
    "date",
    "venue",
    "ruleset",
    "board",
    "table_size",
    "preliminary_rounds",
    "format",
    "final_decides",
    "placement_points",
    "tie_breaks",
    "finalists",
    "time_limit_minutes",
    "auction_stop_minutes",
    "time_limit_mode",
    "results_public_immediately",
)

#: Settings that seating or scoring depend on: frozen once the tournament runs.
FROZEN_WHEN_RUNNING = (
    "ruleset",
    "board",
    "table_size",
    "format",
    "final_decides",
    "placement_points",
    "tie_breaks",
)
FROZEN_STATES = (Status.RUNNING, Status.FINISHED)

#: Slugs that would clash with the organizer's own URLs (``/manage/new/``).
RESERVED_SLUGS = frozenset({"new"})
MAX_PRELIMINARY_ROUNDS = 20
MAX_MINUTES = 600


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_settings(values: Mapping[str, Any], *, tournament: Tournament | None = None) -> None:
    """Check a complete set of settings; raise :class:`SettingsInvalid` listing every problem."""
    problems: list[Problem] = []

    def problem(name: str, code: str, message: Any, /, **params: Any) -> None:
        problems.append(Problem(name, code, message, params))

    name = (values.get("name") or "").strip()
    if not name:
        problem("name", "name_missing", _("The tournament needs a name."))
    elif len(name) > 200:
        problem("name", "name_too_long", _("The name is longer than %(max)s characters."), max=200)

    slug = values.get("slug") or ""
    try:
        validate_slug(slug)
    except ValidationError:
        problem(
            "slug",
            "slug_invalid",
            _("The short name “%(slug)s” may only contain letters, digits, - and _."),
            slug=slug,
        )
    else:
        if slug in RESERVED_SLUGS:
            problem("slug", "slug_reserved", _("The short name “%(slug)s” is reserved."), slug=slug)
        elif len(slug) > 60:
            problem("slug", "slug_too_long", _("The short name is longer than 60 characters."))
        else:
            others = Tournament.objects.filter(slug=slug)
            if tournament is not None:
                others = others.exclude(pk=tournament.pk)
            if others.exists():
                problem(
                    "slug",
                    "slug_taken",
                    _("Another tournament already uses the short name “%(slug)s”."),
                    slug=slug,
                )

    if not isinstance(values.get("date"), dt.date):
        problem("date", "date_missing", _("The tournament needs a date."))

    rulesets = dict(ruleset_choices())
    ruleset_key = values.get("ruleset")
    defaults = ruleset_defaults(ruleset_key) if ruleset_key in rulesets else None
    if defaults is None:
        problem(
            "ruleset",
            "ruleset_unknown",
            _("There is no ruleset “%(key)s”. Known: %(known)s."),
            key=ruleset_key,
            known=", ".join(rulesets),
        )
    boards = dict(board_choices())
    if values.get("board") not in boards:
        problem(
            "board",
            "board_unknown",
            _("There is no board “%(key)s”. Known: %(known)s."),
            key=values.get("board"),
            known=", ".join(boards),
        )

    table_size = values.get("table_size")
    if not _is_int(table_size) or not 2 <= table_size <= 8:
        problem("table_size", "table_size_invalid", _("A table seats between 2 and 8 players."))
        table_size = None
    elif defaults and not defaults["players_min"] <= table_size <= defaults["players_max"]:
        problem(
            "table_size",
            "table_size_ruleset",
            _(
                "The ruleset “%(ruleset)s” plays with %(min)s to %(max)s players per table, "
                "not %(size)s."
            ),
            ruleset=ruleset_key,
            min=defaults["players_min"],
            max=defaults["players_max"],
            size=table_size,
        )

    rounds = values.get("preliminary_rounds")
    if not _is_int(rounds) or not 0 <= rounds <= MAX_PRELIMINARY_ROUNDS:
        problem(
            "preliminary_rounds",
            "preliminary_rounds_invalid",
            _("The number of preliminary rounds must be between 0 and %(max)s."),
            max=MAX_PRELIMINARY_ROUNDS,
        )

    if values.get("format") not in Tournament.Format.values:
        problem(
            "format",
            "format_unknown",
            _("There is no format “%(key)s”."),
            key=values.get("format"),
        )

    _check_points(values.get("placement_points"), table_size, problem)
    _check_tie_breaks(values.get("tie_breaks"), problem)

    finalists = values.get("finalists")
    if not _is_int(finalists) or finalists < 2:
        problem("finalists", "finalists_invalid", _("The final needs at least 2 players."))
    elif values.get("final_decides") and table_size and finalists > table_size:
        problem(
            "finalists",
            "finalists_exceed_table",
            _(
                "When the final decides, the final is one table: at most %(size)s players, "
                "not %(count)s."
            ),
            size=table_size,
            count=finalists,
        )

    for name_ in ("time_limit_minutes", "auction_stop_minutes"):
        minutes = values.get(name_)
        if minutes is not None and (not _is_int(minutes) or not 1 <= minutes <= MAX_MINUTES):
            problem(
                name_,
                "minutes_invalid",
                _(
                    "The %(setting)s must be between 1 and %(max)s, or empty for the "
                    "ruleset's value."
                ),
                setting=field_label(name_),
                max=MAX_MINUTES,
            )
    limit = values.get("time_limit_minutes") or (defaults or {}).get("time_limit_minutes")
    stop = values.get("auction_stop_minutes") or (defaults or {}).get("auction_stop_minutes")
    if (
        _is_int(limit)
        and _is_int(stop)
        and stop >= limit
        and not any(p.field in ("time_limit_minutes", "auction_stop_minutes") for p in problems)
    ):
        problem(
            "auction_stop_minutes",
            "auction_stop_after_limit",
            _("The auction stop (%(stop)s min) must come before the time limit (%(limit)s min)."),
            stop=stop,
            limit=limit,
        )

    mode = values.get("time_limit_mode") or ""
    if mode and mode not in Tournament.TimeLimitMode.values:
        problem(
            "time_limit_mode",
            "time_limit_mode_unknown",
            _("There is no time-limit mode “%(key)s”."),
            key=mode,
        )

    if problems:
        raise SettingsInvalid(problems)


def _check_points(points: Any, table_size: int | None, problem) -> None:
    if not isinstance(points, list | tuple) or not points or not all(_is_int(p) for p in points):
        problem(
            "placement_points",
            "points_not_numbers",
            _("Points per place must be whole numbers, e.g. 6,5,4,3,2,1."),
        )
        return
    if any(p < 1 for p in points):
        problem(
            "placement_points",
            "points_not_positive",
            _("Points per place must be positive: %(points)s."),
            points=",".join(map(str, points)),
        )
    if any(later > earlier for earlier, later in zip(points, points[1:], strict=False)):
        problem(
            "placement_points",
            "points_increasing",
            _("A better place cannot earn fewer points: %(points)s must not increase."),
            points=",".join(map(str, points)),
        )
    if table_size and len(points) < table_size:
        problem(
            "placement_points",
            "points_too_few",
            _("Points are given for %(count)s places, but a table seats %(size)s players."),
            count=len(points),
            size=table_size,
        )


def _check_tie_breaks(keys: Any, problem) -> None:
    if not isinstance(keys, list | tuple) or not keys:
        problem("tie_breaks", "tie_breaks_missing", _("Choose at least one tie-break."))
        return
    known = set(Tournament.TieBreak.values)
    unknown = [key for key in keys if key not in known]
    if unknown:
        problem(
            "tie_breaks",
            "tie_break_unknown",
            _("There is no tie-break “%(key)s”. Known: %(known)s."),
            key=unknown[0],
            known=", ".join(Tournament.TieBreak.values),
        )
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            problem(
                "tie_breaks",
                "tie_break_duplicate",
                _("The tie-break “%(name)s” is chosen twice; each may appear once."),
                name=Tournament.TieBreak(key).label,
            )
            break
        seen.add(key)


def _settings_of(tournament: Tournament) -> dict[str, Any]:
    return {name: getattr(tournament, name) for name in SETTINGS_FIELDS}


def _normalise(values: dict[str, Any]) -> dict[str, Any]:
    out = dict(values)
    for name in ("name", "venue", "slug"):
        if isinstance(out.get(name), str):
            out[name] = out[name].strip()
    if out.get("time_limit_mode") is None:
        out["time_limit_mode"] = ""
    for name in ("placement_points", "tie_breaks"):
        if isinstance(out.get(name), tuple):
            out[name] = list(out[name])
    return out


def _check_known(names: Iterable[str]) -> None:
    unknown = set(names) - set(SETTINGS_FIELDS)
    if unknown:
        raise TypeError(f"not a tournament setting: {', '.join(sorted(unknown))}")


@transaction.atomic
def create_tournament(*, name: str, slug: str, date: dt.date, **settings: Any) -> Tournament:
    """Create a draft tournament; omitted settings take the model's (or the ruleset's) defaults."""
    _check_known(settings)
    tournament = Tournament(name=name, slug=slug, date=date)
    ruleset_key = settings.get("ruleset", tournament.ruleset)
    defaults = ruleset_defaults(ruleset_key) if isinstance(ruleset_key, str) else None
    if defaults:
        settings.setdefault("board", defaults["default_board"])
        if defaults["table_size"]:
            settings.setdefault("table_size", defaults["table_size"])
    values = _normalise({**_settings_of(tournament), **settings})
    validate_settings(values)
    for key, value in values.items():
        setattr(tournament, key, value)
    tournament.status = Status.DRAFT
    tournament.save()
    return tournament


@transaction.atomic
def update_tournament(*, tournament: Tournament, **changes: Any) -> Tournament:
    """Change settings; those of :data:`FROZEN_WHEN_RUNNING` are refused once it runs."""
    _check_known(changes)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    current = _settings_of(tournament)
    values = _normalise({**current, **changes})
    if tournament.status in FROZEN_STATES:
        frozen = [name for name in FROZEN_WHEN_RUNNING if values[name] != current[name]]
        if frozen:
            raise SettingsFrozen(
                SETTINGS_FROZEN,
                params={
                    "fields": lazy_join([field_label(name) for name in frozen], ", "),
                    "status": tournament.get_status_display(),
                },
            )
    validate_settings(values, tournament=tournament)
    changed = [name for name in SETTINGS_FIELDS if values[name] != current[name]]
    for name in changed:
        setattr(tournament, name, values[name])
    if changed:
        tournament.save(update_fields=changed)
    return tournament
