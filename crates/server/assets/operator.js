// @ts-check
// The operator's page (/operador): the screens' flags with their statistic and evidence
// (each row opens the operator's replay at that step), the chat's reports, suspensions (a
// form to suspend an account, and "lift"), and the log of every operator action. It reads
// /api/operator/…, which answers the operators alone; anyone else is told the page is not
// for them.

import { topbar } from './topbar.js';
import { el, clear, api, me, fmtDate, t, pageRoot, messageOf, toast, localDecimals } from './common.js';

/** @typedef {{id: number, nickname: string}} Person */
/**
 * A flag (`GET /api/operator/flags`).
 * @typedef {{id: number, game: string, players: Person[], kind: string,
 *   statistic: {z: number, gain: number, se: number, n: number},
 *   evidence: {table: string, step: number, seat: number, action: string, what: string}[],
 *   created: number, status: string, note: string | null, decided_by: Person | null,
 *   decided_at: number | null}} Flag
 */
/**
 * A reported chat message (`GET /api/operator/reports`).
 * @typedef {{id: number, table: string, n: number, channel: string, text: string,
 *   written: number, author: Person, reporter: Person, at: number}} Report
 */
/**
 * A suspension (`GET /api/operator/suspensions`).
 * @typedef {{id: number, player: Person, scope: string, reason: string, by: Person, at: number,
 *   lifted_at: number | null, lifted_by: Person | null}} Suspension
 */
/**
 * A line of the operator's log (`GET /api/operator/log`).
 * @typedef {{id: number, operator: Person, action: string, target: string, details: any,
 *   at: number}} LogRow
 */

topbar('operator');
const app = pageRoot();

/** The words of each flag's kind, status, suspension's scope and logged action. */
const KINDS = /** @type {Record<string, string>} */ ({
  collusion: t('operator.kind.collusion'), win_trading: t('operator.kind.win_trading'), soft_play: t('operator.kind.soft_play'),
});
const STATUSES = /** @type {Record<string, string>} */ ({
  open: t('operator.status.open'), dismissed: t('operator.status.dismissed'), acted: t('operator.status.acted'),
});
const SCOPES = /** @type {Record<string, string>} */ ({
  rated: t('operator.scope.rated'), site: t('operator.scope.site'),
});
const ACTIONS = /** @type {Record<string, string>} */ ({
  read_flags: t('operator.action.read_flags'), read_reports: t('operator.action.read_reports'),
  judge_flag: t('operator.action.judge_flag'), suspend: t('operator.action.suspend'), lift: t('operator.action.lift'),
  replay: t('operator.action.replay'), replay_step: t('operator.action.replay_step'),
  screen: t('operator.action.screen'),
});

/**
 * What a row of evidence saw, in the page's language: the screens write it as `key=value`
 * words (`gain=0.310`; `score=20 games=20 expected=10.0`); anything else is shown as it is.
 * @param {string} what
 */
function seen(what) {
  /** @type {Record<string, string>} */
  const v = {};
  for (const word of what.split(' ')) {
    const [k, x] = word.split('=');
    if (x !== undefined) v[k] = x;
  }
  if (v.gain !== undefined) {
    const points = Math.round(Number(v.gain) * 1000) / 10;
    return t('operator.what.gain', { points: localDecimals(`${points > 0 ? '+' : ''}${points}`) });
  }
  if (v.score !== undefined && v.games !== undefined) {
    return t('operator.what.met', { score: localDecimals(v.score), games: v.games, expected: localDecimals(v.expected || '') });
  }
  return what;
}

/**
 * A person's name, leading to their profile.
 * @param {Person | null | undefined} p
 */
function person(p) {
  if (!p) return '';
  return el('a', { href: `/p/${p.id}` }, p.nickname || `#${p.id}`);
}

/**
 * A number with three decimals at most, in the page's language.
 * @param {number} x
 */
const num = (x) => localDecimals(String(Math.round(x * 1000) / 1000));

/**
 * The operator's replay of `table` at step `step`.
 * @param {string} table
 * @param {number} step
 */
const replayAt = (table, step) => `/replay/${encodeURIComponent(table)}?operator=1&step=${step}`;

/**
 * A section's list with its pager: `load(page)` fills `body` and answers how many rows came.
 * @param {HTMLElement} body
 * @param {(page: number) => Promise<number>} load
 */
