// @ts-check
// The review of a finished game (docs/review.md), for any game that has one: the seat's
// accuracy, luck and skill, the chance of winning over the game as a graph, every real
// choice it made with what each option was worth and why, and "learn from your mistakes",
// the seat's mistakes and blunders one by one as questions. The review is made on the server
// (GET /api/tables/{id}/review?seat=N, answered 202 while it is queued or being made, so the
// page asks again); the table at each decision is the seat's own view then (GET
// /api/tables/{id}/view?seat=N&at=K: never another seat's hidden card), drawn read-only by
// the game's own module. The words are the catalogs': the platform's `review.*`, and each
// game's `review.<game>.*` for the reasons, told like the narration's lines.

import { topbar } from './topbar.js';
import { el, clear, api, me, t, lang, pageRoot, messageOf, toast, ApiError } from './common.js';
import { gameModule } from './games.js';
import { has } from './i18n.js';
import { lineText, cardText } from './story.js';
import { withInvite } from './invite.js';

/** @typedef {import('./common.js').TableInfo} TableInfo */
/** @typedef {import('./kit.js').GameModule} GameModule */
/** @typedef {import('./story.js').StoryLine} StoryLine */

/**
 * What a decision's loss says: good, inaccuracy (5 points or more), mistake (10), blunder (20).
 * @typedef {'good' | 'inaccuracy' | 'mistake' | 'blunder'} Label
 */

/**
 * One option of a decision: the chance of winning the game after it, its standard error,
 * the deals it was valued in; Chinchón's `close`, the chance to close within 1, 2 and 3 draws.
 * @typedef {{action: string, win: number, se: number, worlds: number, close?: number[]}} OptionValue
 */

/**
 * One decision of the seat reviewed: `at`, the index of its action in the game; Mus's
 * `leyes`, the chance the pair wins each lance at the showdown.
 * @typedef {{at: number, hand: number, played: string, best: string, options: OptionValue[], loss: number,
 *   se: number, label: Label, accuracy: number, reason?: StoryLine, leyes?: Record<string, number>}} Decision
 */

/**
 * One hand's chance at its start and end, and its luck and skill (points of game-win chance).
 * @typedef {{hand: number, start: number, end: number, skill: number, luck: number}} HandSplit
 */

/**
 * The review of one seat (`tapete review --json`).
 * `unvalued`: the decisions (by `at`) no deal could be found for, left out.
 * @typedef {{game: string, seat: number, accuracy: number, decisions: Decision[], hands: HandSplit[],
 *   result: number, luck: number, skill: number, luck_adjusted: number, unvalued?: number[]}} Review
 */

/**
 * Where a review not made yet stands (the 202's body).
 * @typedef {{status: 'queued' | 'running', position: number, done?: number, total?: number}} Pending
 */

/**
 * What a seat saw after the first `at` actions (GET /api/tables/{id}/view).
 * @typedef {{seat: number, at: number, actions: number, view: unknown, to_act: number[], legal: string[],
 *   lines: (StoryLine | string)[]}} SeatView
 */

/**
 * A seat's review as the page holds it: asked for, on its way, made, or refused (`error`,
 * the refusal's words, and its `code`).
 * @typedef {{seat: number, review: Review | null, pending: Pending | null, error: string, code: string}} SeatReview
 */

/** The labels, best first. */
const LABELS = /** @type {const} */ (['good', 'inaccuracy', 'mistake', 'blunder']);
/** The marks chess players know: ?! an inaccuracy, ? a mistake, ?? a blunder. */
/** @type {Record<Label, string>} */
const SYMBOL = { good: '', inaccuracy: '?!', mistake: '?', blunder: '??' };
/** Options listed at first under a decision (the rest on request). */
const OPTIONS_SHOWN = 8;
/** Options offered as answers in learn mode, at most. */
const QUIZ_OPTIONS = 6;
/** How often a review on its way is asked for again (ms). */
const POLL_MS = 2000;

topbar('history');
const app = pageRoot();
const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');
const query = new URLSearchParams(location.search);

const head = el('div', { class: 'tablebar' });
const body = el('div', { class: 'rv' });
app.append(head, body);

/** @type {TableInfo} */
let table;
/** @type {GameModule} */
let mod;
/** The seat reviewed: the person's own, or the one they chose. */
let seat = 0;
/** The person's own seat at the table, if they held one at its end (null: another's game). */
/** @type {number | null} */
let own = null;
/** Every seat's review asked for so far, by seat. */
/** @type {Map<number, SeatReview>} */
const reviews = new Map();
/** The seat whose decisions the list and the graph show (the reviewed one, or another's). */
let focus = 0;
/** The decision shown, by its action's index. */
let selected = -1;
/** The list's filter: every decision, the marked ones, or one label. */
let filter = /** @type {'all' | 'marked' | Label} */ ('all');
/** Whether the other seats' reviews are asked for and shown. */
let others = false;
/** The page's mode: the review, or the mistakes one by one. */
let mode = query.get('mode') === 'learn' ? 'learn' : 'review';
/** Learn mode: the position shown (an index among the mistakes) and what was chosen at each. */
let quiz = 0;
/** @type {Map<number, string>} */
const chosen = new Map();
/** The decisions whose options are all listed, by `seat:at`. */
/** @type {Set<string>} */
const allOptions = new Set();
/** Whether "what you had been told" is open under the table. */
let toldOpen = false;
/** The seats' views fetched, by `seat:at`. */
/** @type {Map<string, Promise<SeatView>>} */
const views = new Map();

// ---- numbers in the page's language ----

const pctFmt = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 });
const pct0Fmt = new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 0 });
const numFmt = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
const signedFmt = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, signDisplay: 'exceptZero' });
/** @param {number} x a chance, 0–1 */
const pct = (x) => pctFmt.format(x);
/** @param {number} x a chance, 0–1 */
const pct0 = (x) => pct0Fmt.format(x);
/** @param {number} x */
const num = (x) => numFmt.format(x);
/** @param {number} x */
const signed = (x) => signedFmt.format(x);

// ---- names ----

/** @param {number} s */
function seatName(s) {
  const x = table && table.seats.find((i) => i.seat === s);
  return x && x.player ? x.player.nickname : `bot ${s}`;
}

/**
 * A seat's name with what it is to the reader: "Ane (tú)".
 * @param {number} s
 */
function seatTitle(s) {
  return s === own ? t('review.seat_you', { name: seatName(s) }) : seatName(s);
}

