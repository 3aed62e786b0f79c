// @ts-check
// Friends (accounts only): the lobby's panel — add a friend by nickname, requests to
// accept or decline, friends online and at which table, invitations to join or dismiss —
// asked for again every few seconds while the page is shown (the lobby polls its table
// list the same way); and the table page's "invite a friend" box.

import { el, clear, api, me, t, toast, messageOf } from './common.js';
import { withInvite, setNode, moved } from './invite.js';
import { myContribution } from './deal.js';

/**
 * An invitation to a table, sent to this account.
 * @typedef {{id: number, table: string, game: string, from: import('./common.js').PlayerRef}} Invitation
 */

/**
 * One's friends, requests and invitations (`/api/friends`).
 * @typedef {{friends: {id: number, nickname: string, online: boolean, table?: {id: string, game: string} | null}[],
 *   incoming: import('./common.js').PlayerRef[], outgoing: import('./common.js').PlayerRef[],
 *   invitations: Invitation[]}} Friends
 */

/** How often the lobby asks for the list again (ms). */
const POLL_MS = 5000;

/**
 * The panel's words for a guest or nobody: friends are for accounts.
 * @param {HTMLElement} panel
 */
function accountOnly(panel) {
  clear(panel).append(el('h2', {}, t('friends.title')),
    el('p', { class: 'muted small', 'data-testid': 'friends-account-only' }, t('friends.account_only'), ' ',
      el('a', { href: '/account' }, t('friends.make_account'))));
}

/**
 * Runs an API call, then redraws; a refusal is shown as a toast.
 * @param {() => Promise<unknown>} fn
 * @param {() => void} redraw
 */
async function act(fn, redraw) {
  try { await fn(); } catch (x) { toast(messageOf(x), 'error'); }
  redraw();
}

/** Each game's title, from the server's list of games (asked once). */
/** @type {Record<string, string>} */
const titles = {};
api('GET', '/api/games').then((/** @type {import('./common.js').GameKind[] | null} */ list) => { for (const g of list || []) titles[g.name] = g.title; }).catch(() => {});
/**
 * A game's title by its name.
 * @param {string} g
 */
function gameName(g) { return titles[g] || (g ? g.charAt(0).toUpperCase() + g.slice(1) : ''); }

/**
 * Accepts invitation `inv`: the server seats its person at the table (at the seat kept for
 * them, else a free one; or they watch), asked again at the server that runs the table if
 * another answered. Whether the table may be opened now; a refusal is told in a toast.
 * @param {Invitation} inv
 */
async function join(inv) {
  const path = `/api/invitations/${inv.id}/accept`;
  const seed = myContribution(inv.table);
  try {
    try { await api('POST', withInvite(path, inv.table), { seed }); } catch (x) {
      if (!moved(x)) throw x;
      setNode(inv.table, x.node);
      await api('POST', withInvite(path, inv.table), { seed });
    }
    return true;
  } catch (x) {
    toast(messageOf(x), 'error');
    return false;
  }
}

/**
 * The lobby's friends panel for `player` (null: nobody yet).
 * @param {import('./common.js').Me | null} player
 */
