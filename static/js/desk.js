/* The round desk (templates/desk/desk.html): clocks tick between polls; no poll while someone
 * writes a ruling (the poll would replace the form). */
(function () {
  "use strict";

  const { clock } = window.MCS;

  function arm(root) {
    const now = performance.now();
    root.querySelectorAll("[data-desk-clock]").forEach((el) => { el.dataset.t0 = now; });
  }
  function tick() {
    const now = performance.now();
    document.querySelectorAll("[data-desk-clock]").forEach((el) => {
      let seconds = parseFloat(el.dataset.seconds);
      if (isNaN(seconds)) return;
      if (el.dataset.running === "1") seconds += (now - parseFloat(el.dataset.t0 || now)) / 1000;
      el.textContent = clock.format(seconds);
      const limit = parseFloat(el.dataset.limit);
      el.classList.toggle("over", el.dataset.running === "1" && limit > 0 && seconds >= limit);
    });
  }
  // No refresh while someone writes a ruling or a reason: the poll would replace the form.
  function idle() {
    const live = document.getElementById("desk-live");
    if (!live || document.hidden) return false;
    const active = document.activeElement;
    if (live.contains(active) && /^(TEXTAREA|INPUT|SELECT)$/.test(active.tagName)) return false;
    const written = live.querySelectorAll("textarea, input[name=reason]");
    return !Array.from(written).some((box) => box.value.trim() !== "");
  }
  // A form opened on the desk (its <details>) stays open across the poll's swap: the head
  // referee who opened "Swap two players" and reads before choosing does not see it fold away.
  let opened = [];
  document.body.addEventListener("htmx:beforeSwap", (event) => {
    if (event.target.id !== "desk-live") return;
    opened = Array.from(event.target.querySelectorAll("details[open][data-form]"),
                        (box) => box.dataset.form);
  });
  arm(document); tick();
  setInterval(tick, 1000);
  document.body.addEventListener("htmx:afterSwap", (event) => {
    if (event.target.id === "desk-live") {
      opened.forEach((name) => {
        const box = event.target.querySelector(`details[data-form="${name}"]`);
        if (box) box.open = true;
      });
      opened = [];
    }
    arm(event.target); tick();
  });
  // The poll (hx-trigger "every 5s") is skipped while the desk is not idle: an htmx trigger
  // filter would need eval, which the Content-Security-Policy forbids.
  document.body.addEventListener("htmx:beforeRequest", (event) => {
    if (event.target.id === "desk-live" && event.detail.requestConfig.verb === "get" && !idle()) {
      event.preventDefault();
    }
  });
})();
