// @ts-check
// Friends' tables on the pages: a private table's invitation link (kept by this browser for
// the tables it opened with one), the seats kept for friends, and "otra" at a finished game.

import { el, api, toast, t, ApiError, messageOf } from './common.js';
import { myContribution, keepContribution } from './deal.js';

/** @typedef {import('./common.js').TableInfo} TableInfo */
/** @typedef {import('./common.js').Me} Me */

/** Where this browser keeps a table's invitation secret. */
const KEY = (/** @type {string} */ id) => `tapete.invite.${id}`;

/**
 * The invitation secret of table `id`: the address's (kept for later visits), else the kept one.
 * @param {string} id
 */
export function inviteOf(id) {
  const fromUrl = new URLSearchParams(location.search).get('invite') || '';
  try {
    if (fromUrl) localStorage.setItem(KEY(id), fromUrl);
    return fromUrl || localStorage.getItem(KEY(id)) || '';
  } catch { return fromUrl; }
}

/**
 * Keeps the secret of a table this browser made or was given.
 * @param {string} id
 * @param {string | undefined} invite
 */
export function keepInvite(id, invite) {
  try { if (invite) localStorage.setItem(KEY(id), invite); } catch { /* private mode */ }
}

// The server that runs each table, once one said so (`table_moved`: several servers share
// the tables, and the balancer sends `?node=NAME` to that one).
/** @type {Map<string, string>} */
const nodes = new Map();

/**
 * Notes that table `id` is run by the server `node`.
 * @param {string} id
 * @param {string} node
 */
export function setNode(id, node) { if (node) nodes.set(id, node); }

/**
 * Whether a refusal says another server runs the table: `table_moved`, naming it.
 * @param {unknown} x
 * @returns {x is ApiError}
 */
export function moved(x) {
  return x instanceof ApiError && x.code === 'table_moved' && !!x.node;
}

/**
 * `path` with table `id`'s secret as `invite=` when this browser has one, and the server
 * that runs it as `node=` when one said so.
 * @param {string} path
 * @param {string} id
 */
