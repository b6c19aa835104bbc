/* The console's clock bar: the game time, the auction stop, the time limit and the head
 * referee's extra minutes, ticking locally between the server's answers. The server decides the
 * deadlines; when the local clock passes one, onDue(which) asks the console to let the server
 * record it. */
(function () {
  "use strict";

  const MCS = window.MCS;
  const C = MCS.console;
  const { $ } = MCS.util;
  const { LIVE } = C;
  const fmt = MCS.clock.format;

  function levelOf(left) {
    return left <= 60 ? "danger" : left <= 300 ? "warn" : "ok";
  }
  function chip(el, text, level) {
    if (el.textContent !== text) el.textContent = text;
    el.dataset.level = level;
  }

  C.createClock = function createClock({ t, gameTimeLabel, onDue }) {
    let clock = null;

    function sync(c) {
      if (!c) return;
      // A fragment the browser kept (a 304) carries the clock of its moment: never go back.
      if (clock && Date.parse(c.server_now) < Date.parse(clock.server_now)) return;
      clock = Object.assign({}, c, { t0: Date.now() });
      render();
    }
    function syncFromState(state) {
      if (!state || !state.clock) return;
      sync(Object.assign({}, state.clock, { status: state.status, started: !!state.clock.started_at }));
    }
    function running() {
      return !!clock && clock.started && !clock.paused && LIVE.includes(clock.status);
    }
    function gameSeconds() {
      if (!clock || clock.game_seconds == null) return 0;
      return clock.game_seconds + (running() ? (Date.now() - clock.t0) / 1000 : 0);
    }

    function render() {
      if (!clock) return;
      const gs = gameSeconds();
      const bar = $("#clockbar");
      $("#clock-game").textContent = clock.started ? fmt(gs) : "0:00";
      const label = $("#clock-label");
      const live = LIVE.includes(clock.status);
      // A game ended at the desk (the paper sheet) may never have started: it is over all the same.
      const over = clock.status === "finished";
      label.textContent = !clock.started && !over ? t("not_started") : clock.paused ? t("paused")
        : over ? t("game_over") : gameTimeLabel || label.textContent;
      bar.classList.toggle("is-paused", !!clock.paused);
      bar.classList.toggle("is-over", clock.status === "finished");
      $("#btn-pause").hidden = !(clock.started && !clock.paused && live);
      $("#btn-resume").hidden = !(clock.paused && live);

      const stopEl = $("#clock-stop");
      let worst = "ok";
      if (clock.auction_stop_seconds == null || clock.status === "finished") {
        stopEl.hidden = true; // after the game ended no stop is coming
      } else {
        stopEl.hidden = false;
        if (clock.auction_stop_done) {
          chip(stopEl, t("auction_stop_done"), "done");
        } else {
          const left = clock.auction_stop_seconds - gs;
          const level = clock.started ? levelOf(left) : "ok";
          chip(stopEl, left > 0 ? t("auction_stop_in") + " " + fmt(left) : t("auction_stop_now"), level);
          worst = level;
          if (running() && left <= 0 && clock.auction_stop_due) onDue("stop");
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
          if (running() && left <= 0 && clock.time_up_due) onDue("limit");
        }
      }
      bar.dataset.level = worst;
      renderExtra();
    }

    // The head referee's extra minutes: the chip follows the same data as the countdown.
    function renderExtra() {
      const el = $("#clock-extra");
      if (!el) return;
      const minutes = Number(clock.extra_minutes) || 0;
      const text = minutes ? t("extra_minutes", { minutes }) : "";
      if (el.textContent !== text) el.textContent = text;
      el.dataset.extraMinutes = String(minutes);
      el.hidden = !minutes;
    }

    /** The clock follows a pause or resume at once, online or not. */
    function apply(events) {
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
      render();
    }

    return { sync, syncFromState, render, apply };
  };
})();
