// @ts-check
// The leyes calculator: a hand (and maybe the partner's), the declarations heard and the
// position in; the engine's exact odds out (Mus's leyes tool, GET /api/tools/mus/leyes), as
// tables and a chart.

import { topbar } from './topbar.js';
import { el, clear, api, t, localDecimals, toolError, pageRoot } from './common.js';
import { cardEl } from './cards.js';

/**
 * Each lance's chance of our pair winning (pares, juego and punto: of winning, losing, and
 * of nobody having it), as probabilities, or as exact fractions ("1234/5678").
 * @template N
 * @typedef {{grande: N, chica: N, pares: {win: N, lose: N, void: N}, juego: {win: N, lose: N, void?: N},
 *   punto: {win: N, lose: N}}} Lances
 */

/**
 * The leyes at one position: the chances, their exact fractions when asked, each unknown
 * player's chance of pares and juego, and the piedras each side may expect in paso.
 * @typedef {Lances<number> & {position: number, exact?: Lances<string> | null,
 *   players?: {relation: string, pares: number, juego: number}[],
 *   piedras: {us: Record<string, number>, them: Record<string, number>}}} PositionOdds
 */

/**
 * The leyes tool's answer (`GET /api/tools/mus/leyes`): what was asked and the odds at
 * each position asked for.
 * @typedef {{hand: string, partner?: string | null, mode: string, real31?: boolean,
 *   conditions?: Record<string, string[]>, positions?: PositionOdds[]}} LeyesAnswer
 */

topbar('leyes');
const app = pageRoot();

const POS_LABEL = ['0 mano', '1', '2', '3 postre'];
const POS_COLORS = ['#1f6fb2', '#2f9e5a', '#d69a1c', '#b23a2a'];
const SUITS = ['o', 'c', 'e', 'b'];
// The cards a jugada letter may stand for, the likeliest first: in 8 reyes the treses are
// reyes and the doses ases.
/** @type {Record<string, Record<string, string[]>>} */
const RANK_CARDS = {
  '8reyes': { R: ['12', '3'], C: ['11'], S: ['10'], 7: ['7'], 6: ['6'], 5: ['5'], 4: ['4'], A: ['1', '2'] },
  '4reyes': { R: ['12'], C: ['11'], S: ['10'], 7: ['7'], 6: ['6'], 5: ['5'], 4: ['4'], 3: ['3'], 2: ['2'], A: ['1'] },
};
const CARD_RE = /^(1[0-2]|[1-7])[ocebOCEB]$/;

/**
 * The four cards written out ("12o 3c 11e 1b"), lower-cased, or null when it is a jugada.
 * @param {string} text
 */
function explicitCards(text) {
  const cards = text.trim().split(/[\s,]+/).filter(Boolean);
  return cards.length > 1 && cards.every((c) => CARD_RE.test(c)) ? cards.map((c) => c.toLowerCase()) : null;
}

/**
 * Cards to preview each hand written as a jugada (RRCA) or as four cards (12o 3c 11e 1b),
 * never the same card twice across the hands: cards written out are kept, and a jugada's
 * letters take the first cards of their rank nobody holds yet. An answer per hand: its
 * cards, or [] when it cannot be drawn (not a hand, or not enough cards of a rank left).
 * @param {string[]} texts
 * @returns {string[][]}
 */
export function previewHands(texts, mode = '8reyes') {
  const ranks = RANK_CARDS[mode] || RANK_CARDS['8reyes'];
  /** @type {Set<string>} */
  const used = new Set();
  const out = texts.map((t) => {
    const cards = explicitCards(t || '');
    if (cards) cards.forEach((c) => used.add(c));
    return cards;
  });
  return texts.map((t, i) => {
    if (out[i]) return out[i];
    const letters = String(t || '').toUpperCase().replace(/\s+/g, '');
    if (!letters) return [];
    /** @type {string[]} */
    const mine = [];
    for (const ch of letters) {
      const numbers = ranks[ch];
      if (!numbers) return [];
      const card = numbers.flatMap((n) => SUITS.map((s) => n + s)).find((c) => !used.has(c));
      if (!card) return [];
      used.add(card);
      mine.push(card);
    }
    return mine;
  });
}

