// @ts-check
// The lobby: pick a nickname, see the open tables, create a table of any game the server
// offers (GET /api/games: each with its seat range, bot levels and default options).

import { topbar } from './topbar.js';
import { el, clear, api, apiCall, me, register, toast, t, ordinal, botName, BOT_LEVELS, pageRoot, messageOf } from './common.js';
import { has } from './i18n.js';
import { gameModule } from './games.js';
import { cardEl } from './cards.js';
import { ratedField, ratedBadge } from './ratings.js';
import { privateField, tableLink } from './invite.js';
import { friendsPanel } from './friends.js';
import { myContribution, keepContribution } from './deal.js';

/** @typedef {import('./common.js').GameKind} GameKind */
/** @typedef {import('./common.js').TableInfo} TableInfo */
/** @typedef {import('./kit.js').GameModule} GameModule */

topbar('lobby');
const app = pageRoot();

const hero = el('section', { class: 'panel hero' },
  el('div', { class: 'fan' }, ['1o', '12c', '7e', '11b'].map((c) => cardEl(c))),
  el('div', {}, el('h1', {}, 'tapete'), el('div', { class: 'muted' }, t('lobby.tagline'))));
const idPanel = el('section', { class: 'panel', 'data-testid': 'identity' });
const createPanel = el('section', { class: 'panel' });
const tablesPanel = el('section', { class: 'panel' });
app.append(hero, el('div', { class: 'grid2' }, el('div', {}, idPanel, createPanel), tablesPanel));

// The server's defaults for `away_s` and `turn_s`: left out of the request when chosen.
const AWAY_DEFAULT = 30;
const TURN_DEFAULT = 60;

/**
 * A short explanation shown under a form field (no hover needed: touch screens have none).
 * @param {string} key
 * @param {string} text
 */
function help(key, text) {
  return el('small', { class: 'opt-help', 'data-testid': `help-${key}` }, text);
}

/**
 * "30 s", "2 min": a duration in seconds, in the page's words.
 * @param {number} secs
 */
function duration(secs) {
  return secs < 60 ? t('lobby.secs', { n: secs }) : t('lobby.mins', { n: secs / 60 });
}

/**
 * A labelled field with its explanation underneath.
 * @param {string} key
 * @param {string} label
 * @param {Node} input
 * @param {string} text
 */
function field(key, label, input, text) {
  return el('label', { class: `field field-${key}` }, label, input, help(key, text));
}

/** @type {import('./common.js').Me | null} */
let player = null;
/** @type {GameKind[]} */
let games = [];
/** @type {Record<string, GameModule>} */
const modules = {};

/**
 * A game's seat range from /api/games: {min, max, default}.
 * @param {{seats?: GameKind['seats'] | number} | undefined} g
 */
function seatRange(g) {
  const s = g && g.seats;
  if (s && typeof s === 'object') return { min: s.min, max: s.max, default: s.default };
  const n = Number(s) || 4;
  return { min: n, max: n, default: n };
}

/**
 * "2–8 players", or "4 players" for a game of one seat count.
 * @param {GameKind} g
 */
function playersText(g) {
  const r = seatRange(g);
  return r.min === r.max ? t('lobby.players', { count: r.min }) : t('lobby.players_range', { min: r.min, max: r.max });
}

/** The panel of who one is: the nickname, or a form to pick one. */
function renderIdentity() {
  clear(idPanel);
  if (player) {
    idPanel.append(el('h2', {}, t('lobby.you')),
      el('div', { class: 'row' }, el('span', {}, t('who.playing_as'), ' ', el('b', { 'data-testid': 'my-nickname' }, player.nickname)),
        el('span', { class: 'spacer' }),
        el('a', { class: 'btn small', href: `/history?player=${player.id}` }, t('lobby.my_games')),
        el('button', { class: 'btn small', onclick: () => { player = null; renderIdentity(); renderCreate(); } }, t('lobby.new_nickname'))),
      el('p', { class: 'muted small' }, t(player.account ? 'lobby.account_note' : 'lobby.no_password')));
    return;
  }
  const input = el('input', { type: 'text', maxlength: 24, placeholder: t('lobby.nickname_placeholder'), 'aria-label': t('lobby.nickname'), 'data-testid': 'nickname', required: true, autocomplete: 'nickname' });
  const err = el('div', { class: 'error-text', 'data-testid': 'nickname-error' });
  idPanel.append(el('h2', {}, t('who.pick_nickname')),
    el('form', {
      class: 'row', novalidate: true, onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        if (!input.value.trim()) {
          err.textContent = t('lobby.nickname_first');
          input.focus();
          return;
        }
        try {
          player = await register(input.value.trim());
          renderIdentity(); renderCreate();
        } catch (x) { err.textContent = messageOf(x); }
      },
    }, input, el('button', { class: 'btn primary', 'data-testid': 'nickname-save' }, t('lobby.enter'))), err);
}

