// What every page shares: the player's token, the JSON API, a tiny DOM helper, the top bar
// (with the language switch), and the words of the catalogs applied to static HTML.

import { t, lang, setLang, LANGS, has, ordinal } from './i18n.js';

export { t, lang, ordinal };

/** The bot levels (weakest first); any other bot a game offers is a style of play. */
export const BOT_LEVELS = ['random', 'basico', 'avanzado', 'experto', 'maestro'];

/**
 * A bot's name in the page's words ("Principiante", "Básico"…, from `bot.<name>`), its
 * parameters left out; a bot the catalogs do not name shows as the server calls it.
 * @param {string} bot
 */
export function botName(bot) {
  const base = String(bot || '').split(':')[0].trim().toLowerCase();
  return base && has(`bot.${base}`) ? t(`bot.${base}`) : String(bot || '');
}

const TOKEN_KEY = 'tapete.token';

export function getToken() {
  try { return localStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; }
}
export function setToken(t) {
  try { t ? localStorage.setItem(TOKEN_KEY, t) : localStorage.removeItem(TOKEN_KEY); } catch { /* private mode */ }
}

export class ApiError extends Error {
  /**
   * `code`: the server's machine code of the error (`table_not_found`…), '' if none;
   * `node`: for `table_moved`, the server that runs the table; `retryAfter`: for a 429 or
   * 503, the seconds to wait before asking again (0 if the server did not say); `detail`:
   * the server's own sentence (English, for programs; a tool's refusal names the value at
   * fault in it).
   */
  constructor(status, message, code = '', node = '', retryAfter = 0, detail = '') {
    super(message); this.status = status; this.code = code; this.node = node; this.retryAfter = retryAfter; this.detail = detail;
  }
}

/** The code a refusal without a code of its own is worded by, from its HTTP status. */
const STATUS_CODES = {
  400: 'bad_request', 401: 'unknown_token', 404: 'not_found', 408: 'timeout', 413: 'too_large',
  429: 'rate_limited', 503: 'busy',
};

/**
 * An error's words for a person: the catalog's `error.<code>` (every code the server sends
 * has them, in every language), else the words of its HTTP status; never the server's
 * English sentence, which is for programs.
 * @param {string | undefined} code
 * @param {{s?: number, status?: number}} [args] `s`: seconds to wait (`retry_after`)
 */
export function errorText(code, args = {}) {
  const s = Number.isFinite(args.s) && args.s > 0 ? args.s : 1;
  if (code && has(`error.${code}`)) return t(`error.${code}`, { s });
  const byStatus = STATUS_CODES[args.status || 0];
  return t(`error.${byStatus || 'internal'}`, { s });
}

/**
 * The words for a tool's refusal (the leyes, the solitaire odds): the page's words, then the
 * tool's own sentence, which names the value at fault (in English, marked as such).
 * @param {ApiError | Error} x
 * @returns {(string | Node)[]}
 */
export function toolError(x) {
  if (!(x instanceof ApiError) || x.code !== 'tool_refused' || !x.detail) return [x.message];
  return [x.message, ' ', el('span', { lang: 'en', class: 'detail' }, x.detail)];
}

/** Calls the JSON API; throws ApiError with the person's words for the error on failure. */
export async function api(method, path, body) {
  return (await apiCall(method, path, body)).data;
}

/**
 * Calls the JSON API and answers its body with its headers (a list's `Link` to its next
 * page, say); throws as `api` does.
 * @returns {Promise<{data: any, headers: Headers}>}
 */
export async function apiCall(method, path, body) {
  const headers = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiError(0, t('error.unreachable'), 'unreachable');
  }
  let data = null;
  const text = await res.text();
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!res.ok) {
    const code = (data && data.code) || '';
    const node = (data && typeof data.node === 'string') ? data.node : '';
    const wait = (data && Number(data.retry_after)) || Number(res.headers.get('Retry-After')) || 0;
    const detail = data && typeof data.error === 'string' ? data.error : '';
    throw new ApiError(res.status, errorText(code, { s: wait || undefined, status: res.status }), code, node, wait, detail);
  }
  return { data, headers: res.headers };
}

