"""How the form fuzz sends and judges hostile input (shared by the test_form_fuzz_* modules):
the hostile values, the malformed variants of a valid submission, a fingerprint of every stored
row (a refused post saves nothing) and the walk over every page that searches it for an
unescaped script.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.contrib.auth.models import Group, User
from django.db import transaction
from django.test import Client

from referee import engine_cache
from referee.models import Game
from scoring.models import HallScreen
from tournament.models import Player, Table, Tournament

from ._form_catalogue import RAW_PAYLOADS, XSS, Form, _organizer

#: Replaces one field at a time.
HOSTILE = [
    "",
    "abc",
    "-1",
    "1.5",
    "1e400",
    "9" * 30,
    "x" * 100_000,
    "a\x00b",
    XSS,
    "\u202eevil\u0301 ",
    ["1", "2"],  # the field twice
]


# --------------------------------------------------------------------------- checks


def _fingerprint() -> list:
    """Every row of every model that holds tournament data (sessions aside)."""
    models = [
        *apps.get_app_config("tournament").get_models(),
        *apps.get_app_config("referee").get_models(),
        *apps.get_app_config("scoring").get_models(),
        User,
        Group,
    ]
    rows = []
    for model in models:
        names = [f.attname for f in model._meta.concrete_fields
                 if (model, f.name) not in COUNTERS]
        values = model.objects.order_by("pk").values_list(*names)
        if model is User:
            values = values.exclude(username="fuzz-organizer")  # last_login moves on login
        rows.append((model.__name__, list(values)))
    return rows


#: Counted by design when a post is refused: a wrong confirmation code counts towards the
#: table's cap (issue 15), even though the post itself is refused.
COUNTERS = {(Game, "wrong_codes")}


def _shows_error(body: str) -> bool:
    return any(mark in body for mark in ('class="errorlist', 'role="alert"', 'class="error'))


def _public_paths() -> list[str]:
    paths = ["/"]
    for tournament in Tournament.objects.all():
        slug = tournament.slug
        paths += [f"/t/{slug}/", f"/t/{slug}/tables/", f"/t/{slug}/screen",
                  f"/t/{slug}/live/standings", f"/t/{slug}/live/tables",
                  f"/t/{slug}/live/standings/top", f"/t/{slug}/live/find?q=Spieler",
                  f"/t/{slug}/live/v", f"/t/{slug}/live/cards?n=1,2", f"/t/{slug}/?all=1",
                  *[f"/t/{slug}/hall/{key}/{part}" for key in
                    HallScreen.objects.filter(tournament=tournament).values_list("key", flat=True)
                    for part in ("", "live")],
                  f"/t/{slug}/live/screen/standings", f"/t/{slug}/live/screen/tables"]
        for number in set(
            Table.objects.filter(round__tournament=tournament).values_list("number", flat=True)
        ):
            paths += [f"/t/{slug}/tables/{number}/", f"/t/{slug}/live/tables/{number}"]
        for pk, code in Player.objects.filter(tournament=tournament).values_list("pk",
                                                                                 "pass_code"):
            paths += [f"/t/{slug}/players/{pk}/", f"/t/{slug}/live/players/{pk}",
                      f"/p/{code}/", f"/p/{code}/live"]
    return paths


def _private_paths() -> list[str]:
    paths = ["/manage/", "/banker/"]
    for tournament in Tournament.objects.all():
        slug = tournament.slug
        paths += [f"/manage/{slug}/", f"/manage/{slug}/players/", f"/manage/{slug}/check-in/",
                  f"/manage/{slug}/rounds/", f"/manage/{slug}/desk/",
                  f"/manage/{slug}/desk/live/", f"/manage/{slug}/settings/"]
        for round_ in tournament.rounds.all():
            paths += [f"/manage/{slug}/rounds/{round_.number}/",
                      f"/manage/{slug}/rounds/{round_.number}/bankers/"]
    for table in Table.objects.all():
        paths += [f"/banker/table/{table.pk}/", f"/banker/table/{table.pk}/main/"]
    return paths


def _assert_escaped_everywhere(client: Client, context: str) -> None:
    """Spectators' pages anonymously, the organizer's and the console as the organizer."""
    anonymous = Client(raise_request_exception=False)
    pages = [(anonymous, path) for path in _public_paths()]
    pages += [(client, path) for path in _private_paths()]
    for who, path in pages:
        answer = who.get(path)
        assert answer.status_code < 500, (context, path, answer.status_code)
        body = answer.content.decode(errors="replace")
        for raw in RAW_PAYLOADS:
            assert raw not in body, f"{context}: unescaped {raw!r} on {path}"


def _send(client: Client, form: Form, world, data: dict, files: dict, **extra):
    path = form.path(world)
    if form.method == "get":
        return client.get(path, data, **extra)
    return client.post(path, {**data, **files}, **extra)


def _variants(valid: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    variants: list[tuple[str, dict[str, Any]]] = [("nothing", {}), ("valid", dict(valid))]
    for name in valid:
        variants.append((f"without {name}", {k: v for k, v in valid.items() if k != name}))
        for value in HOSTILE:
            label = value if isinstance(value, list) else repr(value[:20])
            variants.append((f"{name}={label}", {**valid, name: value}))
    variants.append(("unknown field", {**valid, "x" * 1000: XSS}))
    return variants


@dataclass
class Outcome:
    failures: list[str] = field(default_factory=list)
    #: Fields whose script-laden value a form took: checked on every page at the end, together.
    scripted: list[str] = field(default_factory=list)


def _run_variant(world, client: Client, form: Form, label: str, data: dict, files: dict,
                 outcome: Outcome, address: str, *, walk_pages: bool = False) -> bool:
    """Send one variant (rolled back afterwards); True if the form took it. ``walk_pages``:
    if it did, search every page for an unescaped script."""
    engine_cache.clear()
    with transaction.atomic():
        before = _fingerprint() if form.method == "post" else None
        answer = _send(client, form, world, data, files, REMOTE_ADDR=address)
        status = answer.status_code
        body = answer.content.decode(errors="replace") if not answer.streaming else ""
        refused = status >= 400 or (status == 200 and _shows_error(body))
        if status >= 500:
            outcome.failures.append(f"{label}: {status}")
        elif before is not None and refused:
            if _fingerprint() != before:
                outcome.failures.append(f"{label}: refused ({status}) but saved something")
        elif before is None:  # a search stores nothing: only its own answer can reflect a script
            outcome.failures += [f"{label}: unescaped {raw!r} in the answer"
                                 for raw in RAW_PAYLOADS if raw in body]
        elif walk_pages:
            try:
                _assert_escaped_everywhere(client, label)
            except AssertionError as error:
                outcome.failures.append(str(error))
        transaction.set_rollback(True)
    return status < 400 and not refused


def _fuzz(world, form: Form, *, subnet: int, with_files: bool) -> None:
    """Every malformed variant of the form's valid input, each from an address of its own (in
    10.<subnet>.x.y) so that no rate limit answers instead of the form. The fields that took a
    script-laden value are then sent together once, and every page is searched for the script
    (one walk per form instead of one per field: the pages show all of them at once)."""
    client = _organizer(world)
    outcome = Outcome()
    valid = form.valid(world)
    variants = _variants(valid)
    for index, (label, data) in enumerate(variants):
        files = form.files(world) if with_files and label != "nothing" else {}
        taken = _run_variant(world, client, form, label, data, files, outcome,
                             address=f"10.{subnet}.{index // 250}.{index % 250 + 1}")
        scripted = [name for name, value in data.items() if value == XSS and valid.get(name) != XSS]
        if taken and form.method == "post" and scripted:
            outcome.scripted += scripted
    if outcome.scripted:
        data = {**valid, **dict.fromkeys(outcome.scripted, XSS)}
        files = form.files(world) if with_files else {}
        if not _run_variant(world, client, form, "every script-laden field", data, files, outcome,
                            address=f"10.{subnet}.{len(variants) // 250}.{len(variants) % 250 + 1}",
                            walk_pages=True):
            outcome.failures.append(f"took {outcome.scripted} one by one, not together")
    assert outcome.failures == [], "\n".join(outcome.failures[:30])


