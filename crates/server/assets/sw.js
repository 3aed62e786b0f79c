// @ts-check
// tapete's service worker: it keeps the offline page (/offline) and what that page needs (its
// words in every language), and shows it when a page cannot be reached — no network, or the
// server down. Everything goes to the network first: tables, the API and the WebSocket are
// live and never served from the cache; the cache answers only when the network does not.
// It also shows the notices the server pushes (Web Push: notices.js subscribes), worded from
// the kept catalog of the language the subscription was made in, and a click on one opens
// its table (or brings forward a page already on it).

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

/**
 * A catalog of the pages' words: the kept one, else the network's.
 * @param {string} lang
 * @returns {Promise<Record<string, string>>}
 */
async function catalog(lang) {
  const path = `/assets/i18n/${lang === 'es' ? 'es' : 'en'}.json`;
  try {
    const r = (await caches.match(path)) || (await fetch(path));
    return await r.json();
  } catch {
    return {};
  }
}

/**
 * The catalog's `notice.<kind>` with its arguments (the game by its title).
 * @param {Record<string, string>} words
 * @param {{kind: string, args?: Record<string, unknown>}} n
 */
function worded(words, n) {
  const a = n.args || {};
  /** @type {Record<string, unknown>} */
  const args = { ...a, game: a.game_title || a.game || '' };
  const text = words[`notice.${n.kind}`] || words['notices.title'] || 'tapete';
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m));
}

/**
 * A path of this site, else the lobby.
 * @param {unknown} url
 */
function ownPath(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/';
}

sw.addEventListener('push', (event) => {
  event.waitUntil((async () => {
    /** @type {{id?: number, kind?: string, url?: string, args?: Record<string, unknown>, lang?: string} | null} */
    let n = null;
    try { n = event.data ? event.data.json() : null; } catch { n = null; }
    const words = await catalog(n && n.lang ? n.lang : 'en');
    const body = n && typeof n.kind === 'string' ? worded(words, { kind: n.kind, args: n.args }) : (words['notices.title'] || 'tapete');
    await sw.registration.showNotification('tapete', {
      body,
      tag: n && n.id ? `notice-${n.id}` : 'notice',
      icon: '/assets/icon-192.png',
      lang: n && n.lang === 'es' ? 'es' : 'en',
      data: { url: ownPath(n && n.url) },
    });
    // The pages open now ask for their notices at once.
    for (const c of await sw.clients.matchAll({ type: 'window', includeUncontrolled: true })) c.postMessage({ type: 'notices' });
  })());
});

sw.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(ownPath(event.notification.data && event.notification.data.url), sw.location.origin);
  event.waitUntil((async () => {
    const open = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const there = open.find((c) => new URL(c.url).pathname === url.pathname);
    if (there) await there.focus();
    else await sw.clients.openWindow(url.href);
  })());
});
