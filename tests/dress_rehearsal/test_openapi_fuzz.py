"""Hostile input against the whole REST API: schemathesis generates requests from the OpenAPI
schema (``/api/schema/``, drf-spectacular) — valid ones and ones that break it — and sends them
in-process through the WSGI application. No answer may be a server error (status >= 500).

Reads anonymously and as the organizer, writes as the organizer, each with schemathesis's
boundary cases and generated examples; writes also anonymously and as desk, head referee and the
banker of table 1, with generated examples. The target is a small running tournament (a game
running at table 1, a counted result at table 2) and a second tournament in registration whose
draft round is seated, so that most generated ids and slugs hit real objects. Each example runs
in a savepoint that is rolled back: every example sees the same data, and the run is
derandomized.
"""

from __future__ import annotations

import traceback
import zlib
from typing import Any

import hypothesis
import pytest
import schemathesis
from django.core.signals import got_request_exception, request_finished, request_started
from django.db import close_old_connections, transaction
from django.test import Client
from factories import UserFactory, appoint
from hypothesis import HealthCheck

from config.wsgi import application
from referee import engine_cache
from tournament.models import StaffRole
from tournament.rounds import services

from ._fuzz_world import build_fuzz_world

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)

EXAMPLES = 20
STAFF_EXAMPLES = 15
CSRF = "fuzzcsrftokenfuzzcsrftokenfuzzcs"  # 32 characters: an unmasked CSRF secret


@pytest.fixture
def world(db) -> dict[str, Any]:
    """What the generated ids and slugs are aimed at."""
    built = build_fuzz_world()
    round_, draft, tables = built.round, built.draft, built.tables
    players, waiting, organizer = built.players, built.waiting, built.organizer
    for table in tables:
        services.issue_link(table=table)

    sessions = {}
    banker = UserFactory(username="fuzz-banker-api", password=None)
    tables[0].banker = banker
    tables[0].save(update_fields=["banker"])
    accounts = {
        "organizer": organizer,
        "desk": appoint(UserFactory(username="fuzz-desk", password=None), StaffRole.Role.DESK),
        "head_referee": appoint(UserFactory(username="fuzz-referee", password=None),
                                StaffRole.Role.HEAD_REFEREE),
        "banker": appoint(banker, StaffRole.Role.BANKER),
    }
    for who, user in accounts.items():
        client = Client()
        client.force_login(user)
        sessions[who] = client.cookies["sessionid"].value
    rounds = [round_.pk, draft.pk]
    table_ids = [*[t.pk for t in tables], *draft.tables.values_list("pk", flat=True)]
    return {
        "sessions": sessions,
        "ids": {
            "id": {"rounds": rounds, "tables": table_ids,
                   "players": [p.pk for p in players + waiting]},
            "table_id": {"tables": table_ids},
        },
        "player_slug": {
            **{p.pk: "fuzz" for p in players}, **{p.pk: "fuzz-open" for p in waiting}
        },
        "slugs": ["fuzz", "fuzz-open"],
    }


def _number(value: Any) -> int | None:
    if isinstance(value, str) and value.isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None  # a malformed id stays as generated


def _aim(case, world: dict[str, Any]) -> None:
    """Point most generated path parameters at existing objects, deterministically: a generated
    value picks the object; one in four slugs and one in five ids stay as generated."""
    params = case.path_parameters or {}
    for name in ("slug", "tournament_slug"):
        value = params.get(name)
        if isinstance(value, str) and len(value) % 4 != 3:
            params[name] = world["slugs"][len(value) % 2]
    for name in ("id", "table_id"):
        number = _number(params.get(name))
        kinds = world["ids"][name]
        if number is None or number % 5 == 4:
            continue
        kind = next((k for k in kinds if f"/{k}/" in case.path), next(iter(kinds)))
        chosen = kinds[kind][number % len(kinds[kind])]
        params[name] = chosen
        if kind == "players" and "tournament_slug" in params:
            params["tournament_slug"] = world["player_slug"][chosen]


#: What the generator seldom produces on its own; one of them replaces one value of most examples.
HOSTILE_TEXT = [
    "a\x00b",  # PostgreSQL text and jsonb refuse NUL
    "x" * 100_000,
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "../../etc/passwd",
    " ",
]
#: Only in JSON bodies, where "\ud800" is valid syntax (an HTTP client cannot send it elsewhere).
LONE_SURROGATE = "\ud800"
HOSTILE_NUMBERS = [-1, 0, 2**31, 2**63, 10**30, -(10**30), 1.5, True, None, "1e400"]


