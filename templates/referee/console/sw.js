/* The banker's console without network: a service worker for {{ scope }} (served by
 * referee.views.service_worker, version {{ version }}).
 *
 * Only same-origin GETs of the console page ({{ scope }}table/<id>/), its fragment (…/main/) and
 * the static files ({{ static_prefix }}) are handled, network first: every good answer is kept in
 * the cache, and the kept copy answers only when the network fails (or is silent for a while).
 * A kept console page or fragment is marked (data-source="cache", X-Console-Cache) so that the
 * console says it shows an old state. Everything else — the API, posts, other pages — is not
 * touched. A new deploy changes the version: the new worker takes over at once and drops the old
 * caches. Logging out drops them too (static/js/site.js).
 */
"use strict";

const PREFIX = "{{ cache_prefix|escapejs }}";
const CACHE = PREFIX + "{{ version|escapejs }}";
const SCOPE = "{{ scope|escapejs }}";
const STATIC = "{{ static_prefix|escapejs }}";
const CONSOLE = /^table\/\d+\/(main\/)?$/;
// Wi-Fi that is connected but leads nowhere hangs instead of failing: after this long a kept
// copy answers (the network answer still refreshes the cache when it comes).
const PATIENCE_MS = 8000;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith(PREFIX) && name !== CACHE)
      .map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  const page = path.startsWith(SCOPE) && CONSOLE.test(path.slice(SCOPE.length));
  if (!page && !path.startsWith(STATIC)) return;
  // One copy per console page and per fragment, whatever the query (?player=…): the newest.
  const key = page ? url.origin + path : request.url;
  event.respondWith(networkFirst(event, request, key, page));
});

// After an action the console's fragment comes with the post's answer, not through this worker:
// the console hands it over, so that a reload without network shows the table as last drawn.
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type !== "keep-main" || typeof data.html !== "string") return;
  const url = new URL(String(data.url || ""), self.location.origin);
  const path = url.pathname;
  if (url.origin !== self.location.origin || !path.startsWith(SCOPE)
      || !CONSOLE.test(path.slice(SCOPE.length)) || !path.endsWith("/main/")) return;
  const response = new Response(data.html, {
    status: 200, headers: { "Content-Type": "text/html; charset=utf-8" },
  });
  event.waitUntil(caches.open(CACHE).then((cache) => cache.put(url.origin + path, response))
    .catch(() => {}));
});

async function networkFirst(event, request, key, page) {
  const cache = await caches.open(CACHE);
  const network = fetch(request).then((response) => {
    // A redirect (an expired session sent to the login page) or an error is never kept.
    if (response.status === 200 && response.type === "basic" && !response.redirected) {
      const copy = response.clone();
      event.waitUntil(cache.put(key, copy).catch(() => {}));
    }
    return response;
  });
  let timer;
  const late = new Promise((resolve) => { timer = setTimeout(resolve, PATIENCE_MS, "late"); });
  try {
    const first = await Promise.race([network, late]);
    if (first !== "late") return first;
    const kept = await cache.match(key, { ignoreVary: true });
    if (kept) {
      event.waitUntil(network.catch(() => {}));
      return page ? marked(kept) : kept;
    }
    return await network;
  } catch (err) {
    const kept = await cache.match(key, { ignoreVary: true });
    if (kept) return page ? marked(kept) : kept;
    return Response.error();
  } finally {
    clearTimeout(timer);
  }
}

// A kept console page or fragment says where it comes from; the console reads the mark.
async function marked(kept) {
  const headers = new Headers(kept.headers);
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  headers.set("X-Console-Cache", "1");
  const html = (await kept.text()).replace('data-source="network"', 'data-source="cache"');
  return new Response(html, { status: 200, statusText: "OK", headers });
}
