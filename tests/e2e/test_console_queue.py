"""The console's offline queue (static/js/console/queue.js) on its own, in the real chromium.

A blank page of the live server's origin loads the module as the console does; the test gives it
a fake events API (``fakeFetch``) that behaves like the real one — it checks the expected
sequence number, answers a repeated idempotency key with its first answer, refuses an event —
and can drop the network before or after the server has taken an event. The queue keeps its
actions in the page's real localStorage.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.e2e

BLANK = "<!doctype html><html lang='de'><head><title>queue</title></head><body></body></html>"

# A fake events API with the real one's rules, and a queue wired to it that records its hooks.
HARNESS = """
() => {
  const server = { seq: 0, events: [], seen: {}, down: 0, loseAnswer: 0, fail: [], session: true };
  const calls = [];
  const hooks = [];
  const respond = (status, body) => new Response(JSON.stringify(body), {
    status, headers: { "Content-Type": "application/json" },
  });
  async function fakeFetch(url, init) {
    const body = JSON.parse(init.body);
    const key = init.headers["Idempotency-Key"];
    calls.push({ url, key, csrf: init.headers["X-CSRFToken"], method: init.method,
                 expected: body.expected_seq, type: body.event.type, waited: body.waited_ms });
    if (server.down > 0) { server.down -= 1; throw new TypeError("Failed to fetch"); }
    if (server.fail.length) return new Response("Bad gateway", { status: server.fail.shift() });
    if (!server.session) {  // expired, or the banker link revoked: refused before the event
      return respond(403, { code: "not_your_table", message_de: "Nicht erlaubt", message_en: "Not allowed" });
    }
    if (key in server.seen) return respond(200, server.seen[key]);
    if (body.event.type === "refused") {
      return respond(422, { code: "refused", rule: "R1", message_de: "Nein", message_en: "No" });
    }
    if (body.expected_seq !== server.seq) {
      return respond(409, { code: "stale_seq", state: { seq: server.seq } });
    }
    server.events.push(body.event);
    server.seq += 1;
    const answer = { state: { seq: server.seq } };
    if (url.includes("fragment=main")) answer.main = "<section>" + server.seq + "</section>";
    server.seen[key] = answer;
    if (server.loseAnswer > 0) { server.loseAnswer -= 1; throw new TypeError("Failed to fetch"); }
    return respond(201, answer);
  }
  let n = 0;
  const make = (seq, extra) => MCS.queue.create({
    key: "monopoly-console:queue:test", url: "/api/events/", headers: { "X-CSRFToken": "tok" },
    seq, fetch: fakeFetch, newKey: () => "key-" + (n += 1), now: () => 1000,
    online: (up) => hooks.push(["online", up]),
    state: (state) => hooks.push(["state", state.seq]),
    serverError: (status) => hooks.push(["serverError", status]),
    conflict: (item) => hooks.push(["conflict", item && item.key]),
    ...extra,
  });
  localStorage.clear();
  Object.assign(window, { server, calls, hooks, make });
}
"""


@pytest.fixture
def qpage(page, live_server, no_script_errors):
    """A blank page of the live server's origin with queue.js loaded and the harness set up."""
    url = f"{live_server.url}/queue-test/"
    page.route(url, lambda route: route.fulfill(body=BLANK, content_type="text/html"))
    page.goto(url)
    page.add_script_tag(url=f"{live_server.url}/static/js/console/queue.js")
    page.evaluate(HARNESS)
    return page


def run(page, body: str):
    """Runs ``body`` (async JavaScript with ``server``, ``calls``, ``hooks``, ``make``)."""
    return page.evaluate(f"async () => {{ {body} }}")


def test_actions_are_numbered_after_the_waiting_ones_and_survive_a_reload(qpage):
    result = run(qpage, """
        const q = make(5);
        q.enqueue([{ type: "deal", deed: "a" }, { type: "deal", deed: "b" }], "Deal");
        q.enqueue([{ type: "pause" }]);
        const again = make(0);  // a reload: a new queue on the same storage
        return { items: q.items(), again: again.items(),
                 stored: JSON.parse(localStorage.getItem("monopoly-console:queue:test")) };
    """)
    assert [(i["key"], i["expected"], i["label"], i["part"]) for i in result["items"]] == [
        ("key-1", 5, "Deal", "1/2"),
        ("key-2", 6, "Deal", "2/2"),
        ("key-3", 7, "pause", ""),
    ]
    assert result["again"] == result["items"] == result["stored"]


