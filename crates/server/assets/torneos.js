// @ts-check
// Tournaments (/torneos): the public ones not finished (and the last week's), and a form
// to organise one — the game and its rules (the game's own form, as the lobby's), the
// format, when it starts, whether bots may stand in for who does not come, the courtesy
// time, rated or not, private (by its link) or public.

import { topbar } from './topbar.js';
import { el, clear, api, t, pageRoot, messageOf, me, fmtDate, toast, botName } from './common.js';
import { gameModule } from './games.js';

topbar('tournaments');
const app = pageRoot();
const listPanel = el('section', { class: 'panel tournament', 'data-testid': 'tournaments' });
const createPanel = el('section', { class: 'panel tournament', 'data-testid': 'tournament-create' });
app.append(listPanel, createPanel);

/**
 * @typedef {{id: string, name: string, game: string, format: string, start: number, status: string,
 *   rated: boolean, organiser: {id: number, nickname: string}}} Listed
 */

/** @param {Listed[]} list @param {Record<string, string>} titles */
function renderList(list, titles) {
  clear(listPanel).append(el('h1', {}, t('tournament.list_title')));
  if (!list.length) {
    listPanel.append(el('p', { class: 'muted', 'data-testid': 'tournaments-empty' }, t('tournament.none')));
    return;
  }
  listPanel.append(el('ul', { class: 'matches' }, ...list.map((x) => el('li', { class: 'match', 'data-testid': 'tournament-listed' },
    el('a', { href: `/torneo/${x.id}` }, el('b', {}, x.name)),
    el('span', { class: 'muted small' }, [titles[x.game] || x.game, t(`tournament.format.${x.format === 'swiss' ? 'swiss_short' : x.format === 'duplicate' ? 'duplicate_short' : x.format === 'arena' ? 'arena_short' : x.format === 'groups' ? 'groups_short' : x.format}`),
      t(`tournament.status.${x.status}`), x.status === 'signup' ? t('tournament.starts', { when: fmtDate(x.start) }) : '']
      .filter(Boolean).join(' · '))))));
}

/**
 * @param {import('./common.js').GameKind[]} games
 * @param {import('./common.js').Me | null} who
 */
