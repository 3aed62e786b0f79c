// @ts-check
// A tournament (/torneo/{id}[?invite=S]): what it is (game, format, rules, start, whether
// bots stand in), its entrants and the sign-up, the caller's match when it is ready ("sit
// down"), the rounds with their matches and results, and the standings or the bracket.
// Everything shown comes from GET /api/tournaments/{id}, which reads each result from its
// table's log; the page asks again every few seconds while the tournament is not over.

import { topbar } from './topbar.js';
import { el, clear, api, t, pageRoot, messageOf, me, fmtDate, toast, ApiError } from './common.js';
import { num, lang } from './i18n.js';
import { myContribution, keepContribution } from './deal.js';

topbar('tournaments');
const app = pageRoot();
const panel = el('section', { class: 'panel tournament', 'data-testid': 'tournament' });
app.append(panel);

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const invite = new URLSearchParams(location.search).get('invite') || '';
const query = invite ? `?invite=${encodeURIComponent(invite)}` : '';

/**
 * @typedef {{id: number, nickname: string}} Person
 * @typedef {{entry: number, seed: number|null, players: Person[], substitute: Person|null, withdrawn: number|null}} Entrant
 * @typedef {{round: number, board: number, table: string|null, first: number, second: number, status: string|null,
 *   absent: string|null, courtesy_until: number, stand_ins: number[], winner: string|null,
 *   points: number[]|null}} Match
 * @typedef {{id: string, name: string, game: string, format: string, rounds: number|null, consolation: boolean, rules?: Record<string, any>, minutes?: number|null, group_size?: number|null, advance?: number|null,
 *   pairs: boolean, bots: boolean, courtesy_s: number, courtesy_juegos?: boolean, time_limit_s?: number|null, turn_s: number, start: number, rated: boolean, private: boolean,
 *   organiser: Person, status: string, cuadrilla: string|null, entrants: Entrant[], max_entrants: number, round: number, matches: Match[],
 *   standings: any, invite?: string|null}} Tournament
 */

/** @type {import('./common.js').Me | null} */
let who = null;
/** @type {Record<string, string>} */
const titles = {};
/** @type {ReturnType<typeof setTimeout> | undefined} */
let timer;

/** @param {Tournament} tt @param {number|null} seed */
function entrantOf(tt, seed) {
  return tt.entrants.find((e) => e.seed === seed) || null;
}

/** An entrant's name: "Ane y Bea", or one nickname. @param {Entrant|null} e */
function nameOf(e) {
  if (!e) return '—';
  const names = e.players.map((p) => p.nickname);
  return names.length > 1 ? t('tournament.pair', { a: names[0], b: names[1] }) : names[0];
}

/** @param {Tournament} tt */
function formatText(tt) {
  if (tt.format === 'swiss') return t('tournament.format.swiss', { count: tt.rounds || 0 });
  if (tt.format === 'arena') return t('tournament.format.arena', { count: tt.minutes || 0 });
  if (tt.format === 'groups') return t('tournament.format.groups', { size: tt.group_size || 0, advance: tt.advance || 0 });
  if (tt.format === 'duplicate') {
    return `${t('tournament.format.duplicate', { count: tt.rounds || 0 })} · ${t('tournament.boards', { count: tt.rules?.boards || 0 })}`;
  }
  if (tt.format === 'knockout' && tt.consolation) return t('tournament.format.knockout_b');
  return t(`tournament.format.${tt.format}`);
}

/** The caller's entry, if any. @param {Tournament} tt */
function mine(tt) {
  return who ? tt.entrants.find((e) => e.players.some((p) => p.id === who?.id)) || null : null;
}

