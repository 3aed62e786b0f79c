// @ts-check
// A game's leaderboard (/leaderboard/{game}; /leaderboard opens the first game): the
// accounts with enough rated games, best first, in pages; the bot levels beside them as
// reference points, each placed where its rating falls among the people; and which games
// do not count (or count less), so that a place on it reads for what it is.

import { topbar } from './topbar.js';
import { el, clear, api, t, botName, pageRoot, messageOf } from './common.js';
import { num } from './i18n.js';
import { ratingText } from './ratings.js';

topbar('leaderboard');
const app = pageRoot();
const panel = el('section', { class: 'panel leaderboard', 'data-testid': 'leaderboard' });
app.append(panel);

(async () => {
  /** @type {import('./common.js').GameKind[]} */
  let games = [];
  try { games = await api('GET', '/api/games'); } catch (x) { panel.append(el('p', { class: 'error-text' }, messageOf(x))); return; }
  const asked = decodeURIComponent(location.pathname.split('/')[2] || '');
  const game = asked || (games[0] && games[0].name) || '';
  const page = Number(new URLSearchParams(location.search).get('page') || 1);
  /** @type {{game: string, title: string, page: number, pages: number, ranked: number, min_games: number,
   *   players: import('./ratings.js').Standing[], bots: import('./ratings.js').Standing[]}} */
  let b;
  try { b = await api('GET', `/api/leaderboard/${encodeURIComponent(game)}?page=${page}`); } catch (x) {
    panel.append(el('h1', {}, t('leaderboard.title')), el('p', { class: 'error-text' }, messageOf(x)));
    return;
  }
  document.title = `${t('leaderboard.of', { game: b.title })} · tapete`;
  const tabs = el('nav', { class: 'row tabs', 'data-testid': 'leaderboard-games' }, games.map((g) => el('a', {
    class: `btn small ${g.name === game ? 'primary' : ''}`, href: `/leaderboard/${encodeURIComponent(g.name)}`, 'data-testid': `leaderboard-game-${g.name}`,
  }, g.title || g.name)));
  clear(panel).append(el('h1', {}, t('leaderboard.of', { game: b.title })), tabs,
    el('p', { class: 'muted small' }, t('leaderboard.help', { count: b.min_games })),
    el('p', { class: 'muted small', 'data-testid': 'leaderboard-fair' }, t('leaderboard.fair', { min: b.min_games })));

  // People and bot levels in one list by rating: a bot's line sits where its rating falls.
  const rows = [...b.players.map((p) => ({ ...p, bot: false })), ...b.bots.map((p) => ({ ...p, bot: true }))]
    .sort((x, y) => y.rating - x.rating || Number(x.bot) - Number(y.bot));
  const tbody = el('tbody');
  for (const r of rows) {
    const href = r.bot ? `/bot/${encodeURIComponent(r.nickname)}` : `/p/${r.id}`;
    tbody.append(el('tr', { class: r.bot ? 'bot-ref' : '', 'data-testid': r.bot ? 'leaderboard-bot' : 'leaderboard-row' },
      el('td', { class: 'num' }, r.bot ? '' : num.format(r.rank)),
      el('td', {}, el('a', { href }, r.bot ? t('leaderboard.bot', { level: botName(r.nickname) }) : r.nickname)),
      el('td', { class: 'num', 'data-testid': 'leaderboard-rating' }, ratingText(r), el('span', { class: 'muted small' }, ` ± ${r.deviation}`)),
      el('td', { class: 'num opt' }, num.format(r.played)),
      el('td', { class: 'num opt' }, num.format(r.won))));
  }
  if (!b.players.length) panel.append(el('div', { class: 'empty', 'data-testid': 'leaderboard-empty' }, t('leaderboard.empty', { count: b.min_games })));
  if (rows.length) {
    panel.append(el('div', { class: 'tablewrap' }, el('table', { class: 'list board' },
      el('thead', {}, el('tr', {}, el('th', { class: 'num' }, '#'), el('th', {}, t('leaderboard.player')), el('th', { class: 'num' }, t('leaderboard.rating')),
        el('th', { class: 'num opt' }, t('leaderboard.played')), el('th', { class: 'num opt' }, t('leaderboard.won')))), tbody)));
  }
  if (b.pages > 1) {
    const pager = el('div', { class: 'row' });
    for (let n = 1; n <= b.pages; n += 1) {
      pager.append(el('a', { class: `btn small ${n === b.page ? 'primary' : ''}`, href: `?page=${n}` }, t('leaderboard.page', { n })));
    }
    panel.append(pager);
  }
})();