// Both previews are drawn together, so that no card shows in both hands.
/** @type {{input: HTMLInputElement, preview: HTMLElement}[]} */
const inputs = [];
function updatePreviews() {
  const hands = previewHands(inputs.map((x) => x.input.value), mode.value);
  inputs.forEach((x, i) => {
    clear(x.preview);
    const cards = hands[i];
    if (cards.length) x.preview.append(...cards.map((c) => cardEl(c)));
    else x.preview.append(el('span', { class: 'muted small' }, x.input.value.trim() ? t('leyes.hand_help') : t('leyes.no_cards')));
  });
}

/**
 * A hand's field: the text (a jugada or four cards), a pad of ranks, and the cards it stands for.
 * @param {string} name
 * @param {string} label
 * @param {string} placeholder
 * @param {() => void} [onChange]
 */
function handInput(name, label, placeholder, onChange) {
  const input = el('input', { type: 'text', name, placeholder, 'data-testid': `${name}-input`, autocomplete: 'off', spellcheck: 'false' });
  const preview = el('div', { class: 'handpreview', 'data-testid': `${name}-preview` });
  const pad = el('div', { class: 'rankpad' });
  inputs.push({ input, preview });
  const update = () => {
    updatePreviews();
    onChange && onChange();
  };
  const setPad = (/** @type {string} */ mode) => {
    clear(pad);
    const ranks = mode === '4reyes' ? ['R', 'C', 'S', '7', '6', '5', '4', '3', '2', 'A'] : ['R', 'C', 'S', '7', '6', '5', '4', 'A'];
    for (const r of ranks) {
      pad.append(el('button', {
        type: 'button', class: 'btn small', onclick: () => {
          const v = input.value.trim();
          if (/\d[ocebOCEB]/.test(v)) input.value = '';
          if (input.value.replace(/\s/g, '').length < 4) input.value += r;
          update();
        },
      }, r));
    }
    pad.append(el('button', { type: 'button', class: 'btn small', title: t('leyes.delete'), 'aria-label': t('leyes.delete'), onclick: () => { input.value = input.value.trim().slice(0, -1); update(); } }, '⌫'));
  };
  input.addEventListener('input', update);
  const box = el('div', { class: 'field' }, el('label', { class: 'field' }, label, input), pad, preview);
  return { box, input, update, setPad };
}

const result = el('section', { 'data-testid': 'leyes-result' });
const err = el('div', { class: 'error-text', 'data-testid': 'leyes-error' });

const mode = el('select', { name: 'mode', 'data-testid': 'mode' }, el('option', { value: '8reyes' }, '8 reyes'), el('option', { value: '4reyes' }, '4 reyes'));
const real31 = el('input', { type: 'checkbox', name: 'real31', 'data-testid': 'real31' });
const position = el('select', { name: 'position', 'data-testid': 'position' },
  el('option', { value: 'all' }, t('leyes.every_position')), [0, 1, 2, 3].map((p) => el('option', { value: p }, POS_LABEL[p])));
const exact = el('input', { type: 'checkbox', name: 'exact', 'data-testid': 'exact' });

const hand = handInput('hand', t('leyes.our_hand'), t('leyes.our_hand_ph'));
const partner = handInput('partner', t('leyes.partner_hand'), t('leyes.partner_ph'), () => syncPartnerDecl());

const WHO = [['next', t('leyes.next')], ['partner', t('leyes.partner')], ['prev', t('leyes.prev')]];
/** The other players as the server names them (`relation`), in the page's words. */
const WHO_WORDS = Object.fromEntries(WHO);
/** @type {Record<string, Record<string, HTMLSelectElement>>} */
const decl = {};
const declBox = el('div', { class: 'decl' }, el('span', {}), el('b', { class: 'small' }, 'pares'), el('b', { class: 'small' }, 'juego'));
for (const [who, text] of WHO) {
  decl[who] = {};
  declBox.append(el('span', { class: 'small' }, text));
  for (const what of ['pares', 'juego']) {
    const s = el('select', { 'data-testid': `decl-${what}-${who}` },
      el('option', { value: '' }, t('leyes.not_yet')), el('option', { value: 'yes' }, 'sí'), el('option', { value: 'no' }, 'no'));
    decl[who][what] = s;
    declBox.append(s);
  }
}
/** The partner's declarations, asked only while the partner's hand is not known. */
function syncPartnerDecl() {
  const known = partner.input.value.trim() !== '';
  for (const what of ['pares', 'juego']) {
    decl.partner[what].disabled = known;
    if (known) decl.partner[what].value = '';
  }
}

