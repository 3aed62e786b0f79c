// @ts-check
// Notices to the person logged in (their turn at a table they left, an invitation, their
// tournament match or their cuadrilla's game starting), in the page and by Web Push.
//
// In the page: while an account is logged in, a small poller asks /api/notices for the new
// ones (every 20 s while the page is seen, every 2 min while hidden, backing off to 5 min
// when the server does not answer; at once when the service worker says a push came). Each
// new one puts a count in the document's title, "(2) …", and on the app's badge where the
// browser has one, chimes when the person turned the sound on, and shows a toast linking to
// its table. The count goes when the person comes back to the page or closes the toast.
//
// By Web Push: the account page's switch asks for permission, subscribes this browser with
// the server's key and hands the subscription to the server; off, it unsubscribes. The
// service worker (sw.js) shows what is pushed, worded from the catalog.

import { el, api, me, playChime } from './common.js';
import { t, lang } from './i18n.js';

/**
 * A notice as /api/notices gives it.
 * @typedef {{id: number, at: number, kind: string, url: string, args?: Record<string, unknown>}} Notice
 */

const SEEN = 'tapete.notices.seen';
const SOUND = 'tapete.sound';
const SENT = 'tapete.push.sent';
const VISIBLE_EVERY = 20_000;
const HIDDEN_EVERY = 120_000;
const MOST_EVERY = 300_000;

let unseen = 0;
let chimes = 0;
let shown = 0;
/** @type {number | undefined} */
let timer;
let failures = 0;
let started = false;
/** @type {number | null} */
let player = null;

/** What the tests read: notices shown and chimes played in this page. */
/** @type {Window & {tapeteNotices?: object}} */ (window).tapeteNotices = { get shown() { return shown; }, get chimes() { return chimes; }, get unseen() { return unseen; } };

/**
 * A notice's words in the page's language: the catalog's `notice.<kind>`, its game by title.
 * @param {{kind: string, args?: Record<string, unknown>}} n
 */
export function noticeWords(n) {
  const a = n.args || {};
  const game = String(a.game_title || a.game || '');
  /** @type {Record<string, string | number>} */
  const args = {};
  for (const [k, v] of Object.entries(a)) if (typeof v === 'string' || typeof v === 'number') args[k] = v;
  return t(`notice.${n.kind}`, { ...args, game });
}

/** The key of the last notice shown, per person (0: none yet). */
function seenKey() { return `${SEEN}.${player}`; }

/** @param {string} key */
function read(key) { try { return localStorage.getItem(key); } catch { return null; } }
/** @param {string} key @param {string} value */
function write(key, value) { try { localStorage.setItem(key, value); } catch { /* private mode */ } }

/** The title with the count of unseen notices before it, and the app's badge. */
function showCount() {
  const bare = document.title.replace(/^\(\d+\) /, '');
  document.title = unseen > 0 ? `(${unseen}) ${bare}` : bare;
  const nav = /** @type {Navigator & {setAppBadge?: (n?: number) => Promise<void>, clearAppBadge?: () => Promise<void>}} */ (navigator);
  try {
    if (unseen > 0 && nav.setAppBadge) nav.setAppBadge(unseen).catch(() => {});
    else if (unseen === 0 && nav.clearAppBadge) nav.clearAppBadge().catch(() => {});
  } catch { /* no badge here */ }
}

function seenAll() {
  if (unseen === 0) return;
  unseen = 0;
  showCount();
}

/** The table's soft two-note chime, when the person turned the sound on. */
function chime() {
  if (read(SOUND) !== 'on') return;
  chimes++;
  playChime();
}

/**
 * The toast of the newest notice: its words and a link to its table; closing it counts the
 * notices seen.
 * @param {Notice} n
 */
function noticeToast(n) {
  document.querySelector('.notice-toast')?.remove();
  const url = typeof n.url === 'string' && n.url.startsWith('/') && !n.url.startsWith('//') ? n.url : '/';
  const box = el('div', { class: 'notice-toast', role: 'status', 'data-testid': 'notice-toast', 'data-kind': n.kind },
    el('span', {}, noticeWords(n)),
    el('a', { href: url, class: 'btn small primary', 'data-testid': 'notice-open', onclick: seenAll }, t('notice.open')),
    el('button', { type: 'button', class: 'btn small ghost', 'aria-label': t('notice.close'), 'data-testid': 'notice-close', onclick: () => { box.remove(); seenAll(); } }, '\u00d7'));
  document.body.append(box);
}

/** Asks for the new notices and shows them; when to ask again. */
async function poll() {
  const p = await me().catch(() => null);
  if (!p || !p.account) { player = null; return null; }
  player = p.id;
  const stored = read(seenKey());
  const after = Number(stored || 0) || 0;
  /** @type {Notice[]} */
  const list = await api('GET', `/api/notices?after=${after}`);
  if (!Array.isArray(list)) return;
  const newest = list.reduce((m, n) => Math.max(m, n.id), after);
  write(seenKey(), String(newest));
  // The first time in this browser, the notices already there are not news.
  if (stored === null || list.length === 0) return;
  unseen += list.length;
  shown += list.length;
  showCount();
  chime();
  noticeToast(list[list.length - 1]);
}