/** The form to create a table of any game, its options the game's own (`rulesForm`). */
async function renderCreate() {
  clear(createPanel);
  createPanel.append(el('h2', {}, t('lobby.new_table')));
  if (!player) { createPanel.append(el('p', { class: 'muted' }, t('lobby.pick_first'))); return; }
  // A table for a cuadrilla (its page's "New table" opens the form with `?cuadrilla=ID`):
  // private, and open to its members without a link.
  const cuadrilla = new URLSearchParams(location.search).get('cuadrilla') || '';
  if (cuadrilla) {
    const note = el('p', { class: 'muted small', 'data-testid': 'for-cuadrilla' });
    createPanel.append(note);
    api('GET', `/api/cuadrillas/${encodeURIComponent(cuadrilla)}`)
      .then((/** @type {{name: string}} */ c) => { note.textContent = t('cuadrilla.for_table', { name: c.name }); })
      .catch((x) => { note.textContent = messageOf(x); });
  }
  if (!games.length) { createPanel.append(el('p', { class: 'muted' }, t('lobby.loading'))); return; }

  const gameSel = el('select', { 'data-testid': 'game' }, games.map((g) => el('option', { value: g.name }, `${g.title || g.name} (${playersText(g)})`)));
  const rulesBox = el('div');
  const botSel = el('select', { 'data-testid': 'bot' });
  // How many seats, for games played by a range of players (hidden otherwise).
  const seatsSel = el('select', { 'data-testid': 'seats' });
  const seatsField = field('seats', t('lobby.f.players'), seatsSel, t('lobby.f.players_help'));
  const seatSel = el('select', { 'data-testid': 'seat' });
  const seatField = field('seat', t('lobby.f.seat'), seatSel, t('lobby.f.seat_help'));
  const paceSel = el('select', { 'data-testid': 'pace' },
    el('option', { value: 1500 }, t('lobby.pace.slow')), el('option', { value: 700, selected: true }, t('lobby.pace.normal')),
    el('option', { value: 250 }, t('lobby.pace.fast')), el('option', { value: 0 }, t('lobby.pace.instant')));
  // How long a person may be gone before a bot plays their seat (seconds).
  const awaySel = el('select', { 'data-testid': 'away' },
    [10, 30, 60, 120].map((v) => el('option', { value: v, selected: v === AWAY_DEFAULT }, duration(v))));
  // How long each person's turn may take before the bot plays it (seconds; 0: no clock).
  const turnSel = el('select', { 'data-testid': 'turn' },
    [0, 30, 60, 120, 300].map((v) => el('option', { value: v, selected: v === TURN_DEFAULT }, v ? duration(v) : t('lobby.no_clock'))));
  const err = el('div', { class: 'error-text' });
  // A rated game plays the standard rules (their options are put away while it is ticked)
  // and always has a turn clock (its "no clock" is off, and the default taken if chosen).
  const rated = ratedField(player, {
    onChange: (on) => {
      if (rules) rules.el.classList.toggle('hidden', on);
      const none = [...turnSel.options].find((o) => o.value === '0');
      if (none) none.disabled = on;
      if (on && turnSel.value === '0') turnSel.value = String(TURN_DEFAULT);
    },
  });
  /** @type {{el: HTMLElement, read: () => import('./kit.js').Rules} | null} */
  let rules = null;

  /** @type {GameModule | null} */
  let mod = null;
  const onSeats = () => {
    const n = Number(seatsSel.value);
    const was = seatSel.value;
    const label = (/** @type {number} */ i) => (mod && mod.seatLabel ? mod.seatLabel(i, n) : ordinal(i + 1));
    clear(seatSel).append(...Array.from({ length: n }, (_, i) => el('option', { value: i, selected: String(i) === was }, label(i))));
  };
  const onGame = async () => {
    const g = games.find((x) => x.name === gameSel.value);
    if (!g) return;
    const m = modules[g.name] || (modules[g.name] = await gameModule(g.name));
    mod = m;
    const range = seatRange(g);
    const form = m.rulesForm(g.rules || {}, { seats: range });
    rules = form;
    clear(rulesBox).append(form.el);
    form.el.classList.toggle('hidden', rated.read());
    // Each option of the game explained under its field (or listed after the form).
    /** @type {HTMLElement[]} */
    const rest = [];
    for (const [key, doc] of Object.entries(g.rule_docs || {})) {
      const input = form.el.querySelector(`[name="${key}"]`);
      const at = input && (input.closest('label') || input.parentElement);
      // The catalog's words for the option when it has them, the game's own otherwise.
      const words = has(`rule.${g.name}.${key}`) ? t(`rule.${g.name}.${key}`) : doc;
      if (at) at.append(help(key, words));
      else rest.push(el('li', {}, el('b', {}, key), ': ', help(key, words)));
    }
    if (rest.length) rulesBox.append(el('ul', { class: 'opt-list' }, rest));
    rulesBox.append(el('a', { class: 'small', href: `/rules/${g.name}`, target: '_blank', 'data-testid': 'rules-link' }, t('lobby.how_to_play', { game: g.title || g.name })));
    // The levels, weakest first, then the styles of play a game may offer besides; each by
    // its name in the page's words.
    const option = (/** @type {string} */ b) => el('option', { value: b, selected: b === g.default_bot }, botName(b));
    const levels = (g.bots || []).filter((b) => BOT_LEVELS.includes(b));
    const styles = (g.bots || []).filter((b) => !BOT_LEVELS.includes(b));
    clear(botSel).append(...(styles.length
      ? [el('optgroup', { label: t('lobby.bot_levels') }, levels.map(option)), el('optgroup', { label: t('lobby.bot_styles') }, styles.map(option))]
      : levels.map(option)));
    clear(seatsSel).append(...Array.from({ length: range.max - range.min + 1 }, (_, k) => range.min + k)
      .map((n) => el('option', { value: n, selected: n === range.default }, t('lobby.players', { count: n }))));
    seatsField.classList.toggle('hidden', range.min === range.max);
    // The seats as the game's players think of them, explained under the field.
    const seatHelp = seatField.querySelector('.opt-help');
    if (seatHelp) seatHelp.textContent = m.seatHelp ? m.seatHelp() : t('lobby.f.seat_help');
    onSeats();
  };
  // The top bar's game links open the form on their game (/?game=chinchon).
  const asked = new URLSearchParams(location.search).get('game');
  if (asked && games.some((g) => g.name === asked)) gameSel.value = asked;
  gameSel.addEventListener('change', onGame);
  seatsSel.addEventListener('change', onSeats);

  const privateBox = el('input', { type: 'checkbox', name: 'private', 'data-testid': 'private-table' });
  const form = el('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try {
        /** @type {{game: string, seats: number, rules?: import('./kit.js').Rules, bot: string, pace_ms: number, seat: number,
         *   away_s?: number, turn_s?: number, rated?: boolean, private?: boolean, cuadrilla?: string, seed?: string}} */
        const body = {
          game: gameSel.value, seats: Number(seatsSel.value), rules: rules ? rules.read() : {}, bot: botSel.value, pace_ms: Number(paceSel.value), seat: Number(seatSel.value),
        };
        if (Number(awaySel.value) !== AWAY_DEFAULT) body.away_s = Number(awaySel.value);
        if (Number(turnSel.value) !== TURN_DEFAULT) body.turn_s = Number(turnSel.value);
        // A rated game plays the standard rules.
        if (rated.read()) { body.rated = true; delete body.rules; }
        if (privateBox.checked) body.private = true;
        if (cuadrilla) body.cuadrilla = cuadrilla;
        // The creator's contribution to the deal (docs/fairness.md), kept for the table.
        const seed = myContribution(null);
        body.seed = seed;
        /** @type {TableInfo} */
        const made = await api('POST', '/api/tables', body);
        keepContribution(made.id, seed);
        // A cuadrilla's members need no link: its address is the one to share among them.
        location.href = tableLink(made.id, cuadrilla ? undefined : made.invite);
      } catch (x) { err.textContent = messageOf(x); }
    },
  },
  el('div', { class: 'fields' },
    field('game', t('lobby.f.game'), gameSel, t('lobby.f.game_help')),
    seatsField,
    field('bot', t('lobby.f.bot'), botSel, t('lobby.f.bot_help')),
    field('pace', t('lobby.f.pace'), paceSel, t('lobby.f.pace_help')),
    seatField,
    field('away', t('lobby.f.away'), awaySel, t('lobby.f.away_help')),
    field('turn', t('lobby.f.turn'), turnSel, t('lobby.f.turn_help')),
    rated.el,
    cuadrilla ? null : privateField(privateBox)),
  rulesBox,
  el('div', { class: 'row' }, el('button', { class: 'btn primary', 'data-testid': 'create' }, t('lobby.create')), err));
  createPanel.append(form);
  await onGame();
}

