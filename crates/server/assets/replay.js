// @ts-check
// A finished game, step by step: the deal, then every action, with everything shown. The
// server builds each step on demand (GET /api/tables/{id}/replay/{n}); the page keeps the
// steps it has seen and fetches the neighbours ahead.

import { topbar } from './topbar.js';
import { el, clear, api, toast, t as tr, pageRoot, messageOf, ApiError } from './common.js';
import { gameModule } from './games.js';
import { renderLine, lineClass } from './story.js';
import { withInvite } from './invite.js';

/** @typedef {import('./common.js').TableInfo} TableInfo */
/** @typedef {import('./common.js').Outcome} Outcome */

/**
 * A finished table's replay: the table, how many steps, and every action.
 * @typedef {{table: TableInfo, steps: number, actions: {n: number, seat: number, action: string}[]}} Replay
 */

/**
 * One step: what its action told, and the full view after it (every hand shown).
 * @typedef {{n: number, lines?: (import('./story.js').StoryLine | string)[],
 *   view: {hands?: string[][], last_hand?: unknown} | null}} Step
 */

topbar('history');
const app = pageRoot();
const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');
// `?operator=1`: the operator's replay (any finished table, logged), from the operator's API.
const asOperator = new URLSearchParams(location.search).get('operator') === '1';
/**
 * The API address of this replay, or of its step `n`.
 * @param {number} [n]
 */
const replayPath = (n) => {
  const path = `${asOperator ? '/api/operator' : '/api'}/tables/${encodeURIComponent(tableId)}/replay${n === undefined ? '' : `/${n}`}`;
  return asOperator ? path : withInvite(path, tableId);
};

const head = el('div', { class: 'tablebar' });
const controls = el('div', { class: 'replaybar panel', style: { padding: '.6rem' } });
const gameMain = el('div', { 'data-testid': 'game' });
const gameSide = el('div');
const logBox = el('div', { class: 'log', 'data-testid': 'lines' });
app.append(head, controls, el('div', { class: 'tablegrid' }, el('div', {}, gameMain),
  el('div', { class: 'side' }, gameSide, el('div', { class: 'panel' }, el('h3', {}, tr('replay.this_step')), logBox))));

/** @type {Replay} */
let replay;             // set once it has come, before any step is shown
/** @type {import('./kit.js').GameModule} */
let mod;
let i = 0;              // the step shown (or being fetched)
/** @type {ReturnType<typeof setTimeout> | null} */
let timer = null;
/** @type {Map<number, Promise<Step>>} */
const cache = new Map(); // step number -> Promise of the step

const lastIndex = () => replay.steps - 1;

/**
 * Step `n` ({n, seat, action, lines, view}), fetched once.
 * @param {number} n
 * @returns {Promise<Step>}
 */
function step(n) {
  let p = cache.get(n);
  if (!p) {
    p = api('GET', replayPath(n));
    p.catch(() => cache.delete(n));
    cache.set(n, p);
  }
  return p;
}

/** @param {number} s */
function seatInfo(s) { return replay.table.seats.find((x) => x.seat === s); }

/**
 * Shows step `k` (within the replay's steps).
 * @param {number} k
 */
async function show(k) {
  const n = Math.max(0, Math.min(lastIndex(), k));
  i = n;
  slider.value = String(n);
  info.textContent = tr('replay.step', { n, of: lastIndex() });
  prev.disabled = n === 0; first.disabled = n === 0;
  next.disabled = n === lastIndex(); last.disabled = next.disabled;
  const a = replay.actions[n - 1];
  clear(what).append(!a ? tr('replay.deal') : `${name(a.seat)}: `, a ? el('b', {}, a.action) : '');
  /** @type {Step} */
  let cur;
  /** @type {Step | null} */
  let before = null;
  try {
    [cur, before] = await Promise.all([step(n), n > 0 ? step(n - 1) : null]);
  } catch (x) {
    if (i === n) toast(messageOf(x), 'error');
    return;
  }
  if (i !== n) return; // another step was asked for meanwhile
  const st = {
    view: cur.view, legal: [], lines: cur.lines || [], table: replay.table, you: null, replay: true, hands: cur.view && cur.view.hands,
    outcome: n === lastIndex() ? replay.table.outcome : null, counting: endsHand(cur, before), lastStep: n === lastIndex(),
  };
  mod.render({ main: gameMain, side: gameSide }, st, {
    send() {}, next: () => show(i + 1), seatName: name, seatControls: () => null, connected: () => null, mySeat: null,
  });
  clear(logBox);
  const pairName = mod.pairName;
  const told = { seatName: name, pairName: pairName ? (/** @type {number} */ p) => pairName(p, { seatName: name, mySeat: null }) : undefined, nameText: nameLine };
  for (const line of cur.lines || []) {
    const row = el('div', { class: lineClass(line) === 'indent' ? 'indent' : '' });
    row.innerHTML = renderLine(line, told);
    logBox.append(row);
  }
  history.replaceState(null, '', `/replay/${encodeURIComponent(tableId)}?${asOperator ? 'operator=1&' : ''}step=${n}`);
  gameMain.dataset.step = String(n);
  // Fetch ahead, so that "next" and playing on do not wait.
  if (n < lastIndex()) step(n + 1).catch(() => {});
}

/**
 * A seat's name: its person's nickname, else "bot 2".
 * @param {number} s
 */
function name(s) { const x = seatInfo(s); return x && x.player ? x.player.nickname : `bot ${s}`; }
/**
 * A narration line with the players' names on its seats and sides.
 * @param {string} line
 */
