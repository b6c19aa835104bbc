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

  var skew = 0; // server clock minus browser clock, in milliseconds

  function configureHtmx() {
    if (!window.htmx || !htmx.config) return;
    var rules = htmx.config.responseHandling || [];
    var has304 = rules.some(function (rule) { return String(rule.code) === "304"; });
    if (!has304) rules.unshift({ code: "304", swap: false });
    htmx.config.responseHandling = rules;
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var etag = event.detail.elt && event.detail.elt.dataset ? event.detail.elt.dataset.etag : "";
    if (etag) event.detail.headers["If-None-Match"] = etag;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail.xhr;
    if (!xhr) return;
    var serverTime = Number(xhr.getResponseHeader("X-Server-Time"));
    if (serverTime) skew = serverTime - Date.now();
    if (xhr.status === 200 && event.detail.elt && event.detail.elt.dataset) {
      var etag = xhr.getResponseHeader("ETag");
      if (etag) event.detail.elt.dataset.etag = etag;
    }
  });

  // --- clocks: game time from a base (running) or frozen seconds (paused, ended) ------------

  function formatClock(seconds) {
    var whole = Math.max(0, Math.floor(seconds));
    var minutes = Math.floor(whole / 60);
    var rest = whole % 60;
    return minutes + ":" + (rest < 10 ? "0" : "") + rest;
  }

  function tick() {
    var now = Date.now() + skew;
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      var seconds;
      if (el.dataset.base) seconds = now / 1000 - Number(el.dataset.base);
      else if (el.dataset.seconds) seconds = Number(el.dataset.seconds);
      else continue;
      var text = formatClock(seconds);
      if (el.textContent !== text) el.textContent = text;
    }
    // countdowns (hall screens): to a deadline in epoch seconds
    var deadlines = document.querySelectorAll("[data-deadline]");
    for (var j = 0; j < deadlines.length; j++) {
      var left = Number(deadlines[j].dataset.deadline) - now / 1000;
      var shown = formatClock(Math.max(0, left));
      if (deadlines[j].textContent !== shown) deadlines[j].textContent = shown;
    }
    var wall = document.querySelector("[data-now]");
    if (wall) {
      var date = new Date(now);
      var text2 = String(date.getHours()).padStart(2, "0") + ":" + String(date.getMinutes()).padStart(2, "0");
      if (wall.textContent !== text2) wall.textContent = text2;
    }
  }

  // --- the projector: one slide at a time, the next every few seconds -----------------------

  function setupScreen() {
    var screen = document.querySelector(".pub-screen");
    if (!screen) return;
    screen.classList.add("js");
    var interval = Math.max(3, Number(screen.dataset.interval) || 10) * 1000;
    var counter = screen.querySelector("[data-slide-count]");
    var current = 0;
    var currentId = null;
    var timer = null;

    function slides() { return Array.prototype.slice.call(screen.querySelectorAll(".slide")); }

    function show(index) {
      var all = slides();
      if (!all.length) return;
      current = ((index % all.length) + all.length) % all.length;
      all.forEach(function (slide, i) { slide.classList.toggle("active", i === current); });
      currentId = all[current].dataset.slide;
      if (counter) counter.textContent = (current + 1) + " / " + all.length;
    }

    function restart() {
      if (timer) clearInterval(timer);
      timer = setInterval(function () { show(current + 1); }, interval);
    }

    // New content keeps the slide that is on screen (found by its id), or the same position.
    document.addEventListener("htmx:afterSwap", function () {
      var all = slides();
      var found = -1;
      for (var i = 0; i < all.length; i++) if (all[i].dataset.slide === currentId) found = i;
      show(found >= 0 ? found : current);
      tick();
    });

    document.addEventListener("keydown", function (event) {
      if (event.key === "ArrowRight" || event.key === " ") { show(current + 1); restart(); }
      else if (event.key === "ArrowLeft") { show(current - 1); restart(); }
      else if (event.key === "f") toggleFullscreen();
    });

    function toggleFullscreen() {
      if (document.fullscreenElement) document.exitFullscreen();
      else if (document.documentElement.requestFullscreen) document.documentElement.requestFullscreen();
    }
    var button = screen.querySelector("[data-fullscreen]");
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
    var serverTime = Number(response.headers.get("X-Server-Time"));
    if (serverTime) skew = serverTime - Date.now();
  }

  function getFresh(url, etag) {
    var headers = {};
    if (etag) headers["If-None-Match"] = etag;
    return fetch(url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) { noteServerTime(response); return response; });
  }

  /* Fetch ``url`` with the element's ETag; a changed answer replaces the element's content. */
  function swapFresh(el, url) {
    return getFresh(url, el.dataset.etag).then(function (response) {
      if (response.status !== 200) return;
      var etag = response.headers.get("ETag");
      return response.text().then(function (html) {
        el.innerHTML = html;
        if (etag) el.dataset.etag = etag;
        tick();
      });
    }).catch(function () {});
  }

  function refreshFragment(el) {
    var url = el.dataset.liveStandings || el.dataset.liveTables || el.dataset.url;
    if (!url) return Promise.resolve();
    return swapFresh(el, url);
  }

  function setupVersions() {
    var root = document.querySelector("[data-versions]");
    if (!root) return;
    var interval = Math.max(1000, Number(root.dataset.pollMs) || 3000);
    var etag = null;
    var standingsGeneration = null;
    var busy = false;
    var known = null;  // every card's version, as of the document `since` names
    var since = null;

    function refreshCards(container, numbers) {
      var url = root.dataset.cards + "?n=" + numbers.join(",");
      return getFresh(url, null).then(function (response) {
        if (response.status !== 200) return null;
        return response.json();
      }).then(function (doc) {
        if (!doc || !doc.cards) return;
        Object.keys(doc.cards).forEach(function (number) {
          var old = container.querySelector('[data-table="' + number + '"]');
          if (!old) return;
          var holder = document.createElement("div");
          holder.innerHTML = doc.cards[number];
          if (holder.firstElementChild) old.replaceWith(holder.firstElementChild);
        });
        tick();
      }).catch(function () {});
    }

    function apply(doc) {
      var work = [];
      if (standingsGeneration !== null && doc.s !== standingsGeneration) {
        document.querySelectorAll("[data-live-standings]").forEach(function (el) {
          work.push(refreshFragment(el));
        });
        if (window.mcsFindAgain) work.push(window.mcsFindAgain());
      }
      standingsGeneration = doc.s;
      var container = document.querySelector("[data-live-tables]");
      if (container) {
        var grid = container.querySelector("[data-round]");
        if ((grid ? grid.dataset.round : null) !== doc.r) {
          work.push(refreshFragment(container));
        } else {
          var changed = [];
          Object.keys(doc.t || {}).forEach(function (number) {
            var card = grid.querySelector('[data-table="' + number + '"]');
            if (!card || card.dataset.v !== doc.t[number]) changed.push(number);
          });
          if (changed.length > 60) work.push(refreshFragment(container));
          else if (changed.length) work.push(refreshCards(grid, changed));
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
        Object.keys(doc.d).forEach(function (number) { known[number] = doc.d[number]; });
      } else {
        known = Object.assign({}, doc.t || {});
      }
      since = doc.g || null;
      return { s: doc.s, r: doc.r, t: known };
    }

    function poll() {
      if (busy || document.hidden) return;
      busy = true;
      var url = root.dataset.versions + (since ? "?since=" + encodeURIComponent(since) : "");
      getFresh(url, since ? null : etag).then(function (response) {
        if (response.status !== 200) return null;
        if (!since) etag = response.headers.get("ETag");
        return response.json();
      }).then(function (doc) { doc = doc ? merge(doc) : null; return doc ? apply(doc) : null; })
        .catch(function () {})
        .then(function () { busy = false; });
    }

    poll();
    setInterval(poll, interval);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) poll(); });
  }

  // --- "find me": search-as-you-type in the standings (German folding on the server) --------

  function setupFind() {
    var form = document.querySelector("form[data-find]");
    if (!form) return;
    var input = form.querySelector("input[name=q]");
    var results = document.getElementById("find-results");
    var timer = null;
    var etag = "";
    var asked = input.value.trim();

    function find() {
      var query = input.value.trim();
      if (!query) { results.innerHTML = ""; asked = ""; return Promise.resolve(); }
      var sameQuery = query === asked;
      asked = query;
      return getFresh(form.dataset.find + "?q=" + encodeURIComponent(query), sameQuery ? etag : "")
        .then(function (response) {
          if (response.status !== 200 || input.value.trim() !== query) return;
          etag = response.headers.get("ETag") || "";
          return response.text().then(function (html) { results.innerHTML = html; });
        }).catch(function () {});
    }

    window.mcsFindAgain = function () { return asked ? find() : Promise.resolve(); };
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(find, 250);
    });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(timer);
      find();
      if (window.history && history.replaceState) {
        var url = new URL(window.location.href);
        if (input.value.trim()) url.searchParams.set("q", input.value.trim());
        else url.searchParams.delete("q");
        history.replaceState(null, "", url.toString());
      }
    });
  }

  // --- a fragment refreshed on its own (a player's page): `data-refresh`, `data-every` ------

  function setupRefresh() {
    document.querySelectorAll("[data-refresh]").forEach(function (el) {
      var every = Math.max(2000, Number(el.dataset.every) || 5000);
      setInterval(function () {
        if (!document.hidden) swapFresh(el, el.dataset.refresh);
      }, every);
    });
  }

  // --- hall screens: a long list scrolls by itself, pauses at both ends, starts over ---------

  function setupAutoscroll() {
    var pauseUntil = 0;
    var position = 0;
    var last = null;
    function step(time) {
      var box = document.querySelector("[data-autoscroll]");
      if (box) {
        if (box !== last) { last = box; position = 0; pauseUntil = time + 4000; box.scrollTop = 0; }
        var room = box.scrollHeight - box.clientHeight;
        if (room > 0 && time > pauseUntil) {
          if (position >= room) { position = 0; pauseUntil = time + 4000; }
          else {
            position = Math.min(room, position + box.clientHeight / 600); // a screen in ~10 s
            if (position >= room) pauseUntil = time + 4000;
          }
          box.scrollTop = position;
        }
      }
      window.requestAnimationFrame(step);
    }
    if (document.querySelector("[data-autoscroll]") || document.querySelector(".hall")) {
      window.requestAnimationFrame(step);
    }
  }

  function start() {
    var stamped = document.querySelector("[data-server-time]");
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
