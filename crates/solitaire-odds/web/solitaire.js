// @ts-check
// The prisoner's solitaire calculator: a deck, a table and how many cards count in; the
// exact chance to clear the table out (GET /api/odds/solitaire), as a fraction, a table of
// the table types and a chart of what is left when the deck runs out.

import { topbar } from './topbar.js';
import { el, clear, api, t, lang, localDecimals, toolError, pageRoot } from './common.js';

/**
 * A distribution's bar: how many are left, and the chance of it.
 * @typedef {{left: number, fraction: string, probability: number}} Bar
 */

/**
 * A table type (its stacks' sizes), its chance and the chance to win with it.
 * @typedef {{parts: number[], fraction: string, probability: number, win: number, win_fraction: string}} TypeOdds
 */

/**
 * The odds tool's answer (`GET /api/odds/solitaire`, the JSON of `tapete odds solitaire`).
 * @typedef {{fraction: string, probability: number, deck: number, suits: number, values: number, board: number,
 *   pick: number, real_game: boolean, types?: TypeOdds[], types_total?: number,
 *   distribution: {stacks: Bar[], cards: Bar[], mean_stacks: number, mean_cards: number}}} SolitaireAnswer
 */

topbar('solitaire');
const app = pageRoot();

/** @type {[string, string, string, number][]} */
const FIELDS = [
  ['suits', t('sol.suits'), t('sol.suits_help'), 4],
  ['values', t('sol.values'), t('sol.values_help'), 13],
  ['board', t('sol.board'), t('sol.board_help'), 13],
  ['pick', t('sol.pick'), t('sol.pick_help'), 13],
];

/** Numbers in the page's language, with one and three decimals. */
const num1 = (/** @type {number} */ x) => Number(x).toLocaleString(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });
const num3 = (/** @type {number} */ x) => Number(x).toLocaleString(lang, { minimumFractionDigits: 3, maximumFractionDigits: 3 });

/** @type {Record<string, HTMLInputElement>} */
const inputs = {};
for (const [name, , , def] of FIELDS) {
  inputs[name] = el('input', {
    type: 'text', inputmode: 'numeric', name, value: String(def), autocomplete: 'off', spellcheck: 'false',
    'data-testid': `${name}-input`,
  });
}

const err = el('div', { class: 'error-text', role: 'alert', 'data-testid': 'solitaire-error' });
const realLine = el('p', { class: 'muted small real-line', 'data-testid': 'real-pick' });
const result = el('section', { class: 'solitaire-result', 'data-testid': 'solitaire-result' });

const form = el('form', { class: 'panel', onsubmit: (e) => { e.preventDefault(); compute(); } },
  el('h1', {}, t('sol.title'), ' ', el('span', { class: 'muted small', style: { fontWeight: 400 } }, `· ${t('sol.subtitle')}`)),
  el('p', { class: 'muted small', style: { marginTop: 0 } },
    t('sol.intro')),
  el('div', { class: 'fields solitaire-fields' },
    FIELDS.map(([name, label, hint]) => el('label', { class: 'field' },
      el('span', {}, label, ' ', el('span', { class: 'muted small' }, hint)), inputs[name]))),
  realLine,
  el('div', { class: 'row' }, el('button', { class: 'btn primary', 'data-testid': 'compute' }, t('sol.compute')), err));

app.append(form, result);

/**
 * A whole number from 0 up, or null.
 * @param {string} text
 */
function whole(text) {
  const t = text.trim();
  return /^\d+$/.test(t) ? Number(t) : null;
}

/** The real game's cards that count: ⌊(deck − board) / 3⌋, or null while the fields are not numbers. */
function realPick() {
  const [s, v, b] = ['suits', 'values', 'board'].map((k) => whole(inputs[k].value));
  if (s === null || v === null || b === null || s * v < b) return null;
  return Math.floor((s * v - b) / 3);
}

