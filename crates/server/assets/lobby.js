// The lobby: pick a nickname, see the open tables, create a table of any game the server
// offers (GET /api/games: each with its seat range, bot levels and default options).

import { topbar, el, clear, api, me, register, toast } from './common.js';
import { gameModule } from './games.js';
import { cardEl } from './cards.js';

topbar('lobby');
const app = document.getElementById('app');

const hero = el('section', { class: 'panel hero' },
  el('div', { class: 'fan' }, ['1o', '12c', '7e', '11b'].map((c) => cardEl(c))),
  el('div', {}, el('h1', {}, 'tapete'), el('div', { class: 'muted' }, 'Card games with friends: sit down, deal, and bots play the empty seats.')));
const idPanel = el('section', { class: 'panel', 'data-testid': 'identity' });
const createPanel = el('section', { class: 'panel' });
const tablesPanel = el('section', { class: 'panel' });
app.append(hero, el('div', { class: 'grid2' }, el('div', {}, idPanel, createPanel), tablesPanel));

// The server's defaults for `away_s` and `turn_s`: left out of the request when chosen.
const AWAY_DEFAULT = 30;
const TURN_DEFAULT = 60;

/** A short explanation shown under a form field (no hover needed: touch screens have none). */
function help(key, text) {
  return el('small', { class: 'opt-help', 'data-testid': `help-${key}` }, text);
}

/** A labelled field with its explanation underneath. */
function field(key, label, input, text) {
  return el('label', { class: 'field' }, label, input, help(key, text));
}

let player = null;
let games = [];
const modules = {};

/** A game's seat range from /api/games: {min, max, default}. */
function seatRange(g) {
  const s = g && g.seats;
  if (s && typeof s === 'object') return { min: s.min, max: s.max, default: s.default };
  const n = Number(s) || 4;
  return { min: n, max: n, default: n };
}

/** "2–8 players", or "4 players" for a game of one seat count. */
function playersText(g) {
  const r = seatRange(g);
  return r.min === r.max ? `${r.min} players` : `${r.min}–${r.max} players`;
}

function renderIdentity() {
  clear(idPanel);
  if (player) {
    idPanel.append(el('h2', {}, 'You'),
      el('div', { class: 'row' }, el('span', {}, 'Playing as ', el('b', { 'data-testid': 'my-nickname' }, player.nickname)),
        el('span', { class: 'spacer' }),
        el('a', { class: 'btn small', href: `/history?player=${player.id}` }, 'My games'),
        el('button', { class: 'btn small', onclick: () => { player = null; renderIdentity(); renderCreate(); } }, 'New nickname')),
      el('p', { class: 'muted small' }, 'No password: this browser keeps your key. Another browser is another player.'));
    return;
  }
  const input = el('input', { type: 'text', maxlength: 24, placeholder: 'e.g. Ane', 'data-testid': 'nickname', required: true, autocomplete: 'nickname' });
  const err = el('div', { class: 'error-text', 'data-testid': 'nickname-error' });
  idPanel.append(el('h2', {}, 'Pick a nickname'),
    el('form', {
      class: 'row', novalidate: true, onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        if (!input.value.trim()) {
          err.textContent = 'Type a nickname first (1 to 24 characters): it is how the table names you.';
          input.focus();
          return;
        }
        try {
          player = await register(input.value.trim());
          renderIdentity(); renderCreate();
        } catch (x) { err.textContent = x.message; }
      },
    }, input, el('button', { class: 'btn primary', 'data-testid': 'nickname-save' }, 'Enter')), err);
}