/**
 * "Ane, Mikel + 2 bots (Avanzado)".
 * @param {TableInfo} tb
 */
function seatList(tb) {
  const people = tb.seats.flatMap((s) => (s.player ? [s.player.nickname] : []));
  const bots = tb.seats.filter((s) => !s.player);
  /** @type {(string | HTMLElement)[]} */
  const parts = [people.join(', ')];
  if (bots.length) {
    const levels = [...new Set(bots.flatMap((s) => (s.bot ? [s.bot] : [])))].map(botName).join(', ');
    parts.push(el('span', { class: 'bot' }, `${people.length ? ' + ' : ''}${t('lobby.bots', { count: bots.length })}${levels ? ` (${levels})` : ''}`));
  }
  return parts;
}

/** Pages of the open tables shown: the first, and one more for each "More tables". */
let pagesShown = 1;

/**
 * The open tables of the first `pagesShown` pages (those with people at them come first),
 * whether there are more, and how many there are in all.
 */
async function openTables() {
  /** @type {TableInfo[]} */
  const tables = [];
  let more = false;
  let total = 0;
  for (let n = 1; n <= pagesShown; n++) {
    const { data, headers } = await apiCall('GET', `/api/tables?page=${n}`);
    tables.push(...data);
    total = Number(headers.get('X-Total-Count')) || tables.length;
    more = /rel="next"/.test(headers.get('Link') || '');
    if (!more) break;
  }
  return { tables, more, total };
}

