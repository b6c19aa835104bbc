/* The banker's console: the page's wiring — the fragment, the players, the engine's answer before
 * confirming, the action sheets, the offline state — around four helpers loaded before it:
 * console/util.js (shared helpers), console/queue.js (the offline queue), console/clock.js (the
 * clock bar), console/actions.js (events built from the forms) and console/conflict.js (a queued
 * action the server refused).
 *
 * Every action goes through send(): the queue gives each event an idempotency key, keeps it in
 * localStorage (per table) and flushes it in order to the events API with the expected sequence
 * number. Without network the queue waits (and says so); when the network is back it is sent
 * with the same keys. A 409/422 stops the flush and the banker decides: drop or reload. An
 * action the session refused (expired, link revoked) is kept and sent again once the console
 * opens with a session again (a new page, the banker back from the login, the retry button).
 * Page fragments come from the server: after an action with the post's answer (one request per
 * action), else by htmx; strings come translated from the server.
 *
 * The console follows the table like the public pages: every second (while it is seen) it asks
 * the state API whether the table changed since the state its fragment shows (the fragment
 * carries that state's ETag: a 304 costs a few small reads, no lock). Only a change fetches the
 * fragment (itself ETag/304); the clock and the extra-time chip follow the state at once. A
 * phone woken up, a page shown again by Back/Forward (bfcache) ask at once.
 *
 * A service worker (/banker/sw.js) keeps the page, its fragment and the static files, so that a
 * reload without network still opens the console: such a page is marked data-source="cache", the
 * console then says it is offline and how old its state is, and fetches the fresh state as soon
 * as the server answers again.
 */
