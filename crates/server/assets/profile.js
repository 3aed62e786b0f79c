// @ts-check
// A player's profile (/@/{nickname} for an account, /p/{id} for anyone) or a bot level's
// (/bot/{level}): its rating in each game with a chart of its history, its counts of games
// played, won and abandoned, and its recent rated games with their replays, each saying
// when the bot played the seat (a win did not count) or why the game was not rated.

import { topbar } from './topbar.js';
import { el, clear, api, me, fmtDate, t, botName, pageRoot } from './common.js';
import { num } from './i18n.js';
import { ratingChart, ratingText } from './ratings.js';

/** @typedef {import('./ratings.js').Profile} Profile */
/** @typedef {import('./ratings.js').GameRating} GameRating */
/** @typedef {import('./ratings.js').RecentGame} RecentGame */
/** @typedef {{title: string, partners: boolean, reviews: boolean}} GameName */

topbar('profile');
const app = pageRoot();
const panel = el('section', { class: 'panel profile', 'data-testid': 'profile' });
app.append(panel);

/** The API address of the profile this page shows, from its own address. */
function source() {
  const path = location.pathname;
  const [, kind, rest] = path.split('/');
  const name = decodeURIComponent(rest || '');
  if (kind === '@') return `/api/profiles/${encodeURIComponent(name)}`;
  if (kind === 'bot') return `/api/bots/${encodeURIComponent(name)}`;
  return `/api/players/${encodeURIComponent(name)}`;
}

/**
 * The games by name, from /api/games: {title, partners, reviews}.
 * @returns {Promise<Record<string, GameName>>}
 */
async function gamesByName() {
  try {
    /** @type {import('./common.js').GameKind[]} */
    const list = await api('GET', '/api/games');
    return Object.fromEntries(list.map((g) => [g.name, { title: g.title || g.name, partners: !!g.partners, reviews: !!g.reviews }]));
  } catch { return {}; }
}

/**
 * A rated game's result: won; else, in a game of pairs (Mus), lost — a pair wins or loses
 * the match together — and in the others the place, "2.º".
 */
/**
 * @param {RecentGame} g
 * @param {GameName | undefined} game
 */
function resultText(g, game) {
  if (g.won) return t('profile.result.won');
  return game && game.partners ? t('profile.result.lost') : t('profile.result.place', { place: g.place });
}

/**
 * One game's card: the rating, its counts, the chart and a link to the leaderboard.
 * @param {GameRating} r
 * @param {string} title
 */
function gameCard(r, title) {
  /** @type {(key: string, value: number, testid: string) => HTMLElement} */
  const stat = (key, value, testid) => el('div', { class: 'stat' }, el('b', { 'data-testid': testid }, num.format(value)), el('span', { class: 'muted small' }, t(key)));
  return el('article', { class: 'rating-card', 'data-testid': `rating-${r.game}` },
    el('div', { class: 'row' },
      el('h2', {}, title),
      el('span', { class: 'spacer' }),
      el('a', { class: 'small', href: `/leaderboard/${encodeURIComponent(r.game)}` }, t('profile.to_leaderboard'))),
    el('div', { class: 'row rating-line' },
      el('span', { class: 'rating-value', 'data-testid': 'rating-value', 'data-rating': r.rating }, ratingText(r)),
      el('span', { class: 'muted' }, `± ${r.deviation}`),
      r.provisional ? el('span', { class: 'badge', title: t('profile.provisional_title', { count: r.played }) }, t('profile.provisional')) : null),
    el('div', { class: 'stats' },
      stat('profile.played', r.played, 'played'),
      stat('profile.won', r.won, 'won'),
      stat('profile.abandoned', r.abandoned, 'abandoned')),
    ratingChart(r.history, { rating: 1500, deviation: 500 }));
}

(async () => {
  const [p, games, mine] = await Promise.all([
    api('GET', source()).then((/** @type {Profile} */ p) => p, (/** @type {unknown} */ x) => (x instanceof Error ? x : new Error(String(x)))),
    gamesByName(), me()]);
  const names = Object.fromEntries(Object.entries(games).map(([k, g]) => [k, g.title]));
  if (p instanceof Error) {
    clear(panel).append(el('h1', {}, t('profile.title')), el('p', { class: 'error-text' }, p.message));
    return;
  }
  const who = p.bot ? t('profile.bot', { level: botName(p.bot) }) : p.nickname;
  document.title = `${who} · tapete`;
  const kind = p.bot ? t('profile.kind.bot') : p.account ? t('profile.kind.account') : t('profile.kind.guest');
  clear(panel).append(
    el('div', { class: 'row' }, el('h1', { 'data-testid': 'profile-name' }, who), el('span', { class: 'badge', 'data-testid': 'profile-kind' }, kind),
      mine && p.id === mine.id ? el('span', { class: 'muted small' }, t('profile.you')) : null));
  if (p.bot) panel.append(el('p', { class: 'muted small' }, t('profile.bot_help', { games: (p.games || []).map((g) => names[g] || g).join(', '), min: p.provisional_games })));
  if (!p.ratings.length) {
    panel.append(el('div', { class: 'empty', 'data-testid': 'no-ratings' }, p.bot || p.account ? t('profile.no_ratings') : t('profile.guest_help')));
  }
  const cards = el('div', { class: 'rating-cards' });
  for (const r of p.ratings) cards.append(gameCard(r, names[r.game] || r.game));
  panel.append(cards);
  if (!p.recent.length) return;
  const tbody = el('tbody');
  for (const g of p.recent) {
    const result = resultText(g, games[g.game]);
    // Why a game did not move the rating as its place would: said in words, not only on hover.
    const why = g.unrated ? t(`profile.unrated.${g.unrated}`) : g.assisted ? t('profile.assisted') : '';
    tbody.append(el('tr', { 'data-testid': 'recent-game', 'data-table': g.table },
      el('td', { class: 'when' }, el('div', {}, fmtDate(g.at)), el('div', { class: 'muted small' }, names[g.game] || g.game)),
      el('td', {}, el('span', { class: `badge ${g.won ? 'won' : 'lost'}`, 'data-testid': 'recent-result' }, result),
        g.abandoned ? el('span', { class: 'badge abandoned', 'data-testid': 'abandoned-badge' }, t('profile.result.abandoned')) : null,
        g.unrated ? el('span', { class: 'badge unrated', 'data-testid': 'unrated-badge', 'data-why': g.unrated }, t('profile.result.unrated')) : null,
        !g.unrated && g.assisted ? el('span', { class: 'badge assisted', 'data-testid': 'assisted-badge' }, t('profile.result.assisted')) : null,
        why ? el('div', { class: 'muted small', 'data-testid': 'rating-note' }, why) : null),
      el('td', { class: 'num opt' }, String(g.rating)),
      el('td', { class: 'go' }, el('span', { class: 'row nowrap-row' },
        games[g.game] && games[g.game].reviews && p.id !== null
          ? el('a', { class: 'btn small', href: `/t/${encodeURIComponent(g.table)}/review?player=${p.id}`, 'data-testid': 'review-link' }, t('review.title')) : null,
        el('a', { class: 'btn small', href: g.replay, 'data-testid': 'replay-link' }, t('profile.replay'))))));
  }
  panel.append(el('h2', {}, t('profile.recent')), el('div', { class: 'tablewrap' }, el('table', { class: 'list history' },
    el('thead', {}, el('tr', {}, el('th', {}, t('profile.th.when')), el('th', {}, t('profile.th.result')), el('th', { class: 'num opt' }, t('profile.th.rating')), el('th', {}, ''))), tbody)));
})();