function nameLine(line) {
  if (mod && mod.nameLine) return mod.nameLine(line, { seatName: name, mySeat: null });
  return line.replace(/(you \()?seat (\d+)\b/g, (m, you, d) => (you ? m : name(Number(d))));
}

/**
 * Whether a step ended a hand: its view's last hand is not the step before's.
 * @param {Step} cur
 * @param {Step | null} before
 */
function endsHand(cur, before) {
  if (!before) return false;
  const a = cur.view && cur.view.last_hand;
  const b = before.view && before.view.last_hand;
  return !!a && JSON.stringify(a) !== JSON.stringify(b);
}

/** @type {(label: string, testid: string, f: () => void) => HTMLButtonElement} */
const btn = (label, testid, f) => el('button', { class: 'btn small', 'data-testid': testid, onclick: f }, label);
const first = btn(tr('replay.first'), 'replay-first', () => show(0));
const prev = btn(tr('replay.prev'), 'replay-prev', () => show(i - 1));
const next = btn(tr('next.step'), 'replay-next', () => show(i + 1));
const last = btn(tr('replay.last'), 'replay-last', () => show(lastIndex()));
// Playing on: a step every 0.8 s, and a longer look at each counting.
const tick = async () => {
  if (i >= lastIndex()) { timer = null; play.textContent = tr('replay.play'); return; }
  await show(i + 1);
  if (!timer) return;
  timer = setTimeout(tick, gameMain.querySelector('[data-testid="counting"]') ? 4000 : 800);
};
const play = btn(tr('replay.play'), 'replay-play', () => {
  if (timer) { clearTimeout(timer); timer = null; play.textContent = tr('replay.play'); return; }
  play.textContent = tr('replay.pause');
  timer = setTimeout(tick, 800);
});
const slider = el('input', { type: 'range', min: 0, max: 0, value: 0, 'data-testid': 'replay-slider', oninput: () => show(Number(slider.value)) });
const info = el('span', { class: 'stepinfo', 'data-testid': 'replay-step' });
const what = el('span', { class: 'small' });
controls.append(first, prev, play, next, last, slider, info, what);

document.addEventListener('keydown', (e) => {
  const at = e.target;
  if (!replay || (at instanceof HTMLInputElement && at.type !== 'range')) return;
  if (e.key === 'ArrowRight') show(i + 1);
  else if (e.key === 'ArrowLeft') show(i - 1);
});

/**
 * "Ane y bot 2 won the match. Ane y bot 2 against bot 1 y bot 3: vacas 1–0, juegos 1–0,
 * piedras 30–22": the final score in pair order, as everywhere.
 * @param {TableInfo & {outcome: Outcome}} t
 * @param {unknown} lastView
 */
function outcomeWords(t, lastView) {
  const words = mod.outcomeText ? mod.outcomeText(t.outcome, t, null, { seatName: name }) : nameLine(t.outcome.summary || '');
  const detail = mod.outcomeDetail && lastView ? mod.outcomeDetail({ view: lastView, outcome: t.outcome, table: t }, { seatName: name, mySeat: null }) : '';
  return detail ? `${words} ${detail}` : words;
}

/**
 * Who won and the final score in the page's words, from the outcome alone (the head).
 * @param {TableInfo & {outcome: Outcome}} t
 */
function headline(t) {
  const ctx = { seatName: name, mySeat: null };
  const words = mod.outcomeText ? mod.outcomeText(t.outcome, t, null, ctx) : '';
  const detail = mod.resultDetail ? mod.resultDetail(t.outcome, ctx) : '';
  return [words, detail].filter(Boolean).join(' ') || nameLine(t.outcome.summary || '');
}

(async () => {
  try {
    replay = await api('GET', replayPath());
  } catch (x) {
    const missing = x instanceof ApiError && x.status === 404;
    app.prepend(el('div', { class: 'panel', 'data-testid': missing ? 'no-such-table' : 'replay-error' },
      el('h1', {}, missing ? tr('table.no_such') : tr('table.replay')),
      el('p', { class: missing ? '' : 'error-text' }, missing ? tr('table.no_such_text', { id: tableId }) : messageOf(x)),
      missing ? el('a', { class: 'btn primary', href: '/history' }, tr('replay.your_games')) : el('a', { class: 'btn primary', href: `/t/${encodeURIComponent(tableId)}` }, tr('replay.to_table'))));
    controls.remove();
    return;
  }
  mod = await gameModule(replay.table.game);
  const t = replay.table;
  const ended = t.outcome ? { ...t, outcome: t.outcome } : null;
  const outcome = ended ? el('span', { class: 'small', 'data-testid': 'replay-outcome' }, headline(ended)) : null;
  head.append(el('h1', {}, `${tr('table.replay')} · ${mod.title || t.game}`, el('span', { class: 'muted', style: { fontWeight: '400' } }, ` · ${t.id}`)),
    el('span', { class: 'badge finished' }, tr('status.finished')), el('span', { class: 'spacer' }),
    el('span', { class: 'muted small' }, mod.rulesSummary ? mod.rulesSummary(t.rules) : ''), outcome || '');
  slider.max = String(lastIndex());
  const q = new URLSearchParams(location.search);
  await show(Number(q.get('step') || 0));
  // The final score, from the last step's view (the end of the match).
  if (ended && outcome) step(lastIndex()).then((s) => { outcome.textContent = outcomeWords(ended, s.view); }).catch(() => {});
})();
