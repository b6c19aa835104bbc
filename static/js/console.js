/* The banker's console: the clock, the engine's answer before confirming, and the offline queue.
 *
 * Every action goes through send(): it gives each event an idempotency key, stores it in a queue
 * in localStorage (per table) and flushes the queue in order to the events API with the expected
 * sequence number. Without network the queue waits (and says so); when the network is back it is
 * sent with the same keys. A 409/422 stops the flush and the banker decides: drop or reload.
 * Page fragments come from the server (htmx); strings come translated from the server.
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
  const QKEY = "monopoly-console:queue:" + cfg.table;
  const PKEY = "monopoly-console:player:" + cfg.table;
  const LIVE = ["setup", "running", "final_round"];

  const $ = (sel, el) => (el || document).querySelector(sel);
  const $$ = (sel, el) => Array.from((el || document).querySelectorAll(sel));
  const t = (key, params) =>
    String(I18N[key] || key).replace(/%\((\w+)\)s/g, (m, k) => (params && k in params ? params[k] : ""));
  const esc = (s) =>
    String(s == null ? "" : s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

  let data = { players: [], deeds: {}, seq: 0, pending: [] };
  let seq = 0;
  let clock = null;
  let online = navigator.onLine !== false;
  let flushing = false;
  let refreshWhenClosed = false;
  let stateEtag = null;
  let stale = null; // {time: "HH:MM"} while the fragment on screen is a kept copy, not the server's
  const asked = {};

  // ------------------------------------------------------------------ small helpers
  function int(value) {
    if (value === null || value === undefined) return null;
    const s = String(value).trim();
    return /^-?\d+$/.test(s) ? parseInt(s, 10) : null;
  }
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
  function hint(key, params) {
    return { hint: t(key, params) };
  }
  function dialogOpen() {
    return !!$("dialog[open]");
  }
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
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
  function readMain() {
    const el = document.getElementById("console-data");
    if (!el) return;
    data = JSON.parse(el.textContent);
    seq = data.seq;
    const main = $("#console-main");
    let c = data.clock;
    stale = main && main.dataset.source === "cache" ? { time: main.dataset.renderedTime || "" } : null;
    if (stale) {
      // The kept copy came because the network failed. The queue knows the later sequence
      // number, and a running clock has run on since the copy was made.
      online = false;
      const q = loadQueue();
      if (q.length && !q[0].conflict && q[0].expected > seq) seq = q[0].expected;
      const age = Date.now() / 1000 - Number(main.dataset.rendered);
      if (c && c.started && !c.paused && LIVE.includes(c.status) && c.game_seconds != null && age > 0 && age < 6 * 3600) {
        c = Object.assign({}, c, { game_seconds: c.game_seconds + age });
      }
    }
    syncClock(c);
    selectPlayer(currentPlayer(), true);
    setupInlineForms();
    markQueued();
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
    if (dialogOpen()) {
      refreshWhenClosed = true;
      return Promise.resolve();
    }
    const url = cfg.urls.main + "?player=" + encodeURIComponent(currentPlayer() || "");
    return htmx.ajax("GET", url, { target: "#console-main", swap: "outerHTML" });
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

  // ------------------------------------------------------------------ the clock
  function syncClock(c) {
    if (!c) return;
    clock = Object.assign({}, c, { t0: Date.now() });
    renderClock();
  }
  function syncFromState(state) {
    if (!state || !state.clock) return;
    syncClock(Object.assign({}, state.clock, { status: state.status, started: !!state.clock.started_at }));
  }
  function running() {
    return !!clock && clock.started && !clock.paused && LIVE.includes(clock.status);
  }
  function gameSeconds() {
    if (!clock || clock.game_seconds == null) return 0;
    return clock.game_seconds + (running() ? (Date.now() - clock.t0) / 1000 : 0);
  }
  function fmt(seconds) {
    const s = Math.max(0, Math.floor(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }
  function levelOf(left) {
    return left <= 60 ? "danger" : left <= 300 ? "warn" : "ok";
  }
  function chip(el, text, level) {
    if (el.textContent !== text) el.textContent = text;
    el.dataset.level = level;
  }
  function renderClock() {
    if (!clock) return;
    const gs = gameSeconds();
    const bar = $("#clockbar");
    $("#clock-game").textContent = clock.started ? fmt(gs) : "0:00";
    const label = $("#clock-label");
    const live = LIVE.includes(clock.status);
    label.textContent = !clock.started ? t("not_started") : clock.paused ? t("paused")
      : clock.status === "finished" ? t("game_over") : I18N.game_time || label.textContent;
    bar.classList.toggle("is-paused", !!clock.paused);
    bar.classList.toggle("is-over", clock.status === "finished");
    $("#btn-pause").hidden = !(clock.started && !clock.paused && live);
    $("#btn-resume").hidden = !(clock.paused && live);

    const stopEl = $("#clock-stop");
    let worst = "ok";
    if (clock.auction_stop_seconds == null) {
      stopEl.hidden = true;
    } else {
      stopEl.hidden = false;
      if (clock.auction_stop_done) {
        chip(stopEl, t("auction_stop_done"), "done");
      } else {
        const left = clock.auction_stop_seconds - gs;
        const level = clock.started ? levelOf(left) : "ok";
        chip(stopEl, left > 0 ? t("auction_stop_in") + " " + fmt(left) : t("auction_stop_now"), level);
        worst = level;
        if (running() && left <= 0 && clock.auction_stop_due) askServer("stop");
      }
    }
    const limitEl = $("#clock-limit");
    if (clock.time_limit_seconds == null) {
      limitEl.hidden = true;
    } else {
      limitEl.hidden = false;
      const left = clock.time_limit_seconds - gs;
      if (clock.status === "finished") {
        chip(limitEl, t("game_over"), "done");
      } else if (clock.status === "final_round") {
        chip(limitEl, t("time_up"), "danger");
        worst = "danger";
      } else {
        const level = clock.started ? levelOf(left) : "ok";
        chip(limitEl, left > 0 ? t("limit_in") + " " + fmt(left) : t("time_up"), level);
        if (level === "danger" || (level === "warn" && worst === "ok")) worst = level;
        if (running() && left <= 0 && clock.time_up_due) askServer("limit");
      }
    }
    bar.dataset.level = worst;
  }
  // The local clock passed a deadline: the server records it on the next request for the table.
  function askServer(which) {
    const now = Date.now();
    if (asked[which] && now - asked[which] < 3000) return;
    asked[which] = now;
    if (!online) return;
    if (dialogOpen() || loadQueue().length) syncState();
    else refreshMain();
  }

  async function syncState() {
    if (flushing) return;
    let res;
    try {
      const headers = stateEtag ? { "If-None-Match": stateEtag } : {};
      res = await fetch(cfg.urls.state, { credentials: "same-origin", headers });
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
    stateEtag = res.headers.get("ETag");
    const state = await res.json();
    syncFromState(state);
    if (state.seq !== seq && !loadQueue().length) refreshMain();
  }

  // ------------------------------------------------------------------ the queue
  function loadQueue() {
    try {
      const q = JSON.parse(localStorage.getItem(QKEY) || "[]");
      return Array.isArray(q) ? q : [];
    } catch (err) {
      return [];
    }
  }
  function saveQueue(q) {
    localStorage.setItem(QKEY, JSON.stringify(q));
    renderQueue();
  }
  function setOnline(value) {
    if (online === value) return;
    online = value;
    renderQueue();
  }
  function renderQueue() {
    const q = loadQueue();
    const n = q.length;
    const el = $("#net-status");
    let text = "";
    let kind = "";
    if (!online && stale) {
      const params = { n, time: stale.time };
      text = t(n === 0 ? "offline_stale" : n === 1 ? "offline_stale_one" : "offline_stale_many", params);
      kind = "offline";
    } else if (!online) {
      text = t("offline_queued", { n });
      kind = "offline";
    } else if (n && flushing) {
      // A normal post takes a few milliseconds: say "sending" only when it takes a while.
      if (Date.now() - flushStarted > 800) {
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
  // Deeds already used by a queued deal/buy/auction cannot be picked again before it is sent.
  function markQueued() {
    const used = new Set();
    loadQueue().forEach((i) => {
      if (["deal", "buy", "auction"].includes(i.event.type)) used.add(i.event.deed);
    });
    $$("form[data-action] input[name=deed]").forEach((input) => {
      const queued = used.has(input.value);
      const label = input.closest("label");
      if (label) label.classList.toggle("is-queued", queued);
      if (input.type !== "hidden" && !input.hasAttribute("data-owned")) input.disabled = queued;
    });
    const auction = $(".auction-form");
    if (auction) pickAuctionStep(auction, used);
  }

  /** The one function every action goes through. */
  function send(events, label) {
    const q = loadQueue();
    const base = seq + q.length;
    events.forEach((event, i) => {
      q.push({
        key: uuid(), event, expected: base + i, label: label || event.type,
        part: events.length > 1 ? `${i + 1}/${events.length}` : "", at: Date.now(),
      });
    });
    saveQueue(q);
    optimistic(events);
    return flush();
  }

  // The clock follows a pause or resume at once, online or not.
  function optimistic(events) {
    if (!clock) return;
    events.forEach((e) => {
      if (e.type === "pause" && !clock.paused) {
        clock.game_seconds = gameSeconds();
        clock.t0 = Date.now();
        clock.paused = true;
      } else if (e.type === "resume" && clock.paused) {
        clock.t0 = Date.now();
        clock.paused = false;
      } else if (e.type === "start" && !clock.started) {
        clock.started = true;
        clock.game_seconds = 0;
        clock.t0 = Date.now();
      }
    });
    renderClock();
  }

  let flushStarted = 0;
  async function flush() {
    if (flushing) return;
    flushing = true;
    flushStarted = Date.now();
    const slow = setTimeout(renderQueue, 900);
    renderQueue();
    let sent = 0;
    let last = "";
    try {
      for (;;) {
        const q = loadQueue();
        if (!q.length || q[0].conflict) break;
        const item = q[0];
        let res;
        let body = null;
        try {
          res = await fetch(cfg.urls.events, {
            method: "POST",
            credentials: "same-origin",
            headers: {
              "Content-Type": "application/json",
              "X-CSRFToken": cfg.csrf,
              "Idempotency-Key": item.key,
            },
            body: JSON.stringify({ event: item.event, expected_seq: item.expected }),
          });
        } catch (err) {
          setOnline(false);
          break;
        }
        setOnline(true);
        try {
          body = await res.json();
        } catch (err) {
          body = null;
        }
        if (res.status === 201 || res.status === 200) {
          const rest = loadQueue();
          if (rest.length && rest[0].key === item.key) rest.shift();
          saveQueue(rest);
          if (body && body.state) {
            seq = body.state.seq;
            syncFromState(body.state);
          }
          sent += 1;
          last = item.label;
          continue;
        }
        if (res.status >= 500 || res.status === 429 || !body) {
          toast(t("server_error"), "warn");
          break;
        }
        if (res.status === 409 && body.state) {
          seq = body.state.seq;
          syncFromState(body.state);
        }
        const rest = loadQueue();
        if (rest.length && rest[0].key === item.key) {
          rest[0].conflict = {
            status: res.status,
            code: body.code || "",
            rule: body.rule || "",
            message_de: body.message_de || body.detail || "",
            message_en: body.message_en || body.detail || "",
          };
          saveQueue(rest);
        }
        showConflict();
        break;
      }
    } finally {
      clearTimeout(slow);
      flushing = false;
      renderQueue();
      if (sent) {
        if (last) toast(t("sent") + ": " + last, "ok");
        refreshMain();
      } else if (stale && online) {
        refreshMain();
      }
    }
  }

  function renumber(q) {
    q.forEach((item, i) => { item.expected = seq + i; });
    return q;
  }

  function showConflict() {
    const box = $("#conflict");
    const item = loadQueue().find((i) => i.conflict);
    if (!item) {
      box.hidden = true;
      box.innerHTML = "";
      return;
    }
    const c = item.conflict;
    const en = document.documentElement.lang === "en";
    const why = c.status === 409 ? t("conflict_stale") : c.status === 422 ? t("conflict_refused") : t("session");
    box.innerHTML = `
      <h2>${esc(t("conflict_title"))}</h2>
      <p class="conflict-action"><strong>${esc(item.label)}</strong>${item.part ? " · " + esc(item.part) : ""}</p>
      <p>${esc(why)}</p>
      <div class="conflict-answer">
        <p class="error">${esc(en ? c.message_en : c.message_de)}</p>
        <p class="muted small">${esc(en ? c.message_de : c.message_en)} · <code>${esc(c.rule || c.code || c.status)}</code></p>
      </div>
      <div class="conflict-buttons">
        <button type="button" class="btn btn-danger" data-conflict="drop">${esc(t("drop"))}</button>
        ${c.status === 409 ? `<button type="button" class="btn btn-go" data-conflict="resend">${esc(t("resend"))}</button>` : ""}
        <button type="button" class="btn" data-conflict="reload">${esc(t("reload"))}</button>
      </div>`;
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
    if (c.status === 422) explainConflict(item, box);
  }

  // The API names players by their ids; the console's check names them properly.
  async function explainConflict(item, box) {
    try {
      const res = await fetch(cfg.urls.check, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": cfg.csrf },
        body: JSON.stringify({ events: [item.event] }),
      });
      if (!res.ok) return;
      const html = await res.text();
      const holder = document.createElement("div");
      holder.innerHTML = html;
      const error = holder.querySelector(".error-box");
      if (error && box.querySelector(".conflict-answer")) box.querySelector(".conflict-answer").replaceWith(error);
    } catch (err) {
      /* keep the API's own words */
    }
  }

  function resolveConflict(what) {
    const q = loadQueue();
    const index = q.findIndex((i) => i.conflict);
    if (what === "reload") {
      window.location.reload();
      return;
    }
    if (index < 0) return;
    if (what === "drop") {
      q.splice(index, 1);
    } else if (what === "resend") {
      delete q[index].conflict;
    }
    saveQueue(renumber(q));
    showConflict();
    flush().then(() => { if (!loadQueue().length) refreshMain(); });
  }

  // ------------------------------------------------------------------ building events from forms
  const builders = {
    start: () => ({ events: [{ type: "start" }], label: t("label_start") }),
    end: () => ({ events: [{ type: "end" }], label: t("label_end") }),
    pause(fd) {
      let reason = fd.get("reason") || "";
      if (reason === "other") reason = (fd.get("note") || "").trim();
      const ev = { type: "pause" };
      if (reason) ev.reason = reason;
      return { events: [ev], label: t("label_pause") };
    },
    deal(fd, form) {
      const p = fd.get("player");
      const deeds = fd.getAll("deed");
      if (!p) return hint("choose_player");
      if (!deeds.length) return hint("choose_deed");
      const left = int(form.dataset.max) - int(form.querySelector(`input[name=player][value="${CSS.escape(p)}"]`).dataset.dealt);
      if (deeds.length > left) return hint("max_deals", { name: pname(p), n: left });
      return {
        events: deeds.map((d) => ({ type: "deal", player: p, deed: d })),
        label: t("label_deal", { player: pname(p), deeds: deeds.map(dname).join(", ") }),
      };
    },
    buy(fd) {
      const p = fd.get("player");
      const d = fd.get("deed");
      if (!d) return hint("choose_deed");
      return { events: [{ type: "buy", player: p, deed: d }], label: t("label_buy", { player: pname(p), deed: dname(d) }) };
    },
    auction(fd, form) {
      const d = fd.get("deed");
      if (!d) return hint("choose_deed");
      const w = fd.get("winner");
      if (!w) return hint("choose_winner");
      const label = t("label_auction", { deed: dname(d) });
      if (w === "none") return { events: [{ type: "auction", deed: d, winner: null, price: 0 }], label };
      const price = int(fd.get("price"));
      const min = int(form.dataset.minBid) || 0;
      if (price === null) return hint("enter_amount");
      if (price < min) return hint("min_bid", { n: min });
      return { events: [{ type: "auction", deed: d, winner: w, price }], label };
    },
    rent(fd) {
      const p = fd.get("player");
      const d = fd.get("deed");
      if (!d) return hint("choose_deed");
      const info = data.deeds[d];
      const ev = { type: "pay", from: p, to: info.owner, reason: "rent", deed: d };
      let amount = info.rent;
      if (info.kind === "utility") {
        const dice = int(fd.get("dice"));
        if (!dice || dice < 2 || dice > 12) return hint("choose_dice");
        amount = info.rent_dice ? info.rent_dice[String(dice)] : 0;
        ev.dice = dice;
      }
      if (!amount) return hint("no_rent");
      ev.amount = amount;
      return { events: [ev], label: t("label_rent", { player: pname(p), deed: dname(d) }) };
    },
    pay(fd) {
      const p = fd.get("player");
      const to = fd.get("to") || "bank";
      const amount = int(fd.get("amount"));
      if (!amount || amount < 1) return hint("enter_amount");
      const ev = to === "from_bank" ? { type: "pay", from: "bank", to: p, amount } : { type: "pay", from: p, to, amount };
      const reason = fd.get("reason");
      if (reason) ev.reason = reason;
      return { events: [ev], label: t("label_pay", { player: pname(p), amount }) };
    },
    buildings(fd, form) {
      const p = fd.get("player");
      const now = {};
      const want = {};
      const order = [];
      $$("input[data-level]", form).forEach((input) => {
        if (input.disabled) return;
        const key = input.name.slice("level-".length);
        now[key] = int(input.dataset.level);
        want[key] = int(input.value);
        order.push(key);
      });
      const events = [];
      // Down first, always from the highest street; then up, always on the lowest: evenly.
      for (;;) {
        const down = order.filter((k) => now[k] > want[k]);
        if (!down.length) break;
        const k = down.reduce((a, b) => (now[b] > now[a] ? b : a));
        events.push({ type: "sell_building", deed: k });
        now[k] -= 1;
      }
      for (;;) {
        const up = order.filter((k) => now[k] < want[k]);
        if (!up.length) break;
        const k = up.reduce((a, b) => (now[b] < now[a] ? b : a));
        events.push({ type: "build", deed: k });
        now[k] += 1;
      }
      if (!events.length) return hint("nothing");
      return { events, label: t("label_buildings", { player: pname(p) }) };
    },
    mortgage(fd) {
      const p = fd.get("player");
      const m = fd.getAll("mortgage");
      const u = fd.getAll("unmortgage");
      if (!m.length && !u.length) return hint("choose_deed");
      return {
        events: [...u.map((d) => ({ type: "unmortgage", deed: d })), ...m.map((d) => ({ type: "mortgage", deed: d }))],
        label: t("label_mortgage", { player: pname(p) }),
      };
    },
    trade(fd) {
      const p = fd.get("player");
      const q = fd.get("partner");
      if (!q) return hint("choose_player");
      const give = fd.getAll("give");
      const get = fd.getAll("get");
      const payoff = new Set(fd.getAll("payoff"));
      const cash = int(fd.get("cash")) || 0;
      const payer = fd.get("payer") || "partner";
      if (!give.length && !get.length) return hint("trade_needs_deeds");
      if (cash > 0 && payer === "partner" && !give.length) return hint("cash_for_deeds");
      if (cash > 0 && payer === "player" && !get.length) return hint("cash_for_deeds");
      const events = [];
      const leg = (from, to, deeds, paid) => {
        const ev = { type: "trade", from, to, deeds };
        if (paid) ev.cash = paid;
        const off = deeds.filter((d) => payoff.has(d));
        if (off.length) ev.unmortgage = off;
        return ev;
      };
      if (give.length) events.push(leg(p, q, give, payer === "partner" ? cash : 0));
      if (get.length) events.push(leg(q, p, get, payer === "player" ? cash : 0));
      return { events, label: t("label_trade", { player: pname(p), partner: pname(q) }) };
    },
    jail: (fd) => ({ events: [{ type: "jail", player: fd.get("player") }], label: t("label_jail", { player: pname(fd.get("player")) }) }),
    release: (fd) => ({
      events: [{ type: "release", player: fd.get("player"), fine: fd.get("fine") === "1" }],
      label: t("label_release", { player: pname(fd.get("player")) }),
    }),
    cash(fd) {
      const p = fd.get("player");
      const amount = int(fd.get("amount"));
      if (amount === null || amount < 0) return hint("enter_amount");
      return { events: [{ type: "cash", player: p, amount }], label: t("label_cash", { player: pname(p), amount }) };
    },
    bankrupt(fd) {
      const p = fd.get("player");
      const creditor = fd.get("creditor");
      if (!creditor) return hint("choose_player");
      const ev = { type: "bankrupt", player: p, creditor };
      const payoff = creditor === "bank" ? [] : fd.getAll("payoff");
      if (payoff.length) ev.unmortgage = payoff;
      return { events: [ev], label: t("label_bankrupt", { player: pname(p) }) };
    },
    void(fd) {
      const index = int(fd.get("event"));
      const reason = (fd.get("reason") || "").trim();
      if (!reason) return hint("reason_needed");
      return { events: [{ type: "void", event: index, reason }], label: t("label_void", { index }) };
    },
    count(fd, form) {
      const events = [];
      $$("input[data-cash-for]", form).forEach((input) => {
        const value = int(input.value);
        if (value === null || value < 0) return;
        if (value !== int(input.dataset.tracked)) events.push({ type: "cash", player: input.dataset.cashFor, amount: value });
      });
      if (!events.length) return hint("nothing");
      return { events, label: t("label_count") };
    },
  };

  function build(form) {
    const builder = builders[form.dataset.action];
    if (!builder) return hint("nothing");
    return builder(new FormData(form), form);
  }

  // ------------------------------------------------------------------ the engine's answer
  const previewTimers = new WeakMap();
  let previewCounter = 0;

  function schedulePreview(form) {
    // The answer on screen no longer matches the form: no confirming until the new one is in.
    $(".btn-confirm", form).disabled = true;
    form.dataset.preview = "";
    clearTimeout(previewTimers.get(form));
    previewTimers.set(form, setTimeout(() => preview(form), 200));
  }

  async function preview(form) {
    const built = build(form);
    form.dataset.sig = JSON.stringify(built);
    const answer = $(".answer", form);
    const button = $(".btn-confirm", form);
    button.disabled = true;
    const id = String(++previewCounter);
    form.dataset.preview = id;
    if (built.hint) {
      answer.innerHTML = `<p class="hint">${esc(built.hint)}</p>`;
      return;
    }
    answer.innerHTML = `<p class="hint">${esc(t("checking"))}</p>`;
    let res;
    try {
      res = await fetch(cfg.urls.check, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": cfg.csrf },
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
      button.disabled = !(body && body.dataset.ok === "1");
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

  function commit(form) {
    const built = build(form);
    const button = $(".btn-confirm", form);
    if (built.hint || button.disabled) return;
    button.disabled = true;
    const dialog = form.closest("dialog");
    if (dialog) {
      dialog.close();
    } else {
      form.reset();
      $(".answer", form).innerHTML = "";
      setupInlineForms();
    }
    if (!online) toast(t("queued_one", { label: built.label }), "warn");
    send(built.events, built.label);
  }

  // ------------------------------------------------------------------ sheets and forms
  function toggle(el, show) {
    el.hidden = !show;
    $$("input, select, textarea", el).forEach((input) => {
      if (!show) {
        input.disabled = true;
        if (input.type === "radio" || input.type === "checkbox") input.checked = false;
      } else if (!input.hasAttribute("data-owned") && !input.hasAttribute("data-done")) {
        input.disabled = false;
      }
    });
  }

  function setContext(form, key, opener) {
    form.dataset.player = key || "";
    const hidden = form.querySelector("input[type=hidden][name=player]");
    if (hidden) hidden.value = key || "";
    $$("[data-player-name]", form).forEach((el) => { el.textContent = pname(key); });
    $$("[data-for]", form).forEach((el) => toggle(el, el.dataset.for === key));
    $$("[data-not-for]", form).forEach((el) => toggle(el, el.dataset.notFor !== key));
    if (opener && opener.dataset.event) {
      form.elements.event.value = opener.dataset.event;
      $$("[data-event-text]", form).forEach((el) => { el.textContent = opener.dataset.eventText || ""; });
    }
    if (form.dataset.action === "cash") {
      const p = player(key);
      form.elements.amount.value = p ? p.cash : "";
    }
    adjust(form);
  }

  // Parts of a form that depend on another field (partner, creditor, utility, no bid).
  function adjust(form, changed) {
    const action = form.dataset.action;
    if (action === "trade") {
      const partner = (form.querySelector("input[name=partner]:checked") || {}).value || "";
      $$("[data-for-partner]", form).forEach((el) => toggle(el, el.dataset.forPartner === partner));
      $$("[data-partner-name]", form).forEach((el) => { el.textContent = partner ? pname(partner) : "…"; });
    } else if (action === "bankrupt") {
      const creditor = (form.querySelector("input[name=creditor]:checked") || {}).value || "";
      const wrap = $("[data-when-creditor-player]", form);
      if (wrap) {
        wrap.hidden = !creditor || creditor === "bank";
        $$("[data-for]", wrap).forEach((el) => toggle(el, !wrap.hidden && el.dataset.for === form.dataset.player));
      }
    } else if (action === "rent") {
      const chosen = form.querySelector("input[name=deed]:checked");
      toggle($("[data-when-utility]", form), !!chosen && chosen.dataset.kind === "utility");
    } else if (action === "auction") {
      const none = (form.querySelector("input[name=winner]:checked") || {}).value === "none";
      const price = form.elements.price;
      price.disabled = none;
      if (none) price.value = "";
    } else if (action === "deal" && changed && changed.name === "player") {
      $$("input[name=deed]", form).forEach((input) => { input.checked = false; });
    }
  }

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

  function pickAuctionStep(form, used) {
    const steps = $$("[data-step-deed]", form);
    const current = steps.find((s) => !used.has(s.dataset.stepDeed));
    steps.forEach((s) => { s.hidden = s !== current; });
    form.elements.deed.value = current ? current.dataset.stepDeed : "";
    $$("[data-queue-deed]").forEach((el) => el.classList.toggle("is-queued", used.has(el.dataset.queueDeed)));
    $(".btn-confirm", form).hidden = !current;
  }

  function setupInlineForms() {
    const deal = $(".deal-form");
    if (deal && !deal.querySelector("input[name=player]:checked")) {
      const next = deal.querySelector("input[name=player]:not(:disabled)");
      if (next) next.checked = true;
    }
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
      refreshMain();
    }
  }, true);
  document.body.addEventListener("htmx:afterSettle", () => readMain());
  document.body.addEventListener("htmx:sendError", () => setOnline(false));
  document.body.addEventListener("htmx:afterRequest", (e) => {
    if (e.detail.successful && !fromCache(e.detail.xhr)) setOnline(true);
  });
  // A kept fragment (the service worker's answer without network) only replaces a kept page
  // that is older still; the fragment on screen is never replaced by an older state.
  document.body.addEventListener("htmx:beforeSwap", (e) => {
    if (!fromCache(e.detail.xhr)) return;
    setOnline(false);
    if (!stale || !newer(e.detail.serverResponse)) e.detail.shouldSwap = false;
  });

  window.addEventListener("online", () => { setOnline(true); flush(); syncState(); });
  window.addEventListener("offline", () => setOnline(false));
  // A phone that slept: catch up with the server as soon as the console is seen again.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      if (loadQueue().length) flush();
      else syncState();
    }
  });
  window.addEventListener("storage", (e) => { if (e.key === QKEY) renderQueue(); });

  setInterval(renderClock, 250);
  setInterval(() => {
    const q = loadQueue();
    if (q.length && !q[0].conflict && !flushing) flush();
    else if (stale && !q.length) syncState(); // is the server back?
  }, 5000);
  setInterval(() => { if (!loadQueue().length) syncState(); }, 20000);

  // Expose a little for debugging in the hall (and for the browser tests' patience).
  window.bankerConsole = { queue: loadQueue, flush, refresh: refreshMain, send };

  readMain();
  showConflict();
  keepOffline();
  if (stale) refreshMain(); // the kept fragment may be newer than the kept page
  if (loadQueue().length) flush();
})();