function paged(body, load) {
  let page = 1;
  const prev = el('button', { type: 'button', class: 'btn small', 'data-testid': 'op-prev' }, t('operator.prev'));
  const next = el('button', { type: 'button', class: 'btn small', 'data-testid': 'op-next' }, t('operator.next'));
  const where = el('span', { class: 'muted small' });
  const go = async () => {
    clear(body).append(el('p', { class: 'muted' }, t('operator.loading')));
    let n = 0;
    try { n = await load(page); } catch (x) { clear(body).append(el('p', { class: 'error-text' }, messageOf(x))); }
    prev.disabled = page <= 1;
    next.disabled = n < 50;
    where.textContent = t('operator.page', { n: page });
  };
  prev.onclick = () => { if (page > 1) { page -= 1; go(); } };
  next.onclick = () => { page += 1; go(); };
  return { pager: el('div', { class: 'op-pager' }, prev, where, next), reload: go };
}

/** The flags: open ones first, each with its statistic, evidence and judgement. */
function flagsSection() {
  const body = el('div', { 'data-testid': 'op-flags' });
  const { pager, reload } = paged(body, async (page) => {
    /** @type {Flag[]} */
    const flags = await api('GET', `/api/operator/flags?page=${page}`);
    clear(body);
    if (!flags.length) body.append(el('div', { class: 'empty' }, t('operator.no_flags')));
    for (const f of flags) body.append(flagCard(f, reload));
    return flags.length;
  });
  // The screens run by themselves every day; the operator may ask for one now.
  const now = el('button', { type: 'button', class: 'btn small', 'data-testid': 'op-screen-now' }, t('operator.screen_now'));
  now.onclick = async () => {
    now.disabled = true;
    try {
      /** @type {{games: number, flagged: number}} */
      const r = await api('POST', '/api/operator/screen');
      toast(t('operator.screened', { games: r.games, flagged: r.flagged }));
      reload();
    } catch (x) { toast(messageOf(x), 'error'); }
    now.disabled = false;
  };
  return { node: el('div', {}, el('div', { class: 'op-judge' }, now), body, pager), reload };
}

/**
 * One flag.
 * @param {Flag} f
 * @param {() => void} reload
 */
function flagCard(f, reload) {
  const s = f.statistic;
  const rows = f.evidence.map((e) => el('tr', { 'data-testid': 'op-evidence' },
    el('td', {}, el('a', { href: replayAt(e.table, e.step), 'data-testid': 'op-evidence-link' }, e.table)),
    el('td', {}, String(e.step)), el('td', {}, String(e.seat)),
    el('td', {}, el('code', {}, e.action)), el('td', {}, seen(e.what))));
  const note = el('input', { type: 'text', maxlength: '500', value: f.note || '', 'aria-label': t('operator.note'), placeholder: t('operator.note'), 'data-testid': 'op-note' });
  /** @param {string} status */
  const judge = async (status) => {
    try {
      await api('POST', `/api/operator/flags/${f.id}`, { status, note: note.value });
      reload();
    } catch (x) { toast(messageOf(x), 'error'); }
  };
  const buttons = f.status === 'open'
    ? [el('button', { type: 'button', class: 'btn small', 'data-testid': 'op-dismiss', onclick: () => judge('dismissed') }, t('operator.dismiss')),
      el('button', { type: 'button', class: 'btn small danger', 'data-testid': 'op-acted', onclick: () => judge('acted') }, t('operator.act'))]
    : [el('button', { type: 'button', class: 'btn small', 'data-testid': 'op-reopen', onclick: () => judge('open') }, t('operator.reopen'))];
  return el('article', { class: `panel op-flag ${f.status}`, 'data-testid': 'op-flag', dataset: { status: f.status } },
    el('h3', {}, `${KINDS[f.kind] || f.kind} · ${f.game} · `, ...f.players.flatMap((p, i) => [i ? ', ' : '', person(p)]),
      ' ', el('span', { class: `badge ${f.status === 'open' ? '' : 'finished'}` }, STATUSES[f.status] || f.status)),
    el('p', { class: 'small', 'data-testid': 'op-statistic' },
      t('operator.statistic', { z: num(s.z), gain: num(s.gain), se: num(s.se), n: s.n }), ' · ', fmtDate(f.created)),
    f.decided_by ? el('p', { class: 'muted small' }, t('operator.judged_by', { name: f.decided_by.nickname, when: fmtDate(f.decided_at) }), f.note ? ` — ${f.note}` : '') : '',
    rows.length ? el('table', { class: 'list' },
      el('caption', { class: 'muted small' }, t('operator.evidence')),
      el('thead', {}, el('tr', {}, el('th', {}, t('operator.col.table')), el('th', {}, t('operator.col.step')),
        el('th', {}, t('operator.col.seat')), el('th', {}, t('operator.col.action')), el('th', {}, t('operator.col.what')))),
      el('tbody', {}, rows)) : '',
    el('div', { class: 'op-judge' }, note, ...buttons));
}

