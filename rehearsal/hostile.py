"""The rehearsal's hostile-input step (issues 15 and 26): what an attacker tried against the real stack
(gunicorn, PostgreSQL, Redis), each answered as it must be — and none of it changes a game
(every probe is refused, or is a read).

``probe`` runs mid-round 1 while the bankers play (the writes need a running game; a second or
two, before the faults); ``probe_after`` after play (ETags, the login limit — also that a
stranger's failures do not lock the owner out (issue 26) —, the policy header).
Each probe becomes one of the report's checks.
"""

from __future__ import annotations

import socket
import time
import urllib.parse
import uuid
from dataclasses import dataclass, field

from .client import Answer, Client

NESTED = b'{"event":' + b"[" * 1_200_000 + b"]" * 1_200_000 + b"}"  # 2.4 MB


def refused_early(base: str, path: str, body: bytes) -> Answer:
    """POST ``body`` the way a client that is refused early sees it: the server answers before
    it reads the body and closes, so the kernel resets the connection while the body is still
    being sent. urllib then loses the answer (status 0); here sending stops at the reset and the
    answer that came before it is read (Linux hands over received data before the reset)."""
    url = urllib.parse.urlsplit(base)
    started = time.perf_counter()
    with socket.create_connection((url.hostname, url.port or 80), timeout=5) as sock:
        head = (f"POST {path} HTTP/1.1\r\nHost: {url.netloc}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n").encode()
        try:
            sock.sendall(head)
            for start in range(0, len(body), 65_536):
                sock.sendall(body[start:start + 65_536])
        except (BrokenPipeError, ConnectionResetError):
            pass
        received = b""
        try:
            while chunk := sock.recv(65_536):
                received += chunk
        except (ConnectionResetError, TimeoutError):
            pass
    seconds = time.perf_counter() - started
    status_line = received.split(b"\r\n", 1)[0].split()
    status = int(status_line[1]) if len(status_line) > 1 and status_line[1].isdigit() else 0
    return Answer(status=status, headers={}, body=received.partition(b"\r\n\r\n")[2],
                  seconds=seconds)


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

    # 1. A 2.4 MB nested body, anonymous: refused before it is read, in a moment.
    answer = refused_early(base, events, NESTED)
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


def _look_alike(name: str) -> str:
    """``name`` in full-width letters (NFKC folds it back to ``name``)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in name)


def _wrong_password(base: str, username: str, *, headers: dict[str, str] | None = None) -> int:
    """A stranger's login with a wrong password from a fresh client (its own cookies): the
    status (429 once the login limit holds)."""
    stranger = Client(base)
    stranger.get("/login/")
    return stranger.request("POST", "/login/", form={
        "username": username, "password": "wrong",
        "csrfmiddlewaretoken": stranger.cookie("csrftoken") or ""}, headers=headers).status


def _owner_not_locked_out(base: str, found: Findings) -> None:
    """The owner logs in once on a phone; a stranger then tries 40 wrong passwords for the
    account (as typed, in capitals and fullwidth — all one account) from the same address;
    the stranger ends at 429, the owner's phone still logs in."""
    from django.contrib.auth.models import User
    from django.db import close_old_connections

    close_old_connections()
    name, password = f"owner-{uuid.uuid4().hex[:6]}", uuid.uuid4().hex
    User.objects.create_user(name, password=password)
    owner = Client(base)
    try:
        owner.login(name, password)
        owner.request("POST", "/logout/", form={
            "csrfmiddlewaretoken": owner.cookie("csrftoken") or ""})
    except RuntimeError as error:
        found.add("a stranger's failures do not lock the owner out", False, repr(error))
        return
    forms = (name, name.upper(), _look_alike(name))
    statuses = [_wrong_password(base, forms[attempt % 3]) for attempt in range(40)]
    try:
        owner.login(name, password)
        detail, ok = f"(stranger: {statuses.count(429)}×429 of 40; owner logged in)", True
    except RuntimeError as error:
        detail, ok = f"(owner refused: {error})", False
    found.add("a stranger's failures do not lock the owner out (known device)",
              ok and 429 in statuses and owner.cookie("known_device") is not None, detail)


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
    statuses = [
        _wrong_password(base, _look_alike(name) if attempt % 2 else name,
                        headers={"X-Forwarded-For": f"198.51.100.{attempt}"})
        for attempt in range(12)
    ]
    found.add("look-alike names and rotated X-Forwarded-For hit the login limit",
              429 in statuses, f"({statuses})")
    # 7b. Issue 26 (4): a stranger's failures do not lock the owner out.
    _owner_not_locked_out(base, found)
    # 8. Every page carries a strict Content-Security-Policy.
    page = anonymous.get(f"/t/{slug}/")
    policy = page.headers.get("Content-Security-Policy", "")
    found.add("public pages send a strict Content-Security-Policy",
              "script-src 'self'" in policy and "unsafe-inline" not in policy, "")
    # 9. Issue 26: nothing private in a public answer, erasure that erases, held results.
    found.probes += probe_privacy(base).probes
    return found


#: Issue 26's private reason, in a banker's break.
PRIVATE_REASON = "Privat: Zoë Krüger musste zum Arzt"
EARLIER, NOW = "Gül Öztürk", "Gül Müller-Weiß"