/** @param {Label} label */
function labelName(label) {
  return t(`review.label.${label}`);
}

/**
 * A decision's label as a badge: its symbol and its name, in its colour (and shape on the
 * graph), so that it reads without the colour too.
 * @param {Label} label
 * @param {boolean} [short] the symbol alone (the name as its title)
 */
function labelBadge(label, short = false) {
  const sym = SYMBOL[label];
  return el('span', { class: `rv-label ${label}`, 'data-label': label, title: labelName(label) },
    sym ? el('b', { 'aria-hidden': short ? null : 'true' }, sym) : null,
    short && sym ? null : ` ${labelName(label)}`.trimStart());
}

/**
 * A card code as a small chip: its name in the page's words ("7♥", "12o"), its code kept
 * as `data-card` (what the page shows is checked against the seat's view).
 * @param {string} code
 */
function cardChip(code) {
  const suit = /[HD]$/.test(code) ? 'red' : /[SC]$/.test(code) ? 'black' : /[oceb]$/.test(code) ? code.slice(-1) : '';
  return el('span', { class: `rv-card ${suit}`, 'data-card': code }, cardText(code));
}

/** A card code of any of the games' decks: Spanish (`12o`), French (`10H`) or the joker. */
const CARD = /^(?:(?:1[0-2]|[1-9])[oceb]|(?:1[0-3]|[1-9])[SHDC]|J)$/;

/**
 * An action in words: the game module's parts when it gives them, else the action's text
 * (the game's own words: envido, descarto, cierro…) with its cards as chips.
 * @param {string} action
 * @returns {(string | Node)[]}
 */
function actionWords(action) {
  const parts = mod && mod.actionParts ? mod.actionParts(action) : String(action).split(/(\s+)/).map((w) => (CARD.test(w) ? { card: w } : w));
  return parts.map((p) => (typeof p === 'string' ? p : cardChip(p.card)));
}

/**
 * A reason (a line of the game's catalog, `review.<game>.*`) in the page's words.
 * @param {StoryLine | undefined} line
 */
function reasonText(line) {
  if (!line) return '';
  const pairName = mod.pairName;
  return lineText(line, {
    seatName,
    pairName: pairName ? (p) => pairName(p, { seatName, mySeat: focus }) : undefined,
  });
}

// ---- the API ----

/**
 * The review of seat `s`, asked for until it is made: `onPending` hears where it stands
 * meanwhile. A refusal throws (its words are the catalog's); a wait the server names
 * (`retry_after`: too many reads, a full queue) is waited out.
 * @param {number} s
 * @param {(p: Pending) => void} onPending
 * @returns {Promise<Review>}
 */
async function fetchReview(s, onPending) {
  for (;;) {
    /** @type {Review | Pending} */
    let r;
    try {
      r = await api('GET', withInvite(`/api/tables/${encodeURIComponent(tableId)}/review?seat=${s}`, tableId));
    } catch (x) {
      // Waits the server names; and a game whose end is being stored as the page opens.
      const waits = x instanceof ApiError && (x.code === 'rate_limited' || x.code === 'review_queue_full' || x.code === 'busy'
        || (x.code === 'not_finished' && table.status === 'finished'));
      if (!waits) throw x;
      onPending({ status: 'queued', position: 0 });
      await sleep(Math.max(1, x instanceof ApiError ? x.retryAfter : 5) * 1000);
      continue;
    }
    if (r && 'decisions' in r) return r;
    onPending(/** @type {Pending} */ (r));
    await sleep(POLL_MS);
  }
}

/** @param {number} ms */
function sleep(ms) { return new Promise((done) => setTimeout(done, ms)); }

/**
 * What seat `s` saw after the first `at` actions, fetched once.
 * @param {number} s
 * @param {number} at
 * @returns {Promise<SeatView>}
 */
function seatView(s, at) {
  const key = `${s}:${at}`;
  let p = views.get(key);
  if (!p) {
    p = api('GET', withInvite(`/api/tables/${encodeURIComponent(tableId)}/view?seat=${s}&at=${at}`, tableId));
    p.catch(() => views.delete(key));
    views.set(key, p);
  }
  return p;
}

// ---- where a review stands ----

/**
 * "Queued (position 2)" or "Analysing 5 of 24 decisions", with a bar.
 * @param {Pending | null} p
 */
function pendingEl(p) {
  const running = !!p && p.status === 'running' && Number(p.total) > 0;
  const words = !p ? t('review.asking')
    : p.status === 'running' ? (running ? t('review.running', { done: Number(p.done), total: Number(p.total) }) : t('review.starting'))
      : p.position > 0 ? t('review.queued', { position: p.position }) : t('review.waiting');
  const bar = el('progress', { class: 'rv-progress', max: running ? Number(p && p.total) : null, value: running ? Number(p && p.done) : null, 'aria-label': words });
  return el('div', { class: 'rv-pending', role: 'status', 'data-testid': 'review-pending', 'data-status': p ? p.status : 'asking' },
    el('span', {}, words), bar);
}

// ---- the summary ----

/**
 * How many decisions carry each label.
 * @param {Review} r
 * @returns {Record<Label, number>}
 */
function counts(r) {
  /** @type {Record<Label, number>} */
  const c = { good: 0, inaccuracy: 0, mistake: 0, blunder: 0 };
  for (const d of r.decisions) if (Object.hasOwn(c, d.label)) c[d.label]++;
  return c;
}

/**
 * One figure of the summary with its line of explanation.
 * @param {string} name
 * @param {string} value
 * @param {string} help
 * @param {string} testid
 */
function figure(name, value, help, testid) {
  return el('div', { class: 'rv-fig', 'data-testid': testid },
    el('div', { class: 'rv-fig-head' }, el('span', { class: 'rv-fig-name' }, name), el('b', { class: 'rv-fig-value' }, value)),
    el('div', { class: 'muted small' }, help));
}

/** @param {Review} r */
function resultWords(r) {
  if (r.result >= 99.95) return t('review.result_won');
  if (r.result <= 0.05) return t('review.result_lost');
  return t('review.result_share', { n: num(r.result) });
}

