"""Forms of the organizer's pages: they check the shape of input; services decide the rest."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from . import csv_import, tournaments
from .models import Player, Tournament

TIE_BREAK_SLOTS = 5


def error_text(error) -> str:
    """A domain error's message in the active language."""
    return error.message_in(translation.get_language() or "de")


def _label(model, name: str) -> Any:
    return model._meta.get_field(name).verbose_name


def _help(model, name: str) -> Any:
    return model._meta.get_field(name).help_text


class TournamentForm(forms.Form):
    """All settings of a tournament. Frozen settings are disabled once it runs."""

    name = forms.CharField(label=_label(Tournament, "name"), max_length=200)
    slug = forms.SlugField(
        label=_("Short name for addresses"),
        max_length=60,
        help_text=_(
            "Letters, digits and -, e.g. karlsruhe-2026; the public page is /t/<short name>/."
        ),
    )
    date = forms.DateField(
        label=_label(Tournament, "date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    venue = forms.CharField(label=_label(Tournament, "venue"), max_length=200, required=False)
    ruleset = forms.ChoiceField(
        label=_label(Tournament, "ruleset"), choices=tournaments.ruleset_choices
    )
    board = forms.ChoiceField(label=_label(Tournament, "board"), choices=tournaments.board_choices)
    table_size = forms.IntegerField(
        label=_label(Tournament, "table_size"),
        min_value=2,
        max_value=8,
        help_text=_("Usually 6; 4 for some formats. Short tables have one player less."),
    )
    preliminary_rounds = forms.IntegerField(
        label=_label(Tournament, "preliminary_rounds"),
        min_value=0,
        max_value=tournaments.MAX_PRELIMINARY_ROUNDS,
    )
    format = forms.ChoiceField(
        label=_label(Tournament, "format"), choices=Tournament.Format.choices
    )
    final_decides = forms.BooleanField(
        label=_label(Tournament, "final_decides"),
        required=False,
        help_text=_help(Tournament, "final_decides"),
    )
    placement_points = forms.CharField(
        label=_label(Tournament, "placement_points"),
        help_text=_help(Tournament, "placement_points"),
    )
    finalists = forms.IntegerField(
        label=_label(Tournament, "finalists"), min_value=0, help_text=_help(Tournament, "finalists")
    )
    time_limit_minutes = forms.IntegerField(
        label=_label(Tournament, "time_limit_minutes"),
        required=False,
        min_value=1,
        max_value=tournaments.MAX_MINUTES,
        help_text=_("Empty: the ruleset's."),
    )
    auction_stop_minutes = forms.IntegerField(
        label=_label(Tournament, "auction_stop_minutes"),
        required=False,
        min_value=1,
        max_value=tournaments.MAX_MINUTES,
        help_text=_("Empty: the ruleset's."),
    )
    time_limit_mode = forms.ChoiceField(
        label=_label(Tournament, "time_limit_mode"),
        required=False,
        choices=[("", _("As the ruleset says")), *Tournament.TimeLimitMode.choices],
    )
    results_public_immediately = forms.BooleanField(
        label=_label(Tournament, "results_public_immediately"),
        required=False,
        help_text=_help(Tournament, "results_public_immediately"),
    )

    def __init__(self, *args: Any, tournament: Tournament | None = None, **kwargs: Any) -> None:
        self.tournament = tournament
        if tournament is not None and "initial" not in kwargs:
            kwargs["initial"] = initial_from(tournament)
        super().__init__(*args, **kwargs)
        choices = [("", "—"), *Tournament.TieBreak.choices]
        for slot in range(1, TIE_BREAK_SLOTS + 1):
            self.fields[f"tie_break_{slot}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": slot},
                choices=choices,
                required=slot == 1,
            )
        if tournament is not None and tournament.status in tournaments.FROZEN_STATES:
            for name in tournaments.FROZEN_WHEN_RUNNING:
                for field_name in self._form_fields_of(name):
                    self.fields[field_name].disabled = True
                    self.fields[field_name].help_text = _(
                        "Frozen: the tournament is running or finished."
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
        return data

    def add_problems(self, error: tournaments.SettingsInvalid) -> None:
        """Show a service's refusal next to the fields it names."""
        for problem in error.problems:
            target = problem.field
            if target == "tie_breaks":
                target = "tie_break_1"
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
    name = forms.CharField(label=_label(Player, "name"), max_length=200)
    club = forms.CharField(
        label=_label(Player, "club"),
        max_length=200,
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
                _("The file is %(size)s KB; at most %(max)s KB can be imported.")
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
