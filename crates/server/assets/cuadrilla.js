// @ts-check
// Cuadrillas, two pages in one module: /cuadrillas (mine, and a new one) and /c/{id} (one
// cuadrilla: joining it by its link, its invitation link, a new table for it, its open
// tables, its league per game by person and by pair, its members with their ratings, its
// latest games, and for its owner its name and weekly slot). See docs/server.md,
// "Cuadrillas".

import { topbar } from './topbar.js';
import { el, clear, api, me, pageRoot, messageOf, fmtDate, toast } from './common.js';
import { t, num } from './i18n.js';

/**
 * @typedef {{day: number, time: string, offset_min: number, next: number}} SlotInfo
 * @typedef {{game: string, rating: number, deviation: number, provisional: boolean, played: number}} MemberRating
 * @typedef {{id: number, nickname: string, joined: number, owner: boolean, ratings: MemberRating[]}} Member
 * @typedef {{id: number, nickname: string} | null} SeatWho
 * @typedef {{id: string, game: string, status: string, created: number, finished: number | null,
 *   seats: SeatWho[], winners?: number[], scores?: number[]}} CuadrillaTable
 * @typedef {{place: number, who: number[], played: number, won: number, lost: number, points_diff: number}} LeagueRow
 * @typedef {{id: string, name: string, owner: number, created: number, member: boolean, invite?: string,
 *   members: Member[], slot: SlotInfo | null, league: Record<string, {persons: LeagueRow[], pairs: LeagueRow[]}>,
 *   games: number, names: Record<string, string>, open: CuadrillaTable[], recent: CuadrillaTable[],
 *   tournaments?: {id: string, name: string, game: string, status: string, start: number, format: string}[]}} Cuadrilla
 * @typedef {{id: string, name: string, owner: boolean, members: number, slot: SlotInfo | null}} Mine
 */

const path = location.pathname.split('/');
const id = path[1] === 'c' ? decodeURIComponent(path[2] || '') : '';
topbar('cuadrillas');
const app = pageRoot();

/** @type {Record<string, string>} */
let titles = {};

/**
 * A slot in words: "los jueves a las 22:00", and when it next comes.
 * @param {SlotInfo | null} slot
 */
function slotText(slot) {
  if (!slot) return '';
  return t('cuadrilla.slot', { day: t(`cuadrilla.day.${slot.day}`), time: slot.time });
}

/** The offset of this browser's clock from UTC, in minutes (local less UTC). */
function offsetMin() {
  return -new Date().getTimezoneOffset();
}

/**
 * The day and time fields of a slot, with "none" first; `read` answers the slot to send.
 * @param {SlotInfo | null} slot
 */
function slotFields(slot) {
  const day = el('select', { 'data-testid': 'slot-day', 'aria-label': t('cuadrilla.day_field') },
    el('option', { value: '' }, t('cuadrilla.no_slot')),
    [0, 1, 2, 3, 4, 5, 6].map((d) => el('option', { value: String(d), selected: slot ? slot.day === d : false }, t(`cuadrilla.day.${d}`))));
  const time = el('input', { type: 'time', value: slot ? slot.time : '22:00', 'data-testid': 'slot-time', 'aria-label': t('cuadrilla.time_field') });
  return {
    el: el('label', { class: 'field' }, el('span', {}, t('cuadrilla.slot_field')), el('span', { class: 'row' }, day, time)),
    /** @returns {{day: number, time: string, offset_min: number} | null} */
    read: () => (day.value === '' ? null : { day: Number(day.value), time: time.value, offset_min: offsetMin() }),
  };
}

