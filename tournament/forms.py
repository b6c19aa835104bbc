"""Forms of the organizer's pages: they check the shape of input; services decide the rest."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament import tournaments
from tournament.models import PRIVATE_NOTE_MAX, Player, Tournament
from tournament.players import csv_import
from tournament.players import errors as player_errors
from tournament.players.services import CLUB_MAX, NAME_MAX

TIE_BREAK_SLOTS = 5


def error_text(error) -> str:
    """A domain error's message in the active language."""
    return error.message_in(translation.get_language() or "de")


def _label(model, name: str) -> Any:
    """The model's verbose name as a label: capitalised (verbose names are lower case, and a
    plain form does not capitalise them as a model form would; "date" read as a label)."""
    return capfirst(model._meta.get_field(name).verbose_name)


def _help(model, name: str) -> Any:
    return model._meta.get_field(name).help_text


def _setting(field_class, name: str, **options: Any) -> forms.Field:
    """The form field of the tournament's setting ``name``: label and help text as the model
    says, unless ``options`` say otherwise."""
    options.setdefault("label", _label(Tournament, name))
    options.setdefault("help_text", _help(Tournament, name))
    return field_class(**options)


class TournamentForm(forms.Form):
    """All settings of a tournament. Frozen settings are disabled once it runs."""

    name = _setting(forms.CharField, "name", max_length=200)
    slug = forms.SlugField(
        label=_("Short name for addresses"),
        max_length=60,
        help_text=_(
            "Letters, digits and -, e.g. karlsruhe-2026; the public page is /t/<short name>/."
        ),
    )
    date = _setting(
        forms.DateField, "date", widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    venue = _setting(forms.CharField, "venue", max_length=200, required=False)
    ruleset = _setting(forms.ChoiceField, "ruleset", choices=tournaments.ruleset_choices)
    board = _setting(forms.ChoiceField, "board", choices=tournaments.board_choices)
    table_size = _setting(
        forms.IntegerField, "table_size", min_value=2, max_value=8,
        help_text=_("Usually 6; 4 for some formats. Short tables have one player less."),
    )
    larger_tables = _setting(forms.BooleanField, "larger_tables", required=False)
    preliminary_rounds = _setting(
        forms.IntegerField, "preliminary_rounds", min_value=0,
        max_value=tournaments.MAX_PRELIMINARY_ROUNDS,
    )
    format = _setting(forms.ChoiceField, "format", choices=Tournament.Format.choices)
    final_decides = _setting(forms.BooleanField, "final_decides", required=False)
    placement_points = _setting(forms.CharField, "placement_points")
    finalists = _setting(forms.IntegerField, "finalists", min_value=0)
    time_limit_minutes = _setting(
        forms.IntegerField, "time_limit_minutes", required=False, min_value=1,
        max_value=tournaments.MAX_MINUTES, help_text=_("Empty: the ruleset's."),
    )
    auction_stop_minutes = _setting(
        forms.IntegerField, "auction_stop_minutes", required=False, min_value=1,
        max_value=tournaments.MAX_MINUTES, help_text=_("Empty: the ruleset's."),
    )
    time_limit_mode = _setting(
        forms.ChoiceField, "time_limit_mode", required=False, help_text="",
        choices=[("", _("As the ruleset says")), *Tournament.TimeLimitMode.choices],
    )
    results_public_immediately = _setting(
        forms.BooleanField, "results_public_immediately", required=False
    )
    strict_cash = _setting(forms.BooleanField, "strict_cash", required=False)
    public_base_url = _setting(
        forms.CharField, "public_base_url", required=False, max_length=200,
        widget=forms.URLInput(attrs={"placeholder": "https://…", "inputmode": "url"}),
    )
    retention_months = forms.IntegerField(
        label=_label(Tournament, "retention_months"),
        required=False,
        min_value=1,
        max_value=240,
        help_text=_help(Tournament, "retention_months"),
    )
    search_engines_may_index = forms.BooleanField(
        label=_label(Tournament, "search_engines_may_index"),
        required=False,
        help_text=_help(Tournament, "search_engines_may_index"),
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        self.tournament = tournament
        if tournament is not None and "initial" not in kwargs:
            kwargs["initial"] = initial_from(tournament)
        super().__init__(*args, **kwargs)
        if tournament is None:  # creating: a format preset may fill in the settings
            self.fields["preset"] = forms.ChoiceField(
                label=_("Format preset"),
                required=False,
                choices=tournaments.preset_choices,
                help_text=_(
                    "Official tournament: time-limit rules, the round of turns finished at "
                    "time, tables of 4 (and 5), placement points 5-4-3-2-1, total assets break "
                    "ties, three rounds and a final table of 4. Replaces the settings below."
                ),
            )
            self.order_fields(["name", "slug", "date", "venue", "preset"])
        choices = [("", "—"), *Tournament.TieBreak.choices]
        for slot in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{slot}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": slot},
                choices=choices,
                required=slot == 1,
                widget=forms.Select(attrs={"data-exclusive": "tie-breaks"}),
            )
        if tournament is not None and tournament.status in tournaments.FROZEN_STATES:
            for name in tournaments.FROZEN_WHEN_RUNNING:
                for field_name in self._form_fields_of(name):
                    self.fields[field_name].disabled = True
                    self.fields[field_name].help_text = _(
                        "Frozen: the tournament is running or finished."
                    )
        if tournament is not None and tournaments.final_round(tournament) is not None:
            for name in tournaments.FROZEN_WHEN_FINAL_SEATED:
                for field_name in self._form_fields_of(name):
                    self.fields[field_name].disabled = True
                    self.fields[field_name].help_text = _(
                        "Frozen: the final is seated by it."
                    )

    @staticmethod
    def _form_fields_of(setting: str) -> list[str]:
        if setting == "tie_breaks":
            return [f"tie_break_{slot}" for slot in range(1, TIE_BREAK_SLOTS + 1)]
        return [setting]

    def tie_break_fields(self):
        return [self[f"tie_break_{slot}"] for slot in range(1, TIE_BREAK_SLOTS + 1)]

    def clean_placement_points(self) -> list[int]:
        raw = self.cleaned_data["placement_points"]
        parts = [part for part in re.split(r"[\s,;/-]+", raw.strip()) if part]
        if not parts or not all(part.isdigit() for part in parts):
            raise forms.ValidationError(
                _("Write the points as whole numbers separated by commas, e.g. 6,5,4,3,2,1.")
            )
        return [int(part) for part in parts]

    def settings(self) -> dict[str, Any]:
        """The cleaned data as service keyword arguments."""
        data = dict(self.cleaned_data)
        data["tie_breaks"] = [
            data.pop(f"tie_break_{slot}") for slot in range(1, TIE_BREAK_SLOTS + 1)
        ]
        data["tie_breaks"] = [key for key in data["tie_breaks"] if key]
        data["time_limit_mode"] = data.get("time_limit_mode") or ""
        if "preset" in data:
            data["preset"] = data["preset"] or ""
        return data

    def _tie_break_slot(self, code: str) -> str:
        """The slot a tie-break problem belongs to: a repeated choice at its second slot."""
        if code == "tie_break_duplicate":
            seen: set[str] = set()
            for slot in range(1, TIE_BREAK_SLOTS + 1):
                key = self.cleaned_data.get(f"tie_break_{slot}")
                if key and key in seen:
                    return f"tie_break_{slot}"
                seen.add(key)
        return "tie_break_1"

    def add_problems(self, error: tournaments.SettingsInvalid) -> None:
        """Show a service's refusal next to the fields it names."""
        for problem in error.problems:
            target = problem.field
            if target == "tie_breaks":
                target = self._tie_break_slot(problem.code)
            if target not in self.fields and "preset" in self.fields and self.data.get("preset"):
                target = "preset"
            self.add_error(target if target in self.fields else None, str(problem.text))


def initial_from(tournament: Tournament) -> dict[str, Any]:
    initial = {name: getattr(tournament, name) for name in tournaments.SETTINGS_FIELDS}
    initial["placement_points"] = ",".join(str(p) for p in tournament.placement_points)
    for slot in range(1, TIE_BREAK_SLOTS + 1):
        keys = tournament.tie_breaks
        initial[f"tie_break_{slot}"] = keys[slot - 1] if slot <= len(keys) else ""
    return initial


def new_tournament_initial() -> dict[str, Any]:
    blank = Tournament()
    initial = initial_from(blank)
    initial.pop("name")
    initial.pop("slug")
    initial.pop("date")
    return initial


class TransitionForm(forms.Form):
    to = forms.ChoiceField(choices=Tournament.Status.choices)


class PlayerForm(forms.Form):
    # The model's limits: the browser's maxlength says what the server accepts.
    name = forms.CharField(label=_label(Player, "name"), max_length=NAME_MAX)
    club = forms.CharField(
        label=_label(Player, "club"),
        max_length=CLUB_MAX,
        required=False,
        help_text=_("Club or family, by name or short name; a new club is created when unknown."),
        widget=forms.TextInput(attrs={"list": "club-names", "autocomplete": "off"}),
    )
    email = forms.CharField(
        label=_label(Player, "email"), max_length=254, required=False, widget=forms.EmailInput
    )
    public_name_consent = forms.BooleanField(
        label=_label(Player, "public_name_consent"),
        required=False,
        help_text=_help(Player, "public_name_consent"),
    )
    private_note = forms.CharField(
        label=_label(Player, "private_note"),
        required=False,
        max_length=PRIVATE_NOTE_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_help(Player, "private_note"),
    )

    def __init__(self, *args: Any, player: Player | None = None, **kwargs: Any) -> None:
        if player is not None and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": player.name,
                "club": player.club.name if player.club_id else "",
                "email": player.email,
                "public_name_consent": player.public_name_consent,
                "private_note": player.private_note,
            }
        super().__init__(*args, **kwargs)

    def add_refusal(self, error) -> None:
        """Show a service's refusal next to its field (or above the form)."""
        field = getattr(error, "field", None)
        if field is None and getattr(error, "code", "") == "player_name_taken":
            field = "name"
        self.add_error(field if field in self.fields else None, error_text(error))


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "Columns: name, club, e-mail, consent (German: Name, Verein, E-Mail, Einwilligung); "
            "comma or semicolon; UTF-8 or Windows-1252. Consent: ja/nein, yes/no, 1/0, x or empty."
        ),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > csv_import.MAX_BYTES:
            raise forms.ValidationError(
                player_errors.TOO_BIG
                % {"size": upload.size // 1024, "max": csv_import.MAX_BYTES // 1024}
            )
        return upload


class DeskSearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=100)
    show = forms.ChoiceField(
        required=False,
        choices=[
            ("all", _("All")),
            ("missing", _("Not checked in")),
            ("checked_in", _("Checked in")),
        ],
    )