def test_a_broken_store_reads_as_an_empty_queue(qpage):
    result = run(qpage, """
        localStorage.setItem("monopoly-console:queue:test", "{not json");
        const broken = make(0).items();
        localStorage.setItem("monopoly-console:queue:test", '{"a": 1}');
        return { broken, notList: make(0).items() };
    """)
    assert result == {"broken": [], "notList": []}


def test_a_flush_sends_everything_in_order_with_keys_and_sequence_numbers(qpage):
    result = run(qpage, """
        server.seq = 5;
        const q = make(5);
        q.enqueue([{ type: "buy", deed: "a" }, { type: "pay", amount: 60 }], "Kauf");
        q.enqueue([{ type: "jail" }], "Gefängnis");
        const done = await q.flush();
        return { done, calls, events: server.events.map((e) => e.type), left: q.items(),
                 seq: q.seq, hooks };
    """)
    assert result["done"] == {"sent": 3, "last": "Gefängnis", "main": None}
    assert result["events"] == ["buy", "pay", "jail"]
    assert [(c["key"], c["expected"], c["csrf"], c["method"], c["url"]) for c in result["calls"]] == [
        ("key-1", 5, "tok", "POST", "/api/events/"),
        ("key-2", 6, "tok", "POST", "/api/events/"),
        ("key-3", 7, "tok", "POST", "/api/events/"),
    ]
    assert result["left"] == [] and result["seq"] == 8
    assert [h for h in result["hooks"] if h[0] == "state"] == [["state", 6], ["state", 7], ["state", 8]]


def test_an_action_made_offline_says_how_long_it_waited(qpage):
    """Issue 28: every post carries how long its action waited on the phone, by the phone's
    own clock (the server keeps when it was made: ``referee.services.made_at``)."""
    result = run(qpage, """
        let clock = 1000;
        const q = make(0, { now: () => clock });
        server.down = 1;
        q.enqueue([{ type: "start" }], "Start");
        await q.flush();  // offline
        clock = 61000;
        q.enqueue([{ type: "pause" }], "Pause");
        clock = 91500;  // back online 90.5 s after the first action
        await q.flush();
        return calls.map((c) => [c.type, c.waited]);
    """)
    assert result == [["start", 0], ["start", 90500], ["pause", 30500]]


def test_without_network_the_queue_waits_and_the_retry_sends_the_same_keys(qpage):
    result = run(qpage, """
        const q = make(0);
        q.enqueue([{ type: "start" }, { type: "pause" }], "x");
        server.down = 1;
        const offline = await q.flush();
        const waiting = q.items().map((i) => [i.key, i.expected, !!i.conflict]);
        const hooksOffline = hooks.slice();
        const back = await q.flush();
        return { offline, waiting, hooksOffline, back, calls, events: server.events, left: q.items() };
    """)
    assert result["offline"] == {"sent": 0, "last": "", "main": None}
    assert result["waiting"] == [["key-1", 0, False], ["key-2", 1, False]]
    assert result["hooksOffline"] == [["online", False]]
    assert result["back"] == {"sent": 2, "last": "x", "main": None}
    assert [c["key"] for c in result["calls"]] == ["key-1", "key-1", "key-2"]
    assert [e["type"] for e in result["events"]] == ["start", "pause"]
    assert result["left"] == []


def test_an_answer_lost_on_the_way_back_is_not_recorded_twice(qpage):
    result = run(qpage, """
        const q = make(0);
        q.enqueue([{ type: "start" }], "Start");
        q.enqueue([{ type: "jail" }], "Gefängnis");
        server.loseAnswer = 1;  // the server took "start", the phone never heard
        const first = await q.flush();
        const waiting = q.items().length;
        const second = await q.flush();
        return { first, waiting, second, events: server.events.map((e) => e.type),
                 keys: calls.map((c) => c.key), seq: q.seq };
    """)
    assert result["first"]["sent"] == 0 and result["waiting"] == 2
    assert result["second"] == {"sent": 2, "last": "Gefängnis", "main": None}
    assert result["keys"] == ["key-1", "key-1", "key-2"]
    assert result["events"] == ["start", "jail"]
    assert result["seq"] == 2