/** The line under the fields: how many cards count in the real game, and a button to count them. */
function updateRealLine() {
  clear(realLine);
  const real = realPick();
  if (real === null) return;
  const deck = (whole(inputs.suits.value) ?? 0) * (whole(inputs.values.value) ?? 0);
  realLine.append(`${t('sol.real', { formula: `⌊(${deck} − ${whole(inputs.board.value)}) / 3⌋`, n: real })} `);
  if (whole(inputs.pick.value) !== real) {
    realLine.append(el('button', {
      type: 'button', class: 'btn small', 'data-testid': 'use-real-pick',
      onclick: () => { inputs.pick.value = String(real); changed(true); },
    }, t('sol.count_n', { n: real })));
  }
}

/**
 * The query of the fields, or an error in words for the first field that is not a number.
 * @returns {{q: URLSearchParams, error?: undefined} | {q?: undefined, error: string}}
 */
function query() {
  const q = new URLSearchParams();
  for (const [name, label] of FIELDS) {
    const text = inputs[name].value.trim();
    if (text === '') return { error: t('sol.err.empty', { label }) };
    if (whole(text) === null) return { error: t('sol.err.nan', { label, text: text.slice(0, 20) }) };
    q.set(name, text);
  }
  return { q };
}

let busy = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;
/** Asks the tool for the fields' odds, and shows them (only the last one asked). */
async function compute() {
  clearTimeout(timer);
  const { q, error } = query();
  const mine = ++busy;
  if (error) { showError(error); return; }
  history.replaceState(null, '', `/solitaire?${q}`);
  result.setAttribute('aria-busy', 'true');
  try {
    /** @type {SolitaireAnswer} */
    const data = await api('GET', `/api/odds/solitaire?${q}`);
    if (mine !== busy) return;
    err.textContent = '';
    result.classList.remove('stale');
    render(data);
  } catch (x) {
    if (mine !== busy) return;
    showError(toolError(x instanceof Error ? x : new Error(String(x))));
  } finally {
    if (mine === busy) result.removeAttribute('aria-busy');
  }
}

/**
 * Shows why there is no answer; the last answer stays, faded, until there is one.
 * @param {string | (string | Node)[]} message
 */
function showError(message) {
  clear(err).append(...(Array.isArray(message) ? message : [message]));
  result.classList.add('stale');
}

/** Recomputes a moment after the last change (at once for a button). */
function changed(now = false) {
  updateRealLine();
  clearTimeout(timer);
  timer = setTimeout(compute, now ? 0 : 350);
}
for (const input of Object.values(inputs)) input.addEventListener('input', () => changed());

/**
 * A probability with six significant digits, as `tapete odds solitaire` prints it.
 * @param {number} x
 */
export function decimal(x) {
  if (x === 0 || x === 1) return String(x);
  if (x < 1e-4) return localDecimals(x.toExponential(5));
  return localDecimals(x.toFixed(Math.max(0, 5 - Math.floor(Math.log10(x)))));
}

/**
 * A probability in percent: "0.368%", "0%", "100%".
 * @param {number} x
 */
export function pct(x) {
  if (x <= 0) return '0%';
  if (x >= 1) return '100%';
  const p = 100 * x;
  if (p < 0.001) return localDecimals(`${p.toExponential(2)}%`);
  return localDecimals(`${Number(p.toPrecision(3))}%`);
}

/**
 * A type as `tapete odds solitaire` writes it, "4 4 3 1", with thin spaces (narrow on a phone).
 * @param {number[]} parts
 */
function partsText(parts) {
  return parts.length ? parts.join('\u2009') : t('sol.empty_table');
}

/** @type {'stacks' | 'cards'} */
let shown = 'stacks';
/** @type {SolitaireAnswer | null} */
let last = null;

/**
 * The answer: the chance as a fraction and a decimal, the chart of what is left, the types.
 * @param {SolitaireAnswer} d
 */
