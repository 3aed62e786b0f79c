// @ts-check
// Finished games of a player, with results and links to their replays.

import { topbar } from './topbar.js';
import { el, clear, api, me, fmtDate, t, pageRoot, messageOf } from './common.js';
import { gameModule } from './games.js';

/** @typedef {import('./kit.js').GameModule} GameModule */

/**
 * A finished game of the player (`/api/players/{id}/games`): `players` by seat, a nickname
 * (or an object with one) for a person, null where only bots played.
 * @typedef {{table: string, game: string, finished: number, seat: number, won: boolean,
 *   winners?: number[], scores?: number[], summary?: string,
 *   players?: (string | {nickname?: string, player?: {nickname: string} | null} | null)[]}} PlayedGame
 */

topbar('history');
const app = pageRoot();
const panel = el('section', { class: 'panel' });
app.append(panel);

(async () => {
  const q = new URLSearchParams(location.search);
  /** @type {string | number | null} */
  let id = q.get('player');
  let title = t('history.yours');
  if (!id) {
    const p = await me();
    if (!p) {
      panel.append(el('h1', {}, t('nav.history')), el('p', { class: 'muted' }, t('history.pick_first'), ' ', el('a', { href: '/' }, t('history.to_lobby'))));
      return;
    }
    id = p.id;
  } else {
    const p = await me();
    if (!p || String(p.id) !== String(id)) title = t('history.of_player', { id });
  }
  /** @type {PlayedGame[]} */
  let games;
  try { games = await api('GET', `/api/players/${encodeURIComponent(id)}/games`); } catch (x) {
    panel.append(el('h1', {}, t('nav.history')), el('p', { class: 'error-text' }, messageOf(x)));
    return;
  }
  clear(panel).append(el('h1', {}, title));
  if (!games.length) { panel.append(el('div', { class: 'empty', 'data-testid': 'no-games' }, t('history.none'))); return; }
  /** @type {Record<string, GameModule>} */
  const mods = {};
  // The games that have a review: their rows open it beside the replay.
  /** @type {Set<string>} */
  const reviewed = new Set();
  try {
    /** @type {import('./common.js').GameKind[]} */
    const kinds = await api('GET', '/api/games');
    for (const k of kinds) if (k.reviews) reviewed.add(k.name);
  } catch { /* the rows keep their replays */ }
  for (const g of games) if (!mods[g.game]) mods[g.game] = await gameModule(g.game);
  const tbody = el('tbody');
  // players: by seat, a nickname (or {nickname}) for a person, null for a bot.
  /** @type {(players: PlayedGame['players']) => (s: number) => string} */
  const seatNameOf = (players) => (s) => {
    const p = (players || [])[s];
    if (p === null || p === undefined) return `bot ${s}`;
    if (typeof p === 'object') return p.nickname || (p.player && p.player.nickname) || `bot ${s}`;
    return String(p);
  };
  for (const g of games) {
    const mod = mods[g.game];
    const seatName = seatNameOf(g.players);
    // Who won and the final score, in the page's words and by the players' names.
    const outcome = { winners: g.winners || [], scores: g.scores || [], summary: g.summary || '' };
    const ctx = { seatName, mySeat: null };
    const summary = [mod && mod.outcomeText ? mod.outcomeText(outcome, null, null, ctx) : '',
      mod && mod.resultDetail ? mod.resultDetail(outcome, ctx) : ''].filter(Boolean).join(' ');
    const n = (g.players || []).length;
    const sidesText = mod && mod.sidesText ? mod.sidesText(seatName, n) : Array.from({ length: n }, (_, s) => seatName(s)).join(', ');
    tbody.append(el('tr', { 'data-testid': 'game-row' },
      el('td', { class: 'when' }, el('div', {}, fmtDate(g.finished)), el('div', { class: 'muted small' }, mod && mod.title ? mod.title : g.game)),
      el('td', {}, el('span', { class: `badge ${g.won ? 'won' : 'lost'}` }, g.won ? t('history.won') : t('history.lost')),
        el('div', { class: 'small', 'data-testid': 'game-summary' }, summary),
        el('div', { class: 'muted small' }, sidesText)),
      el('td', { class: 'go' }, el('span', { class: 'row nowrap-row' },
        reviewed.has(g.game) ? el('a', { class: 'btn small', href: `/t/${encodeURIComponent(g.table)}/review?seat=${g.seat}`, 'data-testid': 'review-link' }, t('review.title')) : null,
        el('a', { class: 'btn small', href: `/replay/${g.table}`, 'data-testid': 'replay-link' }, t('table.replay'))))));
  }
  panel.append(el('div', { class: 'tablewrap' }, el('table', { class: 'list history' },
    el('thead', {}, el('tr', {}, el('th', {}, t('history.when')), el('th', {}, t('history.result')), el('th', {}, ''))), tbody)));
})();