let mePromise = null;
/** The signed-in player ({id, nickname, account}) or null. */
export function me() {
  if (!mePromise) {
    mePromise = getToken()
      ? api('GET', '/api/me').catch((e) => { if (e.status === 401) setToken(''); return null; })
      : Promise.resolve(null);
  }
  return mePromise;
}

/**
 * True when this browser's token was ended (logged out or revoked elsewhere): it is
 * forgotten, so the page can go on as a visitor. Asks the server afresh.
 */
export async function tokenEnded() {
  if (!getToken()) return false;
  try {
    await api('GET', '/api/me');
    return false;
  } catch (e) {
    if (e.status !== 401) return false;
    setToken('');
    mePromise = null;
    return true;
  }
}

/** Creates a player with this nickname and keeps its token. */
export async function register(nickname) {
  const p = await api('POST', '/api/players', { nickname });
  setToken(p.token);
  mePromise = Promise.resolve({ id: p.id, nickname: p.nickname });
  renderWho();
  return p;
}

/** el('div', {class: 'x', onclick: f, dataset: {a: 1}}, child, 'text', …) */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'dataset') Object.assign(e.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(e.style, v);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), v);
    else if (k === 'html') e.innerHTML = v;
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

let toastTimer = null;
export function toast(message, kind = '') {
  let t = document.querySelector('.toast');
  if (!t) { t = el('div', { class: 'toast', role: 'status', 'data-testid': 'toast' }); document.body.append(t); }
  t.className = `toast ${kind}`;
  t.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.remove(), 4000);
}

const LOGO = `<svg viewBox="0 0 32 32" aria-hidden="true"><rect x="5" y="3" width="15" height="22" rx="2.5" fill="#fffdf6" stroke="#b9ae94" transform="rotate(-12 12 14)"/>
<rect x="12" y="6" width="15" height="22" rx="2.5" fill="#fffdf6" stroke="#b9ae94" transform="rotate(10 20 17)"/>
<circle cx="20" cy="17" r="4.2" fill="#f3c94a" stroke="#936300" transform="rotate(10 20 17)"/></svg>`;

const TOOL_TITLES = { leyes: 'Leyes' };

/**
 * Puts the catalog's words on static HTML: `data-i18n` names the key of an element's text,
 * `data-i18n-title`, `data-i18n-aria-label` and `data-i18n-placeholder` its attributes.
 * @param {ParentNode} root
 */
export function applyWords(root = document) {
  for (const e of root.querySelectorAll('[data-i18n]')) e.textContent = t(e.getAttribute('data-i18n') || '');
  for (const attr of ['title', 'aria-label', 'placeholder']) {
    for (const e of root.querySelectorAll(`[data-i18n-${attr}]`)) e.setAttribute(attr, t(e.getAttribute(`data-i18n-${attr}`) || ''));
  }
}

/** The language switch: one button per language, the current one pressed. */
function langSwitch() {
  return el('span', { class: 'langswitch', role: 'group', 'aria-label': t('lang.switch'), 'data-testid': 'lang-switch' },
    Object.entries(LANGS).map(([code, name]) => el('button', {
      type: 'button', class: code === lang ? 'on' : '', lang: code, 'aria-pressed': String(code === lang),
      'data-testid': `lang-${code}`, onclick: () => { if (code !== lang) setLang(code); },
    }, name)));
}

/**
 * Puts the top bar at the start of <body>; `active` names the current page. The games and
 * their tools come from /api/games (each game opens the lobby's form on it), so a new game
 * shows up without touching the bar; the solitaire's odds and the history are always there.
 * On a narrow screen the links fold into a menu button named after the current page, so the
 * bar keeps one line and the player's name whole.
 */
/** The installable app: a service worker that shows the offline page when the server
 * cannot be reached (see sw.js). Browsers allow it on https and on this machine only. */
function installable() {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/sw.js').catch(() => { /* the site works without it */ });
}