def _leaves(value: Any) -> list[tuple[Any, Any]]:
    """Every leaf of a generated dict or list, with a function that replaces it."""
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return []
    found = []
    for key, item in items:
        nested = _leaves(item)
        if nested:
            found += nested
        else:
            found.append((item, lambda new, key=key, value=value: value.__setitem__(key, new)))
    return found


def _digest(case) -> int:
    return zlib.crc32(repr((case.path_parameters, case.query, case.body)).encode())


def _poison(case, digest: int) -> None:
    """Deterministically (from the generated case's digest, taken before ids were aimed at this
    run's rows) replace one leaf with a hostile value: two examples in three; the others stay
    as the generator made them."""
    if digest % 3 == 0:
        return
    slots = [(*leaf, False) for leaf in _leaves(case.path_parameters) + _leaves(case.query)]
    json_body = "json" in (case.media_type or "")
    slots += [(*leaf, json_body) for leaf in _leaves(case.body)]
    if not slots:
        return
    value, setter, in_json = slots[(digest // 3) % len(slots)]
    if isinstance(value, (int, float)):
        pool = HOSTILE_NUMBERS
    else:
        pool = [*HOSTILE_TEXT, LONE_SURROGATE] if in_json else HOSTILE_TEXT
    setter(pool[(digest // 7) % len(pool)])


@pytest.fixture
def server_errors():
    """Tracebacks of exceptions the WSGI handler turned into 500 answers.

    As Django's test client does, the handler must not close the test's database connection
    after each request (it would on PostgreSQL: the test's transaction is open)."""
    seen: list[str] = []

    def record(sender, request=None, **kwargs):
        seen.append(traceback.format_exc())

    got_request_exception.connect(record)
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield seen
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
        got_request_exception.disconnect(record)


def _settings(examples: int = EXAMPLES, *, coverage: bool = True):
    """``coverage``: schemathesis's explicit examples (each field's boundaries and wrong types,
    a few hundred requests per operation) before the generated ones."""
    phases = [hypothesis.Phase.explicit] if coverage else []
    return hypothesis.settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
        phases=[*phases, hypothesis.Phase.generate],
    )


@pytest.mark.filterwarnings("ignore:Cache key will cause errors if used with memcached")
@pytest.mark.parametrize("who", ["anonymous", "organizer"])
@schema.include(method="GET").parametrize()
@_settings()
def test_no_server_error_reading(case, who, world, server_errors):
    _call(case, who, world, server_errors)


@pytest.mark.filterwarnings("ignore:Cache key will cause errors if used with memcached")
@pytest.mark.parametrize("who", ["organizer"])  # also names each operation's test uniquely
@schema.exclude(method="GET").parametrize()
@_settings()
def test_no_server_error_writing_as_organizer(case, who, world, server_errors):
    """Every boundary of every write, with the widest rights: past the permission check, the
    other roles run the same serializers and services."""
    _call(case, who, world, server_errors)


@pytest.mark.filterwarnings("ignore:Cache key will cause errors if used with memcached")
@pytest.mark.parametrize("who", ["anonymous", "desk", "head_referee", "banker"])
@schema.exclude(method="GET").parametrize()
@_settings(examples=STAFF_EXAMPLES, coverage=False)
def test_no_server_error_writing_in_every_other_role(case, who, world, server_errors):
    """The same writes without a session and with each other role's (issue 15): what each may
    write, it writes with hostile input too. Generated examples only: the boundaries are the
    organizer's test above."""
    _call(case, who, world, server_errors)


def _call(case, who, world, server_errors) -> None:
    digest = _digest(case)
    _aim(case, world)
    _poison(case, digest)
    if case.body and isinstance(case.body, dict) and "seconds" in case.body:
        case.body["seconds"] = 0.1  # the seating search's time budget: keep the run short
    kwargs: dict[str, Any] = {}
    if who != "anonymous":
        kwargs["cookies"] = {"sessionid": world["sessions"][who], "csrftoken": CSRF}
        kwargs["headers"] = {"X-CSRFToken": CSRF}
    engine_cache.clear()
    server_errors.clear()
    with transaction.atomic():
        response = case.call(**kwargs)
        transaction.set_rollback(True)
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path} -> {response.status_code}\n"
        f"{case.as_curl_command()}\n" + "\n".join(server_errors[-1:])
    )