/** A match's line: sides, result or state, its table for the people in it. @param {Tournament} tt @param {Match} m */
function matchRow(tt, m) {
  const a = entrantOf(tt, m.first);
  const b = entrantOf(tt, m.second);
  const side = (/** @type {Entrant|null} */ e, /** @type {string} */ s) => el('span', {
    class: `side ${m.winner === s ? 'won' : ''}`,
  }, nameOf(e));
  let state;
  if (m.absent) {
    state = t(`tournament.absent.${m.absent}`);
  } else if (m.status === 'finished' && m.points) {
    state = t('tournament.result', { a: num.format(m.points[0]), b: num.format(m.points[1]) });
  } else if (m.status === 'playing') {
    state = t('tournament.playing');
  } else {
    state = t(tt.courtesy_juegos ? 'tournament.waiting_juego' : 'tournament.waiting', { time: new Date(m.courtesy_until * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) });
  }
  const row = el('li', { class: 'match', 'data-testid': 'tournament-match', 'data-status': m.status || 'walkover' },
    side(a, 'first'), el('span', { class: 'vs muted' }, t('tournament.vs')), side(b, 'second'),
    el('span', { class: 'state muted small' }, state));
  if (m.stand_ins.length) {
    row.append(el('span', { class: 'badge stand-in', 'data-testid': 'tournament-stand-in' }, t('tournament.stand_in', { count: m.stand_ins.length })));
  }
  const me = mine(tt);
  if (m.table && me && (me.seed === m.first || me.seed === m.second || tt.organiser.id === who?.id)) {
    row.append(el('a', { class: 'btn small', href: `/t/${m.table}` }, t('tournament.open_table')));
  }
  return row;
}