/** The chat's reports, newest first. */
function reportsSection() {
  const body = el('div', { 'data-testid': 'op-reports' });
  const { pager, reload } = paged(body, async (page) => {
    /** @type {Report[]} */
    const reports = await api('GET', `/api/operator/reports?page=${page}`);
    clear(body);
    if (!reports.length) { body.append(el('div', { class: 'empty' }, t('operator.no_reports'))); return 0; }
    body.append(el('table', { class: 'list' },
      el('thead', {}, el('tr', {}, el('th', {}, t('operator.col.when')), el('th', {}, t('operator.col.table')),
        el('th', {}, t('operator.col.author')), el('th', {}, t('operator.col.text')), el('th', {}, t('operator.col.reporter')), el('th', {}))),
      el('tbody', {}, reports.map((r) => el('tr', { 'data-testid': 'op-report' },
        el('td', { class: 'small' }, fmtDate(r.written)), el('td', {}, el('a', { href: `/t/${encodeURIComponent(r.table)}` }, r.table)),
        el('td', {}, person(r.author)), el('td', {}, r.text), el('td', {}, person(r.reporter), el('div', { class: 'muted small' }, fmtDate(r.at))),
        el('td', {}, el('button', { type: 'button', class: 'btn small', onclick: () => suspendForm.prefill(String(r.author.id)) }, t('operator.suspend_author'))))))));
    return reports.length;
  });
  return { node: el('div', {}, body, pager), reload };
}

/** The form that suspends an account. */
const suspendForm = (() => {
  const account = el('input', { type: 'text', required: true, maxlength: '40', 'data-testid': 'op-account' });
  const scope = el('select', { 'data-testid': 'op-scope' },
    el('option', { value: 'rated' }, SCOPES.rated), el('option', { value: 'site' }, SCOPES.site));
  const reason = el('textarea', { required: true, maxlength: '500', rows: '3', 'data-testid': 'op-reason' });
  const error = el('p', { class: 'error-text', 'data-testid': 'op-suspend-error' });
  /** @type {() => void} */
  let done = () => {};
  const form = el('form', { class: 'panel op-suspend', 'data-testid': 'op-suspend-form' },
    el('h3', {}, t('operator.form.title')),
    el('div', { class: 'fields' },
      el('label', { class: 'field' }, t('operator.form.account'), account),
      el('label', { class: 'field' }, t('operator.form.scope'), scope)),
    el('label', { class: 'field' }, t('operator.form.reason'), reason),
    error,
    el('button', { type: 'submit', class: 'btn danger', 'data-testid': 'op-suspend' }, t('operator.form.submit')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    error.textContent = '';
    const who = account.value.trim();
    // A number is a player's id; anything else an account's nickname.
    const player = /^\d+$/.test(who) ? Number(who) : who;
    try {
      /** @type {Suspension} */
      const s = await api('POST', '/api/operator/suspensions', { player, scope: scope.value, reason: reason.value });
      toast(t('operator.suspended_ok', { name: s.player.nickname }));
      account.value = '';
      reason.value = '';
      done();
    } catch (x) { error.textContent = messageOf(x); }
  });
  return {
    form,
    /** @param {() => void} f */
    onDone(f) { done = f; },
    /** @param {string} who */
    prefill(who) { show('suspensions'); account.value = who; reason.focus(); },
  };
})();

