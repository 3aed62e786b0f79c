// A finished game, step by step: the deal, then every action, with everything shown.

import { topbar, el, clear, api } from './common.js';
import { gameModule } from './games.js';

topbar('history');
const app = document.getElementById('app');
const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');

const head = el('div', { class: 'tablebar' });
const controls = el('div', { class: 'replaybar panel', style: { padding: '.6rem' } });
const gameMain = el('div', { 'data-testid': 'game' });
const gameSide = el('div');
const logBox = el('div', { class: 'log', 'data-testid': 'lines' });
app.append(head, controls, el('div', { class: 'tablegrid' }, el('div', {}, gameMain),
  el('div', { class: 'side' }, gameSide, el('div', { class: 'panel' }, el('h3', {}, 'This step'), logBox))));

let replay = null;
let mod = null;
let i = 0;
let timer = null;

function seatInfo(s) { return replay.table.seats.find((x) => x.seat === s); }

function show(k) {
  i = Math.max(0, Math.min(replay.steps.length - 1, k));
  const step = replay.steps[i];
  slider.value = String(i);
  info.textContent = `step ${i} / ${replay.steps.length - 1}`;
  clear(what).append(step.seat === null || step.seat === undefined ? 'the deal' : `${name(step.seat)}: `, step.action ? el('b', {}, step.action) : '');
  const st = {
    view: step.view, legal: [], lines: step.lines || [], table: replay.table, you: null, replay: true, hands: step.hands,
    outcome: i === replay.steps.length - 1 ? replay.table.outcome : null, counting: endsHand(i), lastStep: i === replay.steps.length - 1,
  };
  mod.render({ main: gameMain, side: gameSide }, st, {
    send() {}, next: () => show(i + 1), seatName: name, seatControls: () => null, connected: () => null, mySeat: null,
  });
  clear(logBox);
  for (const line of step.lines || []) logBox.append(el('div', { class: /^\s/.test(line) ? 'indent' : '' }, nameLine(line).trim()));
  prev.disabled = i === 0; first.disabled = i === 0;
  next.disabled = i === replay.steps.length - 1; last.disabled = next.disabled;
  history.replaceState(null, '', `/replay/${encodeURIComponent(tableId)}?step=${i}`);
}

function name(s) { const x = seatInfo(s); return x && x.player ? x.player.nickname : `bot ${s}`; }
/** A narration line with the players' names on its seats and sides. */
function nameLine(line) {
  if (mod && mod.nameLine) return mod.nameLine(line, { seatName: name, mySeat: null });
  return line.replace(/(you \()?seat (\d)\b/g, (m, you, d) => (you ? m : name(Number(d))));
}

/** Whether step `k` ended a hand (its view's last hand is not the step before's). */
function endsHand(k) {
  if (k <= 0) return false;
  const a = replay.steps[k].view && replay.steps[k].view.last_hand;
  const b = replay.steps[k - 1].view && replay.steps[k - 1].view.last_hand;
  return !!a && JSON.stringify(a) !== JSON.stringify(b);
}

const btn = (label, testid, f) => el('button', { class: 'btn small', 'data-testid': testid, onclick: f }, label);
const first = btn('« first', 'replay-first', () => show(0));
const prev = btn('◀ prev', 'replay-prev', () => show(i - 1));
const next = btn('next ▶', 'replay-next', () => show(i + 1));
const last = btn('last »', 'replay-last', () => show(replay.steps.length - 1));
// Playing on: a step every 0.8 s, and a longer look at each counting.
const tick = () => {
  if (i >= replay.steps.length - 1) { timer = null; play.textContent = 'play'; return; }
  show(i + 1);
  timer = setTimeout(tick, endsHand(i) ? 4000 : 800);
};
const play = btn('play', 'replay-play', () => {
  if (timer) { clearTimeout(timer); timer = null; play.textContent = 'play'; return; }
  play.textContent = 'pause';
  timer = setTimeout(tick, 800);
});
const slider = el('input', { type: 'range', min: 0, max: 0, value: 0, 'data-testid': 'replay-slider', oninput: () => show(Number(slider.value)) });
const info = el('span', { class: 'stepinfo', 'data-testid': 'replay-step' });
const what = el('span', { class: 'small' });
controls.append(first, prev, play, next, last, slider, info, what);

document.addEventListener('keydown', (e) => {
  if (!replay || e.target.tagName === 'INPUT' && e.target.type !== 'range') return;
  if (e.key === 'ArrowRight') show(i + 1);
  else if (e.key === 'ArrowLeft') show(i - 1);
});

/** "Ane y bot 2 won · 30–22 piedras · 1–0 juegos · 1–0 vacas": the winner first, as everywhere. */
function outcomeWords(t) {
  const lastView = replay.steps.length ? replay.steps[replay.steps.length - 1].view : null;
  const words = mod.outcomeText ? mod.outcomeText(t.outcome, t, null, { seatName: name }) : nameLine(t.outcome.summary || '');
  const detail = mod.outcomeDetail && lastView ? mod.outcomeDetail({ view: lastView, outcome: t.outcome, table: t }) : '';
  return detail ? `${words} ${detail}` : words;
}

(async () => {
  try {
    replay = await api('GET', `/api/tables/${encodeURIComponent(tableId)}/replay`);
  } catch (x) {
    const missing = x.status === 404;
    app.prepend(el('div', { class: 'panel', 'data-testid': missing ? 'no-such-table' : 'replay-error' },
      el('h1', {}, missing ? 'No such table' : 'Replay'),
      el('p', { class: missing ? '' : 'error-text' }, missing ? `There is no table \u201c${tableId}\u201d: the link may be mistyped, or the table never existed.` : x.message),
      missing ? el('a', { class: 'btn primary', href: '/history' }, 'Your games') : el('a', { class: 'btn primary', href: `/t/${encodeURIComponent(tableId)}` }, 'To the table')));
    controls.remove();
    return;
  }
  mod = await gameModule(replay.table.game);
  const t = replay.table;
  head.append(el('h1', {}, `Replay · ${mod.title || t.game}`, el('span', { class: 'muted', style: { fontWeight: 400 } }, ` · ${t.id}`)),
    el('span', { class: 'badge finished' }, 'finished'), el('span', { class: 'spacer' }),
    el('span', { class: 'muted small' }, mod.rulesSummary ? mod.rulesSummary(t.rules) : ''),
    t.outcome ? el('span', { class: 'small', 'data-testid': 'replay-outcome' }, outcomeWords(t)) : '');
  slider.max = String(replay.steps.length - 1);
  const q = new URLSearchParams(location.search);
  show(Number(q.get('step') || 0));
})();