def test_a_server_error_stops_the_flush_without_a_conflict(qpage):
    result = run(qpage, """
        const q = make(0);
        q.enqueue([{ type: "start" }], "Start");
        server.fail = [503];
        const done = await q.flush();
        return { done, hooks, ready: q.ready(), conflict: q.conflict(), left: q.items().length,
                 events: server.events.length };
    """)
    assert result["done"] == {"sent": 0, "last": "", "main": None}
    assert result["hooks"] == [["online", True], ["serverError", 503]]
    assert result["ready"] is True and result["conflict"] is None
    assert result["left"] == 1 and result["events"] == 0


def test_a_stale_sequence_number_stops_at_the_conflict_until_the_banker_resends(qpage):
    result = run(qpage, """
        const q = make(3);
        q.enqueue([{ type: "buy", deed: "a" }], "Kauf");
        q.enqueue([{ type: "jail" }], "Gefängnis");
        server.seq = 5;  // another console posted two events meanwhile
        const first = await q.flush();
        const held = q.items().map((i) => [i.key, i.expected, i.conflict && i.conflict.status]);
        const stuck = await q.flush();
        const callsBefore = calls.length;
        const resolved = q.resolve("resend");
        const renumbered = q.items().map((i) => [i.key, i.expected, "conflict" in i]);
        const after = await q.flush();
        return { first, held, stuck, callsBefore, resolved, renumbered, after, hooks,
                 calls: calls.map((c) => [c.key, c.expected]),
                 events: server.events.map((e) => e.type) };
    """)
    assert result["first"] == {"sent": 0, "last": "", "main": None}
    assert result["held"] == [["key-1", 3, 409], ["key-2", 4, None]]
    assert result["stuck"] == {"sent": 0, "last": "", "main": None} and result["callsBefore"] == 1
    assert ["state", 5] in result["hooks"] and ["conflict", "key-1"] in result["hooks"]
    assert result["resolved"] is True
    assert result["renumbered"] == [["key-1", 5, False], ["key-2", 6, False]]
    assert result["after"] == {"sent": 2, "last": "Gefängnis", "main": None}
    assert result["calls"] == [["key-1", 3], ["key-1", 5], ["key-2", 6]]
    assert result["events"] == ["buy", "jail"]


def test_a_refused_action_is_dropped_and_the_rest_is_renumbered(qpage):
    result = run(qpage, """
        const q = make(0);
        q.enqueue([{ type: "refused" }], "Unerlaubt");
        q.enqueue([{ type: "start" }], "Start");
        await q.flush();
        const conflict = q.conflict();
        const unknown = q.resolve("shrug");
        const dropped = q.resolve("drop");
        const rest = q.items().map((i) => [i.key, i.expected]);
        const done = await q.flush();
        return { conflict, unknown, dropped, rest, done, events: server.events.map((e) => e.type),
                 nothingLeft: q.resolve("drop") };
    """)
    assert result["conflict"]["key"] == "key-1"
    assert result["conflict"]["conflict"] == {
        "status": 422, "code": "refused", "rule": "R1", "message_de": "Nein", "message_en": "No",
    }
    assert result["unknown"] is False and result["dropped"] is True
    assert result["rest"] == [["key-2", 0]]
    assert result["done"] == {"sent": 1, "last": "Start", "main": None}
    assert result["events"] == ["start"]
    assert result["nothingLeft"] is False


def test_a_second_flush_while_one_runs_sends_nothing_twice(qpage):
    result = run(qpage, """
        const q = make(0);
        q.enqueue([{ type: "start" }, { type: "pause" }, { type: "resume" }], "x");
        const [one, two] = await Promise.all([q.flush(), q.flush()]);
        return { one, two, keys: calls.map((c) => c.key), flushing: q.flushing };
    """)
    assert result["one"] == {"sent": 3, "last": "x", "main": None}
    assert result["two"] is None
    assert result["keys"] == ["key-1", "key-2", "key-3"]
    assert result["flushing"] is False


