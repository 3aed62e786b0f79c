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
  const st = { view: step.view, legal: [], lines: step.lines || [], table: replay.table, you: null, replay: true, hands: step.hands };
  mod.render({ main: gameMain, side: gameSide }, st, { send() {}, seatName: name, seatControls: () => null, connected: () => null, mySeat: 0 });
  clear(logBox);
  for (const line of step.lines || []) logBox.append(el('div', { class: /^\s/.test(line) ? 'indent' : '' }, nameSeats(line).trim()));
  prev.disabled = i === 0; first.disabled = i === 0;
  next.disabled = i === replay.steps.length - 1; last.disabled = next.disabled;
  history.replaceState(null, '', `/replay/${encodeURIComponent(tableId)}?step=${i}`);
}

function name(s) { const x = seatInfo(s); return x && x.player ? x.player.nickname : `bot ${s}`; }
const nameSeats = (line) => line.replace(/(you \()?seat (\d)\b/g, (m, you, d) => (you ? m : name(Number(d))));

const btn = (label, testid, f) => el('button', { class: 'btn small', 'data-testid': testid, onclick: f }, label);
const first = btn('« first', 'replay-first', () => show(0));
const prev = btn('◀ prev', 'replay-prev', () => show(i - 1));
const next = btn('next ▶', 'replay-next', () => show(i + 1));
const last = btn('last »', 'replay-last', () => show(replay.steps.length - 1));
const play = btn('play', 'replay-play', () => {
  if (timer) { clearInterval(timer); timer = null; play.textContent = 'play'; return; }
  play.textContent = 'pause';
  timer = setInterval(() => { if (i >= replay.steps.length - 1) { clearInterval(timer); timer = null; play.textContent = 'play'; } else show(i + 1); }, 800);
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

(async () => {
  try {
    replay = await api('GET', `/api/tables/${encodeURIComponent(tableId)}/replay`);
  } catch (x) {
    app.prepend(el('div', { class: 'panel' }, el('h1', {}, 'Replay'), el('p', { class: 'error-text' }, x.message)));
    controls.remove();
    return;
  }
  mod = await gameModule(replay.table.game);
  const t = replay.table;
  head.append(el('h1', {}, `Replay · ${mod.title || t.game}`, el('span', { class: 'muted', style: { fontWeight: 400 } }, ` · ${t.id}`)),
    el('span', { class: 'badge finished' }, 'finished'), el('span', { class: 'spacer' }),
    el('span', { class: 'muted small' }, mod.rulesSummary ? mod.rulesSummary(t.rules) : ''),
    t.outcome ? el('span', { class: 'small', 'data-testid': 'replay-outcome' }, t.outcome.summary || '') : '');
  slider.max = String(replay.steps.length - 1);
  const q = new URLSearchParams(location.search);
  show(Number(q.get('step') || 0));
})();
