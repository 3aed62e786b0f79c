// @ts-check
// What every page shares: the player's token, the JSON API, a tiny DOM helper, and the words
// of the catalogs applied to static HTML. The top bar is topbar.js's.

import { t, lang, has, ordinal } from './i18n.js';

export { t, lang, ordinal };

// ---- what the API answers (docs/server.md), as far as the pages read it ----

/**
 * A player as a table names one.
 * @typedef {{id: number, nickname: string}} PlayerRef
 */

/**
 * A seat of a table: who holds it (a person, else the bot that plays it), whether they are
 * connected now, and whether the bot plays for them while they are away.
 * @typedef {{seat: number, player?: PlayerRef | null, bot?: string | null, connected?: boolean,
 *   away?: boolean}} SeatInfo
 */

/**
 * How a finished game ended: the winning seats, every seat's score in the game's unit, the
 * places, and the engine's English summary.
 * @typedef {{winners: number[], scores: number[], places?: number[], summary?: string}} Outcome
 */

/**
 * A table (`TableInfo`): its game and options, its state, its seats, how it ended, and what
 * makes it a friends' table (`invite` only to its creator).
 * @typedef {{id: string, game: string, rules: Record<string, unknown>, status: 'waiting' | 'playing' | 'finished',
 *   created: number, creator?: number | null, bot: string, pace_ms: number, away_s: number, hold_s: number,
 *   turn_s: number, actions: number, seats: SeatInfo[], outcome?: Outcome | null, rated?: boolean,
 *   private?: boolean, invite?: string, reserved?: (PlayerRef | null)[], rematch?: string | null,
 *   rematch_of?: string | null, starts_at?: number | null, fairness?: Fairness}} TableInfo
 */

/**
 * What a table's deal is checked with (docs/fairness.md): the commitment from its making,
 * the contributions from its start, the secret and the seed (decimal text) once over.
 * @typedef {{commitment: string, contributions?: string[], secret?: string, seed?: string}} Fairness
 */

/**
 * A game the server offers (`/api/games`): its seats, default options, bots, tools,
 * whether its games are reviewed, and what each option means.
 * @typedef {{name: string, title: string, seats: {min: number, max: number, default: number},
 *   rules: Record<string, unknown>, bots: string[], default_bot: string, tools: string[], partners: boolean,
 *   reviews?: boolean, duplicate?: boolean, courtesy_juegos?: boolean, rule_docs: Record<string, string>}} GameKind
 */

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

/** This browser's token, '' without one. */
export function getToken() {
  try { return localStorage.getItem(TOKEN_KEY) || ''; } catch { return ''; }
}
/**
 * Keeps this browser's token ('' forgets it).
 * @param {string} t
 */
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
   * @param {number} status
   * @param {string} message
   */
  constructor(status, message, code = '', node = '', retryAfter = 0, detail = '') {
    super(message); this.status = status; this.code = code; this.node = node; this.retryAfter = retryAfter; this.detail = detail;
  }
}

/** The code a refusal without a code of its own is worded by, from its HTTP status. */
/** @type {Record<number, string>} */
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
  const s = args.s !== undefined && Number.isFinite(args.s) && args.s > 0 ? args.s : 1;
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

/**
 * Calls the JSON API and answers its body (the server's JSON, as it comes); throws ApiError
 * with the person's words for the error on failure.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  return (await apiCall(method, path, body)).data;
}

/**
 * Calls the JSON API and answers its body with its headers (a list's `Link` to its next
 * page, say); throws as `api` does.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<{data: any, headers: Headers}>}
 */
export async function apiCall(method, path, body) {
  /** @type {Record<string, string>} */
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

/**
 * A player as the pages know the one this browser plays as (`/api/me`): `operator` for the
 * site's operators, `suspension` (its scope and reason) for a suspended account.
 * @typedef {{id: number, nickname: string, account?: boolean, operator?: boolean,
 *   suspension?: {scope: string, reason: string, at: number}}} Me
 */

/** @type {Promise<Me | null> | null} */
let mePromise = null;
/** What is called when the player changes on this page (a nickname picked): the top bar's name. */
/** @type {(() => void)[]} */
const meWatchers = [];

/**
 * Calls `f` whenever the player changes on this page (a nickname picked, `register`).
 * @param {() => void} f
 */
export function onMe(f) {
  meWatchers.push(f);
}

/**
 * The signed-in player ({id, nickname, account}) or null.
 * @returns {Promise<Me | null>}
 */
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
    if (!(e instanceof ApiError) || e.status !== 401) return false;
    setToken('');
    mePromise = null;
    return true;
  }
}