def test_only_the_last_waiting_action_asks_for_the_fragment_and_the_flush_hands_it_over(qpage):
    """Issue 29: the console redraws from the last answer (one request per action); the
    actions before it need no fragment, and a flush whose last answer had none hands none."""
    result = run(qpage, """
        const q = make(0);
        q.enqueue([{ type: "buy", deed: "a" }, { type: "pay", amount: 60 }], "Kauf");
        q.enqueue([{ type: "jail" }], "Gefängnis");
        const done = await make(0, { fragment: () => "fragment=main&player=7" }).flush();
        const asked = calls.map((c) => c.url);
        const plain = make(3);
        plain.enqueue([{ type: "release" }], "Frei");
        const none = await plain.flush();
        return { asked, done, none };
    """)
    assert result["asked"] == ["/api/events/", "/api/events/",
                               "/api/events/?fragment=main&player=7"]
    assert result["done"] == {"sent": 3, "last": "Gefängnis", "main": "<section>3</section>"}
    assert result["none"] == {"sent": 1, "last": "Frei", "main": None}


def test_an_action_the_session_refused_is_held_and_sent_again_after_a_new_login(qpage):
    """Issue 28: an expired session (or a revoked banker link) refuses the action before it is
    looked at; it is held like a conflict, but once the session is back (a new page, a new
    login) it is sent again as it was: its key, its number, the new CSRF token."""
    result = run(qpage, """
        let token = "old";
        const q = make(0, { headers: () => ({ "X-CSRFToken": token }) });
        server.session = false;
        q.enqueue([{ type: "start" }], "Start");
        q.enqueue([{ type: "jail" }], "Gefängnis");
        const refused = await q.flush();
        const held = q.items().map((i) => [i.key, i.expected, i.conflict && i.conflict.status]);
        const bySession = MCS.queue.refusedBySession(q.conflict());
        const stuck = await q.flush();
        server.session = true;  // logged in again: a new session, a new token
        token = "new";
        const retried = q.retrySession();
        const nothingLeft = q.retrySession();
        const done = await q.flush();
        return { refused, held, bySession, stuck, retried, nothingLeft, done,
                 calls: calls.map((c) => [c.key, c.expected, c.csrf]),
                 events: server.events.map((e) => e.type) };
    """)
    assert result["refused"] == {"sent": 0, "last": "", "main": None}
    assert result["held"] == [["key-1", 0, 403], ["key-2", 1, None]]
    assert result["bySession"] is True
    assert result["stuck"] == {"sent": 0, "last": "", "main": None}
    assert result["retried"] is True and result["nothingLeft"] is False
    assert result["done"] == {"sent": 2, "last": "Gefängnis", "main": None}
    assert result["calls"] == [["key-1", 0, "old"], ["key-1", 0, "new"], ["key-2", 1, "new"]]
    assert result["events"] == ["start", "jail"]


def test_only_a_refused_session_is_retried_the_rules_and_a_stale_number_wait_for_the_banker(qpage):
    result = run(qpage, """
        const q = make(0);
        q.enqueue([{ type: "refused" }], "Unerlaubt");
        await q.flush();
        const refusedByRules = [q.retrySession(), q.resolve("retry"), q.conflict().conflict.status];
        q.resolve("drop");
        server.seq = 2;
        q.enqueue([{ type: "jail" }], "Gefängnis");
        await q.flush();
        const stale = [q.retrySession(), q.resolve("retry"), q.conflict().conflict.status];
        server.session = false;
        q.resolve("resend");
        await q.flush();
        const session = [MCS.queue.refusedBySession(q.conflict()), q.resolve("retry"),
                         q.items().map((i) => [i.key, i.expected, "conflict" in i])];
        return { refusedByRules, stale, session };
    """)
    assert result["refusedByRules"] == [False, False, 422]
    assert result["stale"] == [False, False, 409]
    # "retry" keeps the action's number: a table that moved on meanwhile answers 409 then
    assert result["session"] == [True, True, [["key-2", 2, False]]]
