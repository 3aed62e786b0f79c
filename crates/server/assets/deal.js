// A table's committed deal on its page (docs/fairness.md): the person's contribution —
// 32 hexadecimal digits the page draws with the browser's crypto, kept for the table in
// this browser, or typed by the person before the start — and a small panel with the
// commitment, the contributions once fixed and, after the end, the way to check it all.

import { el, t } from './common.js';
import { icon } from './icons.js';

const KEY = 'tapete.deal.';

/** 16 random bytes as 32 lowercase hexadecimal digits. */
function fresh() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Whether `text` is a contribution the server takes. @param {string} text */
export function isContribution(text) {
  return /^[0-9a-fA-F]{32}$/.test(text.trim());
}

/**
 * This browser's contribution to table `table`'s deal: the one kept for it, else a new
 * one (kept). With no table yet (a tournament's match found by the server), a new one.
 * @param {string | null} table
 */
export function myContribution(table) {
  if (!table) return fresh();
  try {
    const kept = sessionStorage.getItem(KEY + table);
    if (kept && isContribution(kept)) return kept.toLowerCase();
    const made = fresh();
    sessionStorage.setItem(KEY + table, made);
    return made;
  } catch {
    return fresh();
  }
}

/**
 * Keeps `value` as this browser's contribution to table `table`.
 * @param {string} table @param {string} value
 */
export function keepContribution(table, value) {
  try { sessionStorage.setItem(KEY + table, value.trim().toLowerCase()); } catch { /* private mode */ }
}

/**
 * The deal's panel for table `table` seen by a person at `seat` (null: not seated):
 * `send` carries a typed contribution to the table.
 * @param {import('./common.js').TableInfo} table
 * @param {number | null} seat
 * @param {(msg: {type: string, [key: string]: unknown}) => void} send
 * @returns {HTMLElement | null}
 */
export function dealPanel(table, seat, send) {
  const f = table.fairness;
  if (!f) return null;
  const short = `${f.commitment.slice(0, 10)}…`;
  const body = el('div', { class: 'deal-body small' },
    el('p', {}, t('deal.explain')),
    el('p', {}, el('b', {}, t('deal.commitment')), ' ', el('code', { 'data-testid': 'deal-commitment', class: 'hash' }, f.commitment)));
  if (table.status === 'waiting' && seat !== null) {
    const input = /** @type {HTMLInputElement} */ (el('input', {
      value: myContribution(table.id), maxlength: '32', spellcheck: 'false', class: 'hash', 'data-testid': 'deal-mine',
      'aria-label': t('deal.yours'),
    }));
    const status = el('span', { class: 'muted' });
    input.addEventListener('change', () => {
      const v = input.value.trim();
      if (!isContribution(v)) { status.textContent = t('error.bad_contribution'); return; }
      keepContribution(table.id, v);
      send({ type: 'contribute', seed: v.toLowerCase() });
      status.textContent = t('deal.kept');
    });
    body.append(el('label', { class: 'field' }, t('deal.yours'), input, status), el('p', { class: 'muted' }, t('deal.yours_help')));
  }
  if (f.contributions) {
    body.append(el('p', {}, el('b', {}, t('deal.contributions'))),
      el('ol', { start: '0', class: 'hash', 'data-testid': 'deal-contributions' },
        f.contributions.map((c) => el('li', {}, c || t('deal.none')))));
  }
  if (f.secret) {
    body.append(el('p', {}, el('a', { class: 'btn small', href: `/verify/${encodeURIComponent(table.id)}`, 'data-testid': 'deal-verify' }, t('deal.check'))));
  } else {
    body.append(el('p', { class: 'muted' }, t('deal.after')));
  }
  return el('details', { class: 'deal', 'data-testid': 'deal' },
    el('summary', { title: f.commitment }, icon('lock'), ` ${t('deal.summary')} `, el('code', { class: 'hash' }, short)), body);
}
