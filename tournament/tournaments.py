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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from config.inputs import visible_text
from tournament import errors, placement
from tournament.errors import (
    SETTINGS_FROZEN,
    SETTINGS_FROZEN_FINAL,
    SettingsFrozen,
    SettingsInvalid,
)
from tournament.models import Round, Tournament
from tournament.wording import Problem, lazy_join

Status = Tournament.Status

def field_label(name: str) -> Any:
    """The (lazily translated) verbose name of a Tournament field."""
    return Tournament._meta.get_field(name).verbose_name


# --------------------------------------------------------------------------- the rules engine


def _rules():
    from referee import rules  # the pure rules library; lazy so Django starts without it

    return rules


#: The engine names its rulesets and boards in German (its data files); the pages name them in
#: the reader's language. A ruleset or board not listed here keeps the engine's name.
RULESET_NAMES: dict[str, Any] = {
    "karlsruhe": _("1st Monopoly City Championship Karlsruhe"),
    "classic": _("Classic (standard game)"),
    "short-game": _("Short game"),
    "time-limit": _("Variant with a time limit"),
    "castle-short": _("Castle edition, short game"),
    "classic-dm": _("Classic, DM edition"),
}
BOARD_NAMES: dict[str, Any] = {
    "classic-de": _("Monopoly, German standard edition (M / €)"),
    "classic-de-dm": _("Monopoly, German edition in DM (× 20)"),
}


def ruleset_choices() -> list[tuple[str, str]]:
    """(key, name) of every ruleset the engine knows, named in the active language."""
    return [
        (key, str(RULESET_NAMES.get(key, ruleset.name)))
        for key, ruleset in _rules().RULESETS.items()
    ]


def board_choices() -> list[tuple[str, str]]:
    """(key, name) of every built-in board of the engine, named in the active language."""
    rules = _rules()
    return [(key, str(BOARD_NAMES.get(key, rules.get_board(key).name))) for key in rules.BOARD_KEYS]


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
#: What else decides who is in the final: frozen once the final is seated from it.
FROZEN_WHEN_FINAL_SEATED = ("finalists",)

#: Slugs that would clash with the organizer's own URLs (``/manage/new/``).
RESERVED_SLUGS = frozenset({"new"})
MAX_PRELIMINARY_ROUNDS = 20
MAX_MINUTES = 600
NAME_MAX = 200
SLUG_MAX = 60
_PUBLIC_ADDRESS = re.compile(r"https?://[A-Za-z0-9.\-\[\]:]+(:\d{1,5})?/?")


class _Settings:
    """The settings under check and what the checks derive from them, each found once."""

    def __init__(self, values: Mapping[str, Any], tournament: Tournament | None) -> None:
        self.values = values
        self.tournament = tournament
        self.name = (values.get("name") or "").strip()
        self.slug = values.get("slug") or ""
        try:
            validate_slug(self.slug)
        except ValidationError:
            self.slug_valid = False
        else:
            self.slug_valid = True
        self.rulesets = dict(ruleset_choices())
        self.ruleset = values.get("ruleset")
        self.defaults = ruleset_defaults(self.ruleset) if self.ruleset in self.rulesets else None
        self.boards = dict(board_choices())
        size = values.get("table_size")
        #: The table size if it is one at all (2 to 8), and the largest table (one more when
        #: larger tables are allowed).
        self.table_size = size if _within(size, 2, 8) else None
        larger = self.table_size and values.get("larger_tables")
        self.largest = self.table_size + 1 if larger else self.table_size
        defaults = self.defaults or {}
        self.limit = values.get("time_limit_minutes") or defaults.get("time_limit_minutes")
        self.stop = values.get("auction_stop_minutes") or defaults.get("auction_stop_minutes")

    def get(self, name: str) -> Any:
        return self.values.get(name)

    def beyond_ruleset(self, size: int | None) -> bool:
        """Whether the ruleset (if known) does not play with ``size`` players at a table."""
        return bool(
            self.defaults
            and size is not None
            and not self.defaults["players_min"] <= size <= self.defaults["players_max"]
        )

    def ruleset_sizes(self, size: int | None) -> dict[str, Any]:
        assert self.defaults is not None
        return {"ruleset": self.ruleset, "min": self.defaults["players_min"],
                "max": self.defaults["players_max"], "size": size}

    def slug_taken(self) -> bool:
        others = Tournament.objects.filter(slug=self.slug)
        if self.tournament is not None:
            others = others.exclude(pk=self.tournament.pk)
        return others.exists()


