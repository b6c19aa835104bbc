/* The conflict box: the queued action the server refused (409: the table changed meanwhile,
 * 422: the rules refuse it, else the session); the banker drops it, resends it or reloads. A
 * refusal is explained by the console's own check, which names players and deeds properly (the
 * events API names them by their ids). */
(function (global) {
  "use strict";

  const C = global.MonopolyConsole;
  const { $, esc } = C;

  /** conflict(): the queue's refused item or null; show() renders it (or hides the box). */
  C.createConflictBox = function createConflictBox({ t, conflict, checkUrl, csrf }) {
    function show() {
      const box = $("#conflict");
      const item = conflict();
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
      if (c.status === 422) explain(item, box);
    }

    // The API names players by their ids; the console's check names them properly.
    async function explain(item, box) {
      try {
        const res = await fetch(checkUrl, {
          method: "POST", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
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

    return { show };
  };
})(window);