/** Polls now, then again after a while that depends on the page being seen. */
async function tick() {
  clearTimeout(timer);
  let again = document.hidden ? HIDDEN_EVERY : VISIBLE_EVERY;
  try {
    const r = await poll();
    if (r === null) return; // nobody logged in: nothing to ask until a page is loaded again
    failures = 0;
  } catch {
    failures++;
    again = Math.min(MOST_EVERY, again * 2 ** failures);
  }
  timer = setTimeout(tick, again);
}

/**
 * Starts the poller of the page (once), and hands the server this browser's subscription
 * again when it changed hands or language since it was last handed.
 */
export function startNotices() {
  if (started || typeof window === 'undefined') return;
  started = true;
  tick();
  document.addEventListener('visibilitychange', () => { if (!document.hidden) { seenAll(); tick(); } });
  window.addEventListener('focus', seenAll);
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.addEventListener('message', (e) => { if (e.data && e.data.type === 'notices') tick(); });
  }
  refreshSubscription().catch(() => { /* it is tried again on the next page */ });
}

// ---- Web Push ----

/** Whether this browser can have notices with the page closed. */
function pushable() {
  return typeof window !== 'undefined' && window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** This browser's subscription, if it has one. */
async function currentSubscription() {
  if (!pushable()) return null;
  const reg = await navigator.serviceWorker.getRegistration('/');
  return reg ? reg.pushManager.getSubscription() : null;
}

/**
 * Hands the server `sub` for the account logged in, in the page's language.
 * @param {PushSubscription} sub
 * @param {number} id
 */
async function hand(sub, id) {
  await api('POST', '/api/push/subscriptions', { ...sub.toJSON(), lang });
  write(SENT, `${id} ${lang} ${sub.endpoint}`);
}

async function refreshSubscription() {
  const p = await me();
  if (!p || !p.account) return;
  const sub = await currentSubscription();
  if (sub && read(SENT) !== `${p.id} ${lang} ${sub.endpoint}`) await hand(sub, p.id);
}

/** @param {string} b64 base64url */
function bytes(b64) {
  const s = atob(b64.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

/**
 * Where Web Push stands in this browser.
 * @returns {Promise<'unsupported' | 'denied' | 'on' | 'off'>}
 */
export async function pushState() {
  if (!pushable()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return (await currentSubscription()) ? 'on' : 'off';
}

/** Turns notices with the page closed on: permission, subscription, handed to the server. */
export async function pushOn() {
  const p = await me();
  if (!p || !p.account || !pushable()) throw new Error('unsupported');
  if ((await Notification.requestPermission()) !== 'granted') throw new Error('denied');
  await navigator.serviceWorker.register('/sw.js');
  const reg = await navigator.serviceWorker.ready;
  const { key } = await api('GET', '/api/push/key');
  let sub = await reg.pushManager.getSubscription();
  const had = sub && sub.options.applicationServerKey ? new Uint8Array(sub.options.applicationServerKey) : null;
  const want = bytes(key);
  if (sub && (!had || had.length !== want.length || had.some((b, i) => b !== want[i]))) {
    await sub.unsubscribe();
    sub = null;
  }
  if (!sub) sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: want });
  await hand(sub, p.id);
}

/** Turns them off: the server forgets the subscription and the browser drops it. */
export async function pushOff() {
  const sub = await currentSubscription();
  if (!sub) return;
  await api('DELETE', '/api/push/subscriptions', { endpoint: sub.endpoint }).catch(() => {});
  write(SENT, '');
  await sub.unsubscribe();
}

/** The switch of the account page: on or off in this browser, and why not when it cannot be. */
export function pushSwitch() {
  const input = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', role: 'switch', 'data-testid': 'push-switch' }));
  const state = el('span', { 'data-testid': 'push-state', 'aria-live': 'polite' });
  const show = async () => {
    const s = await pushState().catch(() => 'unsupported');
    input.checked = s === 'on';
    input.disabled = s === 'unsupported' || s === 'denied';
    /** @type {Record<string, string>} */
    const key = { on: 'notices.push_on', off: 'notices.push_off', denied: 'notices.push_denied', unsupported: 'notices.push_unsupported' };
    state.textContent = t(key[s] || key.unsupported);
  };
  input.addEventListener('change', async () => {
    input.disabled = true;
    try {
      if (input.checked) await pushOn(); else await pushOff();
      await show();
    } catch (e) {
      await show();
      if (!(e instanceof Error && e.message === 'denied')) state.textContent = t('notices.push_failed');
    }
  });
  show();
  return el('div', { class: 'push-switch', 'data-testid': 'push' },
    el('p', {}, t('notices.push_note')),
    el('label', { class: 'row' }, input, el('span', {}, t('notices.push'))), ' ', state);
}
