/* Public pages: live fragments, clocks that run in the browser, and the projector's slides.
 *
 * Live fragments: each `.live` element polls its URL (hx-get, hx-trigger "every 2s"). We send
 * the ETag of what we show as If-None-Match; the server answers 304 Not Modified (empty body)
 * until something changed. htmx 2 swaps every 2xx/3xx response by default (its
 * responseHandling has {code: "[23]..", swap: true}), so a 304 would empty the element: we put
 * {code: "304", swap: false} first. (Without our own If-None-Match the browser's HTTP cache
 * would revalidate by itself and hand htmx a 200 with the cached body: the same content
 * swapped in again every 2 s. With the header set by script the browser passes the 304 on.)
 */
(function () {
  "use strict";

  const clock = window.MCS.clock;
  let skew = 0; // server clock minus browser clock, in milliseconds
  let findAgain = null; // the search box's "ask again" (setupFind), when the page has one

  function configureHtmx() {
    if (!window.htmx || !htmx.config) return;
    const rules = htmx.config.responseHandling || [];
    const has304 = rules.some((rule) => String(rule.code) === "304");
    if (!has304) rules.unshift({ code: "304", swap: false });
    htmx.config.responseHandling = rules;
  }

  document.addEventListener("htmx:configRequest", (event) => {
    const etag = event.detail.elt && event.detail.elt.dataset ? event.detail.elt.dataset.etag : "";
    if (etag) event.detail.headers["If-None-Match"] = etag;
  });

  document.addEventListener("htmx:afterRequest", (event) => {
    const xhr = event.detail.xhr;
    if (!xhr) return;
    const serverTime = Number(xhr.getResponseHeader("X-Server-Time"));
    if (serverTime) skew = serverTime - Date.now();
    if (xhr.status === 200 && event.detail.elt && event.detail.elt.dataset) {
      const etag = xhr.getResponseHeader("ETag");
      if (etag) event.detail.elt.dataset.etag = etag;
    }
  });

  // --- clocks: game time from a base (running) or frozen seconds (paused, ended) ------------

  function tick() {
    const now = Date.now() + skew;
    const clocks = document.querySelectorAll("[data-clock]");
    for (let i = 0; i < clocks.length; i++) {
      const el = clocks[i];
      let seconds;
      if (el.dataset.base) seconds = now / 1000 - Number(el.dataset.base);
      else if (el.dataset.seconds) seconds = Number(el.dataset.seconds);
      else continue;
      const text = clock.format(seconds);
      if (el.textContent !== text) el.textContent = text;
    }
    // countdowns (hall screens): to a deadline in epoch seconds
    const deadlines = document.querySelectorAll("[data-deadline]");
    for (let j = 0; j < deadlines.length; j++) {
      const left = Number(deadlines[j].dataset.deadline) - now / 1000;
      const shown = clock.format(left);
      if (deadlines[j].textContent !== shown) deadlines[j].textContent = shown;
    }
    const wall = document.querySelector("[data-now]");
    if (wall) {
      const text2 = clock.timeOfDay(new Date(now));
      if (wall.textContent !== text2) wall.textContent = text2;
    }
  }

  // --- the projector: one slide at a time, the next every few seconds -----------------------

  function setupScreen() {
    const screen = document.querySelector(".pub-screen");
    if (!screen) return;
    screen.classList.add("js");
    const interval = Math.max(3, Number(screen.dataset.interval) || 10) * 1000;
    const counter = screen.querySelector("[data-slide-count]");
    let current = 0;
    let currentId = null;
    let timer = null;

    function slides() { return Array.from(screen.querySelectorAll(".slide")); }

    function show(index) {
      const all = slides();
      if (!all.length) return;
      current = ((index % all.length) + all.length) % all.length;
      all.forEach((slide, i) => { slide.classList.toggle("active", i === current); });
      currentId = all[current].dataset.slide;
      if (counter) counter.textContent = (current + 1) + " / " + all.length;
    }

    function restart() {
      if (timer) clearInterval(timer);
      timer = setInterval(() => { show(current + 1); }, interval);
    }

    // New content keeps the slide that is on screen (found by its id), or the same position.
    document.addEventListener("htmx:afterSwap", () => {
      const all = slides();
      let found = -1;
      for (let i = 0; i < all.length; i++) if (all[i].dataset.slide === currentId) found = i;
      show(found >= 0 ? found : current);
      tick();
    });

    document.addEventListener("keydown", (event) => {
      if (event.key === "ArrowRight" || event.key === " ") { show(current + 1); restart(); }
      else if (event.key === "ArrowLeft") { show(current - 1); restart(); }
      else if (event.key === "f") toggleFullscreen();
    });

    function toggleFullscreen() {
      if (document.fullscreenElement) document.exitFullscreen();
      else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
    }
    const button = screen.querySelector("[data-fullscreen]");
    if (button) button.addEventListener("click", toggleFullscreen);

    show(0);
    restart();
  }

  // --- live pages (leaderboard, tables): poll a tiny version document, fetch what changed ----
  //
  // The document (`data-versions`) names the standings' generation, the round and each table
  // card's version; only the cards whose version differs are fetched, in one request. A page
  // shared by every spectator stays a few hundred bytes per poll however many tables play.

  function noteServerTime(response) {
    const serverTime = Number(response.headers.get("X-Server-Time"));
    if (serverTime) skew = serverTime - Date.now();
  }

  function getFresh(url, etag) {
    const headers = {};
    if (etag) headers["If-None-Match"] = etag;
    return fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then((response) => { noteServerTime(response); return response; });
  }

  /* Fetch ``url`` with the element's ETag; a changed answer replaces the element's content. */
  function swapFresh(el, url) {
    return getFresh(url, el.dataset.etag).then((response) => {
      if (response.status !== 200) return;
      const etag = response.headers.get("ETag");
      return response.text().then((html) => {
        el.innerHTML = html;
        if (etag) el.dataset.etag = etag;
        tick();
      });
    }).catch(() => {});
  }

  function refreshFragment(el) {
    const url = el.dataset.liveStandings || el.dataset.liveTables || el.dataset.url;
    if (!url) return Promise.resolve();
    return swapFresh(el, url);
  }

  function setupVersions() {
    const root = document.querySelector("[data-versions]");
    if (!root) return;
    const interval = Math.max(1000, Number(root.dataset.pollMs) || 3000);
    let etag = null;
    let standingsGeneration = null;
    let busy = false;
    let known = null;  // every card's version, as of the document `since` names
    let since = null;

    function swapCards(container, cards) {
      Object.keys(cards).forEach((number) => {
        const old = container.querySelector('[data-table="' + number + '"]');
        if (!old) return;
        const holder = document.createElement("div");
        holder.innerHTML = cards[number];
        if (holder.firstElementChild) old.replaceWith(holder.firstElementChild);
      });
      tick();
    }

    function refreshCards(container, numbers) {
      const url = root.dataset.cards + "?n=" + numbers.join(",");
      return getFresh(url, null).then((response) => {
        if (response.status !== 200) return null;
        return response.json();
      }).then((doc) => {
        if (doc && doc.cards) swapCards(container, doc.cards);
      }).catch(() => {});
    }

    function apply(doc) {
      const work = [];
      if (standingsGeneration !== null && doc.s !== standingsGeneration) {
        document.querySelectorAll("[data-live-standings]").forEach((el) => {
          work.push(refreshFragment(el));
        });
        if (findAgain) work.push(findAgain());
      }
      standingsGeneration = doc.s;
      const container = document.querySelector("[data-live-tables]");
      if (container) {
        const grid = container.querySelector("[data-round]");
        if ((grid ? grid.dataset.round : null) !== doc.r) {
          work.push(refreshFragment(container));
        } else {
          const changed = [];
          Object.keys(doc.t || {}).forEach((number) => {
            const card = grid.querySelector('[data-table="' + number + '"]');
            if (!card || card.dataset.v !== doc.t[number]) changed.push(number);
          });
          // The poll's answer carries the changed cards (`&cards=1`): swapped at once; one
          // it lacks (or a whole document's changes) is fetched.
          const carried = doc.c || {};
          const missing = changed.filter((number) => !(number in carried));
          if (changed.length > 60) work.push(refreshFragment(container));
          else {
            if (missing.length < changed.length) swapCards(grid, carried);
            if (missing.length) work.push(refreshCards(grid, missing));
          }
        }
      }
      return Promise.all(work);
    }

    // After the first whole document a poll asks only what changed since the one it has
    // (`?since=g`: a few dozen bytes instead of a kilobyte for a hall of 167 tables); the
    // server answers with the whole document when it no longer knows that one.
    function merge(doc) {
      if (doc.d) {
        if (!known) { since = null; return null; }
        Object.keys(doc.d).forEach((number) => { known[number] = doc.d[number]; });
      } else {
        known = Object.assign({}, doc.t || {});
      }
      since = doc.g || null;
      return { s: doc.s, r: doc.r, t: known, c: doc.c || null };
    }

    function poll() {
      if (busy || document.hidden) return;
      busy = true;
      // The tables page asks for the changed cards with the delta: one request per poll.
      const withCards = document.querySelector("[data-live-tables]") ? "&cards=1" : "";
      const url = root.dataset.versions
        + (since ? "?since=" + encodeURIComponent(since) + withCards : "");
      getFresh(url, since ? null : etag).then((response) => {
        if (response.status !== 200) return null;
        if (!since) etag = response.headers.get("ETag");
        return response.json();
      }).then((doc) => { doc = doc ? merge(doc) : null; return doc ? apply(doc) : null; })
        .catch(() => {})
        .then(() => { busy = false; });
    }

    poll();
    setInterval(poll, interval);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) poll(); });
  }

  // --- "find me": search-as-you-type in the standings (German folding on the server) --------

  function setupFind() {
    const form = document.querySelector("form[data-find]");
    if (!form) return;
    const input = form.querySelector("input[name=q]");
    const results = document.getElementById("find-results");
    let timer = null;
    let etag = "";
    let asked = input.value.trim();

    function find() {
      const query = input.value.trim();
      if (!query) { results.innerHTML = ""; asked = ""; return Promise.resolve(); }
      const sameQuery = query === asked;
      asked = query;
      return getFresh(form.dataset.find + "?q=" + encodeURIComponent(query), sameQuery ? etag : "")
        .then((response) => {
          if (response.status !== 200 || input.value.trim() !== query) return;
          etag = response.headers.get("ETag") || "";
          return response.text().then((html) => { results.innerHTML = html; });
        }).catch(() => {});
    }

    findAgain = () => (asked ? find() : Promise.resolve());
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(find, 250);
    });
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      clearTimeout(timer);
      find();
      if (window.history && history.replaceState) {
        const url = new URL(window.location.href);
        if (input.value.trim()) url.searchParams.set("q", input.value.trim());
        else url.searchParams.delete("q");
        history.replaceState(null, "", url.toString());
      }
    });
  }

  // --- a fragment refreshed on its own (a player's page): `data-refresh`, `data-every` ------

  function setupRefresh() {
    document.querySelectorAll("[data-refresh]").forEach((el) => {
      const every = Math.max(2000, Number(el.dataset.every) || 5000);
      setInterval(() => {
        if (!document.hidden) swapFresh(el, el.dataset.refresh);
      }, every);
    });
  }

  // --- hall screens: a list longer than the screen turns page by page -----------------------
  // Each page holds still for PAGE_MS (read from 10 m, not while it moves); the next page starts
  // with the first line the last one did not show whole, so every name is shown in full once
  // per round; after the last page the list starts over.

  const PAGE_MS = 8000;

  function nextPageTop(box) {
    const boxTop = box.getBoundingClientRect().top;
    const bottom = box.scrollTop + box.clientHeight;
    const list = box.firstElementChild;
    if (!list) return 0;
    for (const line of list.children) {
      const rect = line.getBoundingClientRect();
      const top = rect.top - boxTop + box.scrollTop;
      if (top + rect.height > bottom + 1) return top > box.scrollTop ? top : bottom;
    }
    return 0;
  }

  function setupAutoscroll() {
    let turnAt = 0;
    let last = null;
    let shown = { list: null, top: 0 };
    function step(time) {
      const box = document.querySelector("[data-autoscroll]");
      if (box) {
        if (box !== last) {
          // New content (the screen polls): the same list (its round's seating, a seat moved
          // or a table's game moved on) stays on the page it was on; another list starts over.
          const same = last !== null && box.dataset.autoscroll && box.dataset.autoscroll === shown.list;
          last = box;
          if (same) box.scrollTop = shown.top;
          else { turnAt = time + PAGE_MS; box.scrollTop = 0; }
        }
        if (time >= turnAt) {
          turnAt = time + PAGE_MS;
          const room = box.scrollHeight - box.clientHeight;
          box.scrollTop = room > 0 && box.scrollTop < room ? Math.min(room, nextPageTop(box)) : 0;
        }
        shown = { list: box.dataset.autoscroll, top: box.scrollTop };
      }
      window.requestAnimationFrame(step);
    }
    if (document.querySelector("[data-autoscroll]") || document.querySelector(".hall")) {
      window.requestAnimationFrame(step);
    }
  }

  function start() {
    const stamped = document.querySelector("[data-server-time]");
    if (stamped) skew = Number(stamped.dataset.serverTime) - Date.now();
    configureHtmx();
    setupScreen();
    setupVersions();
    setupFind();
    setupRefresh();
    setupAutoscroll();
    tick();
    setInterval(tick, 500);
    document.addEventListener("htmx:afterSwap", tick);
  }

  configureHtmx();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