/** Swiss and tres ceros standings. @param {Tournament} tt */
function standingsTable(tt) {
  const s = tt.standings;
  if (!s || !s.rows) return null;
  const swiss = s.kind === 'swiss';
  const dup = s.kind === 'duplicate';
  const arena = s.kind === 'arena';
  const pct = new Intl.NumberFormat(lang, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  const signed = new Intl.NumberFormat(lang, { signDisplay: 'exceptZero' });
  const head = swiss
    ? ['#', t('tournament.entrant'), t('tournament.score'), 'Buchholz', 'S-B', t('tournament.diff')]
    : dup
      ? ['#', t('tournament.entrant'), '%', t('tournament.matchpoints'), t('tournament.net'), t('tournament.boards_played')]
      : arena
        ? ['#', t('tournament.entrant'), t('tournament.points'), t('tournament.played'), t('tournament.wins'), t('tournament.diff')]
        : ['#', t('tournament.entrant'), t('tournament.wins'), t('tournament.losses'), ''];
  const body = el('tbody');
  for (const r of s.rows) {
    const e = entrantOf(tt, r.entrant);
    const cells = swiss
      ? [num.format(r.place), nameOf(e), num.format(r.score), num.format(r.buchholz), num.format(r.sonneborn_berger), num.format(r.points_diff)]
      : dup
        ? [num.format(r.place), nameOf(e), `${pct.format(r.percent)}%`, `${num.format(r.matchpoints)}/${num.format(r.max)}`, signed.format(r.net), num.format(r.tables)]
        : arena
          ? [num.format(r.place), nameOf(e), r.on_fire
            ? el('span', {}, num.format(r.points), ' ', el('span', { class: 'badge fire', title: t('tournament.on_fire'), 'data-testid': 'on-fire' }, '×2'))
            : num.format(r.points), num.format(r.played), num.format(r.wins), signed.format(r.points_diff)]
          : [num.format(r.place), nameOf(e), num.format(r.wins), num.format(r.losses), r.out_in ? t('tournament.out_in', { n: r.out_in }) : ''];
    body.append(el('tr', { 'data-testid': 'tournament-standing', class: mine(tt) === e && e ? 'me' : '' },
      ...cells.map((c, i) => el('td', { class: i === 1 ? '' : 'num' }, c))));
  }
  return el('div', { class: 'tablewrap' }, el('table', { class: 'list board' },
    el('thead', {}, el('tr', {}, ...head.map((h, i) => el('th', { class: i === 1 ? '' : 'num' }, h)))), body));
}

/** A groups event's groups: each one's table, who goes on marked. @param {Tournament} tt */
function groupsView(tt) {
  const s = tt.standings;
  if (!s || s.kind !== 'groups' || !s.groups) return null;
  const signed = new Intl.NumberFormat(lang, { signDisplay: 'exceptZero' });
  const out = el('div', { class: 'groups', 'data-testid': 'tournament-groups' });
  for (const g of s.groups.groups) {
    const body = el('tbody');
    for (const r of g.rows) {
      const e = entrantOf(tt, r.entrant);
      const cells = [num.format(r.place), nameOf(e), num.format(r.played), num.format(r.won), num.format(r.drawn), num.format(r.lost), num.format(r.points), signed.format(r.points_diff)];
      body.append(el('tr', { 'data-testid': 'group-row', class: `${mine(tt) === e && e ? 'me' : ''} ${r.qualified ? 'qualified' : ''}` },
        ...cells.map((c, i) => el('td', { class: i === 1 ? '' : 'num' }, c)),
        el('td', {}, r.qualified ? el('span', { class: 'badge', title: t('tournament.goes_on') }, '✓') : '')));
    }
    const head = ['#', t('tournament.entrant'), t('tournament.played'), t('tournament.wins'), t('tournament.draws'), t('tournament.losses'), t('tournament.points'), t('tournament.diff'), ''];
    out.append(el('h3', {}, t('tournament.group', { name: g.name })), el('div', { class: 'tablewrap' }, el('table', { class: 'list board' },
      el('thead', {}, el('tr', {}, ...head.map((h, i) => el('th', { class: i === 1 || i === 8 ? '' : 'num' }, h)))), body)));
  }
  return out;
}

/** A bracket, by part and round, each match a box. @param {Tournament} tt */
function bracketView(tt) {
  const st = tt.standings;
  // A groups event's knockout is a bracket too, once the groups are over.
  const s = st && st.kind === 'groups' && st.groups && st.groups.knockout
    ? { kind: 'bracket', matches: st.groups.knockout.matches, state: st.groups.knockout.state }
    : st;
  if (!s || s.kind !== 'bracket') return null;
  /** @type {Map<string, Map<number, any[]>>} */
  const parts = new Map();
  s.matches.forEach((/** @type {any} */ m, /** @type {number} */ i) => {
    const part = parts.get(m.part) || new Map();
    parts.set(m.part, part);
    const round = part.get(m.round) || [];
    part.set(m.round, round);
    round.push({ m, state: s.state.matches[i] });
  });
  const out = el('div', { class: 'bracket', 'data-testid': 'tournament-bracket' });
  for (const [part, rounds] of parts) {
    const cols = el('div', { class: 'bracket-part' });
    for (const [round, list] of [...rounds.entries()].sort((x, y) => x[0] - y[0])) {
      const col = el('div', { class: 'bracket-round' }, el('h4', { class: 'muted small' }, t('tournament.round', { n: round })));
      for (const { state } of list) {
        const slot = (/** @type {any} */ v, /** @type {string} */ side) => {
          let text = '…';
          if (typeof v === 'number') text = nameOf(entrantOf(tt, v));
          else if (v && v.entrant !== undefined) text = nameOf(entrantOf(tt, v.entrant));
          else if (v === 'bye') text = t('tournament.bye_slot');
          const won = state.state === 'played' && state.winner === side;
          return el('div', { class: `slot ${won ? 'won' : ''}` }, text);
        };
        let box;
        if (state.state === 'played' || state.state === 'ready') box = [slot(state.first, 'first'), slot(state.second, 'second')];
        else if (state.state === 'waiting') box = [slot(state.first, 'first'), slot(state.second, 'second')];
        else if (state.state === 'walkover') box = [el('div', { class: 'slot won' }, nameOf(entrantOf(tt, state.entrant))), el('div', { class: 'slot muted' }, t('tournament.walkover'))];
        else if (state.state === 'not_needed') box = [el('div', { class: 'slot muted' }, t('tournament.not_needed'))];
        else box = [el('div', { class: 'slot muted' }, '—')];
        col.append(el('div', { class: `bracket-match ${state.state}`, 'data-testid': 'bracket-match', 'data-state': state.state }, ...box));
      }
      cols.append(col);
    }
    out.append(el('h3', {}, t(`tournament.part.${part}`)), el('div', { class: 'bracket-scroll' }, cols));
  }
  if (s.state.champion !== null && s.state.champion !== undefined) {
    out.prepend(el('p', { class: 'champion', 'data-testid': 'tournament-champion' }, t(tt.pairs ? 'tournament.champion' : 'tournament.champion_one', { who: nameOf(entrantOf(tt, s.state.champion)) })));
  }
  return out;
}

/** @param {Tournament} tt */
function render(tt) {
  document.title = `${tt.name} · tapete`;
  const info = el('p', { class: 'muted' }, [
    titles[tt.game] || tt.game, formatText(tt),
    t(`tournament.status.${tt.status}`),
    tt.status === 'signup' ? t('tournament.starts', { when: fmtDate(tt.start) }) : '',
    tt.rated ? t('tournament.rated') : '', tt.cuadrilla ? t('tournament.of_cuadrilla') : (tt.private ? t('tournament.private') : ''),
  ].filter(Boolean).join(' · '));
  const rules = el('p', { class: 'muted small', 'data-testid': 'tournament-rules' },
    `${t(tt.bots ? 'tournament.bots_yes' : 'tournament.bots_no')} ${t('tournament.courtesy', { count: Math.round(tt.courtesy_s / 60) })}${tt.courtesy_juegos ? ` ${t('tournament.courtesy_juegos')}` : ''}${tt.time_limit_s ? ` ${t('tournament.time_limit', { count: Math.round(tt.time_limit_s / 60) })}` : ''}`);
  clear(panel).append(el('h1', {}, tt.name), info, rules,
    tt.format === 'duplicate' ? el('p', { class: 'muted small' }, t('tournament.duplicate_note')) : '',
    el('p', { class: 'muted small' }, t('tournament.organiser', { who: tt.organiser.nickname })));
  if (tt.invite) {
    const link = `${location.origin}/torneo/${tt.id}?invite=${encodeURIComponent(tt.invite)}`;
    panel.append(el('p', { class: 'row' }, el('span', { class: 'muted small' }, t('tournament.link')),
      el('input', { class: 'link', value: link, readonly: '', 'data-testid': 'tournament-link' })));
  }
  const entry = mine(tt);
  // The caller's match, when it waits for them.
  if (entry && tt.status === 'running') {
    const m = tt.matches.find((x) => (x.first === entry.seed || x.second === entry.seed) && x.table && x.status === 'waiting' && !x.absent);
    const playing = tt.matches.find((x) => (x.first === entry.seed || x.second === entry.seed) && x.table && x.status === 'playing');
    if (m) {
      panel.append(el('div', { class: 'your-match', role: 'status', 'data-testid': 'tournament-your-match' },
        el('strong', {}, t('tournament.your_match')),
        el('button', { class: 'btn primary', 'data-testid': 'tournament-sit', onclick: () => sit() }, t('tournament.sit'))));
    } else if (playing) {
      panel.append(el('div', { class: 'your-match', role: 'status' },
        el('strong', {}, t('tournament.your_match_playing')),
        el('a', { class: 'btn primary', href: `/t/${playing.table}` }, t('tournament.open_table'))));
    } else if (tt.format === 'arena' && entry.withdrawn != null) {
      // Paused (did not come, or left): back into the pairing with one tap.
      panel.append(el('div', { class: 'your-match', role: 'status', 'data-testid': 'tournament-paused' },
        el('strong', {}, t('tournament.paused')),
        el('button', { class: 'btn primary', 'data-testid': 'tournament-resume', onclick: () => resume() }, t('tournament.resume'))));
    } else if (tt.format === 'arena') {
      panel.append(el('p', { class: 'muted', role: 'status', 'data-testid': 'tournament-waiting' }, t('tournament.arena_waiting')));
    }
  }
  if (tt.format === 'arena' && tt.standings && tt.standings.ends_at && tt.status === 'running') {
    const at = new Date(tt.standings.ends_at * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    panel.append(el('p', { class: 'muted small', 'data-testid': 'tournament-ends' }, t('tournament.arena_ends', { time: at })));
  }
  // Sign-up.
  if (tt.status === 'signup') {
    if (who && who.account && !entry) {
      const form = el('form', { class: 'row', 'data-testid': 'tournament-join' });
      const partner = el('input', { name: 'partner', placeholder: t('tournament.partner'), 'data-testid': 'tournament-partner', autocomplete: 'off' });
      if (tt.pairs) form.append(partner);
      form.append(el('button', { class: 'btn primary', type: 'submit' }, t('tournament.join')));
      form.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        /** @type {{partner?: string, invite?: string}} */
        const body = {};
        if (tt.pairs) body.partner = /** @type {HTMLInputElement} */ (partner).value.trim();
        if (invite) body.invite = invite;
        try { await api('POST', `/api/tournaments/${tt.id}/entries`, body); toast(t('tournament.joined')); load(); } catch (x) { toast(messageOf(x), 'error'); }
      });
      panel.append(form);
    } else if (!who || !who.account) {
      panel.append(el('p', { class: 'muted' }, t('tournament.account_needed')));
    }
    if (entry) {
      panel.append(el('p', { class: 'row' }, el('span', {}, t('tournament.entered')),
        el('button', { class: 'btn small', onclick: () => withdraw(tt, entry.entry) }, t('tournament.withdraw'))));
    }
    if (who && tt.organiser.id === who.id) {
      panel.append(el('button', { class: 'btn', 'data-testid': 'tournament-start', onclick: () => startNow(tt) }, t('tournament.start_now')));
    }
  }
  // Entrants.
  panel.append(el('h2', {}, t('tournament.entrants', { n: num.format(tt.entrants.length), max: num.format(tt.max_entrants) })));
  panel.append(el('ol', { class: 'entrants', 'data-testid': 'tournament-entrants' }, ...tt.entrants.map((e) => el('li', {
    class: e.withdrawn ? 'muted' : '',
  }, nameOf(e), e.withdrawn ? ` (${t(tt.format === 'arena' ? 'tournament.paused_short' : 'tournament.withdrawn')})` : ''))));
  // Standings or bracket, then the rounds.
  const table = standingsTable(tt);
  if (table) panel.append(el('h2', {}, t('tournament.standings')), table);
  const groups = groupsView(tt);
  if (groups) panel.append(el('h2', {}, t('tournament.groups')), groups);
  const bracket = bracketView(tt);
  if (bracket) panel.append(el('h2', {}, t('tournament.bracket')), bracket);
  if (tt.format === 'arena') {
    // No rounds: the matches as they were paired, the latest first.
    if (tt.matches.length) {
      panel.append(el('h3', {}, t('tournament.matches')), el('ul', { class: 'matches', 'data-testid': 'tournament-round' },
        ...[...tt.matches].reverse().map((m) => matchRow(tt, m))));
    }
    return;
  }
  const rounds = [...new Set(tt.matches.map((m) => m.round))].sort((a, b) => b - a);
  for (const r of rounds) {
    const title = r === 0 ? t('tournament.matches') : t('tournament.round', { n: r });
    panel.append(el('h3', {}, title), el('ul', { class: 'matches', 'data-testid': 'tournament-round' },
      ...tt.matches.filter((m) => m.round === r).map((m) => matchRow(tt, m))));
  }
}