/** /cuadrillas: mine, and a form for a new one. */
async function minePage() {
  document.title = `${t('cuadrillas.title')} · tapete`;
  const panel = el('section', { class: 'panel', 'data-testid': 'cuadrillas' }, el('h1', {}, t('cuadrillas.title')),
    el('p', { class: 'muted small' }, t('cuadrillas.help')));
  app.append(panel);
  const p = await me();
  if (!p || !p.account) {
    panel.append(el('p', { class: 'empty', 'data-testid': 'cuadrillas-account' }, t('cuadrillas.needs_account')));
    return;
  }
  /** @type {Mine[]} */
  let mine = [];
  try { mine = await api('GET', '/api/me/cuadrillas'); } catch (x) { panel.append(el('p', { class: 'error-text' }, messageOf(x))); }
  const list = el('ul', { class: 'cq-list', 'data-testid': 'my-cuadrillas' });
  for (const c of mine) {
    list.append(el('li', {}, el('a', { href: `/c/${encodeURIComponent(c.id)}`, 'data-testid': 'my-cuadrilla' }, el('b', {}, c.name)),
      el('span', { class: 'muted small' }, ` · ${t('cuadrillas.members', { count: c.members })}`, c.slot ? ` · ${slotText(c.slot)}` : '')));
  }
  panel.append(mine.length ? list : el('p', { class: 'empty' }, t('cuadrillas.none')));
  const name = el('input', { type: 'text', maxlength: '40', required: true, placeholder: t('cuadrillas.name_placeholder'), 'data-testid': 'cuadrilla-name' });
  const slot = slotFields(null);
  const err = el('span', { class: 'error-text', role: 'alert' });
  panel.append(el('h2', {}, t('cuadrillas.new')), el('form', {
    onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      try {
        /** @type {{name: string, slot?: object}} */
        const body = { name: name.value };
        const s = slot.read();
        if (s) body.slot = s;
        const made = await api('POST', '/api/cuadrillas', body);
        location.href = `/c/${encodeURIComponent(made.id)}`;
      } catch (x) { err.textContent = messageOf(x); }
    },
  }, el('div', { class: 'fields' }, el('label', { class: 'field' }, el('span', {}, t('cuadrillas.name')), name), slot.el),
  el('div', { class: 'row' }, el('button', { class: 'btn primary', 'data-testid': 'cuadrilla-create' }, t('cuadrillas.create')), err)));
}

/**
 * Who a league row is: the person, or the pair "Ane y Bea".
 * @param {Cuadrilla} c
 * @param {number[]} who
 */
function whoText(c, who) {
  const names = who.map((p) => c.names[String(p)] || `#${p}`);
  return names.length === 2 ? t('cuadrilla.pair', { a: names[0], b: names[1] }) : names.join(', ');
}

/**
 * One league table (by person or by pair).
 * @param {Cuadrilla} c
 * @param {LeagueRow[]} rows
 * @param {string} testid
 */
function leagueTable(c, rows, testid) {
  /** @param {number} n */
  const signed = (n) => (n > 0 ? `+${num.format(n)}` : num.format(n));
  return el('div', { class: 'tablewrap' }, el('table', { class: 'list board', 'data-testid': testid },
    el('thead', {}, el('tr', {}, el('th', { class: 'num' }, '#'), el('th', {}, t('cuadrilla.col.who')),
      el('th', { class: 'num' }, t('cuadrilla.col.played')), el('th', { class: 'num' }, t('cuadrilla.col.won')),
      el('th', { class: 'num' }, t('cuadrilla.col.lost')), el('th', { class: 'num opt' }, t('cuadrilla.col.diff')))),
    el('tbody', {}, rows.map((r) => el('tr', { 'data-testid': `${testid}-row`, 'data-who': r.who.join('-') },
      el('td', { class: 'num' }, num.format(r.place)), el('td', {}, whoText(c, r.who)),
      el('td', { class: 'num', 'data-testid': 'played' }, num.format(r.played)), el('td', { class: 'num', 'data-testid': 'won' }, num.format(r.won)),
      el('td', { class: 'num' }, num.format(r.lost)), el('td', { class: 'num opt' }, signed(r.points_diff)))))));
}

/**
 * A table's people in short: "Ane, Bea + bot".
 * @param {CuadrillaTable} tb
 */
function peopleText(tb) {
  const people = tb.seats.flatMap((s) => (s ? [s.nickname] : []));
  const bots = tb.seats.length - people.length;
  return `${people.join(', ')}${bots ? ` + ${t('cuadrilla.bots', { count: bots })}` : ''}`;
}

/**
 * A finished table's winners in words.
 * @param {CuadrillaTable} tb
 */
function winnersText(tb) {
  const names = (tb.winners || []).map((s) => { const w = tb.seats[s]; return w ? w.nickname : t('cuadrilla.bot'); });
  return names.length ? t('cuadrilla.won_by', { names: [...new Set(names)].join(', ') }) : '';
}

/**
 * /c/{id}: one cuadrilla, as `meId` (null: a visitor) sees it.
 * @param {Cuadrilla} c
 * @param {number | null} meId
 */