def _within(value: Any, low: int, high: int) -> bool:
    return placement.is_whole(value) and low <= value <= high


def _minutes_invalid(name: str) -> Callable[[_Settings], bool]:
    return lambda s: s.get(name) is not None and not _within(s.get(name), 1, MAX_MINUTES)


@dataclass(frozen=True)
class Check:
    """One row of the settings table: the setting it speaks of, the problem's stable code and
    words, when it is refused and the words' parameters (found only then)."""

    field: str
    code: str
    message: Any
    refused: Callable[[_Settings], Any]
    params: Callable[[_Settings], dict[str, Any]] | None = None

    def apply(self, settings: _Settings, problems: list[Problem]) -> None:
        if self.refused(settings):
            params = self.params(settings) if self.params else {}
            problems.append(Problem(self.field, self.code, self.message, params))


@dataclass(frozen=True)
class Placement:
    """Rows kept in :mod:`tournament.placement` (points per place, tie-breaks), in their turn."""

    run: Callable[[_Settings, Callable[..., None]], None]

    def apply(self, settings: _Settings, problems: list[Problem]) -> None:
        def problem(name: str, code: str, message: Any, /, **params: Any) -> None:
            problems.append(Problem(name, code, message, params))

        self.run(settings, problem)


#: Every check of a tournament's settings, in the order their problems are listed.
SETTINGS_CHECKS: tuple[Check | Placement, ...] = (
    Check("retention_months", "retention_invalid", errors.RETENTION_INVALID,
          lambda s: s.get("retention_months") is not None
          and not _within(s.get("retention_months"), 1, RETENTION_MAX_MONTHS),
          lambda s: {"max": RETENTION_MAX_MONTHS}),
    Check("name", "name_missing", errors.TOURNAMENT_NAME_MISSING, lambda s: not s.name),
    Check("name", "name_too_long", errors.TOURNAMENT_NAME_TOO_LONG,
          lambda s: len(s.name) > NAME_MAX, lambda s: {"max": NAME_MAX}),
    Check("slug", "slug_invalid", errors.SLUG_INVALID,
          lambda s: not s.slug_valid, lambda s: {"slug": s.slug}),
    Check("slug", "slug_reserved", errors.SLUG_RESERVED,
          lambda s: s.slug_valid and s.slug in RESERVED_SLUGS, lambda s: {"slug": s.slug}),
    Check("slug", "slug_too_long", errors.SLUG_TOO_LONG,
          lambda s: s.slug_valid and s.slug not in RESERVED_SLUGS and len(s.slug) > SLUG_MAX),
    Check("slug", "slug_taken", errors.SLUG_TAKEN,
          lambda s: s.slug_valid and s.slug not in RESERVED_SLUGS and len(s.slug) <= SLUG_MAX
          and s.slug_taken(),
          lambda s: {"slug": s.slug}),
    Check("date", "date_missing", errors.DATE_MISSING,
          lambda s: not isinstance(s.get("date"), dt.date)),
    Check("ruleset", "ruleset_unknown", errors.RULESET_UNKNOWN,
          lambda s: s.defaults is None,
          lambda s: {"key": s.ruleset, "known": ", ".join(s.rulesets)}),
    Check("board", "board_unknown", errors.BOARD_UNKNOWN,
          lambda s: s.get("board") not in s.boards,
          lambda s: {"key": s.get("board"), "known": ", ".join(s.boards)}),
    Check("table_size", "table_size_invalid", errors.TABLE_SIZE_INVALID,
          lambda s: s.table_size is None),
    Check("table_size", "table_size_ruleset", errors.TABLE_SIZE_RULESET,
          lambda s: s.beyond_ruleset(s.table_size), lambda s: s.ruleset_sizes(s.table_size)),
    Check("preliminary_rounds", "preliminary_rounds_invalid", errors.PRELIMINARY_ROUNDS_INVALID,
          lambda s: not _within(s.get("preliminary_rounds"), 0, MAX_PRELIMINARY_ROUNDS),
          lambda s: {"max": MAX_PRELIMINARY_ROUNDS}),
    Check("format", "format_unknown", errors.FORMAT_UNKNOWN,
          lambda s: s.get("format") not in Tournament.Format.values,
          lambda s: {"key": s.get("format")}),
    Check("larger_tables", "table_size_ruleset", errors.TABLE_SIZE_RULESET,
          lambda s: s.largest != s.table_size
          and s.defaults is not None and s.largest > s.defaults["players_max"],
          lambda s: s.ruleset_sizes(s.largest)),
    Placement(lambda s, problem: placement.check_points(
        s.get("placement_points"), s.largest, problem)),
    Placement(lambda s, problem: placement.check_tie_breaks(s.get("tie_breaks"), problem)),
    Check("finalists", "finalists_invalid", errors.FINALISTS_INVALID,
          lambda s: not placement.is_whole(s.get("finalists")) or s.get("finalists") < 2),
    Check("finalists", "finalists_exceed_table", errors.FINALISTS_EXCEED_TABLE,
          lambda s: placement.is_whole(s.get("finalists")) and s.get("finalists") >= 2
          and s.get("final_decides") and s.largest and s.get("finalists") > s.largest,
          lambda s: {"size": s.largest, "count": s.get("finalists")}),
    *(
        Check(name, "minutes_invalid", errors.MINUTES_INVALID, _minutes_invalid(name),
              lambda s, name=name: {"setting": field_label(name), "max": MAX_MINUTES})
        for name in ("time_limit_minutes", "auction_stop_minutes")
    ),
    Check("auction_stop_minutes", "auction_stop_after_limit", errors.AUCTION_STOP_AFTER_LIMIT,
          lambda s: placement.is_whole(s.limit) and placement.is_whole(s.stop)
          and s.stop >= s.limit
          and not _minutes_invalid("time_limit_minutes")(s)
          and not _minutes_invalid("auction_stop_minutes")(s),
          lambda s: {"stop": s.stop, "limit": s.limit}),
    Check("public_base_url", "public_base_url_invalid", errors.PUBLIC_BASE_URL_INVALID,
          lambda s: s.get("public_base_url")
          and not _PUBLIC_ADDRESS.fullmatch(str(s.get("public_base_url")))),
    Check("time_limit_mode", "time_limit_mode_unknown", errors.TIME_LIMIT_MODE_UNKNOWN,
          lambda s: s.get("time_limit_mode")
          and s.get("time_limit_mode") not in Tournament.TimeLimitMode.values,
          lambda s: {"key": s.get("time_limit_mode")}),
)