async function renderCreate(games, who) {
  clear(createPanel).append(el('h2', {}, t('tournament.create')));
  if (!who || !who.account) {
    createPanel.append(el('p', { class: 'muted' }, t('tournament.account_to_organise')));
    return;
  }
  const name = el('input', { name: 'name', maxlength: '80', required: '', 'data-testid': 'tournament-name', placeholder: t('tournament.name_hint') });
  const game = el('select', { 'data-testid': 'tournament-game' }, games.map((g) => el('option', { value: g.name }, g.title || g.name)));
  const format = el('select', { 'data-testid': 'tournament-format' },
    ['swiss', 'knockout', 'tres_ceros', 'double', 'groups', 'arena', 'duplicate'].map((f) => el('option', { value: f }, t(`tournament.format.${f === 'swiss' ? 'swiss_short' : f === 'duplicate' ? 'duplicate_short' : f === 'arena' ? 'arena_short' : f === 'groups' ? 'groups_short' : f}`))));
  const rounds = el('select', { 'data-testid': 'tournament-rounds' }, [3, 4, 5, 6, 7, 9].map((n) => el('option', { value: n, selected: n === 5 }, t('tournament.rounds', { count: n }))));
  const size = el('select', { 'data-testid': 'tournament-group-size' }, [3, 4, 5, 6, 8].map((n) => el('option', { value: n, selected: n === 4 }, t('tournament.group_of', { count: n }))));
  const advance = el('select', { 'data-testid': 'tournament-advance' }, [1, 2, 3, 4].map((n) => el('option', { value: n, selected: n === 2 }, t('tournament.go_on', { count: n }))));
  const minutes = el('select', { 'data-testid': 'tournament-minutes' }, [15, 30, 45, 60, 90, 120].map((n) => el('option', { value: n, selected: n === 60 }, t('tournament.minutes', { count: n }))));
  const boards = el('select', { 'data-testid': 'tournament-boards' }, [2, 3, 4, 6, 8].map((n) => el('option', { value: n, selected: n === 4 }, t('tournament.boards', { count: n }))));
  const [consolation, consolationL] = checkbox('consolation', t('tournament.consolation'), true);
  const now = new Date(Date.now() + 3600 * 1000);
  now.setMinutes(0, 0, 0);
  const pad = (/** @type {number} */ n) => String(n).padStart(2, '0');
  const start = el('input', {
    type: 'datetime-local', 'data-testid': 'tournament-when',
    value: `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:00`,
  });
  const limit = el('select', { 'data-testid': 'tournament-time-limit' },
    el('option', { value: '' }, t('tournament.no_time_limit')),
    ...[30, 45, 60, 90, 120, 180].map((m) => el('option', { value: m * 60 }, t('tournament.minutes', { count: m }))));
  const courtesy = el('select', { 'data-testid': 'tournament-courtesy' }, [5, 10, 15, 20, 30].map((m) => el('option', { value: m * 60, selected: m === 15 }, t('tournament.minutes', { count: m }))));
  const absent = el('select', { 'data-testid': 'tournament-absent' },
    el('option', { value: 'match' }, t('tournament.absent_match')),
    el('option', { value: 'juego' }, t('tournament.absent_juego')));
  const bot = el('select', { 'data-testid': 'tournament-bot' });
  const [bots, botsL] = checkbox('bots', t('tournament.allow_bots'), false);
  const [rated, ratedL] = checkbox('rated', t('tournament.rated_box'), false);
  const [priv, privL] = checkbox('private', t('tournament.private_box'), false);
  // A cuadrilla's tournament: one of the caller's cuadrillas (the page's `?cuadrilla=`
  // chosen); it is private to its members.
  /** @type {{id: string, name: string}[]} */
  let mine = [];
  try { mine = await api('GET', '/api/me/cuadrillas'); } catch { mine = []; }
  const wanted = new URLSearchParams(location.search).get('cuadrilla') || '';
  const cuadrilla = el('select', { 'data-testid': 'tournament-cuadrilla' },
    el('option', { value: '' }, t('tournament.no_cuadrilla')),
    ...mine.map((c) => el('option', { value: c.id, selected: c.id === wanted }, c.name)));
  const rulesBox = el('div');
  /** @type {{el: HTMLElement, read: () => any} | null} */
  let rules = null;
  /** The game's own form of its options; a duplicate's as its tables play them (boards). */
  const rulesFor = async () => {
    const g = games.find((x) => x.name === /** @type {HTMLSelectElement} */ (game).value);
    if (!g) return;
    const m = await gameModule(g.name);
    const seats = g.partners ? 4 : 2;
    const dup = /** @type {HTMLSelectElement} */ (format).value === 'duplicate';
    const defaults = dup ? { ...(g.rules || {}), boards: Number(/** @type {HTMLSelectElement} */ (boards).value) } : (g.rules || {});
    rules = m.rulesForm(defaults, { seats: { min: seats, max: seats, default: seats } });
    clear(rulesBox).append(rules.el);
  };
  const onGame = async () => {
    const g = games.find((x) => x.name === /** @type {HTMLSelectElement} */ (game).value);
    if (!g) return;
    await rulesFor();
    clear(bot).append(...(g.bots || []).map((b) => el('option', { value: b, selected: b === g.default_bot }, botName(b))));
    // Duplicate only for a game whose tables can be dealt the same boards.
    const dup = /** @type {HTMLOptionElement | null} */ (format.querySelector('option[value="duplicate"]'));
    if (dup) {
      dup.hidden = !g.duplicate;
      dup.disabled = !g.duplicate;
      if (!g.duplicate && /** @type {HTMLSelectElement} */ (format).value === 'duplicate') /** @type {HTMLSelectElement} */ (format).value = 'swiss';
    }
    onFormat();
  };
  /** Juego by juego: for a game with juegos to lose, not in duplicate, not with stand-ins. */
  const onAbsent = () => {
    const g = games.find((x) => x.name === /** @type {HTMLSelectElement} */ (game).value);
    const f = /** @type {HTMLSelectElement} */ (format).value;
    const shown = !!g?.courtesy_juegos && f !== 'duplicate' && !bots.checked;
    absent.closest('label')?.classList.toggle('hidden', !shown);
  };
  let shownDuplicate = false;
  const onFormat = () => {
    const f = /** @type {HTMLSelectElement} */ (format).value;
    rounds.closest('label')?.classList.toggle('hidden', f !== 'swiss' && f !== 'duplicate');
    boards.closest('label')?.classList.toggle('hidden', f !== 'duplicate');
    minutes.closest('label')?.classList.toggle('hidden', f !== 'arena');
    size.closest('label')?.classList.toggle('hidden', f !== 'groups');
    advance.closest('label')?.classList.toggle('hidden', f !== 'groups');
    consolationL.classList.toggle('hidden', f !== 'knockout');
    onAbsent();
    if ((f === 'duplicate') !== shownDuplicate) {
      shownDuplicate = f === 'duplicate';
      rulesFor();
    }
  };
  game.addEventListener('change', onGame);
  format.addEventListener('change', onFormat);
  bots.addEventListener('change', onAbsent);
  const err = el('div', { class: 'error-text' });
  const form = el('form', {},
    el('div', { class: 'fields' },
      el('label', { class: 'field' }, t('tournament.name'), name),
      el('label', { class: 'field' }, t('tournament.game'), game),
      el('label', { class: 'field' }, t('tournament.format_label'), format),
      el('label', { class: 'field' }, t('tournament.rounds_label'), rounds),
      el('label', { class: 'field' }, t('tournament.boards_label'), boards),
      el('label', { class: 'field' }, t('tournament.length_label'), minutes),
      el('label', { class: 'field' }, t('tournament.group_size_label'), size),
      el('label', { class: 'field' }, t('tournament.advance_label'), advance),
      el('label', { class: 'field' }, t('tournament.when'), start),
      el('label', { class: 'field' }, t('tournament.courtesy_label'), courtesy),
      el('label', { class: 'field' }, t('tournament.absent_label'), absent),
      el('label', { class: 'field' }, t('tournament.time_limit_label'), limit),
      el('label', { class: 'field' }, t('tournament.bot_label'), bot),
      el('label', { class: `field ${mine.length ? '' : 'hidden'}` }, t('tournament.cuadrilla_field'), cuadrilla)),
    rulesBox,
    el('div', { class: 'row', style: { gap: '1.2rem', margin: '.6rem 0' } }, consolationL, botsL, ratedL, privL),
    el('button', { class: 'btn primary', type: 'submit', 'data-testid': 'tournament-make' }, t('tournament.make')), err);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    err.textContent = '';
    const f = /** @type {HTMLSelectElement} */ (format).value;
    /** @type {Record<string, any>} */
    const body = {
      name: /** @type {HTMLInputElement} */ (name).value.trim(),
      game: /** @type {HTMLSelectElement} */ (game).value,
      format: f,
      start: Math.floor(new Date(/** @type {HTMLInputElement} */ (start).value).getTime() / 1000),
      courtesy_s: Number(/** @type {HTMLSelectElement} */ (courtesy).value),
      time_limit_s: /** @type {HTMLSelectElement} */ (limit).value ? Number(/** @type {HTMLSelectElement} */ (limit).value) : undefined,
      bot: /** @type {HTMLSelectElement} */ (bot).value,
      bots: bots.checked, rated: rated.checked, private: priv.checked,
    };
    if (!rated.checked && rules) body.rules = rules.read();
    if (f === 'swiss' || f === 'duplicate') body.rounds = Number(/** @type {HTMLSelectElement} */ (rounds).value);
    if (f === 'duplicate') body.boards = Number(/** @type {HTMLSelectElement} */ (boards).value);
    if (f === 'arena') body.minutes = Number(/** @type {HTMLSelectElement} */ (minutes).value);
    if (f === 'groups') {
      body.group_size = Number(/** @type {HTMLSelectElement} */ (size).value);
      body.advance = Number(/** @type {HTMLSelectElement} */ (advance).value);
    }
    if (f === 'knockout') body.consolation = consolation.checked;
    if (!absent.closest('label')?.classList.contains('hidden') && /** @type {HTMLSelectElement} */ (absent).value === 'juego') body.courtesy_juegos = true;
    const cq = /** @type {HTMLSelectElement} */ (cuadrilla).value;
    if (cq) body.cuadrilla = cq;
    try {
      const made = await api('POST', '/api/tournaments', body);
      location.href = `/torneo/${made.id}${made.invite ? `?invite=${encodeURIComponent(made.invite)}` : ''}`;
    } catch (x) { err.textContent = messageOf(x); toast(messageOf(x), 'error'); }
  });
  createPanel.append(form);
  await onGame();
  onFormat();
}

/**
 * A checkbox and its label.
 * @param {string} nameAttr @param {string} text @param {boolean} on
 * @returns {[HTMLInputElement, HTMLElement]}
 */
function checkbox(nameAttr, text, on) {
  const box = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', name: nameAttr, 'data-testid': `tournament-${nameAttr}` }));
  box.checked = on;
  return [box, el('label', { class: 'check' }, box, ` ${text}`)];
}

(async () => {
  try {
    const [who, games, list] = await Promise.all([me(), api('GET', '/api/games'), api('GET', '/api/tournaments')]);
    /** @type {Record<string, string>} */
    const titles = {};
    for (const g of games) titles[g.name] = g.title;
    renderList(list, titles);
    await renderCreate(games, who);
  } catch (x) {
    clear(listPanel).append(el('h1', {}, t('tournament.list_title')), el('p', { class: 'error-text' }, messageOf(x)));
  }
})();
