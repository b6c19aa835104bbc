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

  function start() {
    var stamped = document.querySelector("[data-server-time]");
    if (stamped) skew = Number(stamped.dataset.serverTime) - Date.now();
    configureHtmx();
    setupScreen();
    tick();
    setInterval(tick, 500);
    document.addEventListener("htmx:afterSwap", tick);
  }

  configureHtmx();
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