def validate_settings(values: Mapping[str, Any], *, tournament: Tournament | None = None) -> None:
    """Check a complete set of settings; raise :class:`SettingsInvalid` listing every problem."""
    settings = _Settings(values, tournament)
    problems: list[Problem] = []
    for check in SETTINGS_CHECKS:
        check.apply(settings, problems)
    if problems:
        raise SettingsInvalid(problems)


def _settings_of(tournament: Tournament) -> dict[str, Any]:
    return {name: getattr(tournament, name) for name in SETTINGS_FIELDS}


def _normalise(values: dict[str, Any]) -> dict[str, Any]:
    out = dict(values)
    for name in ("name", "venue", "slug"):
        if isinstance(out.get(name), str):
            out[name] = out[name].strip()
    for name in ("name", "venue"):  # shown publicly: no bidi or zero-width characters
        if isinstance(out.get(name), str):
            out[name] = visible_text(out[name]).strip()
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
                    Problem("preset", "preset_unknown", errors.PRESET_UNKNOWN, {"key": preset})
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


def final_round(tournament: Tournament) -> int | None:
    """The number of the tournament's final once it is seated, else None."""
    return (tournament.rounds.filter(kind=Round.Kind.FINAL)
            .values_list("number", flat=True).first())


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
                    "status": Tournament.Status(tournament.status).label,
                },
            )
    final = final_round(tournament)
    if final is not None:
        frozen = [name for name in FROZEN_WHEN_FINAL_SEATED if values[name] != current[name]]
        if frozen:
            raise SettingsFrozen(
                SETTINGS_FROZEN_FINAL,
                params={"fields": lazy_join([field_label(name) for name in frozen], ", "),
                        "number": final},
            )
    validate_settings(values, tournament=tournament)
    changed = [name for name in SETTINGS_FIELDS if values[name] != current[name]]
    for name in changed:
        setattr(tournament, name, values[name])
    if changed:
        tournament.save(update_fields=changed)
    return tournament