export function friendsPanel(player) {
  const panel = el('section', { class: 'panel friends', 'data-testid': 'friends' });
  if (!player || !player.account) { accountOnly(panel); return panel; }
  const input = el('input', { type: 'text', maxlength: 24, placeholder: t('friends.nickname'), 'aria-label': t('friends.nickname'), 'data-testid': 'friends-nickname' });
  const form = el('form', {
    class: 'row', onsubmit: (e) => {
      e.preventDefault();
      const nickname = input.value.trim();
      if (!nickname) return;
      act(async () => {
        const r = await api('POST', '/api/friends', { nickname });
        input.value = '';
        toast(t(r.status === 'friends' ? 'friends.now_friends' : 'friends.requested', { name: r.friend.nickname }));
      }, draw);
    },
  }, input, el('button', { class: 'btn small primary', 'data-testid': 'friends-add' }, t('friends.add')));
  const body = el('div');
  panel.append(el('h2', {}, t('friends.title')), form, body);

  async function draw() {
    /** @type {Friends} */
    let data;
    try { data = await api('GET', '/api/friends'); } catch (x) { clear(body).append(el('p', { class: 'error-text' }, messageOf(x))); return; }
    clear(body);
    if (data.invitations.length) {
      body.append(el('h3', {}, t('friends.invitations')));
      for (const inv of data.invitations) {
        body.append(el('div', { class: 'friend-row invitation', 'data-testid': 'invitation', 'data-table': inv.table },
          el('span', {}, t('friends.invites_you', { name: inv.from.nickname, game: gameName(inv.game) })),
          el('span', { class: 'spacer' }),
          el('a', { class: 'btn small primary', href: `/t/${encodeURIComponent(inv.table)}`, 'data-testid': 'invitation-join', onclick: (e) => {
            // The server seats the invitee (the invitation is their way in, and goes once
            // they sit), then the page goes to the table.
            e.preventDefault();
            join(inv).then((ok) => { if (ok) location.href = `/t/${encodeURIComponent(inv.table)}`; else draw(); });
          } }, t('friends.join')),
          el('button', { class: 'btn small', type: 'button', 'data-testid': 'invitation-dismiss', onclick: () => act(() => api('DELETE', `/api/invitations/${inv.id}`), draw) }, t('friends.dismiss'))));
      }
    }
    if (data.incoming.length) {
      body.append(el('h3', {}, t('friends.requests')));
      for (const p of data.incoming) {
        body.append(el('div', { class: 'friend-row', 'data-testid': 'friend-request' },
          el('b', {}, p.nickname), el('span', { class: 'muted small' }, ' ', t('friends.wants')), el('span', { class: 'spacer' }),
          el('button', { class: 'btn small primary', type: 'button', 'data-testid': 'friend-accept', onclick: () => act(() => api('POST', '/api/friends', { nickname: p.nickname }), draw) }, t('friends.accept')),
          el('button', { class: 'btn small', type: 'button', 'data-testid': 'friend-decline', onclick: () => act(() => api('DELETE', `/api/friends/requests/${p.id}`), draw) }, t('friends.decline'))));
      }
    }
    body.append(el('h3', {}, t('friends.list')));
    if (!data.friends.length) body.append(el('p', { class: 'muted small', 'data-testid': 'no-friends' }, t('friends.none')));
    const sorted = [...data.friends].sort((a, b) => Number(b.online) - Number(a.online));
    for (const f of sorted) {
      const where = f.table
        ? el('a', { href: `/t/${encodeURIComponent(f.table.id)}`, 'data-testid': 'friend-table' }, t('friends.at_table', { game: gameName(f.table.game) }))
        : el('span', { class: 'muted small' }, t(f.online ? 'friends.online' : 'friends.offline'));
      body.append(el('div', { class: 'friend-row', 'data-testid': 'friend', 'data-online': String(f.online) },
        el('span', { class: `dot ${f.online ? 'on' : ''}`, 'aria-hidden': 'true' }), el('b', {}, f.nickname), ' ', where,
        el('span', { class: 'spacer' }),
        el('button', { class: 'linkish', type: 'button', 'data-testid': 'friend-remove', onclick: () => { if (confirm(t('friends.remove_confirm', { name: f.nickname }))) act(() => api('DELETE', `/api/friends/${f.id}`), draw); } }, t('friends.remove'))));
    }
    if (data.outgoing.length) {
      body.append(el('h3', {}, t('friends.sent')));
      for (const p of data.outgoing) {
        body.append(el('div', { class: 'friend-row', 'data-testid': 'friend-sent' }, el('span', {}, p.nickname), el('span', { class: 'spacer' }),
          el('button', { class: 'linkish', type: 'button', onclick: () => act(() => api('DELETE', `/api/friends/requests/${p.id}`), draw) }, t('friends.cancel'))));
      }
    }
  }
  draw();
  setInterval(() => { if (document.visibilityState === 'visible') draw(); }, POLL_MS);
  return panel;
}

/**
 * The table page's box to invite a friend to table `tableId` (accounts only; else empty).
 * @param {string} tableId
 */
export function invitePanel(tableId) {
  const panel = el('section', { class: 'panel invite hidden', 'data-testid': 'invite' });
  (async () => {
    const p = await me();
    if (!p || !p.account) return;
    /** @type {Friends} */
    let data;
    try { data = await api('GET', '/api/friends'); } catch { return; }
    if (!data.friends.length) return;
    const pick = el('select', { 'data-testid': 'invite-friend', 'aria-label': t('friends.invite_who') },
      data.friends.map((f) => el('option', { value: f.nickname }, f.nickname)));
    panel.append(el('form', {
      class: 'row', onsubmit: (e) => {
        e.preventDefault();
        act(async () => {
          await api('POST', `/api/tables/${encodeURIComponent(tableId)}/invitations`, { nickname: pick.value });
          toast(t('friends.invited', { name: pick.value }));
        }, () => {});
      },
    }, el('span', {}, t('friends.invite_who')), pick, el('button', { class: 'btn small', 'data-testid': 'invite-send' }, t('friends.invite'))));
    panel.classList.remove('hidden');
  })();
  return panel;
}