def _name_forms(*names_: str) -> list[str]:
    """Every form the product writes a name in (as entered, "Last, First", initials), and each
    as a JSON escape ("G\\u00fcl")."""
    import json

    from tournament import names

    found = set()
    for name in names_:
        found |= {name, names.last_name_first(name), names.initials(name)}
    return sorted(found | {json.dumps(form)[1:-1] for form in found})


def probe_privacy(base: str) -> Findings:
    """Issue 26's privacy findings against the real stack, on a small tournament of its own
    (deleted at the end): (1) a banker's private break reason never reaches the public record,
    (3) held results show no figure on the player's public page (chart and its label
    included), (2) erasing a player with a non-ASCII name removes every form of every name she
    had from the audit log (an earlier name, the extra time's and the incident's reasons)."""
    import datetime as dt
    import json

    from auditlog.models import LogEntry
    from django.db import close_old_connections
    from django.utils import timezone

    from referee import rulings
    from referee import services as referee
    from tournament import incidents, names, privacy
    from tournament.models import (
        Round,
        Seat,
        Table,
        Tournament,
    )
    from tournament.players import services as players

    close_old_connections()
    found = Findings()
    tag = uuid.uuid4().hex[:6]
    tournament = Tournament.objects.create(
        name=f"Datenschutz-Probe {tag}", slug=f"privacy-{tag}", date=timezone.localdate(),
        venue="Probe", status=Tournament.Status.RUNNING, table_size=4,
        results_public_immediately=True)
    try:
        gul = players.add_player(tournament=tournament, name=EARLIER, club="Familie Öztürk",
                                 email="guel@example.org", public_name_consent=True)
        gul = players.update_player(player=gul, name=NOW, club="Familie Öztürk",
                                    email="gm.weiss@example.org", public_name_consent=True)
        people = [gul, *(players.add_player(tournament=tournament, name=f"Probe {tag} {n}",
                                            public_name_consent=True) for n in range(3))]
        round_ = Round.objects.create(tournament=tournament, number=1,
                                      status=Round.Status.RUNNING)
        table = Table.objects.create(round=round_, number=1)
        for position, person in enumerate(people, start=1):
            Seat.objects.create(round=round_, table=table, player=person, position=position)
        game = referee.ensure_game(table=table)
        start = timezone.now() - dt.timedelta(minutes=20)
        for minute, event in enumerate([{"type": "start"},
                                        {"type": "pause", "reason": PRIVATE_REASON},
                                        {"type": "resume"}]):
            referee.post_event(game_id=game.pk, event=event, author=None,
                               now=start + dt.timedelta(minutes=minute))
        for index, person in enumerate(people):
            referee.post_event(game_id=game.pk, author=None,
                               event={"type": "cash", "player": str(person.pk),
                                      "amount": 4939 - 1000 * index},
                               now=start + dt.timedelta(minutes=5))
        anonymous = Client(base)

        # 1. The public record: the break is there, its private reason is not.
        answer = anonymous.get(f"/api/v1/tables/{table.pk}/record")
        leaked = [word for word in ("Zoë", "Krüger", "Arzt", "Zo\\u00eb") if word in answer.text]
        found.add("the public record carries no banker's private reason",
                  answer.status == 200 and '"pause"' in answer.text and not leaked,
                  f"({answer.status}, leaked {leaked or 'nothing'})")

        # 3. Results held: the player's page shows no figure a place follows from.
        page = f"/t/{tournament.slug}/players/{gul.pk}/"
        shown = "4.939" in anonymous.get(page).text  # published: the chart's label has it
        tournament.results_public_immediately = False
        tournament.save()
        text = anonymous.get(page).text
        figures = [f for f in ("4.939", "4939", "3.939", "pub-chart", "<polyline") if f in text]
        found.add("held results: the player's page shows no net worth or chart",
                  shown and not figures, f"(before holding: {shown}; while held: "
                                         f"{figures or 'nothing'})")

        # 2. Erasure: every form of both names leaves the audit log (reasons included).
        rulings.extra_time(game_id=game.pk, minutes=5, reason=f"{NOW} kam zu spät", by=None)
        incidents.record_incident(player=gul, level="note", by=None,
                                  note=f"{names.last_name_first(NOW)} (früher {EARLIER})")
        entries = LogEntry.objects.filter(additional_data__tournament=tournament.pk)

        def audit_text() -> str:
            return "\n".join(
                json.dumps([entry.object_repr, entry.changes_text, entry.changes,
                            entry.additional_data], ensure_ascii=ascii_)
                for entry in entries.all() for ascii_ in (True, False))

        forms = _name_forms(EARLIER, NOW) + ["guel@example.org", "gm.weiss@example.org"]
        had = [form for form in forms if form in audit_text()]
        privacy.erase_player(player=gul, actor=None, reason=f"Antrag von {NOW}")
        kept = [form for form in forms if form.casefold() in audit_text().casefold()]
        found.add("erasure removes a non-ASCII name in every form from the audit log",
                  bool(had) and not kept, f"(before: {len(had)} forms; after: {kept or 'none'})")
    finally:
        tournament.delete()
        close_old_connections()
    return found