function render(c, meId) {
  document.title = `${c.name} · tapete`;
  const mine = c.owner === meId;
  const head = el('section', { class: 'panel', 'data-testid': 'cuadrilla' }, el('h1', { 'data-testid': 'cuadrilla-title' }, c.name),
    c.slot ? el('p', { 'data-testid': 'cuadrilla-slot' }, slotText(c.slot), el('span', { class: 'muted small' }, ` · ${t('cuadrilla.next', { when: fmtDate(c.slot.next) })}`)) : null);
  clear(app).append(head);
  if (!c.member) {
    const err = el('span', { class: 'error-text', role: 'alert' });
    head.append(el('p', {}, t('cuadrilla.invited', { name: c.name })));
    if (meId === null) {
      head.append(el('p', { class: 'muted', 'data-testid': 'cuadrilla-account' }, t('cuadrillas.needs_account')));
    } else {
      head.append(el('div', { class: 'row' }, el('button', {
        class: 'btn primary', 'data-testid': 'cuadrilla-join', onclick: async () => {
          try {
            const invite = new URLSearchParams(location.search).get('invite') || '';
            await api('POST', `/api/cuadrillas/${encodeURIComponent(c.id)}/members`, { invite });
            location.href = `/c/${encodeURIComponent(c.id)}`;
          } catch (x) { err.textContent = messageOf(x); }
        },
      }, t('cuadrilla.join')), err));
    }
  } else {
    const link = `${location.origin}/c/${encodeURIComponent(c.id)}?invite=${encodeURIComponent(c.invite || '')}`;
    head.append(el('div', { class: 'row' },
      el('a', { class: 'btn primary', href: `/?cuadrilla=${encodeURIComponent(c.id)}`, 'data-testid': 'cuadrilla-new-table' }, t('cuadrilla.new_table')),
      el('button', {
        class: 'btn gold', type: 'button', 'data-testid': 'cuadrilla-copy', 'data-link': link, onclick: async () => {
          try { await navigator.clipboard.writeText(link); toast(t('cuadrilla.copied')); } catch { prompt(t('cuadrilla.link'), link); }
        },
      }, t('cuadrilla.copy'))));
    const open = el('section', { class: 'panel', 'data-testid': 'cuadrilla-open' }, el('h2', {}, t('cuadrilla.open')));
    if (!c.open.length) open.append(el('p', { class: 'empty' }, t('cuadrilla.no_open')));
    for (const tb of c.open) {
      open.append(el('p', { class: 'row' }, el('span', { class: `badge ${tb.status}` }, t(`cuadrilla.status.${tb.status === 'playing' ? 'playing' : 'waiting'}`)),
        el('a', { href: `/t/${encodeURIComponent(tb.id)}`, 'data-testid': 'cuadrilla-table' }, titles[tb.game] || tb.game), el('span', { class: 'muted small' }, peopleText(tb))));
    }
    app.append(open);
    // Its tournaments, and a new one for its members.
    const cups = el('section', { class: 'panel', 'data-testid': 'cuadrilla-tournaments' }, el('h2', {}, t('cuadrilla.tournaments')));
    for (const x of c.tournaments || []) {
      cups.append(el('p', { class: 'row' }, el('span', { class: `badge ${x.status}` }, t(`tournament.status.${x.status}`)),
        el('a', { href: `/torneo/${encodeURIComponent(x.id)}` }, x.name), el('span', { class: 'muted small' }, titles[x.game] || x.game)));
    }
    cups.append(el('a', { class: 'btn', href: `/torneos?cuadrilla=${encodeURIComponent(c.id)}`, 'data-testid': 'cuadrilla-new-tournament' }, t('cuadrilla.new_tournament')));
    app.append(cups);
  }

  const league = el('section', { class: 'panel', 'data-testid': 'cuadrilla-league' }, el('h2', {}, t('cuadrilla.league')));
  const games = Object.keys(c.league);
  if (!games.length) league.append(el('p', { class: 'empty' }, t('cuadrilla.no_games')));
  for (const g of games) {
    const l = c.league[g];
    league.append(el('h3', {}, titles[g] || g), el('p', { class: 'muted small' }, t('cuadrilla.persons')), leagueTable(c, l.persons, `league-${g}`));
    if (l.pairs.length) league.append(el('p', { class: 'muted small' }, t('cuadrilla.pairs')), leagueTable(c, l.pairs, `league-pairs-${g}`));
  }
  app.append(league);

  const members = el('section', { class: 'panel', 'data-testid': 'cuadrilla-members' }, el('h2', {}, t('cuadrilla.members')));
  const ul = el('ul', { class: 'cq-list' });
  for (const m of c.members) {
    const ratings = m.ratings.map((r) => el('span', { class: 'badge' }, `${titles[r.game] || r.game} ${r.rating}${r.provisional ? '?' : ''}`));
    const self = m.id === meId;
    const act = c.member && (self || mine) ? el('button', {
      class: 'btn small', type: 'button', 'data-testid': self ? 'cuadrilla-leave' : 'cuadrilla-remove', onclick: async () => {
        if (!confirm(self ? t('cuadrilla.leave_confirm', { name: c.name }) : t('cuadrilla.remove_confirm', { nickname: m.nickname }))) return;
        try {
          await api('DELETE', `/api/cuadrillas/${encodeURIComponent(c.id)}/members/${m.id}`);
          if (self) location.href = '/cuadrillas'; else load();
        } catch (x) { toast(messageOf(x), 'error'); }
      },
    }, self ? t('cuadrilla.leave') : t('cuadrilla.remove')) : null;
    ul.append(el('li', { class: 'row', 'data-testid': 'cuadrilla-member' }, el('a', { href: `/@/${encodeURIComponent(m.nickname)}` }, el('b', {}, m.nickname)),
      m.owner ? el('span', { class: 'muted small' }, t('cuadrilla.owner')) : null, ratings, act));
  }
  members.append(ul);
  app.append(members);

  if (c.member && c.recent.length) {
    const recent = el('section', { class: 'panel', 'data-testid': 'cuadrilla-recent' }, el('h2', {}, t('cuadrilla.recent')));
    recent.append(el('div', { class: 'tablewrap' }, el('table', { class: 'list' }, el('tbody', {}, c.recent.map((tb) => el('tr', {},
      el('td', {}, el('a', { href: `/replay/${encodeURIComponent(tb.id)}` }, titles[tb.game] || tb.game)),
      el('td', { class: 'opt muted small' }, fmtDate(tb.finished || tb.created)),
      el('td', {}, peopleText(tb)), el('td', {}, winnersText(tb))))))));
    app.append(recent);
  }

  if (c.member && mine) {
    const name = el('input', { type: 'text', maxlength: '40', value: c.name, 'data-testid': 'cuadrilla-rename' });
    const slot = slotFields(c.slot);
    const err = el('span', { class: 'error-text', role: 'alert' });
    app.append(el('section', { class: 'panel' }, el('h2', {}, t('cuadrilla.settings')), el('form', {
      onsubmit: async (e) => {
        e.preventDefault();
        err.textContent = '';
        try {
          await api('PATCH', `/api/cuadrillas/${encodeURIComponent(c.id)}`, { name: name.value, slot: slot.read() });
          toast(t('cuadrilla.saved'));
          load();
        } catch (x) { err.textContent = messageOf(x); }
      },
    }, el('div', { class: 'fields' }, el('label', { class: 'field' }, el('span', {}, t('cuadrillas.name')), name), slot.el),
    el('div', { class: 'row' }, el('button', { class: 'btn primary', 'data-testid': 'cuadrilla-save' }, t('cuadrilla.save')), err))));
  }
}

/** Loads /c/{id} (with the link's secret, if the address has one) and draws it. */
async function load() {
  const p = await me();
  const invite = new URLSearchParams(location.search).get('invite');
  try {
    /** @type {Cuadrilla} */
    const c = await api('GET', `/api/cuadrillas/${encodeURIComponent(id)}${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`);
    render(c, p ? p.id : null);
  } catch (x) {
    clear(app).append(el('section', { class: 'panel' }, el('h1', {}, t('cuadrillas.title')),
      el('p', { class: 'error-text', 'data-testid': 'cuadrilla-error' }, messageOf(x))));
  }
}

(async () => {
  try {
    /** @type {{name: string, title?: string}[]} */
    const games = await api('GET', '/api/games');
    titles = Object.fromEntries(games.map((g) => [g.name, g.title || g.name]));
  } catch { /* names stay the games' own */ }
  if (id) await load(); else await minePage();
})();
