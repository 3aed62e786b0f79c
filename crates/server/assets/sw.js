// @ts-check
// tapete's service worker: it keeps the offline page (/offline) and what that page needs (its
// words in every language), and shows it when a page cannot be reached — no network, or the
// server down. Everything goes to the network first: tables, the API and the WebSocket are
// live and never served from the cache; the cache answers only when the network does not.

/** This script's global scope: a service worker's (tsconfig.sw.json types it with the worker's lib). */
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const CACHE = 'tapete-offline';
const OFFLINE = '/offline';
const KEPT = [OFFLINE, '/assets/offline.js', '/assets/offline.css', '/assets/i18n.js', '/assets/i18n/es.json', '/assets/i18n/en.json', '/assets/favicon.svg', '/assets/icon-192.png'];

sw.addEventListener('install', (event) => {
  // Fetched again at every install, so a new server's words replace the old ones.
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(KEPT)).then(() => sw.skipWaiting()));
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(sw.clients.claim());
});

sw.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  if (req.mode === 'navigate') {
    event.respondWith(fetch(req).catch(() => offlinePage()));
    return;
  }
  const url = new URL(req.url);
  if (url.origin === sw.location.origin && KEPT.includes(url.pathname)) {
    event.respondWith(fetch(req).catch(async () => (await caches.match(url.pathname)) || Response.error()));
  }
});

async function offlinePage() {
  const page = await caches.match(OFFLINE);
  return page || new Response('tapete: offline', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}