/** The summary of the seat in focus: its figures, each with its line of explanation. */
function summaryEl() {
  const sr = reviews.get(focus);
  const r = sr && sr.review;
  const box = el('section', { class: 'panel rv-summary', 'data-testid': 'summary' });
  box.append(el('h2', {}, t('review.summary_of', { name: seatTitle(focus) })));
  if (!r) { box.append(sr && sr.error ? el('p', { class: 'error-text' }, sr.error) : pendingEl(sr ? sr.pending : null)); return box; }
  const c = counts(r);
  box.append(el('div', { class: 'rv-figs' },
    figure(t('review.accuracy'), num(r.accuracy), t('review.accuracy_help'), 'accuracy'),
    el('div', { class: 'rv-fig', 'data-testid': 'counts' },
      el('div', { class: 'rv-fig-head' }, el('span', { class: 'rv-fig-name' }, t('review.decisions_n', { count: r.decisions.length }))),
      el('div', { class: 'rv-counts' }, LABELS.filter((l) => l !== 'good').map((l) => el('span', { class: 'rv-count', 'data-label': l, 'data-count': c[l] },
        labelBadge(l, true), ' ', t(`review.count.${l}`, { count: c[l] })))),
      el('div', { class: 'muted small' }, t('review.labels_help'))),
    figure(t('review.result'), resultWords(r), t('review.result_help'), 'result'),
    figure(t('review.luck'), signed(r.luck), t('review.luck_help'), 'luck'),
    figure(t('review.skill'), signed(r.skill), t('review.skill_help'), 'skill'),
    figure(t('review.luck_adjusted'), num(r.luck_adjusted), t('review.luck_adjusted_help'), 'luck-adjusted')));
  const unvalued = Array.isArray(r.unvalued) ? r.unvalued.length : 0;
  if (unvalued) box.append(el('p', { class: 'muted small', 'data-testid': 'unvalued' }, t('review.unvalued', { count: unvalued })));
  return box;
}

/** The switch that asks for the other seats' reviews, and each seat's line once asked. */
function othersEl() {
  const box = el('section', { class: 'panel rv-others', 'data-testid': 'others' });
  const input = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', checked: others, 'data-testid': 'others-switch' }));
  input.addEventListener('change', () => { others = input.checked; if (others) askOthers(); else if (focus !== seat) { focus = seat; selected = firstSelected(); } draw(); });
  box.append(el('label', { class: 'check' }, input, t('review.others_switch')),
    el('div', { class: 'muted small' }, t('review.others_help')));
  if (!others) return box;
  const rows = el('tbody');
  for (let s = 0; s < table.seats.length; s++) {
    const sr = reviews.get(s);
    const r = sr && sr.review;
    const c = r ? counts(r) : null;
    const pick = el('button', {
      class: `btn small ${s === focus ? 'primary' : ''}`, 'data-testid': `seat-review-${s}`, 'aria-pressed': String(s === focus),
      disabled: !r, onclick: () => { focus = s; selected = firstSelected(); draw(); },
    }, seatTitle(s));
    rows.append(el('tr', {},
      el('td', {}, pick),
      r && c ? el('td', { class: 'num' }, num(r.accuracy)) : el('td', { colspan: 4 }, sr && sr.error ? el('span', { class: 'error-text' }, sr.error) : pendingEl(sr ? sr.pending : null)),
      r && c ? LABELS.filter((l) => l !== 'good').map((l) => el('td', { class: 'num' }, String(c[l]))) : null));
  }
  box.append(el('div', { class: 'tablewrap' }, el('table', { class: 'list rv-seats' },
    el('thead', {}, el('tr', {}, el('th', {}, t('review.seat')), el('th', { class: 'num' }, t('review.accuracy')),
      LABELS.filter((l) => l !== 'good').map((l) => el('th', { class: 'num', title: labelName(l) }, SYMBOL[l])))),
    rows)));
  return box;
}

/** Asks for every other seat's review (each its own request), drawing as they come. */
function askOthers() {
  for (let s = 0; s < table.seats.length; s++) if (!reviews.has(s)) load(s);
}

/**
 * Asks for seat `s`'s review and keeps it, drawing the page as it stands.
 * @param {number} s
 */
async function load(s) {
  /** @type {SeatReview} */
  const sr = { seat: s, review: null, pending: null, error: '', code: '' };
  reviews.set(s, sr);
  try {
    sr.review = await fetchReview(s, (p) => { sr.pending = p; drawStatus(s); });
  } catch (x) {
    sr.error = messageOf(x);
    sr.code = x instanceof ApiError ? x.code : '';
  }
  drawStatus(s);
}

// ---- the graph ----

/** The SVG namespace. */
const SVG = 'http://www.w3.org/2000/svg';

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {...(Node | string)} kids
 * @returns {SVGElement}
 */
function svg(tag, attrs, ...kids) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  e.append(...kids);
  return e;
}

/**
 * The points of the graph in order: the first hand's start, then each decision (the chance
 * after the option played) and each hand's end (the next hand's start).
 * @param {Review} r
 * @returns {{y: number, d: Decision | null, hand: number, end?: boolean}[]}
 */
function graphPoints(r) {
  /** @type {{y: number, d: Decision | null, hand: number, end?: boolean}[]} */
  const out = [];
  const hands = [...r.hands].sort((a, b) => a.hand - b.hand);
  const seen = new Set();
  hands.forEach((h, k) => {
    if (k === 0) out.push({ y: h.start, d: null, hand: h.hand });
    for (const d of r.decisions) {
      if (d.hand !== h.hand) continue;
      seen.add(d);
      out.push({ y: playedWin(d), d, hand: h.hand });
    }
    out.push({ y: h.end, d: null, hand: h.hand, end: true });
  });
  for (const d of r.decisions) if (!seen.has(d)) out.push({ y: playedWin(d), d, hand: d.hand });
  return out;
}

/** @param {Decision} d */
function playedWin(d) {
  const o = d.options.find((x) => x.action === d.played);
  return o ? o.win : 0;
}

/** @param {Decision} d */
function bestWin(d) {
  const o = d.options.find((x) => x.action === d.best);
  return o ? o.win : 0;
}

/**
 * The chance of winning over the game: a line through every point, the hands apart, the
 * decisions as dots (the marked ones bigger, each label its colour and shape); a dot clicked
 * selects its decision.
 * @param {Review} r
 */