function render(d) {
  last = d;
  clear(result);
  const [num, den] = d.fraction.split('/');
  const x = d.probability;
  const odds = x === 0 ? t('sol.never') : t('sol.one_in', { n: num1(1 / x) });
  const win = el('div', { class: 'panel' },
    el('h2', { 'data-testid': 'solitaire-title' },
      t('sol.heading', { deck: d.deck, suits: d.suits, values: d.values, board: d.board, pick: d.pick }),
      d.real_game ? '' : el('span', { class: 'muted small', style: { fontWeight: 400 } }, ` · ${t('sol.not_real')}`)),
    el('div', { class: 'win-line' },
      el('span', { class: 'win-label' }, `${t('sol.p_win')} =`),
      el('div', { class: 'fraction', 'data-testid': 'fraction', 'data-value': d.fraction, title: d.fraction },
        el('span', { class: 'num' }, num), el('span', { class: 'den' }, den)),
      el('div', { class: 'decimal' },
        el('span', { 'data-testid': 'decimal', 'data-value': String(x) }, `= ${decimal(x)}`),
        el('span', { class: 'muted' }, ` (${pct(x)}, ${odds})`))));

  const chart = el('div', { class: 'panel chart' },
    el('div', { class: 'row chart-head' },
      el('h3', { style: { margin: 0 } }, t('sol.left_h')),
      el('span', { class: 'spacer' }),
      el('div', { class: 'seg', role: 'group' }, /** @type {('stacks' | 'cards')[]} */ (['stacks', 'cards']).map((k) => el('button', {
        type: 'button', class: `btn small ${k === shown ? 'on' : ''}`, 'aria-pressed': String(k === shown),
        'data-testid': `show-${k}`, onclick: () => { shown = k; render(d); },
      }, t(`sol.${k}`))))),
    chartSVG(d.distribution[shown], shown),
    el('p', { class: 'muted small', 'data-testid': 'mean-left' },
      t('sol.mean', { stacks: num3(d.distribution.mean_stacks), cards: num3(d.distribution.mean_cards) })));

  const types = d.types || [];
  const tbody = el('tbody');
  for (const ty of types) {
    const share = x > 0 ? (ty.probability * ty.win) / x : null;
    tbody.append(el('tr', {},
      el('td', { class: 'lbl' }, partsText(ty.parts)),
      el('td', { title: ty.fraction }, decimal(ty.probability)),
      el('td', { title: ty.win_fraction, class: ty.win === 0 ? 'muted' : '' }, decimal(ty.win)),
      el('td', {}, share === null ? '—' : pct(share))));
  }
  const typesPanel = el('div', { class: 'panel' },
    el('h3', { 'data-testid': 'types-count' }, typesHeading(types.length, d.types_total ?? types.length)),
    el('p', { class: 'muted small', style: { marginTop: 0 } }, t('sol.types_help')),
    el('div', { class: 'tablewrap types-box' },
      el('table', { class: 'leyes', 'data-testid': 'types-table' },
        el('thead', {}, el('tr', {}, el('th', {}, t('sol.type')), el('th', {}, t('sol.p_type')), el('th', {}, t('sol.p_win_type')), el('th', {}, t('sol.share')))),
        tbody)));
  result.append(win, chart, typesPanel);
}

/**
 * Bars of a distribution ([{left, fraction, probability}]), the win (0 left) marked.
 * @param {Bar[]} dist
 * @param {'stacks' | 'cards'} what
 */