mode.addEventListener('change', () => { hand.setPad(mode.value); partner.setPad(mode.value); updatePreviews(); });
hand.setPad('8reyes'); partner.setPad('8reyes');

const form = el('form', {
  class: 'panel', onsubmit: (e) => { e.preventDefault(); compute(); },
},
el('h1', {}, 'Leyes ', el('span', { class: 'muted small', style: { fontWeight: 400 } }, `· ${t('leyes.subtitle')}`)),
el('div', { class: 'grid2' }, hand.box, partner.box),
el('div', { class: 'fields' },
  el('label', { class: 'field' }, t('mus.f.deck'), mode),
  el('label', { class: 'field' }, t('leyes.position'), position),
  el('label', { class: 'check', style: { alignSelf: 'end' } }, real31, '31 real'),
  el('label', { class: 'check', style: { alignSelf: 'end' } }, exact, t('leyes.exact'))),
el('h3', {}, t('leyes.heard_h')),
el('p', { class: 'muted small', style: { marginTop: 0 } }, t('leyes.heard_help')),
declBox,
el('div', { class: 'row', style: { marginTop: '1rem' } }, el('button', { class: 'btn primary', 'data-testid': 'compute' }, t('leyes.compute')), err));

app.append(form, result);

/** The form as the tool's query. */
function query() {
  const q = new URLSearchParams();
  q.set('hand', hand.input.value.trim());
  if (partner.input.value.trim()) q.set('partner', partner.input.value.trim());
  q.set('mode', mode.value);
  if (real31.checked) q.set('real31', 'true');
  q.set('position', position.value);
  for (const what of ['pares', 'juego']) {
    const parts = WHO.map(([w]) => (decl[w][what].value ? `${w}=${decl[w][what].value}` : null)).filter(Boolean);
    if (parts.length) q.set(what, parts.join(','));
  }
  if (exact.checked) q.set('exact', 'true');
  return q;
}

/** Fills the form from the page's address (a link to a result); whether it had a hand. */
function fromQuery() {
  const q = new URLSearchParams(location.search);
  if (!q.get('hand')) return false;
  hand.input.value = q.get('hand') || '';
  partner.input.value = q.get('partner') || '';
  mode.value = q.get('mode') || '8reyes';
  real31.checked = q.get('real31') === 'true';
  position.value = q.get('position') || 'all';
  exact.checked = q.get('exact') === 'true';
  for (const what of ['pares', 'juego']) {
    for (const part of (q.get(what) || '').split(',').filter(Boolean)) {
      const [w, v] = part.split('=');
      if (decl[w]) decl[w][what].value = v === 'yes' || v === 'no' ? v : '';
    }
  }
  hand.setPad(mode.value); partner.setPad(mode.value);
  return true;
}

/**
 * A probability as `tapete mus leyes` prints it: "94.75%", "0%", "100%", "<0.01%", ">99.99%".
 * @param {number} p
 */
export function pct(p) {
  if (p <= 0) return '0%';
  if (p >= 1) return '100%';
  if (p < 0.00005) return localDecimals('<0.01%');
  if (p > 0.99995) return localDecimals('>99.99%');
  return localDecimals(`${(100 * p).toFixed(2)}%`);
}

let busy = 0;
/** Asks the tool, and shows its answer (only the last one asked). */
async function compute() {
  err.textContent = '';
  if (!hand.input.value.trim()) { err.textContent = t('leyes.enter_hand'); return; }
  const q = query();
  history.replaceState(null, '', `/leyes?${q}`);
  const mine = ++busy;
  result.setAttribute('aria-busy', 'true');
  try {
    /** @type {LeyesAnswer} */
    const data = await api('GET', `/api/tools/mus/leyes?${q}`);
    if (mine !== busy) return;
    renderResult(data);
  } catch (x) {
    if (mine !== busy) return;
    clear(err).append(...toolError(x instanceof Error ? x : new Error(String(x))));
    clear(result);
  } finally {
    if (mine === busy) result.removeAttribute('aria-busy');
  }
}

/**
 * The rows of the table: the lance, the outcome, its chance and its exact fraction.
 * @type {[string, string, (p: PositionOdds) => number, (x: Lances<string> | null | undefined) => string | null | undefined][]}
 */
