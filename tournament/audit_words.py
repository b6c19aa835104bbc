"""The audit log's changes in words: field names become their verbose names, empty values
"–", choices their labels, yes/no, local times, and ids of people and rows their names (see
:mod:`tournament.audit`, which reads the entries)."""

from __future__ import annotations

import ast
import datetime as dt
import json

from django.contrib.auth.models import User
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament
from tournament.names import account_name

NOTHING = "–"

#: Words for stored codes of fields without choices (filled by the apps that own them, e.g.
#: how a result was confirmed): field name → stored value → words.
VALUE_WORDS: dict[str, dict[str, object]] = {}


def _empty(value) -> bool:
    return value is None or str(value) in ("None", "", "{}", "[]")


def _lookup(model, name: str):
    """The model's field called ``name`` (a reverse relation too), or None."""
    if model is None:
        return None
    try:
        return model._meta.get_field(name)
    except FieldDoesNotExist:
        return None


def _field(model, name: str):
    field = _lookup(model, name)
    return field if getattr(field, "concrete", False) else None  # not a reverse relation


def local_time(value, *, time_only: bool = False) -> str:
    """A stored time (auditlog keeps them naive in UTC) as the hall's local time."""
    moment = parse_datetime(value) if isinstance(value, str) else value
    if not isinstance(moment, dt.datetime):
        return str(value)
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, dt.UTC)
    moment = timezone.localtime(moment)
    if time_only:
        return moment.strftime("%H:%M")
    return formats.date_format(moment, "SHORT_DATETIME_FORMAT")


def _parsed(value):
    """A JSON field's stored value (JSON, or the repr of a dict or list) as data."""
    if not isinstance(value, str):
        return value
    try:
        return json.loads(value)
    except ValueError:
        pass
    try:
        return ast.literal_eval(value)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return value


#: Where names of changes that are no field of the changed row get their words: the fields of
#: these models (an app adds its own, e.g. a game's time overrides noted on its table), then
#: this table of names.
OTHER_MODELS: list[type] = [Tournament]
FIELD_WORDS: dict[str, object] = {}


def field_label(model, name: str) -> str:
    """A field's verbose name (the tournament's for keys of time overrides), else the name
    with spaces."""
    if _field(model, name) is None and name in FIELD_WORDS:
        return str(capfirst(FIELD_WORDS[name]))
    for candidate in (model, *OTHER_MODELS):
        field = _field(candidate, name)
        if field is not None and getattr(field, "verbose_name", None):
            return str(capfirst(field.verbose_name))
    return name.replace("_", " ").capitalize()


class Words:
    """Puts a batch of log entries' before → after values into words: field names become
    their verbose names, empty values "–", choices their labels, yes/no, local times, and ids
    of people and rows their names (looked up once for the whole batch)."""

    def __init__(self, rows=()):
        wanted: dict[type, set[int]] = {}
        for entry in rows:
            model = entry.content_type.model_class() if entry.content_type_id else None
            for name, pair in (entry.changes_dict or {}).items():
                field = _field(model, name)
                if field is None or not getattr(field, "many_to_one", False):
                    continue
                for value in pair if isinstance(pair, list | tuple) else ():
                    if not _empty(value) and str(value).isdigit():
                        wanted.setdefault(field.related_model, set()).add(int(value))
        self.names: dict[tuple[type, int], str] = {}
        self.targets: dict[tuple[type, int], str] = {}
        changed: dict[type, set[int]] = {}
        for entry in rows:
            model = entry.content_type.model_class() if entry.content_type_id else None
            imported = (entry.additional_data or {}).get("imported")
            if model is not None and entry.object_id is not None and not imported:
                changed.setdefault(model, set()).add(entry.object_id)
        for model, ids in changed.items():  # named now, in the reader's language
            # every non-null foreign key along (a row's name often names its round, table …)
            for obj in model._default_manager.filter(pk__in=ids).select_related():
                self.targets[(model, obj.pk)] = str(obj)
        for related, ids in wanted.items():
            for obj in related._default_manager.filter(pk__in=ids).select_related():
                name = account_name(obj) if isinstance(obj, User) else str(obj)
                self.names[(related, obj.pk)] = name

    def target(self, entry) -> str:
        """What the entry changed, named in the reader's language while it exists (the stored
        name is in the language of the request that changed it)."""
        if (entry.additional_data or {}).get("imported"):
            return entry.object_repr  # filed under the tournament, named as it was exported
        model = entry.content_type.model_class() if entry.content_type_id else None
        return self.targets.get((model, entry.object_id), entry.object_repr)

    @staticmethod
    def shown(model, name: str) -> bool:
        """Not the row's id, nor its reverse relations (auditlog lists them on creation)."""
        field = _lookup(model, name)
        return field is None or (bool(getattr(field, "concrete", False)) and not field.primary_key)

    def value(self, model, name: str, value) -> str:
        if _empty(value):
            return NOTHING
        text = str(value)
        if name in VALUE_WORDS and text in VALUE_WORDS[name]:
            return str(VALUE_WORDS[name][text])
        field = _field(model, name)
        if field is None:
            data = _parsed(text) if text[:1] in "{[" else text
            return self._data(model, data) if isinstance(data, dict | list) else text
        if getattr(field, "many_to_one", False):
            key = (field.related_model, int(text)) if text.isdigit() else None
            return self.names.get(key, text) if key else text
        if field.choices:
            return str(dict(field.flatchoices).get(text, text))
        if isinstance(field, models.BooleanField):
            return str(_("yes")) if text == "True" else str(_("no"))
        if isinstance(field, models.DateTimeField):
            return local_time(text)
        if isinstance(field, models.JSONField):
            data = _parsed(value)
            if isinstance(data, dict | list):
                return self._data(model, data)
        return text

    def _data(self, model, data: dict | list) -> str:
        if isinstance(data, dict):
            return "; ".join(
                f"{field_label(model, str(key))}: {NOTHING if _empty(item) else item}"
                for key, item in data.items()
            ) or NOTHING
        return ", ".join(map(str, data)) or NOTHING

    def change(self, model, name: str, before, after) -> str:
        return (f"{field_label(model, name)}: {self.value(model, name, before)} → "
                f"{self.value(model, name, after)}")
