/* The round desk (scoring/desk/desk.html): clocks tick between polls; no poll while someone
 * writes a ruling (the poll would replace the form). */
(function () {
  "use strict";
  function format(seconds) {
    var whole = Math.max(0, Math.floor(seconds));
    var rest = whole % 60;
    return Math.floor(whole / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }
  function arm(root) {
    var now = performance.now();
    root.querySelectorAll("[data-desk-clock]").forEach(function (clock) { clock.dataset.t0 = now; });
  }
  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-desk-clock]").forEach(function (clock) {
      var seconds = parseFloat(clock.dataset.seconds);
      if (isNaN(seconds)) { return; }
      if (clock.dataset.running === "1") { seconds += (now - parseFloat(clock.dataset.t0 || now)) / 1000; }
      clock.textContent = format(seconds);
      var limit = parseFloat(clock.dataset.limit);
      clock.classList.toggle("over", clock.dataset.running === "1" && limit > 0 && seconds >= limit);
    });
  }
  // No refresh while someone writes a ruling: the poll would replace the form.
  window.deskIdle = function () {
    var live = document.getElementById("desk-live");
    if (!live || document.hidden) { return false; }
    if (live.contains(document.activeElement) && /^(TEXTAREA|INPUT|SELECT)$/.test(document.activeElement.tagName)) { return false; }
    return !Array.prototype.some.call(live.querySelectorAll("textarea"), function (box) { return box.value.trim() !== ""; });
  };
  arm(document); tick();
  setInterval(tick, 1000);
  document.body.addEventListener("htmx:afterSwap", function (event) { arm(event.target); tick(); });
  // The poll (hx-trigger "every 5s") is skipped while the desk is not idle: an htmx trigger
  // filter would need eval, which the Content-Security-Policy forbids.
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    if (event.target.id === "desk-live" && event.detail.requestConfig.verb === "get" &&
        !window.deskIdle()) { event.preventDefault(); }
  });
})();