const ROWS = [
  ['grande', 'win', (p) => p.grande, (x) => x && x.grande],
  ['chica', 'win', (p) => p.chica, (x) => x && x.chica],
  ['pares', 'win', (p) => p.pares.win, (x) => x && x.pares.win],
  ['pares', 'lose', (p) => p.pares.lose, (x) => x && x.pares.lose],
  ['pares', 'void', (p) => p.pares.void, (x) => x && x.pares.void],
  ['juego', 'win', (p) => p.juego.win, (x) => x && x.juego.win],
  ['juego', 'lose', (p) => p.juego.lose, (x) => x && x.juego.lose],
  ['punto', 'win', (p) => p.punto.win, (x) => x && x.punto.win],
  ['punto', 'lose', (p) => p.punto.lose, (x) => x && x.punto.lose],
];

/**
 * The tool's answer as tables and a chart.
 * @param {LeyesAnswer} d
 */
function renderResult(d) {
  clear(result);
  const positions = d.positions || [];
  const cond = d.conditions || {};
  /** @type {string[]} */
  const heard = [];
  const names = [t('leyes.next'), t('leyes.partner'), t('leyes.prev')];
  for (const what of ['pares', 'juego']) (cond[what] || []).forEach((v, i) => { if (v && v !== 'unknown') heard.push(`${names[i]} ${what} ${v === 'yes' ? 'sí' : v}`); });

  const [ours, theirs] = previewHands([d.hand, d.partner || ''], d.mode);
  const head = el('div', { class: 'row', style: { marginBottom: '.6rem' } },
    el('div', { class: 'handpreview' }, ours.map((c) => cardEl(c))),
    theirs.length ? el('div', { class: 'handpreview partner', title: t('leyes.partner') }, theirs.map((c) => cardEl(c))) : null,
    el('div', {}, el('h2', { 'data-testid': 'leyes-hand' }, d.hand, d.partner ? el('span', { class: 'muted' }, ` + ${t('leyes.partner')} ${d.partner}`) : ''),
      el('div', { class: 'muted small' }, `${d.mode}${d.real31 ? ' · 31 real' : ''} · ${heard.length ? t('leyes.heard', { list: heard.join(', ') }) : t('leyes.none_heard')}`)));

  // P(our pair) table
  const thead = el('tr', {}, el('th', {}, t('leyes.p_ours')), positions.map((p) => el('th', {}, POS_LABEL[p.position])));
  const tbody = el('tbody');
  for (const [lance, outcome, get, getExact] of ROWS) {
    const tr = el('tr', {}, el('td', { class: 'lbl' }, lance, ' ', el('span', { class: 'muted' }, t(`leyes.${outcome}`))));
    for (const p of positions) {
      const v = get(p);
      const fr = getExact(p.exact);
      tr.append(el('td', {
        'data-testid': `ley-${p.position}-${lance}-${outcome}`, 'data-value': String(v), class: outcome === 'win' && v >= 0.5 ? 'hi' : '', title: fr || '',
      }, pct(v), fr ? el('div', { class: 'muted small' }, fr) : null));
    }
    tbody.append(tr);
  }
  const main = el('div', { class: 'panel' }, head,
    scrollBox(el('table', { class: 'leyes', 'data-testid': 'leyes-table' }, el('thead', {}, thead), tbody)));

  // chart
  const chart = el('div', { class: 'panel chart' }, el('h3', {}, t('leyes.chart_h')), chartSVG(positions),
    el('div', { class: 'legend' }, positions.map((p) => el('span', {}, el('i', { style: { background: POS_COLORS[p.position] } }), t('leyes.position_n', { p: POS_LABEL[p.position] })))));

  // unknown players
  const players = positions.length ? positions[0].players || [] : [];
  const ptable = el('table', { class: 'leyes', 'data-testid': 'players-table' },
    el('thead', {}, el('tr', {}, el('th', {}, t('leyes.unknown_player')), el('th', {}, 'P(pares)'), el('th', {}, 'P(juego)'))),
    el('tbody', {}, players.map((pl) => el('tr', {}, el('td', {}, WHO_WORDS[pl.relation] || pl.relation),
      el('td', { 'data-testid': `player-${pl.relation}-pares`, 'data-value': String(pl.pares) }, pct(pl.pares)),
      el('td', { 'data-testid': `player-${pl.relation}-juego`, 'data-value': String(pl.juego) }, pct(pl.juego))))));

  // expected piedras en paso
  const lances = ['grande', 'chica', 'pares', 'juego', 'punto'];
  const ehead = [
    el('tr', {}, el('th', { rowspan: 2 }, t('leyes.lance')), positions.map((p) => el('th', { colspan: 2, class: 'grp' }, POS_LABEL[p.position]))),
    el('tr', {}, positions.map(() => [el('th', {}, t('leyes.us')), el('th', {}, t('leyes.them'))]))];
  const ebody = el('tbody');
  for (const l of [...lances, 'total']) {
    ebody.append(el('tr', {}, el('td', { class: 'lbl' }, l === 'total' ? t('game.total_h') : l), positions.map((p) => ['us', 'them'].map((side) => {
      const piedras = side === 'us' ? p.piedras.us : p.piedras.them;
      const v = l === 'total' ? lances.reduce((a, x) => a + piedras[x], 0) : piedras[l];
      return el('td', { 'data-testid': `piedras-${p.position}-${side}-${l}`, 'data-value': String(v), class: l === 'total' ? 'hi' : '' }, localDecimals(v.toFixed(3)));
    }))));
  }
  const extra = [
    el('div', { class: 'panel' }, el('h3', {}, t('leyes.expected_h')),
      scrollBox(el('table', { class: 'leyes', 'data-testid': 'piedras-table' }, el('thead', {}, ehead), ebody))),
    el('div', { class: 'panel' }, el('h3', {}, t('leyes.unknown_h')), scrollBox(ptable, 'narrow'))];
  result.append(main, chart, ...extra);
  for (const box of result.querySelectorAll('.tablewrap')) markOverflow(box);
}