/** The open tables, asked for again every few seconds. */
async function renderTables() {
  let tables, more, total;
  try { ({ tables, more, total } = await openTables()); } catch (x) { clear(tablesPanel).append(el('h2', {}, t('lobby.open_tables')), el('p', { class: 'error-text' }, messageOf(x))); return; }
  clear(tablesPanel);
  tablesPanel.append(el('div', { class: 'row' }, el('h2', {}, t('lobby.open_tables')), el('span', { class: 'spacer' }),
    el('button', { class: 'btn small', onclick: renderTables }, t('lobby.refresh'))));
  if (!tables.length) { tablesPanel.append(el('div', { class: 'empty', 'data-testid': 'no-tables' }, t('lobby.no_tables'))); return; }
  const tbody = el('tbody');
  for (const tb of tables) {
    const mod = modules[tb.game];
    const kind = games.find((g) => g.name === tb.game);
    const range = seatRange(kind);
    const count = range.min === range.max ? '' : ` · ${t('lobby.players', { count: tb.seats.length })}`;
    const humans = tb.seats.filter((s) => s.player).length;
    const me = player;
    const mine = me && tb.seats.some((s) => s.player && s.player.id === me.id);
    const free = tb.seats.some((s) => !s.player);
    tbody.append(el('tr', { 'data-testid': 'table-row', 'data-table': tb.id },
      el('td', {}, el('b', {}, (kind && kind.title) || tb.game), el('span', { class: 'muted small', 'data-testid': 'table-players' }, count), ratedBadge(tb), el('div', { class: 'muted small' }, mod ? mod.rulesSummary(tb.rules) : '')),
      el('td', { class: 'seatlist' }, seatList(tb)),
      el('td', { class: 'opt' }, el('span', { class: `badge ${tb.status}` }, t(`status.${tb.status}`)), el('div', { class: 'muted small' }, t('lobby.people', { count: humans }))),
      el('td', {}, el('a', { class: `btn small ${mine || free ? 'primary' : ''}`, href: `/t/${tb.id}`, 'data-testid': 'open-table' }, mine ? t('lobby.back') : tb.status === 'waiting' ? t('lobby.join') : t('lobby.watch')))));
  }
  tablesPanel.append(el('table', { class: 'list' }, el('thead', {}, el('tr', {}, el('th', {}, t('lobby.th.game')), el('th', {}, t('lobby.th.seats')), el('th', { class: 'opt' }, t('lobby.th.status')), el('th', {}, ''))), tbody));
  if (more) {
    tablesPanel.append(el('div', { class: 'row' },
      el('span', { class: 'muted small', 'data-testid': 'tables-shown' }, t('lobby.tables_shown', { shown: tables.length, total })),
      el('button', { class: 'btn small', 'data-testid': 'more-tables', onclick: () => { pagesShown += 1; renderTables(); } }, t('lobby.more_tables'))));
  }
}

(async () => {
  player = await me();
  renderIdentity();
  idPanel.after(friendsPanel(player));
  try {
    // The form is drawn once every game's module is in: a form drawn earlier (a nickname
    // picked meanwhile) would be replaced under the person's hands.
    /** @type {GameKind[]} */
    const list = await api('GET', '/api/games');
    for (const g of list) modules[g.name] = await gameModule(g.name);
    games = list;
  } catch (x) { toast(messageOf(x), 'error'); }
  renderCreate();
  renderTables();
  setInterval(() => { if (document.visibilityState === 'visible') renderTables(); }, 5000);
})();
