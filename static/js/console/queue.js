/* The console's offline queue: every action waits here (in localStorage, per table) until the
 * events API has taken it, and is sent strictly in order with its idempotency key and the
 * sequence number it expects. Without network the queue waits; a retry sends the same keys, so
 * the server answers a repeat with its first answer. A 409 (stale) or 422 (refused) stops the
 * queue at that action until the banker drops it or sends it again (renumbered). A 401/403 (the
 * session expired, the banker link was revoked) says nothing about the action itself: it is held
 * the same way, but retrySession() sends it again as it was once the session is back.
 *
 * No page, no DOM: storage, fetch, the key generator and the clock are injectable (the browser
 * tests in tests/e2e/test_console_queue.py give it fakes). The console (console.js) reacts
 * through the hooks: change (the queue or its state changed), online (the server answered or
 * not), state (the server's state of the game), serverError, conflict.
 *
 * Each post says how long its action waited (waited_ms, by this phone's clock): an action made
 * offline keeps when it was made (the server's made_at), not only when it arrived.
 *
 * The last waiting action asks for the console's fragment with its answer (option fragment: the
 * query, e.g. "fragment=main&player=3"): the console redraws from it, one request per action.
 */
(function () {
  "use strict";

  const MCS = window.MCS = window.MCS || {};

  function uuid() {
    const c = window.crypto;
    if (c && c.randomUUID) return c.randomUUID();
    const b = c.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** Refused for its session (expired, or the banker link revoked), not for what it does. */
  function refusedBySession(item) {
    return !!(item && item.conflict && (item.conflict.status === 401 || item.conflict.status === 403));
  }

  /**
   * options: key (the storage key), url (the events API), headers (sent with every post, e.g.
   * the CSRF token; or a function giving them at each post: a new login brings a new token),
   * seq (the game's sequence number as the page knows it), fragment (a function giving the
   * query that asks for the fragment), storage, fetch, newKey, now, and the hooks named above.
   */
  function createQueue(options) {
    const storage = options.storage || window.localStorage;
    const send = options.fetch || ((url, init) => window.fetch(url, init));
    const newKey = options.newKey || uuid;
    const now = options.now || (() => Date.now());
    const hook = (name, ...args) => { if (options[name]) options[name](...args); };
    let seq = options.seq || 0;
    let flushing = false;
    let flushStarted = 0;

    function items() {
      try {
        const q = JSON.parse(storage.getItem(options.key) || "[]");
        return Array.isArray(q) ? q : [];
      } catch (err) {
        return [];
      }
    }
    function save(q) {
      storage.setItem(options.key, JSON.stringify(q));
      hook("change");
    }
    function renumber(q) {
      q.forEach((item, i) => { item.expected = seq + i; });
      return q;
    }

    /** Queues the events of one action (in order, after everything already waiting). */
    function enqueue(events, label) {
      const q = items();
      const base = seq + q.length;
      const added = events.map((event, i) => ({
        key: newKey(), event, expected: base + i, label: label || event.type,
        part: events.length > 1 ? `${i + 1}/${events.length}` : "", at: now(),
      }));
      save(q.concat(added));
      return added;
    }

    function markConflict(item, status, body) {
      const rest = items();
      if (rest.length && rest[0].key === item.key) {
        rest[0].conflict = {
          status,
          code: body.code || "",
          rule: body.rule || "",
          message_de: body.message_de || body.detail || "",
          message_en: body.message_en || body.detail || "",
        };
        save(rest);
      }
      hook("conflict", items().find((i) => i.conflict) || null);
    }

    /**
     * Sends the waiting actions, oldest first, until the queue is empty, the network fails, the
     * server fails (5xx, 429, no JSON) or an action meets a conflict. Resolves to
     * {sent, last, main} (how many went through, the label of the last, the fragment of the
     * last answer when it carried one and nothing was sent after it), or null when a flush was
     * already running.
     */
    async function flush() {
      if (flushing) return null;
      flushing = true;
      flushStarted = now();
      hook("change");
      let sent = 0;
      let last = "";
      let main = null;
      try {
        for (;;) {
          const q = items();
          if (!q.length || q[0].conflict) break;
          const item = q[0];
          // Only the last action's answer is drawn: the others need no fragment.
          const query = q.length === 1 && options.fragment ? options.fragment() : "";
          const url = query ? options.url + (options.url.includes("?") ? "&" : "?") + query : options.url;
          let res;
          try {
            res = await send(url, {
              method: "POST",
              credentials: "same-origin",
              headers: Object.assign(
                { "Content-Type": "application/json" },
                (typeof options.headers === "function" ? options.headers() : options.headers) || {},
                { "Idempotency-Key": item.key },
              ),
              body: JSON.stringify(Object.assign(
                { event: item.event, expected_seq: item.expected },
                // How long the action waited here, by this phone's clock: the server keeps when
                // it was made (made_at) for a wait of 10 s or more; its own clock stays the
                // game's (the rules' times).
                typeof item.at === "number" ? { waited_ms: Math.max(0, Math.round(now() - item.at)) } : {},
              )),
            });
          } catch (err) {
            hook("online", false);
            break;
          }
          hook("online", true);
          let body = null;
          try {
            body = await res.json();
          } catch (err) {
            body = null;
          }
          if (res.status === 201 || res.status === 200) {
            const rest = items();
            if (rest.length && rest[0].key === item.key) rest.shift();
            save(rest);
            if (body && body.state) {
              seq = body.state.seq;
              hook("state", body.state);
            }
            sent += 1;
            last = item.label;
            main = body && typeof body.main === "string" ? body.main : null;
            continue;
          }
          if (res.status >= 500 || res.status === 429 || !body) {
            hook("serverError", res.status);
            break;
          }
          if (res.status === 409 && body.state) {
            seq = body.state.seq;
            hook("state", body.state);
          }
          markConflict(item, res.status, body);
          break;
        }
      } finally {
        flushing = false;
        hook("change");
      }
      return { sent, last, main };
    }

    /** The banker's answer to a conflict: "drop" the action, "resend" it (renumbered), or
     * "retry" one the session refused (as it was: a table that moved on answers 409 then). */
    function resolve(what) {
      const q = items();
      const index = q.findIndex((i) => i.conflict);
      if (index < 0) return false;
      if (what === "drop") q.splice(index, 1);
      else if (what === "resend") delete q[index].conflict;
      else if (what === "retry" && refusedBySession(q[index])) {
        delete q[index].conflict;
        save(q);
        return true;
      } else return false;
      save(renumber(q));
      return true;
    }

    /** The actions the session refused are sendable again (a new page, a new login, the link
     * opened again): true when there was one. The next flush sends them with their keys. */
    function retrySession() {
      const q = items();
      const held = q.filter(refusedBySession);
      if (!held.length) return false;
      held.forEach((item) => { delete item.conflict; });
      save(q);
      return true;
    }

    return {
      items,
      enqueue,
      flush,
      resolve,
      retrySession,
      /** The action waiting for the banker's decision, if any. */
      conflict: () => items().find((i) => i.conflict) || null,
      /** Whether the first waiting action can be sent (there is one, and no conflict). */
      ready: () => { const q = items(); return q.length > 0 && !q[0].conflict; },
      get key() { return options.key; },
      get seq() { return seq; },
      set seq(value) { seq = value; },
      get flushing() { return flushing; },
      get flushStarted() { return flushStarted; },
    };
  }

  MCS.queue = { create: createQueue, uuid, refusedBySession };
})();
