// @ts-check
// The check of a table's deals (/verify/{id}): the commitment shown before the deal, the
// secret revealed at the game's end, each seat's contribution, the seed made from them and
// the first deal dealt again, all computed in this browser (fairness.js, chance.js, the
// game's `firstDeal`) and set against what the server says and the replay shows, each with
// a ✓ or a ✗ — and how to check the same by hand with `sha256sum`.

import { topbar } from './topbar.js';
import { el, api, t as tr, pageRoot, messageOf, ApiError } from './common.js';
import { gameModule } from './games.js';
import { withInvite, inviteOf } from './invite.js';
import { checks, shellLines } from './fairness.js';

/** @typedef {import('./common.js').TableInfo} TableInfo */
/** @typedef {import('./fairness.js').Fairness} Fairness */
/** @typedef {import('./fairness.js').CheckLine} CheckLine */
/** @typedef {import('./fairness.js').Step0} Step0 */

topbar('history');
const app = pageRoot();
const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');
const enc = encodeURIComponent(tableId);

/** The replay of this table, its invitation passed on for a friends' table. */
function replayHref() {
  const invite = inviteOf(tableId);
  return `/replay/${enc}${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`;
}

/**
 * The mark of a line: ✓ or ✗, named for screen readers ("coincide", "no coincide"), or a
 * neutral dot they pass over.
 * @param {boolean | null} ok
 */
const mark = (ok) => (ok === null
  ? el('span', { class: 'vf-mark info', 'aria-hidden': 'true' }, '·')
  : el('span', { class: `vf-mark ${ok ? 'ok' : 'bad'}`, role: 'img', 'aria-label': tr(ok ? 'verify.ok_word' : 'verify.bad_word') }, ok ? '✓' : '✗'));

/**
 * One line of the check, with its values under it.
 * @param {CheckLine} line
 */
function lineEl(line) {
  return el('li', {
    class: `vf-line ${line.id === 'contribution' || line.id === 'deal_seat' ? 'vf-sub' : ''} ${line.id === 'verdict' ? 'vf-verdict' : ''}`,
    'data-testid': `verify-${line.id}`, 'data-ok': line.ok === null ? 'none' : String(line.ok),
    'data-seat': line.seat === undefined ? null : String(line.seat),
  },
  mark(line.ok), el('span', { class: 'vf-text' }, line.text),
  line.detail.length ? el('dl', { class: 'vf-detail' }, line.detail.map(([k, v]) => [el('dt', {}, k), el('dd', { class: 'vf-value' }, v)])) : '');
}

/**
 * The page's head: what is checked, on which table.
 * @param {TableInfo | null} table
 * @param {string} title
 */
function head(table, title) {
  return el('div', { class: 'panel' },
    el('h1', {}, `${tr('verify.title')}${title ? ` · ${title}` : ''}`, el('span', { class: 'muted', style: { fontWeight: '400' } }, ` · ${tableId}`)),
    el('p', { class: 'small' }, tr('verify.intro')),
    table ? el('p', { class: 'row' },
      table.status === 'finished' ? el('a', { class: 'btn small', href: replayHref(), 'data-testid': 'verify-replay' }, tr('verify.to_replay')) : '',
      el('a', { class: 'btn small', href: `/t/${enc}` }, tr('replay.to_table'))) : '');
}

/**
 * The table's fairness: once the game is over, the revealed values asked of the server;
 * before (or while the server answers `not_revealed`), the table's own, without secret or
 * seed; null for a table whose deals were never committed.
 * @param {TableInfo & {fairness?: Fairness | null}} table
 * @returns {Promise<Fairness | null>}
 */
async function fairnessOf(table) {
  if (!table.fairness) return null;
  if (table.status !== 'finished') return { ...table.fairness, secret: null, seed: null };
  try {
    return await api('GET', withInvite(`/api/tables/${enc}/fairness`, tableId));
  } catch (x) {
    if (x instanceof ApiError && x.code === 'not_revealed') return { ...table.fairness, secret: null, seed: null };
    throw x;
  }
}

(async () => {
  /** @type {TableInfo & {fairness?: Fairness | null}} */
  let table;
  try {
    table = await api('GET', withInvite(`/api/tables/${enc}`, tableId));
  } catch (x) {
    const missing = x instanceof ApiError && x.status === 404;
    app.append(head(null, ''), el('div', { class: 'panel', 'data-testid': missing ? 'no-such-table' : 'verify-error' },
      el('p', { class: missing ? '' : 'error-text' }, missing ? tr('table.no_such_text', { id: tableId }) : messageOf(x))));
    return;
  }
  const mod = await gameModule(table.game);
  app.append(head(table, mod.title || table.game));
  const box = el('ul', { class: 'panel vf-lines', 'data-testid': 'verify-lines' }, el('li', { class: 'muted' }, tr('verify.checking')));
  app.append(box);
  /** @type {Fairness | null} */
  let fairness;
  try {
    fairness = await fairnessOf(table);
  } catch (x) {
    box.replaceChildren(el('li', { class: 'error-text', 'data-testid': 'verify-error' }, messageOf(x)));
    return;
  }
  /** @type {Step0 | null} */
  let step0 = null;
  if (fairness && fairness.secret && mod.firstDeal) {
    try {
      const s = await api('GET', withInvite(`/api/tables/${enc}/replay/0`, tableId));
      step0 = { view: s && s.view };
    } catch (x) {
      step0 = { error: messageOf(x) };
    }
  }
  let checked;
  try {
    checked = await checks(fairness, table, step0, mod);
  } catch (x) {
    box.replaceChildren(el('li', { class: 'error-text', 'data-testid': 'verify-error' }, messageOf(x)));
    return;
  }
  box.replaceChildren(...checked.lines.map(lineEl));
  box.dataset.ok = checked.ok === null ? 'none' : String(checked.ok);
  if (fairness) {
    app.append(el('details', { class: 'panel vf-how', 'data-testid': 'verify-how' },
      el('summary', {}, tr('verify.how')),
      el('p', { class: 'small' }, tr('verify.how_text')),
      el('div', { class: 'vf-shell', 'data-testid': 'verify-shell' }, shellLines(fairness).map((line) => el('code', {}, line)))));
  }
})();
