/* Every page: logging out drops the offline copies of the banker's console.
 *
 * The console's service worker (/banker/sw.js) keeps the last console pages for a reload without
 * network; on a shared phone the next person must not read them. The logout form waits (at most
 * a moment) until those caches are deleted, then logs out. Pages marked data-clear-offline (the
 * login page, the logged-out page) delete them too, for a session that ended some other way.
 */
(function () {
  "use strict";

  const PREFIX = "banker-console-"; // referee.views.CACHE_PREFIX

  function clearOfflineCopies() {
    if (!window.caches) return Promise.resolve();
    return caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX)).map((n) => caches.delete(n))))
      .catch(() => {});
  }

  document.addEventListener("submit", (e) => {
    const form = e.target.closest("form[data-logout]");
    if (!form || !window.caches || e.defaultPrevented) return;
    e.preventDefault();
    const go = () => form.submit(); // submit() fires no second "submit" event
    Promise.race([clearOfflineCopies(), new Promise((r) => setTimeout(r, 1500))]).then(go, go);
  });

  if (document.querySelector("[data-clear-offline]")) clearOfflineCopies();
})();

/* Selects marked data-exclusive="<group>" (the tie-break slots): a choice made in one is
 * disabled in the others, so no tie-break can be picked twice (the server refuses it too). */
(function () {
  "use strict";

  function refresh(group) {
    const selects = document.querySelectorAll(`select[data-exclusive="${group}"]`);
    const taken = new Map();
    selects.forEach((select) => { if (select.value) taken.set(select.value, select); });
    selects.forEach((select) => {
      Array.from(select.options).forEach((option) => {
        const owner = taken.get(option.value);
        option.disabled = Boolean(option.value) && owner !== undefined && owner !== select;
      });
    });
  }

  function groups() {
    const names = new Set();
    document.querySelectorAll("select[data-exclusive]").forEach((s) => names.add(s.dataset.exclusive));
    return names;
  }

  document.addEventListener("change", (e) => {
    const select = e.target.closest && e.target.closest("select[data-exclusive]");
    if (select) refresh(select.dataset.exclusive);
  });
  const start = () => groups().forEach(refresh);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

/* Forms marked data-confirm="question" ask before they are sent (closing a round, crowning,
 * dropping a player, revoking a link): each of these can be undone, but not by accident. */
(function () {
  "use strict";

  document.addEventListener("submit", (e) => {
    const form = e.target.closest("form[data-confirm]");
    if (!form || e.defaultPrevented) return;
    if (!window.confirm(form.dataset.confirm)) e.preventDefault();
  }, true);
})();

/* A shared public page (rendered once for every spectator) carries no CSRF token: the language
 * switch takes it from the CSRF cookie the page's answer set (Django accepts the cookie's
 * secret as the form's token). */
(function () {
  "use strict";

  function cookie(name) {
    const found = document.cookie.split(";").map((c) => c.trim()).find((c) => c.startsWith(name + "="));
    return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
  }

  document.addEventListener("submit", (e) => {
    const form = e.target.closest("form[data-csrf-from-cookie]");
    if (!form) return;
    const field = form.querySelector("input[name=csrfmiddlewaretoken]");
    if (field && !field.value) field.value = cookie("csrftoken");
  });
})();

/* Polls (hx-trigger "every …") pause while the page is hidden (a phone in a pocket, a tab in
 * the background): an htmx trigger filter would do it with eval, which the site's
 * Content-Security-Policy forbids. */
(function () {
  "use strict";

  document.addEventListener("htmx:beforeRequest", (e) => {
    const trigger = e.target.getAttribute && e.target.getAttribute("hx-trigger");
    if (document.hidden && trigger && trigger.startsWith("every ")) e.preventDefault();
  });
})();

/* The header's menu of tournaments closes as a menu does: a tap elsewhere or Escape. */
(function () {
  "use strict";

  function closeMenus(except) {
    document.querySelectorAll("details[data-nav-menu][open]").forEach((menu) => {
      if (menu !== except) menu.open = false;
    });
  }
  document.addEventListener("click", (e) => closeMenus(e.target.closest("details[data-nav-menu]")));
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const open = document.querySelector("details[data-nav-menu][open]");
    if (!open) return;
    open.open = false;
    open.querySelector("summary").focus();
  });
})();