/**
 * Creates a player with this nickname and keeps its token.
 * @param {string} nickname
 */
export async function register(nickname) {
  const p = await api('POST', '/api/players', { nickname });
  setToken(p.token);
  mePromise = Promise.resolve({ id: p.id, nickname: p.nickname });
  for (const f of meWatchers) f();
  return p;
}

/**
 * What `el` puts in an element: text, numbers, nodes, lists of them; nothing for null,
 * undefined and false.
 * @typedef {string | number | Node | null | undefined | false | Child[]} Child
 */

/**
 * An element's attributes for `el`: `on<event>` handlers (typed by the event), `class`,
 * `dataset` and `style` objects, `html` (markup, for the pages' own), and any other
 * attribute by name (true: present; null, undefined, false: left out).
 * @typedef {{[K in keyof HTMLElementEventMap as `on${K}`]?: ((e: HTMLElementEventMap[K]) => void) | null}
 *   & {dataset?: Record<string, string | number | boolean | null | undefined>,
 *     style?: string | {[P in keyof CSSStyleDeclaration]?: string | number} | null}
 *   & Record<string, unknown>} Attrs
 */

/**
 * el('div', {class: 'x', onclick: f, dataset: {a: 1}}, child, 'text', …)
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs | null} [attrs]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') e.className = String(v);
    else if (k === 'dataset' && typeof v === 'object') Object.assign(e.dataset, v);
    else if (k === 'style' && typeof v === 'object') Object.assign(e.style, v);
    else if (k.startsWith('on') && typeof v === 'function') e.addEventListener(k.slice(2), /** @type {EventListener} */ (v));
    else if (k === 'html') e.innerHTML = String(v);
    else if (v === true) e.setAttribute(k, '');
    else e.setAttribute(k, String(v));
  }
  /** @param {Child} c */
  const add = (c) => {
    if (c === null || c === undefined || c === false) return;
    if (Array.isArray(c)) for (const x of c) add(x);
    else e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  };
  for (const c of children) add(c);
  return e;
}

/**
 * The page's main element (`<main id="app">`, which every page of the site has).
 * @returns {HTMLElement}
 */
export function pageRoot() {
  const app = document.getElementById('app');
  if (!app) throw new Error('the page has no #app');
  return app;
}

/**
 * An error's message for a person: an `ApiError`'s words, any other error's message.
 * @param {unknown} e
 */
export function messageOf(e) {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Empties a node; answers it.
 * @template {Node} N
 * @param {N} node
 * @returns {N}
 */
export function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;

/**
 * A message for a few seconds at the screen's bottom; `kind` 'error' shows it as one.
 * @param {string} message
 */
export function toast(message, kind = '') {
  const t = /** @type {HTMLElement | null} */ (document.querySelector('.toast')) || document.body.appendChild(el('div', { class: 'toast', role: 'status', 'data-testid': 'toast' }));
  t.className = `toast ${kind}`;
  t.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => t.remove(), 4000);
}

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

/**
 * A moment (seconds since 1970) as the page's language writes a date and time; '' for none.
 * @param {number | null | undefined} secs
 */
export function fmtDate(secs) {
  if (!secs) return '';
  const d = new Date(secs * 1000);
  return d.toLocaleString(lang, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * Seat label from a TableInfo seat: nickname, or "bot (level)".
 * @param {{player?: {nickname: string} | null, bot?: string | null} | null | undefined} seatInfo
 */
export function seatName(seatInfo) {
  if (!seatInfo) return '?';
  if (seatInfo.player) return seatInfo.player.nickname;
  return `bot ${seatInfo.bot || ''}`.trim();
}

/** @type {AudioContext | null} */
let audio = null;
/** The pages' short soft two-note chime (your turn, a notice); silent where there is no sound. */
export function playChime() {
  try {
    const ac = audio || new AudioContext();
    audio = ac;
    const now = ac.currentTime;
    [660, 880].forEach((f, i) => {
      const o = ac.createOscillator();
      const g = ac.createGain();
      o.frequency.value = f;
      g.gain.setValueAtTime(0.0001, now + i * 0.12);
      g.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25);
      o.connect(g).connect(ac.destination);
      o.start(now + i * 0.12);
      o.stop(now + i * 0.12 + 0.3);
    });
  } catch { /* no sound here */ }
}