export function withInvite(path, id) {
  const query = [['invite', inviteOf(id)], ['node', nodes.get(id) || '']]
    .filter(([, v]) => v).map(([k, v]) => `${k}=${encodeURIComponent(v)}`);
  if (!query.length) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${query.join('&')}`;
}

/**
 * The page of table `id`, with its secret for a private one.
 * @param {string} id
 * @param {string} [invite]
 */
export function tableLink(id, invite) {
  return `/t/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`;
}

/**
 * The bar's control of a private table: copy its invitation link (or a badge without one).
 * @param {TableInfo} table
 */
export function inviteControl(table) {
  if (!table.private) return null;
  const invite = inviteOf(table.id);
  if (!invite) return el('span', { class: 'badge private', 'data-testid': 'private', title: t('private.badge_title') }, t('private.badge'));
  return el('button', {
    class: 'btn small gold', 'data-testid': 'copy-invite', title: t('private.copy_title'), onclick: async () => {
      const url = `${location.origin}${tableLink(table.id, invite)}`;
      try { await navigator.clipboard.writeText(url); toast(t('private.copied')); } catch { prompt(t('private.copy_prompt'), url); }
    },
  }, t('private.copy'));
}

/**
 * Calls the API on table `id` (its secret added, asked again once at the server that runs
 * it if another answered); a refusal is told in the page's words. Answers the table, or
 * null after a refusal.
 * @param {string} method
 * @param {string} path
 * @param {string} id
 * @param {unknown} [body]
 * @returns {Promise<TableInfo | null>}
 */
async function call(method, path, id, body) {
  try {
    try { return await api(method, withInvite(path, id), body); } catch (x) {
      if (!moved(x)) throw x;
      setNode(id, x.node);
      return await api(method, withInvite(path, id), body);
    }
  } catch (x) {
    toast(messageOf(x), 'error');
    return null;
  }
}

/**
 * A seat kept for a friend before the start: a chip with their name (and, for the creator, a
 * way to free it); `undefined` when the seat is not kept for somebody else.
 * @param {TableInfo} table
 * @param {number} s
 * @param {Me | null} player
 */
export function keptSeat(table, s, player) {
  const kept = table.status === 'waiting' && Array.isArray(table.reserved) ? table.reserved[s] : null;
  if (!kept || (player && kept.id === player.id)) return undefined;
  const creator = player && table.creator === player.id;
  return el('span', { class: 'kept' },
    el('span', { class: 'chip', 'data-testid': `kept-${s}` }, t('reserve.for', { name: kept.nickname })),
    creator ? el('button', { class: 'btn small ghost', 'data-testid': `free-${s}`, onclick: () => call('DELETE', `/api/tables/${encodeURIComponent(table.id)}/seats/${s}`, table.id) }, t('reserve.free')) : null);
}

/**
 * Keeps seat `s` of `table` for an account picked in a small dialog: one's friends, each a
 * button (online ones first), or any account by its nickname. A friend picked is invited
 * too, so the seat kept reaches them: their lobby's "Unirme" seats them there.
 * @param {TableInfo} table
 * @param {number} s
 */
async function keepPicker(table, s) {
  /** @type {{nickname: string, online?: boolean}[]} */
  let friends = [];
  try { friends = (await api('GET', '/api/friends')).friends || []; } catch { /* a guest: by nickname only */ }
  friends = [...friends].sort((a, b) => Number(b.online) - Number(a.online) || a.nickname.localeCompare(b.nickname));
  const error = el('p', { class: 'error-text', role: 'alert', 'data-testid': 'keep-error' });
  const d = /** @type {HTMLDialogElement} */ (el('dialog', { class: 'pick', 'data-testid': 'keep-picker' }));
  /** @type {(nickname: string, friend: boolean) => Promise<void>} */
  const keep = async (nickname, friend) => {
    error.textContent = '';
    const id = encodeURIComponent(table.id);
    try {
      try { await api('POST', withInvite(`/api/tables/${id}/seats/${s}/reserve`, table.id), { nickname }); } catch (x) {
        if (!moved(x)) throw x;
        setNode(table.id, x.node);
        await api('POST', withInvite(`/api/tables/${id}/seats/${s}/reserve`, table.id), { nickname });
      }
    } catch (x) {
      error.textContent = messageOf(x);
      return;
    }
    let invited = false;
    if (friend) invited = await api('POST', withInvite(`/api/tables/${id}/invitations`, table.id), { nickname }).then(() => true, () => false);
    d.close();
    toast(t(invited ? 'reserve.kept_invited' : 'reserve.kept', { name: nickname }));
  };
  const list = friends.length
    ? el('div', { class: 'pick-list' }, friends.map((f) => el('button', {
      type: 'button', class: 'btn small', 'data-testid': 'keep-friend', 'data-nickname': f.nickname, onclick: () => keep(f.nickname, true),
    }, el('span', { class: `dot ${f.online ? 'on' : ''}`, 'aria-hidden': 'true' }), ' ', f.nickname)))
    : null;
  const input = el('input', { type: 'text', maxlength: 24, autocomplete: 'off', 'aria-label': t('reserve.nickname'), placeholder: t('reserve.nickname'), 'data-testid': 'keep-nickname' });
  const form = el('form', {
    class: 'row', onsubmit: (e) => {
      e.preventDefault();
      const nickname = input.value.trim();
      if (!nickname) { input.focus(); return; }
      const friend = friends.find((f) => f.nickname.toLowerCase() === nickname.toLowerCase());
      keep(friend ? friend.nickname : nickname, !!friend);
    },
  }, input, el('button', { class: 'btn small primary', 'data-testid': 'keep-send' }, t('reserve.keep')));
  // Without friends there is no list (Node.append would write "null").
  d.append(el('h2', {}, t('reserve.ask')), ...(list ? [list] : []),
    el('p', { class: 'muted small' }, t(friends.length ? 'reserve.other' : 'reserve.by_nickname')), form, error,
    el('div', { class: 'row' }, el('button', { type: 'button', class: 'btn small', 'data-testid': 'keep-cancel', onclick: () => d.close() }, t('reserve.cancel'))));
  d.addEventListener('close', () => d.remove());
  document.body.append(d);
  d.showModal();
  (/** @type {HTMLElement | null} */ (d.querySelector('[data-testid="keep-friend"]')) || input).focus();
}

/**
 * For the creator of a waiting private table, beside a free seat's button: keep it for a
 * friend (the API keeps seats at any table; the page offers it where friends play).
 * @param {TableInfo} table
 * @param {number} s
 * @param {Me | null} player
 * @param {HTMLElement} button
 */
export function keepControl(table, s, player, button) {
  if (!player || !table.private || table.creator !== player.id || table.status !== 'waiting') return button;
  const keep = el('button', { class: 'btn small ghost', 'data-testid': `keep-${s}`, onclick: () => keepPicker(table, s) }, t('reserve.keep'));
  return el('span', { class: 'kept' }, button, keep);
}

/**
 * "Otra" at a finished table, for the people who played it: the new table, offered or asked for.
 * @param {TableInfo} table
 * @param {Me | null} player
 */
export function otraControl(table, player) {
  if (table.status !== 'finished' || !player) return null;
  if (!table.seats.some((x) => x.player && x.player.id === player.id)) return null;
  const ask = async () => {
    const seed = myContribution(null);
    const made = await call('POST', `/api/tables/${encodeURIComponent(table.id)}/rematch`, table.id, { seed });
    if (!made) return;
    keepContribution(made.id, seed);
    keepInvite(made.id, made.invite);
    location.href = tableLink(made.id, made.invite);
  };
  if (table.rematch) {
    return el('span', { class: 'otra row', 'data-testid': 'otra-offer' },
      el('span', {}, t('rematch.offered')),
      el('button', { class: 'btn small gold', 'data-testid': 'otra', onclick: ask }, t('rematch.accept')));
  }
  return el('button', { class: 'btn small gold', 'data-testid': 'otra', onclick: ask }, t('rematch.ask'));
}

/**
 * Under a waiting rematch: who is awaited, and when it starts anyway (counted down each
 * second while the notice is on the page).
 * @param {TableInfo} table
 */
export function rematchNotice(table) {
  const startsAt = table.starts_at;
  if (table.status !== 'waiting' || !table.rematch_of || !startsAt) return null;
  const left = () => t('rematch.waiting', { s: Math.max(0, Math.round(startsAt - Date.now() / 1000)) });
  const notice = el('div', { class: 'notice', 'data-testid': 'rematch-wait' }, left());
  const tick = setInterval(() => {
    // Drawn anew (or gone): this one stops.
    if (!notice.isConnected) { clearInterval(tick); return; }
    notice.textContent = left();
  }, 1000);
  return notice;
}

/**
 * The lobby's "private table" field: a table seen only through its invitation link.
 * @param {HTMLInputElement} box
 */
export function privateField(box) {
  return el('label', { class: 'field field-private' }, t('private.field'),
    el('span', { class: 'row' }, box, el('span', { class: 'muted small' }, t('private.field_help'))));
}