/** The suspensions: those in force first, each with "lift". */
function suspensionsSection() {
  const body = el('div', { 'data-testid': 'op-suspensions' });
  const { pager, reload } = paged(body, async (page) => {
    /** @type {Suspension[]} */
    const list = await api('GET', `/api/operator/suspensions?page=${page}`);
    clear(body);
    if (!list.length) { body.append(el('div', { class: 'empty' }, t('operator.no_suspensions'))); return 0; }
    body.append(el('table', { class: 'list' },
      el('thead', {}, el('tr', {}, el('th', {}, t('operator.col.account')), el('th', {}, t('operator.form.scope')),
        el('th', {}, t('operator.col.reason')), el('th', {}, t('operator.col.when')), el('th', {}))),
      el('tbody', {}, list.map((s) => el('tr', { 'data-testid': 'op-suspension', dataset: { lifted: String(Boolean(s.lifted_at)) } },
        el('td', {}, person(s.player)), el('td', {}, SCOPES[s.scope] || s.scope), el('td', {}, s.reason),
        el('td', { class: 'small' }, fmtDate(s.at), el('div', { class: 'muted' }, t('operator.by', { name: s.by.nickname }))),
        el('td', {}, s.lifted_at
          ? el('span', { class: 'muted small' }, t('operator.lifted', { when: fmtDate(s.lifted_at) }))
          : el('button', {
            type: 'button', class: 'btn small', 'data-testid': 'op-lift',
            onclick: async () => {
              try { await api('DELETE', `/api/operator/suspensions/${s.id}`); reload(); } catch (x) { toast(messageOf(x), 'error'); }
            },
          }, t('operator.lift'))))))));
    return list.length;
  });
  suspendForm.onDone(reload);
  return { node: el('div', {}, suspendForm.form, body, pager), reload };
}

/** The log of operator actions, newest first. */
function logSection() {
  const body = el('div', { 'data-testid': 'op-log' });
  const { pager, reload } = paged(body, async (page) => {
    /** @type {LogRow[]} */
    const rows = await api('GET', `/api/operator/log?page=${page}`);
    clear(body);
    if (!rows.length) { body.append(el('div', { class: 'empty' }, t('operator.no_log'))); return 0; }
    body.append(el('table', { class: 'list' },
      el('thead', {}, el('tr', {}, el('th', {}, t('operator.col.when')), el('th', {}, t('operator.col.operator')),
        el('th', {}, t('operator.col.did')), el('th', {}, t('operator.col.target')), el('th', {}, t('operator.col.details')))),
      el('tbody', {}, rows.map((r) => el('tr', { 'data-testid': 'op-log-row', dataset: { action: r.action } },
        el('td', { class: 'small' }, fmtDate(r.at)), el('td', {}, person(r.operator)),
        el('td', {}, ACTIONS[r.action] || r.action),
        el('td', {}, r.action.startsWith('replay') ? el('a', { href: replayAt(r.target, Number(r.details?.step) || 0) }, r.target) : r.target),
        el('td', { class: 'small' }, el('code', {}, r.details && Object.keys(r.details).length ? JSON.stringify(r.details) : '')))))));
    return rows.length;
  });
  return { node: el('div', {}, body, pager), reload };
}

/** @type {Record<string, {node: HTMLElement, reload: () => void}>} */
const sections = {};
/** @type {Record<string, HTMLButtonElement>} */
const tabs = {};
const shown = el('div', { class: 'op-section' });

/**
 * Shows a section (and reads it afresh).
 * @param {string} name
 */
function show(name) {
  for (const [n, b] of Object.entries(tabs)) { b.classList.toggle('on', n === name); b.setAttribute('aria-selected', String(n === name)); }
  const s = sections[name];
  if (!s) return;
  clear(shown).append(s.node);
  s.reload();
  history.replaceState(null, '', `/operador#${name}`);
}

(async () => {
  const p = await me();
  if (!p || !p.operator) {
    app.append(el('section', { class: 'panel', 'data-testid': 'op-refused' }, el('h1', {}, t('operator.title')), el('p', {}, t('operator.not_operator'))));
    return;
  }
  sections.flags = flagsSection();
  sections.reports = reportsSection();
  sections.suspensions = suspensionsSection();
  sections.log = logSection();
  const names = /** @type {Record<string, string>} */ ({
    flags: t('operator.tab.flags'), reports: t('operator.tab.reports'), suspensions: t('operator.tab.suspensions'), log: t('operator.tab.log'),
  });
  const bar = el('div', { class: 'op-tabs', role: 'tablist' }, Object.entries(names).map(([n, words]) => {
    const b = el('button', { type: 'button', role: 'tab', class: 'btn small', 'data-testid': `op-tab-${n}`, onclick: () => show(n) }, words);
    tabs[n] = b;
    return b;
  }));
  app.append(el('section', { class: 'panel' }, el('h1', {}, t('operator.title')), bar, shown));
  const first = location.hash.slice(1);
  show(sections[first] ? first : 'flags');
})();