function graphEl(r) {
  // As wide as a phone's screen there, so that the dots stay big enough to tap.
  const W = window.innerWidth < 600 ? 400 : 720; const H = 210; const L = 38; const R = 10; const T = 12; const B = 26;
  const pts = graphPoints(r);
  const n = Math.max(pts.length - 1, 1);
  const x = (/** @type {number} */ i) => L + ((W - L - R) * i) / n;
  const y = (/** @type {number} */ p) => T + (H - T - B) * (1 - Math.max(0, Math.min(1, p)));
  const root = /** @type {SVGSVGElement} */ (svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rv-graph-svg', role: 'img', 'aria-label': t('review.graph_label', { name: seatName(r.seat) }) }));
  for (const p of [0, 0.5, 1]) {
    root.append(svg('line', { x1: L, x2: W - R, y1: y(p), y2: y(p), class: p === 0.5 ? 'mid' : 'grid' }),
      svg('text', { x: L - 5, y: y(p) + 4, 'text-anchor': 'end', class: 'axis' }, pct0(p)));
  }
  // The hands: a band for every other one, its number under it where there is room.
  let from = 0;
  pts.forEach((p, i) => {
    if (!p.end) return;
    const hand = p.hand;
    const x0 = x(from); const x1 = x(i);
    if (i < pts.length - 1) root.append(svg('line', { x1: x1, x2: x1, y1: T, y2: H - B, class: 'sep' }));
    if (x1 - x0 > 18) root.append(svg('text', { x: (x0 + x1) / 2, y: H - 8, 'text-anchor': 'middle', class: 'axis' }, String(hand)));
    from = i;
  });
  root.append(svg('text', { x: L, y: H - 8, 'text-anchor': 'end', class: 'axis hands' }, t('review.hand_short')));
  const line = pts.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join('');
  root.append(svg('path', { d: `${line}L${x(pts.length - 1).toFixed(1)},${y(0)}L${x(0)},${y(0)}Z`, class: 'area' }),
    svg('path', { d: line, class: 'curve' }));
  pts.forEach((p, i) => {
    const d = p.d;
    if (!d) return;
    const cx = x(i); const cy = y(p.y);
    const marked = d.label !== 'good';
    const r0 = marked ? 6 : 3;
    const shape = d.label === 'mistake' ? svg('rect', { x: cx - r0, y: cy - r0, width: 2 * r0, height: 2 * r0 })
      : d.label === 'blunder' ? svg('path', { d: `M${cx},${cy - r0 - 2}L${cx + r0 + 2},${cy}L${cx},${cy + r0 + 2}L${cx - r0 - 2},${cy}Z` })
        : svg('circle', { cx, cy, r: r0 });
    const g = svg('g', {
      class: `dot ${d.label} ${d.at === selected && focus === r.seat ? 'selected' : ''}`, 'data-testid': 'graph-dot', 'data-at': d.at, 'data-label': d.label,
    }, svg('circle', { cx, cy, r: 12, class: 'hit' }), shape,
    svg('title', {}, `${t('review.hand_n', { n: d.hand })} · ${d.played} · ${labelName(d.label)} · ${pct(p.y)}`));
    g.addEventListener('click', () => select(d.at));
    root.append(g);
  });
  return el('section', { class: 'panel rv-graph', 'data-testid': 'graph' },
    el('h2', {}, t('review.graph_title')), el('p', { class: 'muted small' }, t('review.graph_help')), root,
    el('div', { class: 'rv-legend small' }, LABELS.filter((l) => l !== 'good').map((l) => el('span', { class: `rv-key ${l}` }, el('i', { 'aria-hidden': 'true' }), labelName(l)))));
}

// ---- the decisions ----

/**
 * The decisions the list shows under the filter.
 * @param {Review} r
 */
function filtered(r) {
  return r.decisions.filter((d) => filter === 'all' || (filter === 'marked' ? d.label !== 'good' : d.label === filter));
}

/** The decision to show first: the first marked one, else the first. */
function firstSelected() {
  const r = reviewOf(focus);
  if (!r || !r.decisions.length) return -1;
  const d = r.decisions.find((x) => x.label !== 'good') || r.decisions[0];
  return d.at;
}

/**
 * Seat `s`'s review, once made.
 * @param {number} s
 */
function reviewOf(s) {
  const sr = reviews.get(s);
  return sr ? sr.review : null;
}

/**
 * Shows decision `at` (of the seat in focus).
 * @param {number} at
 */
function select(at) {
  selected = at;
  draw();
  const row = /** @type {HTMLElement | null} */ (document.querySelector(`[data-testid="decision"][data-at="${at}"]`));
  if (row) {
    row.focus({ preventScroll: true });
    // The row in sight inside the list (the list scrolls, not the page).
    const list = row.closest('.rv-list');
    if (list instanceof HTMLElement) {
      const top = row.offsetTop;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (top + row.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + row.offsetHeight - list.clientHeight;
    }
  }
  // The decision's top in sight, under the top bar.
  const detail = document.querySelector('[data-testid="detail"]');
  const bar = document.querySelector('.topbar');
  if (detail) {
    const under = bar ? bar.getBoundingClientRect().bottom + 8 : 8;
    const r = detail.getBoundingClientRect();
    if (r.top < under || r.top > window.innerHeight * 0.6) window.scrollBy({ top: r.top - under });
  }
}

/**
 * The next (`step` 1) or previous (-1) decision of the list.
 * @param {number} step
 */
function move(step) {
  const r = reviewOf(focus);
  if (!r) return;
  const list = filtered(r);
  if (!list.length) return;
  const i = list.findIndex((d) => d.at === selected);
  const j = i < 0 ? 0 : Math.max(0, Math.min(list.length - 1, i + step));
  select(list[j].at);
}

/**
 * The filter's buttons and the list of decisions.
 * @param {Review} r
 */
function listEl(r) {
  const c = counts(r);
  const marked = r.decisions.length - c.good;
  /** @type {['all' | 'marked' | Label, string][]} */
  const choices = [['all', t('review.filter.all', { n: r.decisions.length })], ['marked', t('review.filter.marked', { n: marked })],
    ...LABELS.filter((l) => l !== 'good').map((l) => /** @type {[Label, string]} */ ([l, `${SYMBOL[l]} ${t(`review.count.${l}`, { count: c[l] })}`]))];
  const bar = el('div', { class: 'rv-filter', role: 'group', 'aria-label': t('review.filter_label'), 'data-testid': 'filter' },
    choices.map(([k, words]) => el('button', {
      class: `btn small ${filter === k ? 'primary' : ''}`, 'aria-pressed': String(filter === k), 'data-filter': k, 'data-testid': `filter-${k}`,
      onclick: () => { filter = k; const list = filtered(r); if (!list.some((d) => d.at === selected) && list.length) selected = list[0].at; draw(); },
    }, words)));
  const list = el('ol', { class: 'rv-list', 'data-testid': 'decisions', 'aria-label': t('review.decisions_title') });
  for (const d of filtered(r)) {
    const k = r.decisions.indexOf(d) + 1;
    list.append(el('li', {}, el('button', {
      class: `rv-dec ${d.label} ${d.at === selected ? 'on' : ''}`, 'data-testid': 'decision', 'data-at': d.at, 'data-label': d.label,
      'aria-current': d.at === selected ? 'true' : null, onclick: () => select(d.at),
    },
    el('span', { class: 'rv-dec-n muted small' }, `${k}.`),
    el('span', { class: 'rv-dec-hand muted small' }, t('review.hand_n', { n: d.hand })),
    el('span', { class: 'rv-dec-act' }, actionWords(d.played)),
    el('span', { class: 'spacer' }),
    d.label !== 'good' ? labelBadge(d.label, true) : null,
    el('span', { class: 'rv-dec-loss small' }, d.loss > 0.05 ? `−${num(d.loss)}` : '0'))));
  }
  if (!list.childElementCount) list.append(el('li', { class: 'empty' }, t('review.none_filtered')));
  return el('section', { class: 'panel rv-decisions' },
    el('h2', {}, t('review.decisions_title')), bar, list,
    el('p', { class: 'muted small rv-keys' }, t('review.keys')));
}

/**
 * The options of a decision with their values: the best marked, the one played marked; in
 * learn mode (`mine`: the option chosen there) the played one is not told until a choice is made.
 * @param {Decision} d
 * @param {{quiz?: boolean, mine?: string | null}} [how]
 */
function optionsEl(d, how = {}) {
  const hasClose = d.options.some((o) => Array.isArray(o.close));
  const rows = el('tbody');
  const sorted = [...d.options].sort((a, b) => b.win - a.win);
  // Many options (a tikki lay has up to 127): the best ones, the one played and the one
  // chosen, the rest on request.
  const all = allOptions.has(`${focus}:${d.at}`);
  const shown = all || sorted.length <= OPTIONS_SHOWN + 2 ? sorted
    : sorted.filter((o, i) => i < OPTIONS_SHOWN || o.action === d.played || o.action === how.mine);
  for (const o of shown) {
    const best = o.action === d.best;
    const played = o.action === d.played;
    const mine = how.mine === o.action;
    rows.append(el('tr', { class: `${best ? 'best' : ''} ${played ? 'played' : ''} ${mine ? 'mine' : ''}`, 'data-testid': 'option', 'data-action': o.action },
      el('td', { class: 'rv-opt-act' }, actionWords(o.action),
        best ? el('span', { class: 'rv-tag best', 'data-testid': 'best-mark' }, `★ ${t('review.best')}`) : null,
        played ? el('span', { class: 'rv-tag played' }, how.quiz ? t('review.played_in_game') : t('review.played')) : null,
        mine ? el('span', { class: 'rv-tag mine' }, t('review.your_choice')) : null),
      el('td', { class: 'num rv-win' }, el('b', {}, pct(o.win)), el('span', { class: 'muted small' }, ` ± ${pct(o.se)}`)),
      hasClose ? el('td', { class: 'num small' }, Array.isArray(o.close) ? o.close.map((p) => pct0(p)).join(' · ') : '') : null));
  }
  const more = shown.length < sorted.length
    ? el('button', { class: 'btn small', 'data-testid': 'all-options', onclick: () => { allOptions.add(`${focus}:${d.at}`); draw(); } },
      t('review.all_options', { count: sorted.length }))
    : null;
  return el('div', { class: 'tablewrap' }, el('table', { class: 'list rv-options', 'data-testid': 'options' },
    el('thead', {}, el('tr', {}, el('th', {}, t('review.option')), el('th', { class: 'num' }, t('review.win')),
      hasClose ? el('th', { class: 'num', title: t('review.close_help') }, t('review.close')) : null)),
    rows), more);
}

/**
 * The options offered as answers in learn mode: all of them when they are few; else the
 * best, the one played and others from the whole range of values, in the order of their
 * words (the order tells nothing of their values).
 * @param {Decision} d
 */
function quizOptions(d) {
  if (d.options.length <= QUIZ_OPTIONS) return d.options;
  const sorted = [...d.options].sort((a, b) => b.win - a.win);
  /** @type {Set<OptionValue>} */
  const picked = new Set(sorted.filter((o) => o.action === d.best || o.action === d.played));
  const rest = sorted.filter((o) => !picked.has(o));
  const room = QUIZ_OPTIONS - picked.size;
  for (let k = 0; k < room && rest.length; k++) picked.add(rest[Math.round((k * (rest.length - 1)) / Math.max(1, room - 1))]);
  return [...picked].sort((a, b) => a.action.localeCompare(b.action));
}

/** The order of the leyes' lances (the document's JSON object keeps none). */
const LEY_ORDER = ['grande', 'chica', 'pares', 'juego', 'punto'];

/**
 * The exact parts of a decision: the leyes (Mus: the chance that the seat's side wins each
 * lance at the showdown) as bars, each lance named by the game's own words.
 * @param {Decision} d
 */
function exactEl(d) {
  const leyes = d.leyes;
  if (!leyes || typeof leyes !== 'object') return null;
  /** @param {string} l */
  const lance = (l) => (has(`story.${table.game}.lance.${l}`) ? t(`story.${table.game}.lance.${l}`) : l);
  // Mus's lances in the order they are played; any other after them.
  const order = (/** @type {string} */ l) => { const i = LEY_ORDER.indexOf(l); return i < 0 ? LEY_ORDER.length : i; };
  return el('div', { class: 'rv-leyes', 'data-testid': 'leyes' },
    el('h3', {}, t('review.leyes'), ' ', el('span', { class: 'muted small' }, t('review.leyes_help'))),
    Object.keys(leyes).filter((l) => typeof leyes[l] === 'number').sort((a, b) => order(a) - order(b)).map((l) => el('div', { class: 'rv-ley', 'data-lance': l },
      el('span', { class: 'rv-ley-name' }, lance(l)),
      el('span', { class: 'rv-ley-bar' }, el('i', { style: { width: `${Math.round(100 * leyes[l])}%` } })),
      el('b', { class: 'rv-ley-pct' }, pct0(leyes[l])))));
}

/**
 * The table as the seat saw it at decision `at`: its own view then, drawn by the game's own
 * module with the actions it could take, and what it had been told of the hand. A picture
 * (inert), unless `choose` is given (learn mode): then an action taken on the felt is
 * answered as the choice of that option.
 * @param {number} s
 * @param {number} at
 * @param {{choose?: (action: string) => void}} [how]
 */
function positionEl(s, at, how = {}) {
  const main = el('div', { class: 'rv-felt' });
  const side = el('div', { class: 'rv-score' });
  const told = el('details', { class: 'rv-told', open: toldOpen, ontoggle: () => { toldOpen = told.open; } });
  const box = el('div', { class: 'rv-position', 'data-testid': 'position', 'data-seat': s, 'data-at': at, 'aria-busy': 'true' },
    el('p', { class: 'muted small rv-caption' }, how.choose ? t('review.as_seen_choose', { name: seatName(s) }) : t('review.as_seen', { name: seatName(s) })),
    el('div', { class: 'rv-pos-grid', inert: !how.choose }, main, side), told);
  seatView(s, at).then((v) => {
    // Drawn apart from the page, then put in: a module that brings a part of its felt into
    // view does nothing while it is not on the page (and its state stays with `m`).
    const m = el('div'); const sd = el('div');
    const tableNow = { ...table, status: /** @type {'playing'} */ ('playing'), outcome: null };
    const st = { view: v.view, legal: v.legal || [], lines: v.lines, table: tableNow, you: { seat: s }, outcome: null, replay: false, hold: null, n: at };
    const paintFelt = () => mod.render({ main: m, side: sd }, st, ctx);
    /** @type {import('./kit.js').GameContext} */
    const ctx = {
      send: (action) => { if (how.choose) how.choose(action); paintFelt(); },
      next() {}, rerender: () => { if (how.choose) paintFelt(); }, seatName, connected: () => null, away: () => false,
      seatControls: () => null, mySeat: s,
    };
    try {
      paintFelt();
    } catch (x) {
      m.append(el('p', { class: 'error-text' }, messageOf(x)));
    }
    main.append(m);
    side.append(sd);
    const lines = (v.lines || []).map((l) => lineText(l, { seatName })).filter(Boolean);
    told.append(el('summary', {}, t('review.told')), el('div', { class: 'log small' }, lines.map((l) => el('div', {}, l))));
    box.dataset.loaded = 'true';
    box.removeAttribute('aria-busy');
  }, (x) => {
    main.append(el('p', { class: 'error-text', 'data-testid': 'position-error' }, messageOf(x)));
    box.removeAttribute('aria-busy');
  });
  return box;
}

/**
 * An action's text with each run of cards in one order, so that the felt's "descarto 4c 1o"
 * is the option "descarto 1o 4c".
 * @param {string} action
 */
function canonical(action) {
  const out = [];
  /** @type {string[]} */
  let run = [];
  for (const w of String(action).trim().split(/\s+/)) {
    if (CARD.test(w)) { run.push(w); continue; }
    out.push(...run.sort(), w);
    run = [];
  }
  out.push(...run.sort());
  return out.join(' ');
}

/**
 * The decision shown: its moment, the table then, the options and their values, the loss
 * and the reason, and the game's exact parts.
 * @param {Review} r
 * @param {Decision} d
 */
function detailEl(r, d) {
  const k = r.decisions.indexOf(d);
  const prev = el('button', { class: 'btn small', 'data-testid': 'prev-decision', disabled: k <= 0, onclick: () => move(-1), 'aria-label': t('review.prev') }, '◀');
  const next = el('button', { class: 'btn small', 'data-testid': 'next-decision', disabled: k >= r.decisions.length - 1, onclick: () => move(1), 'aria-label': t('review.next') }, '▶');
  const lost = d.played !== d.best && d.loss > 0.05;
  return el('section', { class: `panel rv-detail ${d.label}`, 'data-testid': 'detail', 'data-at': d.at, 'data-label': d.label },
    el('div', { class: 'row rv-detail-head' },
      el('h2', {}, t('review.decision_n', { n: k + 1, of: r.decisions.length }), ' ', el('span', { class: 'muted small' }, `· ${t('review.hand_n', { n: d.hand })}`)),
      d.label !== 'good' ? labelBadge(d.label) : el('span', { class: 'rv-label good' }, t('review.label.good')),
      el('span', { class: 'spacer' }), prev, next),
    positionEl(r.seat, d.at),
    el('p', { class: 'rv-played' }, t('review.you_played'), ' ', el('b', {}, actionWords(d.played)),
      lost ? [' · ', t('review.best_was'), ' ', el('b', {}, actionWords(d.best))] : [' · ', t('review.was_best')]),
    optionsEl(d),
    el('p', { class: 'rv-loss', 'data-testid': 'loss' }, t('review.loss', { loss: num(d.loss), se: num(d.se) }), ' ',
      el('span', { class: 'muted small' }, t('review.loss_help'))),
    d.reason ? el('p', { class: 'rv-reason', 'data-testid': 'reason' }, reasonText(d.reason)) : null,
    exactEl(d));
}

// ---- learn from your mistakes ----

/** The reviewed seat's mistakes and blunders, in order. */
function mistakes() {
  const r = reviewOf(seat);
  return r ? r.decisions.filter((d) => d.label === 'mistake' || d.label === 'blunder') : [];
}

/** Learn mode: the position, "what would you do?", then the numbers; a summary at the end. */
function learnEl() {
  const list = mistakes();
  const box = el('section', { class: 'panel rv-learn', 'data-testid': 'learn' });
  if (!list.length) {
    box.append(el('h2', {}, seat === own ? t('review.learn_title') : t('review.learn_title_other')), el('p', { 'data-testid': 'learn-none' }, t('review.learn_none')));
    return box;
  }
  if (quiz >= list.length) return learnSummary(list, box);
  const d = list[quiz];
  const mine = chosen.get(d.at) || null;
  const prev = el('button', { class: 'btn', 'data-testid': 'learn-prev', disabled: quiz === 0, onclick: () => { quiz--; draw(); } }, t('review.prev'));
  const next = el('button', { class: `btn ${mine ? 'primary' : ''}`, 'data-testid': 'learn-next', onclick: () => { quiz++; draw(); } },
    quiz === list.length - 1 ? t('review.learn_finish') : t('review.next'));
  box.append(el('div', { class: 'row' },
    el('h2', {}, t('review.learn_n', { n: quiz + 1, of: list.length }), ' ', el('span', { class: 'muted small' }, `· ${t('review.hand_n', { n: d.hand })}`)),
    el('span', { class: 'spacer' }), prev, next),
  positionEl(seat, d.at, mine ? {} : {
    choose: (action) => {
      const o = d.options.find((x) => canonical(x.action) === canonical(action));
      if (!o) { toast(t('review.not_valued')); return; }
      chosen.set(d.at, o.action);
      draw();
      focusFirst('[data-testid="learn-next"]');
    },
  }));
  if (!mine) {
    box.append(el('h3', { class: 'rv-ask' }, t('review.what_would_you_do')),
      el('div', { class: 'rv-choices', role: 'group', 'aria-label': t('review.what_would_you_do'), 'data-testid': 'choices' },
        quizOptions(d).map((o, i) => el('button', {
          class: 'btn rv-choice', 'data-testid': 'choice', 'data-action': o.action,
          onclick: () => { chosen.set(d.at, o.action); draw(); focusFirst('[data-testid="learn-next"]'); },
        }, el('span', { class: 'rv-choice-n muted small', 'aria-hidden': 'true' }, `${i + 1}`), actionWords(o.action)))));
    return box;
  }
  const o = d.options.find((x) => x.action === mine);
  const win = o ? o.win : 0;
  const best = mine === d.best;
  const gap = Math.max(0, 100 * (bestWin(d) - win));
  box.append(el('div', { class: `rv-verdict ${best ? 'right' : gap < 2 ? 'close' : 'wrong'}`, 'data-testid': 'verdict', 'data-best': String(best) },
    el('b', {}, best ? t('review.verdict_best') : gap < 2 ? t('review.verdict_close') : t('review.verdict_worse', { loss: num(gap) })),
    ' ', (best ? t('review.verdict_line_best', { mine: '\u0000', win: pct(win) }) : t('review.verdict_line', { mine: '\u0000', win: pct(win), best: '\u0001', best_win: pct(bestWin(d)) })).split(/([\u0000\u0001])/).map((p) => (p === '\u0000' ? el('b', {}, actionWords(mine)) : p === '\u0001' ? el('b', {}, actionWords(d.best)) : p)),
    el('div', { class: 'small' }, t('review.in_game', { played: '\u0000', loss: num(d.loss) }).split('\u0000').flatMap((p, i) => (i ? [el('b', {}, actionWords(d.played)), p] : [p])))),
  el('div', { class: 'rv-reveal' }, optionsEl(d, { quiz: true, mine }),
    d.reason ? el('p', { class: 'rv-reason', 'data-testid': 'reason' }, reasonText(d.reason)) : null,
    exactEl(d)));
  return box;
}

/**
 * The end of learn mode: how the choices went.
 * @param {Decision[]} list
 * @param {HTMLElement} box
 */
function learnSummary(list, box) {
  let right = 0; let answered = 0; let gave = 0;
  for (const d of list) {
    const mine = chosen.get(d.at);
    if (!mine) continue;
    answered++;
    if (mine === d.best) right++;
    const o = d.options.find((x) => x.action === mine);
    gave += Math.max(0, 100 * (bestWin(d) - (o ? o.win : 0)));
  }
  const before = list.reduce((a, d) => a + d.loss, 0);
  box.append(el('h2', {}, t('review.learn_done')),
    el('p', { 'data-testid': 'learn-summary' }, t('review.learn_score', { right, of: list.length }), ' ',
      answered ? t('review.learn_loss', { now: num(gave), before: num(before) }) : ''),
    el('div', { class: 'row' },
      el('button', { class: 'btn', 'data-testid': 'learn-again', onclick: () => { chosen.clear(); quiz = 0; draw(); } }, t('review.learn_again')),
      el('button', { class: 'btn primary', onclick: () => { setMode('review'); } }, t('review.to_review'))));
  return box;
}

/**
 * Puts the focus on the first element matching `selector`, once the page is drawn.
 * @param {string} selector
 */
function focusFirst(selector) {
  const e = /** @type {HTMLElement | null} */ (document.querySelector(selector));
  if (e) e.focus();
}

// ---- the page ----

/** @param {'review' | 'learn'} m */
function setMode(m) {
  mode = m;
  draw();
}

/** The two tabs: the review and "learn from your mistakes". */
function tabsEl() {
  const n = mistakes().length;
  /** @type {(m: 'review' | 'learn', words: string) => HTMLElement} */
  const tab = (m, words) => el('button', {
    class: `rv-tab ${mode === m ? 'on' : ''}`, role: 'tab', 'aria-selected': String(mode === m), 'data-testid': `tab-${m}`,
    onclick: () => setMode(m),
  }, words);
  return el('div', { class: 'rv-tabs', role: 'tablist' }, tab('review', t('review.tab_review')), tab('learn', seat === own ? t('review.tab_learn', { count: n }) : t('review.tab_learn_other', { count: n })));
}

/**
 * Draws what seat `s`'s review changed: the whole page while the reviewed seat's is on its
 * way (or has just come), else only the other seats' panel, so that the decision shown, the
 * focus and the scroll stay as they are.
 * @param {number} s
 */
function drawStatus(s) {
  const mine = reviews.get(seat);
  if (s === seat || !mine || !mine.review || mode !== 'review') { draw(); return; }
  const box = document.querySelector('[data-testid="others"]');
  if (box) box.replaceWith(othersEl());
}

/** Keeps the address in step with what is shown (the seat, the decision, the mode). */
function keepAddress() {
  const q = new URLSearchParams(location.search);
  q.set('seat', String(seat));
  q.delete('player');
  if (selected >= 0 && focus === seat) q.set('at', String(selected)); else q.delete('at');
  if (mode === 'learn') q.set('mode', 'learn'); else q.delete('mode');
  history.replaceState(null, '', `${location.pathname}?${q}`);
}

/**
 * What has the keyboard's focus, to find it again once the page is drawn anew.
 * @returns {string | null} a selector for it
 */
function focusKey() {
  const a = document.activeElement;
  if (!(a instanceof HTMLElement) || !body.contains(a) || !a.dataset.testid) return null;
  let sel = `[data-testid="${a.dataset.testid}"]`;
  for (const k of ['at', 'filter', 'action']) {
    const v = a.dataset[k];
    if (v !== undefined) sel += `[data-${k}="${CSS.escape(v)}"]`;
  }
  return sel;
}

/** Draws the page as it stands, the focus kept where it was. */
function draw() {
  const key = focusKey();
  paint();
  if (!key) return;
  const e = /** @type {HTMLElement | null} */ (document.querySelector(key));
  if (e) e.focus({ preventScroll: true });
}

/** Draws the page as it stands. */
function paint() {
  const sr = reviews.get(seat);
  clear(body);
  if (!sr) return;
  if (!sr.review) {
    body.append(el('section', { class: 'panel' }, el('h2', {}, t('review.of', { name: seatTitle(seat) })),
      sr.error ? el('p', { class: 'error-text', 'data-testid': 'review-error', 'data-code': sr.code || '' }, sr.error) : pendingEl(sr.pending)));
    return;
  }
  keepAddress();
  body.append(tabsEl());
  if (mode === 'learn') { body.append(learnEl()); return; }
  const r = reviewOf(focus) || sr.review;
  if (!r.decisions.some((d) => d.at === selected)) selected = firstSelected();
  body.append(summaryEl(), othersEl(), graphEl(r));
  const d = r.decisions.find((x) => x.at === selected);
  body.append(el('div', { class: 'rv-grid' },
    d ? detailEl(r, d) : el('section', { class: 'panel' }, el('p', { class: 'muted', 'data-testid': 'no-decisions' }, t('review.no_decisions'))),
    listEl(r)));
}

/** The seats to choose from when the page names none (a spectator's look at a public game). */
function seatPicker() {
  clear(body).append(el('section', { class: 'panel', 'data-testid': 'seat-picker' },
    el('h2', {}, t('review.pick_seat')), el('p', { class: 'muted small' }, t('review.pick_seat_help')),
    el('div', { class: 'row' }, table.seats.map((x) => el('a', {
      class: 'btn', href: withInvite(`/t/${encodeURIComponent(tableId)}/review?seat=${x.seat}`, tableId), 'data-testid': `pick-seat-${x.seat}`,
    }, seatName(x.seat))))));
}

document.addEventListener('keydown', (e) => {
  const at = /** @type {HTMLElement | null} */ (e.target instanceof HTMLElement ? e.target : null);
  if (at && (at.tagName === 'INPUT' || at.tagName === 'SELECT' || at.tagName === 'TEXTAREA')) return;
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const key = e.key;
  if (mode === 'learn') {
    const list = mistakes();
    if ((key === 'ArrowRight' || key === 'j') && quiz < list.length) { e.preventDefault(); quiz++; draw(); }
    else if ((key === 'ArrowLeft' || key === 'k') && quiz > 0) { e.preventDefault(); quiz--; draw(); }
    else if (key === 'ArrowDown' || key === 'ArrowUp') {
      const buttons = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[data-testid="choice"]')]);
      if (!buttons.length) return;
      e.preventDefault();
      const i = buttons.indexOf(/** @type {HTMLElement} */ (document.activeElement));
      buttons[Math.max(0, Math.min(buttons.length - 1, i < 0 ? 0 : i + (key === 'ArrowDown' ? 1 : -1)))].focus();
    } else if (/^[1-9]$/.test(key)) {
      const b = /** @type {HTMLElement | null} */ (document.querySelectorAll('[data-testid="choice"]')[Number(key) - 1] || null);
      if (b) { e.preventDefault(); b.click(); }
    }
    return;
  }
  if (key === 'ArrowDown' || key === 'ArrowRight' || key === 'j') { e.preventDefault(); move(1); }
  else if (key === 'ArrowUp' || key === 'ArrowLeft' || key === 'k') { e.preventDefault(); move(-1); }
});

(async () => {
  /** @type {import('./common.js').Me | null} */
  let person = null;
  try {
    [table, person] = await Promise.all([
      api('GET', withInvite(`/api/tables/${encodeURIComponent(tableId)}`, tableId)),
      me().catch(() => null),
    ]);
  } catch (x) {
    const missing = x instanceof ApiError && x.status === 404;
    body.append(el('section', { class: 'panel', 'data-testid': missing ? 'no-such-table' : 'review-error', 'data-code': x instanceof ApiError ? x.code : '' },
      el('h1', {}, missing ? t('table.no_such') : t('review.title')),
      el('p', { class: missing ? '' : 'error-text' }, missing ? t('table.no_such_text', { id: tableId }) : messageOf(x)),
      el('a', { class: 'btn primary', href: '/history' }, t('replay.your_games'))));
    return;
  }
  mod = await gameModule(table.game);
  document.title = `${t('review.title')} · ${mod.title || table.game} · tapete`;
  head.append(el('h1', {}, `${t('review.title')} · ${mod.title || table.game}`, el('span', { class: 'muted', style: { fontWeight: '400' } }, ` · ${table.id}`)),
    el('span', { class: `badge ${table.status}` }, t(`status.${table.status}`)), el('span', { class: 'spacer' }),
    el('span', { class: 'muted small' }, mod.rulesSummary ? mod.rulesSummary(table.rules) : ''),
    el('a', { class: 'btn small', href: withInvite(`/replay/${encodeURIComponent(tableId)}`, tableId), 'data-testid': 'to-replay' }, t('table.replay')),
    el('a', { class: 'btn small', href: withInvite(`/t/${encodeURIComponent(tableId)}`, tableId) }, t('replay.to_table')));
  // The seat: the address's, else the player's it names, else the person's own, else chosen.
  const asked = query.get('seat');
  const player = query.get('player') || (person ? String(person.id) : '');
  const sat = table.seats.find((x) => x.player && String(x.player.id) === player);
  const mine = person ? table.seats.find((x) => x.player && x.player.id === person.id) : null;
  own = mine ? mine.seat : null;
  if (asked !== null && /^\d+$/.test(asked)) seat = Number(asked);
  else if (sat) seat = sat.seat;
  else { seatPicker(); return; }
  focus = seat;
  const at = Number(query.get('at'));
  if (query.get('at') !== null && Number.isInteger(at)) selected = at;
  draw();
  await load(seat);
  if (selected < 0 || !(reviewOf(seat) || { decisions: [] }).decisions.some((d) => d.at === selected)) selected = firstSelected();
  draw();
})();