async function renderCreate() {
  clear(createPanel);
  createPanel.append(el('h2', {}, 'New table'));
  if (!player) { createPanel.append(el('p', { class: 'muted' }, 'Pick a nickname first.')); return; }
  if (!games.length) { createPanel.append(el('p', { class: 'muted' }, 'Loading games…')); return; }

  const gameSel = el('select', { 'data-testid': 'game' }, games.map((g) => el('option', { value: g.name }, `${g.title || g.name} (${playersText(g)})`)));
  const rulesBox = el('div');
  const botSel = el('select', { 'data-testid': 'bot' });
  // How many seats, for games played by a range of players (hidden otherwise).
  const seatsSel = el('select', { 'data-testid': 'seats' });
  const seatsField = field('seats', 'Players', seatsSel, 'how many people (and bots) play');
  const seatSel = el('select', { 'data-testid': 'seat' });
  const paceSel = el('select', { 'data-testid': 'pace' },
    el('option', { value: 1500 }, 'slow bots'), el('option', { value: 700, selected: true }, 'normal bots'),
    el('option', { value: 250 }, 'fast bots'), el('option', { value: 0 }, 'instant bots'));
  // How long a person may be gone before a bot plays their seat (seconds).
  const awaySel = el('select', { 'data-testid': 'away' },
    [[10, '10 s'], [30, '30 s'], [60, '1 min'], [120, '2 min']].map(([v, t]) => el('option', { value: v, selected: v === AWAY_DEFAULT }, t)));
  // How long each person's turn may take before the bot plays it (seconds; 0: no clock).
  const turnSel = el('select', { 'data-testid': 'turn' },
    [[0, 'no clock'], [30, '30 s'], [60, '1 min'], [120, '2 min'], [300, '5 min']].map(([v, t]) => el('option', { value: v, selected: v === TURN_DEFAULT }, t)));
  const err = el('div', { class: 'error-text' });
  let rules = null;

  let mod = null;
  const onSeats = () => {
    const n = Number(seatsSel.value);
    const was = seatSel.value;
    const label = (i) => (mod && mod.seatLabel ? mod.seatLabel(i, n) : `seat ${i}`);
    clear(seatSel).append(...Array.from({ length: n }, (_, i) => el('option', { value: i, selected: String(i) === was }, label(i))));
  };
  const onGame = async () => {
    const g = games.find((x) => x.name === gameSel.value);
    mod = modules[g.name] || (modules[g.name] = await gameModule(g.name));
    const range = seatRange(g);
    rules = mod.rulesForm(g.rules || {}, { seats: range });
    clear(rulesBox).append(rules.el);
    // Each option of the game explained under its field (or listed after the form).
    const rest = [];
    for (const [key, doc] of Object.entries(g.rule_docs || {})) {
      const input = rules.el.querySelector(`[name="${key}"]`);
      const at = input && (input.closest('label') || input.parentElement);
      if (at) at.append(help(key, doc));
      else rest.push(el('li', {}, el('b', {}, key), ': ', help(key, doc)));
    }
    if (rest.length) rulesBox.append(el('ul', { class: 'opt-list' }, rest));
    rulesBox.append(el('a', { class: 'small', href: `/rules/${g.name}`, target: '_blank', 'data-testid': 'rules-link' }, `How to play ${g.title || g.name}`));
    clear(botSel).append(...(g.bots || []).map((b) => el('option', { value: b, selected: b === g.default_bot }, b)));
    clear(seatsSel).append(...Array.from({ length: range.max - range.min + 1 }, (_, k) => range.min + k)
      .map((n) => el('option', { value: n, selected: n === range.default }, `${n} players`)));
    seatsField.classList.toggle('hidden', range.min === range.max);
    onSeats();
  };
  // The top bar's game links open the form on their game (/?game=chinchon).
  const asked = new URLSearchParams(location.search).get('game');
  if (asked && games.some((g) => g.name === asked)) gameSel.value = asked;
  gameSel.addEventListener('change', onGame);
  seatsSel.addEventListener('change', onSeats);

  const form = el('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try {
        const body = {
          game: gameSel.value, seats: Number(seatsSel.value), rules: rules.read(), bot: botSel.value, pace_ms: Number(paceSel.value), seat: Number(seatSel.value),
        };
        if (Number(awaySel.value) !== AWAY_DEFAULT) body.away_s = Number(awaySel.value);
        if (Number(turnSel.value) !== TURN_DEFAULT) body.turn_s = Number(turnSel.value);
        const t = await api('POST', '/api/tables', body);
        location.href = `/t/${t.id}`;
      } catch (x) { err.textContent = x.message; }
    },
  },
  el('div', { class: 'fields' },
    field('game', 'Game', gameSel, 'what to play; every game has a How to play page'),
    seatsField,
    field('bot', 'Bots in empty seats', botSel, 'how well the bots play the seats nobody holds'),
    field('pace', 'Bot speed', paceSel, 'the pause before each bot move, so you can follow'),
    field('seat', 'Your seat', seatSel, 'where you sit; others may take the free seats'),
    field('away', 'Away after', awaySel, 'someone gone this long has a bot play for them until they return'),
    field('turn', 'Turn clock', turnSel, 'time for each turn: when it runs out the bot plays it, until the person is back')),
  rulesBox,
  el('div', { class: 'row' }, el('button', { class: 'btn primary', 'data-testid': 'create' }, 'Create table'), err));
  createPanel.append(form);
  await onGame();
}

