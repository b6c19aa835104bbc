/* The conflict box: the queued action the server refused (409: the table changed meanwhile,
 * 422: the rules refuse it, else the session); the banker drops it, resends it or reloads; one
 * the session refused is kept until the banker logs in again (or opens the link) and sent then.
 * A refusal is explained by the console's own check, which names players and deeds properly
 * (the events API names them by their ids). */
(function () {
  "use strict";

  const MCS = window.MCS;
  const C = MCS.console;
  const { $, esc } = MCS.util;

  /** conflict(): the queue's refused item or null; csrf(): the current token; show() renders
   * it (or hides the box). */
  C.createConflictBox = function createConflictBox({ t, conflict, checkUrl, csrf, loginUrl }) {
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
      // Only a stale sequence can be sent again; a counted, confirmed or closed table refuses
      // the action whatever its number (its own words say what to do instead).
      const stale = c.status === 409 && (!c.code || c.code === "stale_sequence");
      const session = MCS.queue.refusedBySession(item);
      const why = stale ? t("conflict_stale") : c.status === 409 ? t("conflict_closed") : c.status === 422 ? t("conflict_refused") : t("session");
      box.innerHTML = `
        <h2>${esc(t("conflict_title"))}</h2>
        <p class="conflict-action"><strong>${esc(item.label)}</strong>${item.part ? " · " + esc(item.part) : ""}</p>
        <p>${esc(why)}</p>
        ${session ? `<p data-testid="session-kept">${esc(t("session_kept"))}</p>` : ""}
        <div class="conflict-answer">
          <p class="error">${esc(en ? c.message_en : c.message_de)}</p>
          <p class="muted small">${esc(en ? c.message_de : c.message_en)} · <code>${esc(c.rule || c.code || c.status)}</code></p>
        </div>
        <div class="conflict-buttons">
          <button type="button" class="btn btn-danger" data-conflict="drop">${esc(t("drop"))}</button>
          ${stale ? `<button type="button" class="btn btn-go" data-conflict="resend">${esc(t("resend"))}</button>` : ""}
          ${session ? `<button type="button" class="btn btn-go" data-conflict="retry">${esc(t("retry"))}</button>
          <a class="btn" href="${esc(loginUrl)}">${esc(t("login_again"))}</a>` : ""}
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
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
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
})();
