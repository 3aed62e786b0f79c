// @ts-check
// The top bar every page starts with: the brand, the lobby, each game and its tools (from
// /api/games), the solitaire's odds, the history and the leaderboard, the language switch,
// the account's links (account.js) and who is playing; and the notices' poller (notices.js). On a narrow screen the links fold
// into a menu button named after the current page.

import { el, clear, api, me, onMe, applyWords } from './common.js';
import { t, has, lang, setLang, LANGS } from './i18n.js';
import { accountLinks } from './account.js';
import { startNotices } from './notices.js';

const LOGO = `<svg viewBox="0 0 32 32" aria-hidden="true"><rect x="5" y="3" width="15" height="22" rx="2.5" fill="#fffdf6" stroke="#b9ae94" transform="rotate(-12 12 14)"/>
<rect x="12" y="6" width="15" height="22" rx="2.5" fill="#fffdf6" stroke="#b9ae94" transform="rotate(10 20 17)"/>
<circle cx="20" cy="17" r="4.2" fill="#f3c94a" stroke="#936300" transform="rotate(10 20 17)"/></svg>`;

/**
 * A game's entry in /api/games, as far as the bar reads it.
 * @typedef {{name: string, title?: string, tools?: string[]}} GameEntry
 */

/** The language switch: one button per language, the current one pressed. */
function langSwitch() {
  return el('span', { class: 'langswitch', role: 'group', 'aria-label': t('lang.switch'), 'data-testid': 'lang-switch' },
    Object.entries(LANGS).map(([code, name]) => el('button', {
      type: 'button', class: code === lang ? 'on' : '', lang: code, 'aria-pressed': String(code === lang),
      'data-testid': `lang-${code}`, title: name, onclick: () => { if (code !== lang) setLang(code); },
    }, el('span', { class: 'long' }, name), el('span', { class: 'short', 'aria-hidden': 'true' }, code.toUpperCase()))));
}

/** The installable app: a service worker that shows the offline page when the server
 * cannot be reached (see sw.js). Browsers allow it on https and on this machine only. */
function installable() {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register('/sw.js').catch(() => { /* the site works without it */ });
}

/**
 * A tool's name in the bar: the catalogs' `tool.<name>` (the game's words), else its name.
 * @param {string} tool
 */
function toolTitle(tool) {
  return has(`tool.${tool}`) ? t(`tool.${tool}`) : tool;
}

/**
 * Puts the top bar at the start of <body>; `active` names the current page. The games and
 * their tools come from /api/games (each game opens the lobby's form on it), so a new game
 * shows up without touching the bar; the solitaire's odds and the history are always there.
 * On a narrow screen the links fold into a menu button named after the current page, so the
 * bar keeps one line and the player's name whole.
 * @param {string} active
 */
export function topbar(active) {
  installable();
  startNotices();
  /** @param {[string, string, string, string?]} link */
  const link = ([href, text, key, testid]) => el('a', { href, class: key === active ? 'active' : '', 'data-testid': testid }, text);
  const games = el('span', { class: 'navgames', 'data-testid': 'nav-games' });
  /** @type {[string, string, string][]} */
  const fixed = [['/solitaire', t('nav.solitaire'), 'solitaire'], ['/history', t('nav.history'), 'history'], ['/leaderboard', t('leaderboard.nav'), 'leaderboard'],
    ['/torneos', t('tournament.nav'), 'tournaments'], ['/cuadrillas', t('cuadrillas.nav'), 'cuadrillas']];
  const nav = el('nav', { id: 'topnav', 'data-testid': 'nav', 'aria-label': t('nav.label') }, link(['/', t('nav.lobby'), 'lobby']), games,
    fixed.map(link), langSwitch());
  const label = el('span', {}, t('nav.menu'));
  const toggle = el('button', {
    type: 'button', class: 'navtoggle', 'aria-controls': 'topnav', 'aria-expanded': 'false', 'data-testid': 'nav-toggle',
  }, el('span', { class: 'burger', 'aria-hidden': 'true' }, '\u2630'), label);
  const bar = el('header', { class: 'topbar' },
    el('a', { class: 'brand', href: '/', html: `${LOGO}<span>tapete</span>` }), toggle, nav,
    el('div', { class: 'who', 'data-testid': 'who' }));
  /** @param {boolean} open */
  const setOpen = (open) => { bar.classList.toggle('open', open); toggle.setAttribute('aria-expanded', String(open)); };
  const named = () => { const a = nav.querySelector('a.active'); label.textContent = a ? a.textContent : t('nav.menu'); };
  toggle.addEventListener('click', () => setOpen(!bar.classList.contains('open')));
  document.addEventListener('click', (e) => { if (!bar.contains(/** @type {Node} */ (e.target))) setOpen(false); });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') setOpen(false); });
  named();
  document.body.prepend(bar);
  applyWords(document);
  renderWho();
  onMe(renderWho);
  // Create account / Log in / Log out: account.js owns them.
  const account = el('span', { class: 'navaccount', 'data-testid': 'nav-account' });
  nav.append(account);
  me().then((p) => {
    accountLinks(account, p);
    // The operator's page, for operators only.
    if (p && p.operator) account.before(link(['/operador', t('operator.nav'), 'operator', 'nav-operator']));
  }).catch(() => { /* the bar works without */ });
  api('GET', '/api/games').then((/** @type {GameEntry[] | null} */ list) => {
    for (const g of Array.isArray(list) ? list : []) {
      games.append(link([`/?game=${encodeURIComponent(g.name)}`, g.title || g.name, `game-${g.name}`, `nav-game-${g.name}`]));
      for (const tool of g.tools || []) games.append(link([`/${tool}`, toolTitle(tool), tool, `nav-tool-${tool}`]));
    }
    named();
  }).catch(() => { /* the bar keeps its fixed links */ });
}

/** Who is playing, at the bar's end: the nickname, leading to the player's profile; and,
 * under the bar, a suspended account's notice with its reason. */
async function renderWho() {
  const who = document.querySelector('.topbar .who');
  if (!who) return;
  const p = await me();
  clear(who);
  document.querySelector('.suspension-notice')?.remove();
  if (p && p.suspension) {
    const words = p.suspension.scope === 'site' ? t('operator.suspended_site', { reason: p.suspension.reason }) : t('operator.suspended_rated', { reason: p.suspension.reason });
    who.closest('.topbar')?.after(el('div', { class: 'notice suspension-notice', role: 'status', 'data-testid': 'suspension-notice' }, words));
  }
  // The nickname leads to the player's profile (an account's by its name).
  if (p) {
    const profile = p.account ? `/@/${encodeURIComponent(p.nickname)}` : `/p/${p.id}`;
    who.append(el('span', { class: 'who-label' }, t('who.playing_as'), ' '), el('a', { href: profile, class: 'who-profile', 'data-testid': 'who-profile' }, el('b', {}, p.nickname)));
  } else {
    who.append(el('a', { href: '/', style: { color: '#f7e7b0' } }, t('who.pick_nickname')));
  }
}