/** "Ane, Mikel + 2 bots (avanzado)". */
function seatList(t) {
  const people = t.seats.filter((s) => s.player).map((s) => s.player.nickname);
  const bots = t.seats.filter((s) => !s.player);
  const parts = [people.join(', ')];
  if (bots.length) {
    const levels = [...new Set(bots.map((s) => s.bot).filter(Boolean))].join(', ');
    parts.push(el('span', { class: 'bot' }, `${people.length ? ' + ' : ''}${bots.length} ${bots.length === 1 ? 'bot' : 'bots'}${levels ? ` (${levels})` : ''}`));
  }
  return parts;
}

async function renderTables() {
  let tables;
  try { tables = await api('GET', '/api/tables'); } catch (x) { clear(tablesPanel).append(el('h2', {}, 'Open tables'), el('p', { class: 'error-text' }, x.message)); return; }
  clear(tablesPanel);
  tablesPanel.append(el('div', { class: 'row' }, el('h2', {}, 'Open tables'), el('span', { class: 'spacer' }),
    el('button', { class: 'btn small', onclick: renderTables }, 'Refresh')));
  if (!tables.length) { tablesPanel.append(el('div', { class: 'empty', 'data-testid': 'no-tables' }, 'No open tables yet. Create one!')); return; }
  const tbody = el('tbody');
  for (const t of tables) {
    const mod = modules[t.game];
    const kind = games.find((g) => g.name === t.game) || {};
    const range = seatRange(kind);
    const count = range.min === range.max ? '' : ` · ${t.seats.length} players`;
    const humans = t.seats.filter((s) => s.player).length;
    const mine = player && t.seats.some((s) => s.player && s.player.id === player.id);
    const free = t.seats.some((s) => !s.player);
    tbody.append(el('tr', { 'data-testid': 'table-row', 'data-table': t.id },
      el('td', {}, el('b', {}, kind.title || t.game), el('span', { class: 'muted small', 'data-testid': 'table-players' }, count), el('div', { class: 'muted small' }, mod ? mod.rulesSummary(t.rules) : '')),
      el('td', { class: 'seatlist' }, seatList(t)),
      el('td', { class: 'opt' }, el('span', { class: `badge ${t.status}` }, t.status), el('div', { class: 'muted small' }, `${humans} ${humans === 1 ? 'person' : 'people'}`)),
      el('td', {}, el('a', { class: `btn small ${mine || free ? 'primary' : ''}`, href: `/t/${t.id}`, 'data-testid': 'open-table' }, mine ? 'Back' : t.status === 'waiting' ? 'Join' : 'Watch'))));
  }
  tablesPanel.append(el('table', { class: 'list' }, el('thead', {}, el('tr', {}, el('th', {}, 'Game'), el('th', {}, 'Seats'), el('th', { class: 'opt' }, 'Status'), el('th', {}, ''))), tbody));
}

(async () => {
  player = await me();
  renderIdentity();
  try {
    // The form is drawn once every game's module is in: a form drawn earlier (a nickname
    // picked meanwhile) would be replaced under the person's hands.
    const list = await api('GET', '/api/games');
    for (const g of list) modules[g.name] = await gameModule(g.name);
    games = list;
  } catch (x) { toast(x.message, 'error'); }
  renderCreate();
  renderTables();
  setInterval(() => { if (document.visibilityState === 'visible') renderTables(); }, 5000);
})();
