"""The rehearsal's hostile-input step (issue 15): what an attacker tried against the real stack
(gunicorn, PostgreSQL, Redis), each answered as it must be — and none of it changes a game
(every probe is refused, or is a read).

``probe`` runs mid-round 1 while the bankers play (the writes need a running game; a second or
two, before the faults); ``probe_after`` after play (ETags, the login limit, the policy header).
Each probe becomes one of the report's checks.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from .client import Client

NESTED = b'{"event":' + b"[" * 1_200_000 + b"]" * 1_200_000 + b"}"  # 2.4 MB


@dataclass
class Probe:
    name: str
    ok: bool
    detail: str = ""


@dataclass
class Findings:
    probes: list[Probe] = field(default_factory=list)
    refuse_seconds: float | None = None  # the anonymous 2.4 MB body, answered in

    def add(self, name: str, ok: bool, detail: str = "") -> None:
        self.probes.append(Probe(name, bool(ok), detail))


def _code(answer) -> str:
    try:
        data = answer.json()
    except ValueError:
        return ""
    if not isinstance(data, dict):
        return ""
    return str(data.get("rule") if data.get("code") == "event_refused" else data.get("code"))


def probe(base: str, organizer: Client, *, slug: str) -> Findings:
    """Every case of issue 15 against a running table of the tournament ``slug``."""
    from django.db import close_old_connections

    from referee.models import Game, GameEvent

    close_old_connections()
    found = Findings()
    game = (Game.objects.filter(table__round__tournament__slug=slug, status=Game.Status.RUNNING)
            .select_related("table").order_by("pk").first())
    if game is None:
        found.add("hostile input: a running table to probe", False, "none running")
        return found
    events = f"/api/v1/tables/{game.table_id}/events"
    player = game.players[0]
    anonymous = Client(base)

    # 1. A 2.4 MB nested body, anonymous: refused before it is read, in a moment.
    answer = anonymous.request("POST", events, data=NESTED,
                               headers={"Content-Type": "application/json"})
    found.refuse_seconds = answer.seconds
    found.add("anonymous 2.4 MB nested body: 403 before it is read",
              answer.status in (401, 403) and answer.seconds < 0.5,
              f"({answer.status} in {answer.seconds * 1000:.0f} ms)")
    # 2. The same nesting from a writer: 400 (depth) / 413 (size), never a 500.
    deep = b'{"event":' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    answer = organizer.request("POST", events, data=deep,
                               headers={"Content-Type": "application/json"})
    found.add("a writer's deeply nested body: 400", answer.status == 400
              and _code(answer) == "body_too_deep", f"({answer.status} {_code(answer)})")
    answer = organizer.request("POST", events, data=NESTED,
                               headers={"Content-Type": "application/json"})
    found.add("a writer's 2.4 MB body: 413", answer.status == 413, f"({answer.status})")
    # 3. Amounts bounded by the ruleset.
    answer = organizer.post(events, {"event": {"type": "pay", "from": "bank", "to": player,
                                               "amount": 10**15}})
    found.add("pay of 10^15: 422 amount_too_large",
              answer.status == 422 and _code(answer) == "amount_too_large",
              f"({answer.status} {_code(answer)})")
    # 4. Unknown and oversized event fields.
    answer = organizer.post(events, {"event": {"type": "pause", "payload": "x"}})
    found.add("an unknown event field: 400", answer.status == 400
              and _code(answer) == "unknown_event_field", f"({answer.status} {_code(answer)})")
    answer = organizer.post(events, {"event": {"type": "pause", "reason": "x" * 5000}})
    found.add("an oversized event: 400", answer.status == 400
              and _code(answer) == "event_too_large", f"({answer.status} {_code(answer)})")
    # 5. A reused Idempotency-Key with another event.
    used = (GameEvent.objects.filter(game=game).exclude(idempotency_key="")
            .order_by("seq").first())
    if used is not None:
        answer = organizer.post(events, {"event": {"type": "cash", "player": player,
                                                   "amount": 1}},
                                headers={"Idempotency-Key": used.idempotency_key})
        found.add("a reused Idempotency-Key with another event: 422",
                  answer.status == 422 and _code(answer) == "idempotency_key_reused",
                  f"({answer.status} {_code(answer)})")
    return found


def probe_after(base: str, *, slug: str) -> Findings:
    """The reads and the login limit, after play (ten password checks are work for a worker,
    kept out of the fault windows)."""
    from referee.models import Game

    found = Findings()
    anonymous = Client(base)
    game = (Game.objects.filter(table__round__tournament__slug=slug).order_by("pk").first())
    # 6. /state and /record answer 304 to a client that has them.
    for path in (f"/api/v1/tables/{game.table_id}/state",
                 f"/api/v1/tables/{game.table_id}/record"):
        first = anonymous.get(path)
        etag = first.headers.get("ETag", "")
        again = anonymous.get(path, headers={"If-None-Match": etag})
        found.add(f"{path.rsplit('/', 1)[-1]}: ETag and 304", bool(etag) and again.status == 304,
                  f"({first.status} → {again.status})")
    # 7. A look-alike user name and a rotated X-Forwarded-For share one login limit.
    name = f"mallory-{uuid.uuid4().hex[:6]}"
    fullwidth = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)
    statuses = []
    for attempt in range(12):
        client = Client(base)
        client.get("/login/")
        answer = client.request("POST", "/login/", form={
            "username": fullwidth if attempt % 2 else name, "password": "wrong",
            "csrfmiddlewaretoken": client.cookie("csrftoken") or ""},
            headers={"X-Forwarded-For": f"198.51.100.{attempt}"})
        statuses.append(answer.status)
    found.add("look-alike names and rotated X-Forwarded-For hit the login limit",
              429 in statuses, f"({statuses})")
    # 8. Every page carries a strict Content-Security-Policy.
    page = anonymous.get(f"/t/{slug}/")
    policy = page.headers.get("Content-Security-Policy", "")
    found.add("public pages send a strict Content-Security-Policy",
              "script-src 'self'" in policy and "unsafe-inline" not in policy, "")
    return found