export function topbar(active) {
  installable();
  const link = ([href, text, key, testid]) => el('a', { href, class: key === active ? 'active' : '', 'data-testid': testid }, text);
  const games = el('span', { class: 'navgames', 'data-testid': 'nav-games' });
  const nav = el('nav', { id: 'topnav', 'data-testid': 'nav', 'aria-label': t('nav.label') }, link(['/', t('nav.lobby'), 'lobby']), games,
    [['/solitaire', t('nav.solitaire'), 'solitaire'], ['/history', t('nav.history'), 'history'], ['/leaderboard', t('leaderboard.nav'), 'leaderboard']].map(link), langSwitch());
  const label = el('span', {}, t('nav.menu'));
  const toggle = el('button', {
    type: 'button', class: 'navtoggle', 'aria-controls': 'topnav', 'aria-expanded': 'false', 'data-testid': 'nav-toggle',
  }, el('span', { class: 'burger', 'aria-hidden': 'true' }, '\u2630'), label);
  const bar = el('header', { class: 'topbar' },
    el('a', { class: 'brand', href: '/', html: `${LOGO}<span>tapete</span>` }), toggle, nav,
    el('div', { class: 'who', 'data-testid': 'who' }));
  const setOpen = (open) => { bar.classList.toggle('open', open); toggle.setAttribute('aria-expanded', String(open)); };
  const named = () => { const a = nav.querySelector('a.active'); label.textContent = a ? a.textContent : t('nav.menu'); };
  toggle.addEventListener('click', () => setOpen(!bar.classList.contains('open')));
  document.addEventListener('click', (e) => { if (!bar.contains(/** @type {Node} */ (e.target))) setOpen(false); });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') setOpen(false); });
  named();
  document.body.prepend(bar);
  applyWords(document);
  renderWho();
  // Create account / Log in / Log out: account.js owns them.
  const account = el('span', { class: 'navaccount', 'data-testid': 'nav-account' });
  nav.append(account);
  me().then((p) => import('./account.js').then((m) => m.accountLinks(account, p))).catch(() => { /* the bar works without */ });
  api('GET', '/api/games').then((list) => {
    for (const g of Array.isArray(list) ? list : []) {
      games.append(link([`/?game=${encodeURIComponent(g.name)}`, g.title || g.name, `game-${g.name}`, `nav-game-${g.name}`]));
      for (const tool of g.tools || []) games.append(link([`/${tool}`, TOOL_TITLES[tool] || tool, tool, `nav-tool-${tool}`]));
    }
    named();
  }).catch(() => { /* the bar keeps its fixed links */ });
}

async function renderWho() {
  const who = document.querySelector('.topbar .who');
  if (!who) return;
  const p = await me();
  clear(who);
  // The nickname leads to the player's profile (an account's by its name).
  const profile = p && (p.account ? `/@/${encodeURIComponent(p.nickname)}` : `/p/${p.id}`);
  if (p) who.append(t('who.playing_as'), ' ', el('a', { href: profile, class: 'who-profile', 'data-testid': 'who-profile' }, el('b', {}, p.nickname)));
  else who.append(el('a', { href: '/', style: { color: '#f7e7b0' } }, t('who.pick_nickname')));
}

/** The decimal sign of the page's language ("," in Spanish). */
const DECIMAL = new Intl.NumberFormat(lang).formatToParts(1.5).find((p) => p.type === 'decimal')?.value || '.';

/**
 * A number written with a point ("94.75%", "3.68e-5") in the page's language: the same digits
 * with its decimal sign ("94,75%" in Spanish).
 * @param {string} text
 */
export function localDecimals(text) {
  return DECIMAL === '.' ? text : text.replace(/(\d)\.(\d)/g, `$1${DECIMAL}$2`);
}

export function fmtDate(secs) {
  if (!secs) return '';
  const d = new Date(secs * 1000);
  return d.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
}

/** Seat label from a TableInfo seat: nickname, or "bot (level)". */
export function seatName(seatInfo) {
  if (!seatInfo) return '?';
  if (seatInfo.player) return seatInfo.player.nickname;
  return `bot ${seatInfo.bot || ''}`.trim();
}