async function resume() {
  try { await api('POST', `/api/tournaments/${encodeURIComponent(id)}/play`); toast(t('tournament.resumed')); load(); } catch (x) { toast(messageOf(x), 'error'); }
}

async function sit() {
  const path = `/api/tournaments/${encodeURIComponent(id)}/play`;
  try {
    let table;
    // This person's contribution to the match's deal (docs/fairness.md).
    const seed = myContribution(null);
    try {
      table = await api('POST', path, { seed });
    } catch (x) {
      // With several servers, the one that runs the match's table seats us.
      if (!(x instanceof ApiError && x.code === 'table_moved' && x.node)) throw x;
      table = await api('POST', `${path}?node=${encodeURIComponent(x.node)}`, { seed });
    }
    keepContribution(table.id, seed);
    location.href = `/t/${table.id}`;
  } catch (x) { toast(messageOf(x), 'error'); }
}

/** @param {Tournament} tt @param {number} entry */
async function withdraw(tt, entry) {
  try { await api('DELETE', `/api/tournaments/${tt.id}/entries/${entry}`); load(); } catch (x) { toast(messageOf(x), 'error'); }
}

/** @param {Tournament} tt */
async function startNow(tt) {
  try { await api('POST', `/api/tournaments/${tt.id}/start`); load(); } catch (x) { toast(messageOf(x), 'error'); }
}

async function load() {
  clearTimeout(timer);
  try {
    who = await me();
    if (!Object.keys(titles).length) {
      /** @type {{name: string, title: string}[]} */
      const games = await api('GET', '/api/games');
      for (const g of games) titles[g.name] = g.title;
    }
    /** @type {Tournament} */
    const tt = await api('GET', `/api/tournaments/${encodeURIComponent(id)}${query}`);
    render(tt);
    if (tt.status !== 'finished') timer = setTimeout(load, document.hidden ? 15000 : 4000);
  } catch (x) {
    clear(panel).append(el('h1', {}, t('tournament.title')), el('p', { class: 'error-text' }, messageOf(x)));
  }
}

load();
