/* The console's offline queue: every action waits here (in localStorage, per table) until the
 * events API has taken it, and is sent strictly in order with its idempotency key and the
 * sequence number it expects. Without network the queue waits; a retry sends the same keys, so
 * the server answers a repeat with its first answer. A 409 (stale) or 422 (refused) stops the
 * queue at that action until the banker drops it or sends it again (renumbered).
 *
 * No page, no DOM: storage, fetch, the key generator and the clock are injectable (the browser
 * tests in tests/e2e/test_console_queue.py give it fakes). The console (console.js) reacts
 * through the hooks: change (the queue or its state changed), online (the server answered or
 * not), state (the server's state of the game), serverError, conflict.
 */
(function (global) {
  "use strict";

  function uuid() {
    const c = global.crypto;
    if (c && c.randomUUID) return c.randomUUID();
    const b = c.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /**
   * options: key (the storage key), url (the events API), headers (sent with every post, e.g.
   * the CSRF token), seq (the game's sequence number as the page knows it), storage, fetch,
   * newKey, now, and the hooks named above.
   */
  function createQueue(options) {
    const storage = options.storage || global.localStorage;
    const send = options.fetch || ((url, init) => global.fetch(url, init));
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
     * {sent, last} (how many went through, the label of the last), or null when a flush was
     * already running.
     */
    async function flush() {
      if (flushing) return null;
      flushing = true;
      flushStarted = now();
      hook("change");
      let sent = 0;
      let last = "";
      try {
        for (;;) {
          const q = items();
          if (!q.length || q[0].conflict) break;
          const item = q[0];
          let res;
          try {
            res = await send(options.url, {
              method: "POST",
              credentials: "same-origin",
              headers: Object.assign(
                { "Content-Type": "application/json" }, options.headers || {},
                { "Idempotency-Key": item.key },
              ),
              body: JSON.stringify({ event: item.event, expected_seq: item.expected }),
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
      return { sent, last };
    }

    /** The banker's answer to a conflict: "drop" the action or "resend" it (renumbered). */
    function resolve(what) {
      const q = items();
      const index = q.findIndex((i) => i.conflict);
      if (index < 0) return false;
      if (what === "drop") q.splice(index, 1);
      else if (what === "resend") delete q[index].conflict;
      else return false;
      save(renumber(q));
      return true;
    }

    return {
      items,
      enqueue,
      flush,
      resolve,
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

  global.ConsoleQueue = { create: createQueue, uuid };
})(window);