/**
 * A table in a box that scrolls sideways when the screen is narrower than the table.
 * @param {HTMLTableElement} table
 */
function scrollBox(table, cls = '') {
  return el('div', { class: `tablewrap ${cls}` }, table);
}

/**
 * Marks a scroll box that overflows, so that it shows it scrolls (and where it stands).
 * @param {Element} box
 */
function markOverflow(box) {
  const hint = el('div', { class: 'scroll-hint hidden', 'data-testid': 'scroll-hint' }, t('leyes.scroll_hint'));
  box.after(hint);
  const mark = () => {
    const over = box.scrollWidth > box.clientWidth + 1;
    box.classList.toggle('scrolls', over);
    hint.classList.toggle('hidden', !over || box.scrollLeft + box.clientWidth >= box.scrollWidth - 1);
  };
  box.addEventListener('scroll', mark, { passive: true });
  window.addEventListener('resize', mark);
  requestAnimationFrame(mark);
}

/**
 * The chance of winning each lance at each position, as bars.
 * @param {PositionOdds[]} positions
 */
function chartSVG(positions) {
  /** @type {[string, (p: PositionOdds) => number][]} */
  const groups = [['grande', (p) => p.grande], ['chica', (p) => p.chica], ['pares', (p) => p.pares.win], ['juego', (p) => p.juego.win], ['punto', (p) => p.punto.win]];
  const W = 640; const H = 260; const L = 40; const B = 28; const T = 10;
  const gw = (W - L - 10) / groups.length;
  const n = Math.max(1, positions.length);
  const bw = Math.min(26, (gw - 18) / n);
  let s = `<svg viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${t('leyes.chart_h')}" data-testid="leyes-chart">`;
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const y = T + (H - T - B) * (1 - tick);
    s += `<line x1="${L}" x2="${W - 6}" y1="${y}" y2="${y}" stroke="#e5dfcf" stroke-width="1"/><text x="${L - 6}" y="${y + 4}" text-anchor="end" font-size="11" fill="#6b7280">${tick * 100}%</text>`;
  }
  groups.forEach(([name, get], gi) => {
    const x0 = L + gi * gw + (gw - bw * n) / 2;
    positions.forEach((p, i) => {
      const v = get(p);
      const h = (H - T - B) * v;
      const x = x0 + i * bw;
      s += `<rect x="${x + 1}" y="${T + (H - T - B) - h}" width="${bw - 2}" height="${Math.max(h, 0.5)}" rx="2" fill="${POS_COLORS[p.position]}"><title>${name}, ${t('leyes.position_n', { p: p.position })}: ${pct(v)}</title></rect>`;
    });
    s += `<text x="${L + gi * gw + gw / 2}" y="${H - 9}" text-anchor="middle" font-size="12" fill="#374151">${name}</text>`;
  });
  s += '</svg>';
  const div = el('div');
  div.innerHTML = s;
  return div;
}

if (fromQuery()) { hand.update(); partner.update(); syncPartnerDecl(); compute(); } else {
  hand.input.value = 'RRCA'; hand.update(); partner.update();
}
