// @ts-check
// Ratings on the pages: where a player's profile is, the lobby's "rated" choice, the table's
// rated badge and links to the seats' profiles, and the rating chart (an inline SVG).

import { el, t, botName } from './common.js';

/**
 * A player's profile address: an account's by its nickname, a guest's by its id.
 * @param {{id: number, nickname: string, account?: boolean}} p
 */
export function profileHref(p) {
  return p.account ? `/@/${encodeURIComponent(p.nickname)}` : `/p/${p.id}`;
}

/**
 * A rating as people read it: "1534", "1500?" while provisional (no thousands sign).
 * @param {{rating: number, provisional?: boolean}} r
 */
export function ratingText(r) {
  return `${r.rating}${r.provisional ? '?' : ''}`;
}

/**
 * The lobby's "rated game" choice: a checkbox for an account, and for a guest why it
 * cannot have one. `read()` says whether it is ticked; `onChange` hears it change.
 * @param {{account?: boolean} | null} player
 * @param {{onChange?: (on: boolean) => void}} [opts]
 */
export function ratedField(player, { onChange = (_on) => {} } = {}) {
  const box = el('input', { type: 'checkbox', name: 'rated', 'data-testid': 'rated', disabled: !(player && player.account) });
  box.addEventListener('change', () => onChange(box.checked));
  const help = el('span', { class: 'muted small', 'data-testid': 'rated-help' },
    player && player.account ? t('rating.lobby.help') : t('rating.lobby.guest'));
  const wrap = el('label', { class: 'field rated-field' }, el('span', { class: 'row' }, box, el('b', {}, t('rating.lobby.rated'))), help);
  return { el: wrap, read: () => box.checked };
}

/**
 * The "rated" badge of a table (nothing for an unrated one).
 * @param {{rated?: boolean} | null | undefined} table
 */
export function ratedBadge(table) {
  return table && table.rated ? el('span', {
    class: 'badge rated', 'data-testid': 'rated-badge', title: t('rating.table.title'), style: { background: '#e8defa', color: '#4b2a8a', marginLeft: '.3rem' },
  }, t('rating.table.badge')) : null;
}

/**
 * Links to every seat's profile (a person's, or the bot level's), for a table's bar.
 * @param {import('./common.js').TableInfo | null | undefined} table
 */
export function seatLinks(table) {
  if (!table || !Array.isArray(table.seats)) return null;
  const links = table.seats.map((s) => (s.player
    ? el('a', { href: `/p/${s.player.id}`, 'data-testid': `seat-profile-${s.seat}` }, s.player.nickname)
    : el('a', { href: `/bot/${encodeURIComponent(s.bot || '')}`, title: botName(s.bot || ''), 'data-testid': `seat-profile-${s.seat}` }, `bot ${s.seat}`)));
  /** @type {(string | Node)[]} */
  const parts = [];
  links.forEach((a, i) => { if (i) parts.push(' · '); parts.push(a); });
  return el('div', { class: 'muted small seat-links', 'data-testid': 'seat-links', style: { flexBasis: '100%' } }, `${t('rating.table.profiles')} `, ...parts);
}

/**
 * A player's (or a bot level's) rating in one game, with its history (`Profile.ratings`).
 * @typedef {{game: string, rating: number, deviation: number, provisional: boolean, played: number, won: number,
 *   abandoned: number, history: {at: number, table: string | null, rating: number, deviation: number}[]}} GameRating
 */

/**
 * A rated game on a profile (`Profile.recent`).
 * @typedef {{table: string, game: string, at: number, place: number, won: boolean, abandoned: boolean,
 *   assisted: boolean, unrated: string | null, rating: number, replay: string}} RecentGame
 */

/**
 * A profile (`/api/players/{id}`, `/api/profiles/{nickname}`, `/api/bots/{level}`).
 * @typedef {{id: number | null, nickname: string, account: boolean, bot: string | null, provisional_games: number,
 *   games?: string[], ratings: GameRating[], recent: RecentGame[]}} Profile
 */

/**
 * A line of a leaderboard: an account, or a bot level (`id` null, `nickname` the level).
 * @typedef {{rank: number, id: number | null, nickname: string, rating: number, deviation: number,
 *   provisional: boolean, played: number, won: number}} Standing
 */

const SVG = 'http://www.w3.org/2000/svg';
/**
 * An SVG element with its attributes.
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 */
function svg(tag, attrs = {}) {
  const n = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
  return n;
}

/**
 * The rating history as a line over a band of its uncertainty, drawn to fit its box (the
 * SVG scales with the page's width). Points: [{at, rating, deviation}], oldest first; the
 * starting rating (1500 ± 500) is the first point.
 * @param {{at: number, rating: number, deviation: number}[]} history
 * @param {{rating: number, deviation: number}} start
 */
export function ratingChart(history, start) {
  /** @type {{rating: number, deviation: number}[]} */
  const pts = [{ rating: start.rating, deviation: start.deviation }, ...history];
  const W = 600, H = 200, PAD_L = 44, PAD_R = 10, PAD_T = 10, PAD_B = 22;
  const lows = pts.map((p) => p.rating - p.deviation / 2), highs = pts.map((p) => p.rating + p.deviation / 2);
  let lo = Math.min(...pts.map((p) => p.rating)), hi = Math.max(...pts.map((p) => p.rating));
  lo = Math.min(lo, ...lows.slice(1)); hi = Math.max(hi, ...highs.slice(1));
  if (hi - lo < 40) { const mid = (hi + lo) / 2; lo = mid - 20; hi = mid + 20; }
  const x = (/** @type {number} */ i) => PAD_L + (pts.length === 1 ? 0 : (i * (W - PAD_L - PAD_R)) / (pts.length - 1));
  const y = (/** @type {number} */ r) => PAD_T + ((hi - Math.max(lo, Math.min(hi, r))) * (H - PAD_T - PAD_B)) / (hi - lo);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'rating-chart', role: 'img', 'data-testid': 'rating-chart', 'aria-label': t('profile.chart', { count: history.length }) });
  // Grid: three levels with their values.
  for (const v of [lo, (lo + hi) / 2, hi]) {
    root.append(svg('line', { x1: PAD_L, x2: W - PAD_R, y1: y(v), y2: y(v), class: 'grid' }));
    const label = svg('text', { x: PAD_L - 6, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' });
    label.textContent = String(Math.round(v));
    root.append(label);
  }
  if (pts.length > 1) {
    const band = pts.map((p, i) => `${x(i)},${y(p.rating + p.deviation / 2)}`).concat(
      pts.map((p, i) => `${x(i)},${y(p.rating - p.deviation / 2)}`).reverse());
    root.append(svg('polygon', { points: band.join(' '), class: 'band' }));
    root.append(svg('polyline', { points: pts.map((p, i) => `${x(i)},${y(p.rating)}`).join(' '), class: 'line' }));
  }
  pts.forEach((p, i) => {
    const c = svg('circle', { cx: x(i), cy: y(p.rating), r: i === pts.length - 1 ? 4 : 2.5, class: i ? 'dot' : 'dot start' });
    const title = svg('title');
    title.textContent = i ? `${p.rating} ± ${p.deviation}` : t('profile.start', { rating: p.rating });
    c.append(title);
    root.append(c);
  });
  const games = svg('text', { x: W - PAD_R, y: H - 6, 'text-anchor': 'end', class: 'axis' });
  games.textContent = t('profile.games_axis', { count: history.length });
  root.append(games);
  return root;
}