(function () {
  "use strict";

  const root = document.getElementById("console");
  if (!root) return;
  const cfg = JSON.parse(document.getElementById("console-config").textContent);
  const I18N = JSON.parse(document.getElementById("console-i18n").textContent);
  const PKEY = "monopoly-console:player:" + cfg.table;
  // The deal's ticks not yet booked (actions.js), per table and game ("new": no row yet).
  const TKEY = "monopoly-console:deal:" + cfg.table + ":";
  const MCS = window.MCS;
  const { $, $$, esc, int, translator } = MCS.util;
  const { LIVE, createClock, createActions, createConflictBox } = MCS.console;
  const t = translator(I18N);

  let data = { players: [], deeds: {}, seq: 0, pending: [] };
  let online = navigator.onLine !== false;
  let refreshWhenClosed = false;
  let keptMain = null; // a post's fragment that came while a sheet was open
  let stateEtag = null; // the state the console shows, as the state API names it
  let polling = false;
  let stale = null; // {time: "HH:MM"} while the fragment on screen is a kept copy, not the server's
  const asked = {};

  // The CSRF token as the cookie has it now: a login in another tab (or the banker link
  // opened again) brings a new one, and a held action is sent with it.
  function csrfToken() {
    const name = (cfg.csrf_cookie || "csrftoken") + "=";
    const found = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith(name));
    return found ? decodeURIComponent(found.slice(name.length)) : cfg.csrf;
  }
  const conflictBox = createConflictBox({
    t, conflict: () => queue.conflict(), checkUrl: cfg.urls.check, csrf: csrfToken,
    loginUrl: cfg.urls.login,
  });
  const queue = MCS.queue.create({
    key: "monopoly-console:queue:" + cfg.table,
    url: cfg.urls.events,
    headers: () => ({ "X-CSRFToken": csrfToken() }),
    // The answer to the last action carries the fragment for the player on screen.
    fragment: () => "fragment=main&player=" + encodeURIComponent(currentPlayer() || ""),
    change: renderQueue,
    online: setOnline,
    // A post's answer names the state it leaves (the newest there is): polls ask from there.
    state: (state) => { clock.syncFromState(state); if (state.etag) stateEtag = state.etag; },
    serverError: () => toast(t("server_error"), "warn"),
    conflict: showConflict,
  });
  const clock = createClock({ t, gameTimeLabel: I18N.game_time, onDue: askServer });
  const { build, localDealAnswer, setContext, adjust, pickAuctionStep, setupInlineForms, dealBooked } =
    createActions({
      t, pname, dname, player, game: () => data,
      dealKeys: { key: () => TKEY + (data.game || "new"), unsaved: TKEY + "new" },
    });

  // ------------------------------------------------------------------ small helpers
  function player(key) {
    return data.players.find((p) => p.key === key) || null;
  }
  function pname(key) {
    if (key === "bank") return I18N.bank || "bank";
    const p = player(key);
    return p ? p.name : key;
  }
  function dname(key) {
    return data.deeds[key] ? data.deeds[key].name : key;
  }
  function dialogOpen() {
    return !!$("dialog[open]");
  }
  let toastTimer = null;
  function toast(text, kind) {
    const el = $("#toast");
    el.textContent = text;
    el.className = "toast" + (kind ? " toast-" + kind : "");
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 3500);
  }

  // ------------------------------------------------------------------ the fragment
  /** fresh: the fragment is a post's answer (the count, the confirmation): the newest state. */
  function readMain(fresh) {
    const el = document.getElementById("console-data");
    if (!el) return;
    data = JSON.parse(el.textContent);
    queue.seq = data.seq;
    // The page's own fragment says which state it shows. A fetched one may be the browser's
    // kept copy (304) of an older state: the poll that fetched it knows better.
    if ((fresh || stateEtag === null) && data.state_etag) stateEtag = data.state_etag;
    const main = $("#console-main");
    let c = data.clock;
    stale = main && main.dataset.source === "cache" ? { time: main.dataset.renderedTime || "" } : null;
    if (stale) {
      // The kept copy came because the network failed. The queue knows the later sequence
      // number, and a running clock has run on since the copy was made.
      online = false;
      const q = queue.items();
      if (q.length && !q[0].conflict && q[0].expected > queue.seq) queue.seq = q[0].expected;
      const age = Date.now() / 1000 - Number(main.dataset.rendered);
      if (c && c.started && !c.paused && LIVE.includes(c.status) && c.game_seconds != null && age > 0 && age < 6 * 3600) {
        c = Object.assign({}, c, { game_seconds: c.game_seconds + age });
      }
    }
    clock.sync(c);
    selectPlayer(currentPlayer(), true);
    const ticked = setupInlineForms(queuedDeeds());
    markQueued();
    if (ticked) schedulePreview(ticked); // the deal's kept ticks: their answer again
    renderQueue();
    restoreDetails();
    if (main) main.dataset.ready = "1";
  }

  // Folded sections (feed, board) stay as the banker left them across refreshes.
  const DKEY = "monopoly-console:open:" + cfg.table;
  function restoreDetails() {
    let open = [];
    try {
      open = JSON.parse(sessionStorage.getItem(DKEY) || "[]");
    } catch (err) {
      open = [];
    }
    $$("details[data-keep]").forEach((d) => { if (open.includes(d.dataset.keep)) d.open = true; });
  }
  document.addEventListener("toggle", (e) => {
    const d = e.target;
    if (!d.dataset || !d.dataset.keep) return;
    const open = new Set(JSON.parse(sessionStorage.getItem(DKEY) || "[]"));
    if (d.open) open.add(d.dataset.keep);
    else open.delete(d.dataset.keep);
    sessionStorage.setItem(DKEY, JSON.stringify([...open]));
  }, true);

  function refreshMain() {
    keptMain = null; // the server's newest, not a kept answer
    if (dialogOpen()) {
      refreshWhenClosed = true;
      return Promise.resolve();
    }
    const url = cfg.urls.main + "?player=" + encodeURIComponent(currentPlayer() || "");
    // A refresh that fails (no network, the page left meanwhile) rejects with nothing:
    // the console shows it is offline instead of an unhandled rejection.
    return htmx.ajax("GET", url, { target: "#console-main", swap: "outerHTML" })
      .catch(() => { if (!navigator.onLine) setOnline(false); });
  }

  /** The fragment from a post's answer (no request of its own); htmx's afterSettle reads it. */
  function showMain(html) {
    const main = $("#console-main");
    if (dialogOpen() || !main) {
      keptMain = html;
      refreshWhenClosed = true;
      return;
    }
    keptMain = null;
    htmx.swap(main, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
    keepForOffline(html);
  }

  // ------------------------------------------------------------------ players
  function currentPlayer() {
    const stored = sessionStorage.getItem(PKEY);
    const main = $("#console-main");
    if (stored && player(stored) && !player(stored).bankrupt) return stored;
    const first = data.players.find((p) => !p.bankrupt);
    return (main && main.dataset.selected) || (first ? first.key : "");
  }
  function selectPlayer(key, quiet) {
    if (!key) return;
    sessionStorage.setItem(PKEY, key);
    $$("[data-player-panel]").forEach((panel) => { panel.hidden = panel.dataset.playerPanel !== key; });
    $$("[data-select-player]").forEach((chip) => {
      chip.setAttribute("aria-pressed", chip.dataset.selectPlayer === key ? "true" : "false");
    });
    if (!quiet) {
      const panel = $(`[data-player-panel="${CSS.escape(key)}"]`);
      if (panel) panel.scrollIntoView({ block: "nearest" });
    }
  }

  // The local clock passed a deadline: the server records it on the next request for the table.
  function askServer(which) {
    const now = Date.now();
    if (asked[which] && now - asked[which] < 3000) return;
    asked[which] = now;
    if (!online) return;
    if (dialogOpen() || queue.items().length) syncState();
    else refreshMain();
  }

  /** Has the table changed since the state on screen? A 304 mostly; a change brings the
   * state (the clock and the extra-time chip follow it at once) and then the fragment. */
  async function syncState() {
    if (queue.flushing || polling) return;
    polling = true;
    try {
      await askState();
    } finally {
      polling = false;
    }
  }

  async function askState() {
    const since = stateEtag;
    let res;
    try {
      const headers = since ? { "If-None-Match": since } : {};
      res = await fetch(cfg.urls.state, { credentials: "same-origin", cache: "no-store", headers });
    } catch (err) {
      setOnline(false);
      return;
    }
    setOnline(true);
    if (stale) {
      refreshMain(); // the server answers again: replace the kept copy
      return;
    }
    if (res.status === 304 || !res.ok) return;
    const etag = res.headers.get("ETag");
    const state = await res.json();
    // A post answered meanwhile names its state itself: this answer is not newer news.
    if (stateEtag !== since || queue.flushing) return;
    stateEtag = etag;
    clock.syncFromState(state);
    if (!queue.items().length) refreshMain();
  }

  /** Catch up at once: a phone woken up, a page shown again (Back/Forward), the network back. */
  function catchUp() {
    if (queue.retrySession()) showConflict(); // perhaps logged in again meanwhile
    if (queue.items().length) flush();
    else syncState();
  }

  // ------------------------------------------------------------------ the queue on screen
  function setOnline(value) {
    // An answer to a request sent before the network went away may still arrive: while the
    // browser says it has no network, that late answer does not make the console "online".
    if (value && navigator.onLine === false) return;
    if (online === value) return;
    online = value;
    renderQueue();
  }
  function renderQueue() {
    const q = queue.items();
    const n = q.length;
    const el = $("#net-status");
    let text = "";
    let kind = "";
    if (!online && stale) {
      const params = { n, time: stale.time };
      text = t(n === 0 ? "offline_stale" : n === 1 ? "offline_stale_one" : "offline_stale_many", params);
      kind = "offline";
    } else if (!online) {
      // Nothing waiting: just "Offline" (no "0 queued").
      text = n ? t("offline_queued", { n }) : t("offline");
      kind = "offline";
    } else if (n && queue.flushing) {
      // A normal post takes a few milliseconds: say "sending" only when it takes a while.
      if (Date.now() - queue.flushStarted > 800) {
        text = t("sending", { n });
        kind = "sending";
      }
    } else if (n) {
      text = t("queued", { n });
      kind = "queued";
    }
    el.hidden = !text;
    el.className = "net-status" + (kind ? " net-" + kind : "");
    el.dataset.queued = String(n);
    el.dataset.state = kind || "online";
    el.dataset.stale = stale ? "1" : "0";
    el.innerHTML = text ? `<strong>${esc(text)}</strong>` + (n ? `<ol class="queue-list">${q.map((i) =>
      `<li>${esc(i.label)}${i.part ? " · " + esc(i.part) : ""}</li>`).join("")}</ol>` : "") : "";
    markQueued();
  }
  /** The deeds a queued deal/buy/auction uses. */
  function queuedDeeds() {
    const used = new Set();
    queue.items().forEach((i) => {
      if (["deal", "buy", "auction"].includes(i.event.type)) used.add(i.event.deed);
    });
    return used;
  }
  // Deeds already used by a queued deal/buy/auction cannot be picked again before it is sent.
  function markQueued() {
    const used = queuedDeeds();
    $$("form[data-action] input[name=deed]").forEach((input) => {
      const queued = used.has(input.value);
      const label = input.closest("label");
      if (label) label.classList.toggle("is-queued", queued);
      // (a deed ticked for another player on the deal form stays untappable too)
      if (input.type !== "hidden" && !input.hasAttribute("data-owned")) input.disabled = queued || input.hasAttribute("data-ticked-for");
    });
    const auction = $(".auction-form");
    if (auction) pickAuctionStep(auction, used);
  }

  /** The one function every action goes through. */
  function send(events, label) {
    queue.enqueue(events, label);
    clock.apply(events);
    return flush();
  }

  async function flush() {
    if (queue.flushing) return null;
    // A normal post takes a few milliseconds: say "sending" only when it takes a while.
    const slow = setTimeout(renderQueue, 900);
    let done;
    try {
      done = await queue.flush();
    } finally {
      clearTimeout(slow);
    }
    if (!done) return done;
    if (done.sent) {
      if (done.last) toast(t("sent") + ": " + done.last, "ok");
      if (done.main) showMain(done.main);
      else refreshMain();
    } else if (stale && online) {
      refreshMain();
    }
    return done;
  }

  function showConflict() {
    conflictBox.show();
  }

  function resolveConflict(what) {
    if (what === "reload") {
      window.location.reload();
      return;
    }
    if (!queue.resolve(what)) return;
    showConflict();
    // A flush that sent something has redrawn the console already.
    flush().then((done) => { if (!queue.items().length && !(done && done.sent)) refreshMain(); });
  }

  // ------------------------------------------------------------------ the engine's answer
  const previewTimers = new WeakMap();
  let previewCounter = 0;

  function schedulePreview(form) {
    // The answer on screen no longer matches the form: no confirming until the new one is in.
    $(".btn-confirm", form).disabled = true;
    form.dataset.preview = "";
    clearTimeout(previewTimers.get(form));
    // A deal is answered here at once; the others ask the server after a short pause.
    const wait = form.dataset.action === "deal" ? 0 : 200;
    previewTimers.set(form, setTimeout(() => preview(form), wait));
  }

  async function preview(form) {
    const built = build(form);
    form.dataset.sig = JSON.stringify(built);
    const answer = $(".answer", form);
    const button = $(".btn-confirm", form);
    button.disabled = true;
    const id = String(++previewCounter);
    form.dataset.preview = id;
    markNegative(form, null);
    if (built.hint) {
      answer.innerHTML = `<p class="hint">${esc(built.hint)}</p>`;
      return;
    }
    if (form.dataset.action === "deal") {
      const local = localDealAnswer(built);
      if (local) {
        answer.innerHTML = local;
        button.disabled = false;
        return;
      }
    }
    answer.innerHTML = `<p class="hint">${esc(t("checking"))}</p>`;
    let res;
    try {
      res = await fetch(cfg.urls.check, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ events: built.events }),
      });
    } catch (err) {
      res = null;
    }
    if (form.dataset.preview !== id) return;
    if (res && res.ok) {
      setOnline(true);
      answer.innerHTML = await res.text();
      const body = $("[data-ok]", answer);
      const warning = $("[data-negative]", answer);
      // Negative cash: "Bestätigen" stays disabled until the banker ticks "amount checked".
      button.disabled = !(body && body.dataset.ok === "1") || !!warning;
      markNegative(form, warning);
      if (body && body.dataset.ok !== "1") answer.scrollIntoView({ block: "nearest" });
      return;
    }
    if (res && (res.status === 403 || res.status === 400)) {
      setOnline(true);
      answer.innerHTML = `<p class="error">${esc(t("session"))}</p>`;
      return;
    }
    if (!res) setOnline(false);
    // No answer from the server: queue it unchecked; the server checks it when it is sent.
    answer.innerHTML = `<p class="offline-note">${esc(t("not_checked"))}</p><p><strong>${esc(built.label)}</strong></p>`;
    button.disabled = false;
  }

  // Negative cash after the action: the warning scrolls into view and the confirm button
  // itself says what it books ("Trotzdem buchen: Kontostand -3710"), in the danger colour.
  function markNegative(form, warning) {
    const button = $(".btn-confirm", form);
    if (!button) return;
    if (!button.dataset.label) button.dataset.label = button.textContent;
    button.classList.toggle("is-negative", !!warning);
    button.textContent = warning ? warning.dataset.confirmLabel : button.dataset.label;
    if (warning) warning.scrollIntoView({ block: "nearest" });
  }

  function commit(form) {
    const built = build(form);
    const button = $(".btn-confirm", form);
    if (built.hint || button.disabled) return;
    button.disabled = true;
    markNegative(form, null);
    const dialog = form.closest("dialog");
    if (dialog) {
      dialog.close();
    } else {
      if (form.dataset.action === "deal") dealBooked();
      form.reset();
      $(".answer", form).innerHTML = "";
      setupInlineForms();
    }
    if (!online) toast(t("queued_one", { label: built.label }), "warn");
    send(built.events, built.label);
  }

  // ------------------------------------------------------------------ sheets and forms
  // ------------------------------------------------------------------ sheets
  function openSheet(id, opener) {
    const dialog = document.getElementById(id);
    if (!dialog) return;
    const form = $("form[data-action]", dialog);
    if (form) {
      form.reset();
      $(".answer", form).innerHTML = "";
      $(".btn-confirm", form).disabled = true;
      setContext(form, opener.dataset.player || currentPlayer(), opener);
    }
    dialog.showModal();
    if (form) preview(form);
  }

  // ------------------------------------------------------------------ without network
  function fromCache(xhr) {
    return !!xhr && xhr.getResponseHeader("X-Console-Cache") === "1";
  }
  function newer(html) {
    const main = $("#console-main");
    const num = (re) => { const m = re.exec(String(html || "")); return m ? Number(m[1]) : -1; };
    const s = num(/data-seq="(\d+)"/);
    const r = num(/data-rendered="(\d+)"/);
    const s0 = Number(main ? main.dataset.seq : -1);
    const r0 = Number(main ? main.dataset.rendered : -1);
    return s > s0 || (s === s0 && r > r0);
  }
  // The service worker keeps the newest fragment for a reload without network: one that came
  // with a post's answer is handed to it (it never passed through the worker).
  function keepForOffline(html) {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ type: "keep-main", url: cfg.urls.main, html });
  }
  function keepOffline() {
    if (!("serviceWorker" in navigator) || !window.caches || !root.dataset.sw) return;
    // A worker took over (the first visit, or a deploy that dropped the old caches): fetch the
    // page, its fragment and its files once through it, so that a reload without network finds
    // them (one after the other: no burst of requests at the server).
    navigator.serviceWorker.addEventListener("controllerchange", async () => {
      const urls = [cfg.urls.page, cfg.urls.main];
      $$("link[rel=stylesheet][href], script[src]").forEach((el) => urls.push(el.href || el.src));
      for (const url of urls) {
        try {
          await fetch(url, { credentials: "same-origin" });
        } catch (err) {
          return; // no network: the next page load through the worker keeps them
        }
      }
    });
    // (data-sw is /banker/sw.js, data-sw-scope /banker/: the worker serves nothing outside)
    navigator.serviceWorker.register(root.dataset.sw, { scope: root.dataset.swScope }).catch(() => {});
  }

  // ------------------------------------------------------------------ events
  document.addEventListener("click", (e) => {
    const target = e.target;
    const opener = target.closest("[data-open]");
    if (opener) {
      e.preventDefault();
      openSheet(opener.dataset.open, opener);
      return;
    }
    const closer = target.closest("[data-close]");
    if (closer) {
      closer.closest("dialog").close();
      return;
    }
    const chipEl = target.closest("[data-select-player]");
    if (chipEl) {
      selectPlayer(chipEl.dataset.selectPlayer);
      return;
    }
    const conflict = target.closest("[data-conflict]");
    if (conflict) {
      resolveConflict(conflict.dataset.conflict);
      return;
    }
    const step = target.closest("[data-step]");
    if (step) {
      const form = step.closest("form");
      const input = form.elements[step.dataset.target];
      const next = Math.min(int(input.max), Math.max(int(input.min), int(input.value) + int(step.dataset.step)));
      input.value = String(next);
      input.dispatchEvent(new Event("input", { bubbles: true }));
      return;
    }
    const fill = target.closest("[data-fill]");
    if (fill) {
      const form = fill.closest("form");
      if (fill.dataset.amount) form.elements.amount.value = fill.dataset.amount;
      if (fill.dataset.reasonText) form.elements.reason.value = fill.dataset.reasonText;
      if (fill.dataset.reason !== undefined) {
        const r = form.querySelector(`input[name=reason][value="${CSS.escape(fill.dataset.reason)}"]`);
        if (r) r.checked = true;
      }
      if (fill.dataset.to) {
        const to = form.querySelector(`input[name=to][value="${CSS.escape(fill.dataset.to)}"]`);
        if (to) to.checked = true;
      }
      if (JSON.stringify(build(form)) !== form.dataset.sig) schedulePreview(form);
      return;
    }
    if (target.closest("#btn-resume")) {
      send([{ type: "resume" }], t("label_resume"));
    }
  });

  function onChange(e) {
    const form = e.target.closest("form[data-action]");
    if (!form) return;
    if (e.target.matches("[data-negative-ack]")) {
      // the unmissable step: only an acknowledged negative balance can be booked
      const body = $(".answer [data-ok]", form);
      $(".btn-confirm", form).disabled = !(e.target.checked && body && body.dataset.ok === "1");
      return;
    }
    adjust(form, e.target);
    // "change" also fires when a field loses focus (e.g. tapping Confirm): only a different
    // action needs a new answer.
    if (JSON.stringify(build(form)) === form.dataset.sig) return;
    schedulePreview(form);
  }
  document.addEventListener("input", onChange);
  document.addEventListener("change", onChange);
  document.addEventListener("submit", (e) => {
    const form = e.target.closest("form[data-action]");
    if (!form) return;
    e.preventDefault();
    commit(form);
  });
  document.addEventListener("close", (e) => {
    if (e.target.tagName === "DIALOG" && refreshWhenClosed && !dialogOpen()) {
      refreshWhenClosed = false;
      if (keptMain) showMain(keptMain);
      else refreshMain();
    }
  }, true);
  // A refused form field (a wrong confirmation code): its message sits right below the field;
  // bring both into view and put the cursor back, the top of the page is far away on a phone.
  function showFieldError() {
    const error = $("#console-main [data-field-error]");
    if (!error) return;
    const field = error.id ? document.querySelector(`[aria-describedby~="${CSS.escape(error.id)}"]`) : null;
    if (field) field.focus({ preventScroll: true });
    error.scrollIntoView({ block: "center" });
  }
  const isMain = (el) => !!el && el.id === "console-main";
  const verbOf = (detail) => String((detail && detail.requestConfig && detail.requestConfig.verb) || "get").toLowerCase();

  // Typed but not sent: a follow's fragment keeps what the banker typed in the console's
  // fields and where the cursor was (a form's own answer is the newest and replaces them).
  const TYPED = ["text", "number", "search", "tel", "email", ""];
  function fieldKey(el) {
    const form = el.form;
    const where = form ? (form.getAttribute("hx-post") || form.dataset.action || form.className) : "";
    return `${where}|${el.name}|${el.dataset.cashFor || ""}`;
  }
  function typedFields() {
    const main = $("#console-main");
    if (!main) return null;
    const typed = $$("input[name], textarea[name]", main).filter((el) => !el.closest("dialog")
      && (el.tagName === "TEXTAREA" || TYPED.includes(el.getAttribute("type") || ""))
      && el.value !== el.defaultValue);
    if (!typed.length) return null;
    const focused = document.activeElement;
    return typed.map((el) => ({
      key: fieldKey(el), value: el.value, focused: el === focused,
      caret: el === focused && typeof el.selectionStart === "number" ? el.selectionStart : null,
    }));
  }
  function restoreTyped(typed) {
    const main = $("#console-main");
    if (!typed || !main) return;
    const fields = new Map($$("input[name], textarea[name]", main).map((el) => [fieldKey(el), el]));
    typed.forEach((t) => {
      const el = fields.get(t.key);
      if (!el || el.value !== el.defaultValue) return;
      el.value = t.value;
      el.dispatchEvent(new Event("input", { bubbles: true }));
      if (t.focused) {
        el.focus({ preventScroll: true });
        if (t.caret !== null) { try { el.setSelectionRange(t.caret, t.caret); } catch (err) { /* number fields */ } }
      }
    });
  }
  let typedBeforeSwap = null;
  document.body.addEventListener("htmx:afterSwap", () => {
    restoreTyped(typedBeforeSwap); // at once: the field never shows empty
    typedBeforeSwap = null;
  });
  document.body.addEventListener("htmx:afterSettle", (e) => {
    const config = e.detail && e.detail.requestConfig;
    readMain(!!config && String(config.verb).toLowerCase() === "post");
    showFieldError();
  });
  document.body.addEventListener("htmx:sendError", () => setOnline(false));
  document.body.addEventListener("htmx:afterRequest", (e) => {
    if (e.detail.successful && !fromCache(e.detail.xhr)) setOnline(true);
  });
  // A kept fragment (the service worker's answer without network) only replaces a kept page
  // that is older still; the fragment on screen is never replaced by an older state.
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    const target = e.detail.target;
    // 429: the table's code is blocked; the answer says so and offers what is left.
    if (e.detail.xhr.status === 429) { e.detail.shouldSwap = true; e.detail.isError = false; return; }
    // A follow asked before the banker opened a sheet answers after it: the sheets live in
    // the fragment, so swapping now would close the sheet under the banker's finger. The
    // newest fragment is fetched once the sheet closes.
    if (dialogOpen() && target && target.id === "console-main" && e.detail.shouldSwap) {
      e.detail.shouldSwap = false;
      keptMain = null;
      refreshWhenClosed = true;
      return;
    }
    if (fromCache(e.detail.xhr)) {
      setOnline(false);
      if (!stale || !newer(e.detail.serverResponse)) e.detail.shouldSwap = false;
    }
    typedBeforeSwap = isMain(target) && e.detail.shouldSwap && verbOf(e.detail) === "get" ? typedFields() : null;
  });

  window.addEventListener("online", () => { setOnline(true); flush(); syncState(); });
  // Back/Forward may show this page from the browser's memory (bfcache) as it was when left.
  window.addEventListener("pageshow", (e) => { if (e.persisted) catchUp(); });
  window.addEventListener("offline", () => setOnline(false));
  // A phone that slept: catch up with the server as soon as the console is seen again.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") catchUp();
  });
  window.addEventListener("storage", (e) => { if (e.key === queue.key) renderQueue(); });

  setInterval(clock.render, 250);
  setInterval(() => {
    const q = queue.items();
    if (q.length && !q[0].conflict && !queue.flushing) flush();
    else if (stale && !q.length) syncState(); // is the server back?
  }, 5000);
  // Following the table: while the console is seen and nothing waits to be sent.
  // (An action refused and waiting for the banker's decision: the clock still follows.)
  setInterval(() => {
    const q = queue.items();
    if (!document.hidden && (!q.length || q[0].conflict)) syncState();
  }, Math.max(500, Number(cfg.follow_ms) || 1000));

  // Expose a little for debugging in the hall (and for the browser tests' patience).
  MCS.bankerConsole = { queue: queue.items, flush, refresh: refreshMain, send, state: () => stateEtag };

  readMain();
  queue.retrySession(); // a new page: the session that refused a held action may be back
  showConflict();
  keepOffline();
  if (stale) refreshMain(); // the kept fragment may be newer than the kept page
  if (queue.items().length) flush();
  else if (!stale) syncState(); // a page from the browser's cache may be old
})();
