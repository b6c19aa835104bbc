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