function chartSVG(dist, what) {
  // As wide as its box (so that its text keeps its size on a phone), within bounds.
  const box = result.clientWidth || app.clientWidth || 640;
  const W = Math.round(Math.max(300, Math.min(1100, box - 34)));
  const H = W < 480 ? 220 : 250; const L = 44; const R = 8; const T = 26; const B = 34;
  const n = Math.max(1, dist.length);
  const top = Math.max(...dist.map((b) => b.probability), 1e-12);
  const { max, step } = axis(top);
  const plotH = H - T - B;
  const slot = (W - L - R) / n;
  const bw = Math.max(1, Math.min(44, slot * 0.78));
  const every = Math.ceil(n / Math.max(4, Math.floor((W - L - R) / 34)));
  const y = (/** @type {number} */ v) => T + plotH * (1 - v / max);
  let s = `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="distribution of the ${what} left" data-testid="solitaire-chart" data-bars="${n}">`;
  for (let v = 0; v <= max + step / 2; v += step) {
    s += `<line x1="${L}" x2="${W - R}" y1="${y(v)}" y2="${y(v)}" stroke="#e5dfcf" stroke-width="1"/>`;
    s += `<text x="${L - 6}" y="${y(v) + 4}" text-anchor="end" font-size="11" fill="#6b7280">${axisPct(v, step)}</text>`;
  }
  dist.forEach((b, i) => {
    const v = b.probability;
    const h = plotH * (v / max);
    const cx = L + slot * i + slot / 2;
    const isWin = b.left === 0;
    s += `<rect data-testid="bar-${b.left}" data-value="${Number(v)}" x="${cx - bw / 2}" y="${T + plotH - h}" width="${bw}" height="${Math.max(h, v > 0 ? 1 : 0)}" rx="2" fill="${isWin ? '#d7a42a' : '#2f7d32'}"><title>${t(`sol.left_${what}`, { n: b.left })}${isWin ? ` ${t('sol.the_win')}` : ''}: ${decimal(v)} = ${b.fraction}</title></rect>`;
    if (i % every === 0) s += `<text x="${cx}" y="${H - B + 15}" text-anchor="middle" font-size="11" fill="#374151">${b.left}</text>`;
  });
  // The win: a dashed line from above the plot down to its bar, with its chance.
  const w = dist.find((b) => b.left === 0);
  if (w) {
    const cx = L + slot / 2;
    const x0 = Math.max(L - 4, cx - bw / 2);
    s += `<line x1="${cx}" x2="${cx}" y1="${T - 12}" y2="${T + plotH - plotH * (w.probability / max) - 2}" stroke="#8a6410" stroke-width="1.5" stroke-dasharray="3 3"/>`;
    s += `<text x="${x0}" y="${T - 15}" font-size="12" font-weight="700" fill="#7a5a00" data-testid="win-mark">${t('sol.win_mark')}: ${pct(w.probability)}</text>`;
  }
  s += `<text x="${L + (W - L - R) / 2}" y="${H - 4}" text-anchor="middle" font-size="11" fill="#6b7280">${t(`sol.axis_${what}`)}</text>`;
  s += '</svg>';
  const div = el('div', { class: 'chartbox' });
  div.innerHTML = s;
  return div;
}

/**
 * The axis: a round step (1, 2 or 5 × 10^k) and the first multiple of it at or above the top.
 * @param {number} top
 */
function axis(top) {
  const raw = top / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  // raw / p is within [1, 10): ten times p is always enough.
  const step = [1, 2, 5].map((m) => m * p).find((x) => x >= raw) ?? 10 * p;
  return { step, max: Math.min(1, Math.ceil(top / step - 1e-9) * step) || step };
}

/**
 * An axis value in percent, with as many decimals as the step needs.
 * @param {number} v
 * @param {number} step
 */
function axisPct(v, step) {
  const digits = Math.max(0, -Math.floor(Math.log10(100 * step) + 1e-9));
  return localDecimals(`${(100 * v).toFixed(digits)}%`);
}

/** Fills the fields from the page's address (a link to an answer). */
function fromQuery() {
  const q = new URLSearchParams(location.search);
  let any = false;
  for (const [name] of FIELDS) {
    const v = q.get(name);
    if (v !== null) { inputs[name].value = v; any = true; }
  }
  if (any && !q.has('pick')) {
    const real = realPick();
    if (real !== null) inputs.pick.value = String(real);
  }
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let resized;
window.addEventListener('resize', () => {
  clearTimeout(resized);
  resized = setTimeout(() => { if (last) render(last); }, 150);
});

fromQuery();
updateRealLine();
compute();

/**
 * The heading of the types panel: how many types, and how many of them are listed.
 * @param {number} listed
 * @param {number} total
 */
function typesHeading(listed, total) {
  const all = t('sol.types_n', { count: total });
  return listed < total ? `${all} ${t('sol.listed', { n: listed })}` : all;
}
