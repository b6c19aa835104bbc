"""Tournament settings (writes; keyword arguments only).

The state machine (draft → registration → running → finished) is in :mod:`tournament.lifecycle`.
Settings that seating or scoring depend on are frozen once the tournament runs. Every refusal is
a :class:`~config.errors.DomainError` with a stable code and a message that names the rule.

The rules engine (``referee.rules``) is imported lazily and only here, in
:func:`ruleset_choices`, :func:`board_choices` and :func:`ruleset_defaults`.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from config.errors import Conflict, DomainError

from . import placement
from .errors import SETTINGS_FROZEN, SETTINGS_INVALID
from .models import Tournament

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


class Worded:
    """A reason in words: ``message`` with its ``params``, in the language it is shown in, and a
    stable ``code``; ``where`` names the field that says where it applies (a line, a setting)."""

    where: ClassVar[str]
    code: str
    message: Any
    params: dict[str, Any]

    @property
    def text(self) -> Any:
        return lazy_format(self.message, self.params)

    def message_in(self, language: str) -> str:
        return _in_language(self.text, language)

    def as_dict(self) -> dict[str, Any]:
        return {
            self.where: getattr(self, self.where),
            "code": self.code,
            "message_de": self.message_in("de"),
            "message_en": self.message_in("en"),
        }


@dataclass(frozen=True)
class Problem(Worded):
    """One broken setting: the field, a stable code and a bilingual message."""

    where: ClassVar[str] = "field"
    field: str
    code: str
    message: Any
    params: dict[str, Any] = field(default_factory=dict)


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


def _in_language(text: Any, language: str) -> str:
    from django.utils import translation

    with translation.override(language):
        return str(text)


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
    "larger_tables",
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
    "strict_cash",
    "public_base_url",
    "retention_months",
    "search_engines_may_index",
)

RETENTION_MAX_MONTHS = 240

#: Settings that seating or scoring depend on: frozen once the tournament runs.
FROZEN_WHEN_RUNNING = (
    "ruleset",
    "board",
    "table_size",
    "larger_tables",
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
_PUBLIC_ADDRESS = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+(:\d{1,5})?/?")


def validate_settings(values: Mapping[str, Any], *, tournament: Tournament | None = None) -> None:
    """Check a complete set of settings; raise :class:`SettingsInvalid` listing every problem."""
    problems: list[Problem] = []

    def problem(name: str, code: str, message: Any, /, **params: Any) -> None:
        problems.append(Problem(name, code, message, params))

    retention = values.get("retention_months")
    if retention is not None and (
        isinstance(retention, bool) or not isinstance(retention, int)
        or not 1 <= retention <= RETENTION_MAX_MONTHS
    ):
        problem("retention_months", "retention_invalid",
                _("Keep players' data: a number of months from 1 to %(max)s, or empty."),
                max=RETENTION_MAX_MONTHS)
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

    def ruleset_size_problem(field: str, size: int) -> None:
        problem(
            field,
            "table_size_ruleset",
            _(
                "The ruleset “%(ruleset)s” plays with %(min)s to %(max)s players per table, "
                "not %(size)s."
            ),
            ruleset=ruleset_key,
            min=defaults["players_min"],
            max=defaults["players_max"],
            size=size,
        )

    table_size = values.get("table_size")
    if not placement.is_whole(table_size) or not 2 <= table_size <= 8:
        problem("table_size", "table_size_invalid", _("A table seats between 2 and 8 players."))
        table_size = None
    elif defaults and not defaults["players_min"] <= table_size <= defaults["players_max"]:
        ruleset_size_problem("table_size", table_size)

    rounds = values.get("preliminary_rounds")
    if not placement.is_whole(rounds) or not 0 <= rounds <= MAX_PRELIMINARY_ROUNDS:
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

    largest = table_size + 1 if table_size and values.get("larger_tables") else table_size
    if (
        largest != table_size
        and defaults
        and largest is not None
        and largest > defaults["players_max"]
    ):
        ruleset_size_problem("larger_tables", largest)
    placement.check_points(values.get("placement_points"), largest, problem)
    placement.check_tie_breaks(values.get("tie_breaks"), problem)

    finalists = values.get("finalists")
    if not placement.is_whole(finalists) or finalists < 2:
        problem("finalists", "finalists_invalid", _("The final needs at least 2 players."))
    elif values.get("final_decides") and largest and finalists > largest:
        problem(
            "finalists",
            "finalists_exceed_table",
            _(
                "When the final decides, the final is one table: at most %(size)s players, "
                "not %(count)s."
            ),
            size=largest,
            count=finalists,
        )

    for name_ in ("time_limit_minutes", "auction_stop_minutes"):
        minutes = values.get(name_)
        if minutes is not None and (not placement.is_whole(minutes) or not 1 <= minutes <= MAX_MINUTES):
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
        placement.is_whole(limit)
        and placement.is_whole(stop)
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

    address = values.get("public_base_url") or ""
    if address and not _PUBLIC_ADDRESS.fullmatch(str(address)):
        problem(
            "public_base_url",
            "public_base_url_invalid",
            _("The public address must look like https://host.example.org (no path)."),
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


def _settings_of(tournament: Tournament) -> dict[str, Any]:
    return {name: getattr(tournament, name) for name in SETTINGS_FIELDS}


def _normalise(values: dict[str, Any]) -> dict[str, Any]:
    out = dict(values)
    for name in ("name", "venue", "slug"):
        if isinstance(out.get(name), str):
            out[name] = out[name].strip()
    if out.get("time_limit_mode") is None:
        out["time_limit_mode"] = ""
    if out.get("public_base_url") is None:
        out["public_base_url"] = ""
    if isinstance(out.get("public_base_url"), str):
        out["public_base_url"] = out["public_base_url"].strip().rstrip("/")
    out["strict_cash"] = bool(out.get("strict_cash"))
    out["larger_tables"] = bool(out.get("larger_tables"))
    out["search_engines_may_index"] = bool(out.get("search_engines_may_index"))
    if out.get("retention_months") in ("", 0):
        out["retention_months"] = None
    for name in ("placement_points", "tie_breaks"):
        if isinstance(out.get(name), tuple):
            out[name] = list(out[name])
    return out


def _check_known(names: Iterable[str]) -> None:
    unknown = set(names) - set(SETTINGS_FIELDS)
    if unknown:
        raise TypeError(f"not a tournament setting: {', '.join(sorted(unknown))}")


#: Format presets offered when a tournament is created: settings that replace the form's.
#: "official": the published official tournament rules — three preliminary rounds of about
#: 90 minutes on the time-limit ruleset, at time the current round of turns is finished so
#: that everyone has had as many turns; tables of 4, and 5 where the numbers do not divide;
#: placement points (5 for a win down to 1 for 5th), total assets break ties; a final table
#: of 4 decides; alternates replace no-shows before a round starts (see ``alternates``).
PRESETS: dict[str, dict[str, Any]] = {
    "official": {
        "ruleset": "time-limit",
        "board": "classic-de",
        "table_size": 4,
        "larger_tables": True,
        "preliminary_rounds": 3,
        "format": Tournament.Format.PLACEMENT_POINTS,
        "placement_points": [5, 4, 3, 2, 1],
        "tie_breaks": ["points", "net_worth_sum", "best_net_worth", "head_to_head", "lot"],
        "final_decides": True,
        "finalists": 4,
        "time_limit_minutes": 90,
        "auction_stop_minutes": None,
        "time_limit_mode": Tournament.TimeLimitMode.FINISH_ROUND,
    },
}


def preset_choices() -> list[tuple[str, Any]]:
    return [("", _("None: the settings below")), ("official", _("Official tournament"))]


@transaction.atomic
def create_tournament(
    *, name: str, slug: str, date: dt.date, preset: str = "", **settings: Any
) -> Tournament:
    """Create a draft tournament; omitted settings take the model's (or the ruleset's) defaults.

    ``preset`` (a key of :data:`PRESETS`) replaces the settings it names.
    """
    _check_known(settings)
    if preset:
        if preset not in PRESETS:
            raise SettingsInvalid(
                [
                    Problem(
                        "preset",
                        "preset_unknown",
                        _("There is no format preset “%(key)s”."),
                        {"key": preset},
                    )
                ]
            )
        settings.update(PRESETS[preset])
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
