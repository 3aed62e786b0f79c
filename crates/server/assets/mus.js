// Mus at the table: the view (cards, phases, bets, declarations, señas, scores, the
// counting) drawn on the felt, and buttons for exactly the legal actions.

import { registerGame } from './games.js';
import { el, clear } from './common.js';
import { cardEl } from './cards.js';

const LANCE_NAMES = { grande: 'Grande', chica: 'Chica', pares: 'Pares', juego: 'Juego', punto: 'Punto' };
const POSITION = ['mano', '2º', '3º', 'postre'];
const SENA_WORDS = {
  ninguna: 'ninguna', dos_reyes: 'dos reyes', tres_reyes: 'tres reyes', dos_pitos: 'dos pitos',
  tres_pitos: 'tres pitos', medias: 'medias', duples: 'duples', treinta_y_una: '31', ciego: 'ciego',
};
const senaWords = (s) => (s == null ? '' : SENA_WORDS[s] || String(s).replace(/_/g, ' '));

// Local, per-table UI state that survives re-renders: the cards picked for a discard and
// the envido amount on the picker.
const uiState = new WeakMap();

function option(value, text, selected) {
  return el('option', { value, selected: String(value) === String(selected) }, text);
}

function rulesForm(defaults = {}) {
  const d = { mode: '8reyes', target: 40, juegos: 3, vacas: 1, real31: false, punto_y_miedo: true, senas: false, ...defaults };
  const mode = el('select', { name: 'mode', 'data-testid': 'rule-mode' },
    option('8reyes', '8 reyes', d.mode), option('4reyes', '4 reyes', d.mode));
  const target = el('select', { name: 'target', 'data-testid': 'rule-target' },
    option(40, '40 piedras', d.target), option(30, '30 piedras', d.target));
  const juegos = el('select', { name: 'juegos', 'data-testid': 'rule-juegos' },
    [1, 3, 5].map((n) => option(n, n === 1 ? '1 juego' : `best of ${n} juegos`, d.juegos)));
  const vacas = el('select', { name: 'vacas', 'data-testid': 'rule-vacas' },
    [1, 3, 5].map((n) => option(n, n === 1 ? '1 vaca' : `best of ${n} vacas`, d.vacas)));
  const check = (name, text, on) => {
    const input = el('input', { type: 'checkbox', name, checked: !!on, 'data-testid': `rule-${name}` });
    return [input, el('label', { class: 'check' }, input, text)];
  };
  const [real31, real31L] = check('real31', '31 real', d.real31);
  const [miedo, miedoL] = check('punto_y_miedo', 'punto y miedo', d.punto_y_miedo);
  const [senas, senasL] = check('senas', 'señas between partners', d.senas);
  const box = el('div', {},
    el('div', { class: 'fields' },
      el('label', { class: 'field' }, 'Deck', mode),
      el('label', { class: 'field' }, 'Game to', target),
      el('label', { class: 'field' }, 'Juegos per vaca', juegos),
      el('label', { class: 'field' }, 'Vacas', vacas)),
    el('div', { class: 'row', style: { gap: '1.2rem', marginBottom: '.8rem' } }, real31L, miedoL, senasL));
  return {
    el: box,
    read: () => ({
      mode: mode.value, target: Number(target.value), juegos: Number(juegos.value), vacas: Number(vacas.value),
      real31: real31.checked, punto_y_miedo: miedo.checked, senas: senas.checked,
    }),
  };
}

function rulesSummary(r = {}) {
  const parts = [r.mode === '4reyes' ? '4 reyes' : '8 reyes', `${r.target ?? 40} piedras`];
  const j = r.juegos ?? 3; const v = r.vacas ?? 1;
  parts.push(j === 1 ? '1 juego' : `${j} juegos`);
  if (v > 1) parts.push(`${v} vacas`);
  if (r.real31) parts.push('31 real');
  if (r.senas) parts.push('señas');
  return parts.join(' · ');
}

/** The four hands when every hand may be shown (replays, the end of the match), or null. */
function shownHands(v, st) {
  const four = (h) => Array.isArray(h) && h.length === 4 && h.every(Array.isArray);
  if (four(st.hands)) return st.hands;
  if (four(v.hands)) return v.hands;
  if (four(v.cards)) return v.cards;
  if (v.phase && v.phase.phase === 'over' && v.last_hand && four(v.last_hand.cards)) return v.last_hand.cards;
  return null;
}

function statusText(status, pairName) {
  switch (status && status.status) {
    case 'en_paso': return 'en paso';
    case 'accepted': return `${status.piedras} quiero`;
    case 'ordago_accepted': return 'órdago';
    case 'declined': return `no quiero · ${pairName(status.pair)} +${status.piedras}`;
    case 'unbet': return `${pairName(status.pair)}, sin envite`;
    case 'void': return 'no se juega';
    default: return '';
  }
}

function phaseTitle(v) {
  const p = v.phase || {};
  switch (p.phase) {
    case 'mus': return v.mus_rounds > 0 ? `¿Mus? (${v.mus_rounds} ${v.mus_rounds === 1 ? 'round' : 'rounds'})` : '¿Mus?';
    case 'discard': return 'Descarte';
    case 'senas': return 'Señas';
    case 'declare': return `${LANCE_NAMES[p.lance]}: declaring`;
    case 'bet': return LANCE_NAMES[p.lance] || p.lance;
    case 'over': return 'Fin de la partida';
    default: return '';
  }
}

/** Each seat's last words in the current stage of the hand: {seat: {text, kind}}. */
function lastWords(log = []) {
  let since = 0;
  log.forEach((e, i) => { if (['hand_started', 'served', 'lance_started'].includes(e.type)) since = i + 1; });
  const words = {};
  for (const e of log.slice(since)) {
    if (e.type === 'said') {
      const a = String(e.action);
      words[e.seat] = { text: a, kind: a === 'órdago' ? 'ordago' : /^(envido|reenvido|quiero)/.test(a) ? 'strong' : '' };
    } else if (e.type === 'discarded') {
      words[e.seat] = { text: `descarta ${e.count}`, kind: '' };
    }
  }
  return words;
}

function render({ main, side }, st, ctx) {
  const v = st.view;
  if (!v) { clear(main); return; }
  const me = v.seat ?? ctx.mySeat ?? 0;
  const seated = v.seat !== null && v.seat !== undefined && !st.replay;
  const myPair = me % 2;
  const pairName = (pair) => (seated ? (pair === myPair ? 'nosotros' : 'ellos') : `pair ${pair}–${pair + 2}`);
  const legal = st.replay ? [] : st.legal || [];
  const phase = v.phase || {};
  const hands = shownHands(v, st);
  const words = lastWords(v.log);

  let ui = uiState.get(main);
  const key = `${v.game_number}-${v.hand_number}-${v.mus_rounds}-${phase.phase}`;
  if (!ui || ui.key !== key) { ui = { key, selected: new Set(), amount: ui ? ui.amount : 2 }; uiState.set(main, ui); }
  const rerender = () => render({ main, side }, st, ctx);

  // ---- seats around the felt: me at the bottom, the next to speak on my right ----
  const spots = [['bottom', me], ['right', (me + 1) % 4], ['top', (me + 2) % 4], ['left', (me + 3) % 4]];
  const discarding = legal.some((a) => a.startsWith('descarto'));

  const plate = (where, s) => {
    const pos = (s - v.mano + 4) % 4;
    const toAct = (v.to_act || []).includes(s) && phase.phase !== 'over';
    const pair = s % 2;
    const connected = ctx.connected ? ctx.connected(s) : null;
    const name = el('div', { class: 'nameplate', style: { borderColor: pair === myPair ? 'rgba(120,180,255,.55)' : 'rgba(255,140,120,.5)' } },
      connected === null ? null : el('span', { class: `dot ${connected ? 'on' : ''}`, title: connected ? 'connected' : 'not connected' }),
      el('span', { class: 'nm', 'data-testid': `seat-name-${s}` }, ctx.seatName(s)),
      el('span', { class: `chip ${pos === 0 ? 'mano' : ''}` }, POSITION[pos]));
    const chips = el('div', { class: 'row', style: { justifyContent: 'center', gap: '3px' } });
    if (v.pares && v.pares[s] !== null && v.pares[s] !== undefined) chips.append(el('span', { class: `chip ${v.pares[s] ? 'yes' : 'no'}` }, v.pares[s] ? 'pares sí' : 'pares no'));
    if (v.juego && v.juego[s] !== null && v.juego[s] !== undefined) chips.append(el('span', { class: `chip ${v.juego[s] ? 'yes' : 'no'}` }, v.juego[s] ? 'juego sí' : 'juego no'));
    if (v.senas_sent && v.senas_sent[s] && s !== me && !(seated && s === (me + 2) % 4 && v.partner_sena)) chips.append(el('span', { class: 'chip sena' }, 'seña'));
    if (seated && s === (me + 2) % 4 && v.partner_sena) chips.append(el('span', { class: 'chip sena', 'data-testid': 'partner-sena', title: 'only you see it' }, `seña: ${senaWords(v.partner_sena)}`));
    if (seated && s === me && v.my_sena) chips.append(el('span', { class: 'chip sena', 'data-testid': 'my-sena' }, `your seña: ${senaWords(v.my_sena)}`));
    if (phase.phase === 'discard' && v.discarded && v.discarded[s]) chips.append(el('span', { class: 'chip' }, 'discarded'));

    const w = words[s];
    const bubble = w ? el('div', { class: `bubble ${w.kind}`, 'data-testid': `said-${s}` }, w.text) : null;

    let cards;
    if (s === me && seated) {
      cards = el('div', { class: 'myhand', 'data-testid': 'my-hand' });
      for (const c of v.cards || []) {
        const sel = ui.selected.has(c);
        const card = cardEl(c, { 'data-testid': 'my-card', class: `${discarding ? 'selectable' : ''} ${sel ? 'selected' : ''}` });
        if (discarding) {
          const toggle = () => {
            ui.selected.has(c) ? ui.selected.delete(c) : ui.selected.add(c);
            rerender();
            const again = main.querySelector(`[data-testid="my-card"][data-card="${c}"]`);
            if (again && document.activeElement === document.body) again.focus();
          };
          card.setAttribute('role', 'button');
          card.setAttribute('tabindex', '0');
          card.setAttribute('aria-pressed', sel ? 'true' : 'false');
          card.addEventListener('click', toggle);
          card.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(); } });
        }
        cards.append(card);
      }
      for (const c of v.my_discard || []) cards.append(cardEl(c, { class: 'gone', title: 'discarded' }));
    } else if (hands && hands[s] && hands[s].length) {
      cards = el('div', { class: 'hand shown', 'data-testid': `shown-hand-${s}` }, hands[s].map((c) => cardEl(c)));
    } else if (phase.phase !== 'over') {
      const n = phase.phase === 'discard' && v.discarded && v.discarded[s] ? 4 : 4;
      cards = el('div', { class: 'hand' }, Array.from({ length: n }, () => cardEl('back')));
    }
    const controls = ctx.seatControls ? ctx.seatControls(s) : null;
    const parts = where === 'bottom' ? [bubble, chips, cards, name, controls] : [name, controls, cards, chips, bubble];
    return el('div', { class: `plate seat-${where} ${toAct ? 'to-act' : ''}`, 'data-seat': s }, parts);
  };

  // ---- the middle of the felt: phase, bet, lances of this hand ----
  const center = el('div', { class: 'center' });
  const box = el('div', { class: 'centerbox', 'data-testid': 'phase' }, el('div', { class: 'phase-title' }, phaseTitle(v)));
  if (v.bet) {
    const who = pairName(v.bet.pair);
    box.append(el('div', { class: 'betline', 'data-testid': 'bet' },
      v.bet.ordago ? [el('b', {}, '¡Órdago!'), ` (${who})`]
        : ['Envite ', el('b', {}, `${v.bet.total}`), ` piedras (${who}) · deje ${v.bet.deje}`]));
  }
  const settled = new Map((v.lances || []).map(([l, s]) => [l, s]));
  const current = phase.lance;
  const fourth = settled.has('punto') || current === 'punto' ? 'punto' : 'juego';
  const track = el('div', { class: 'lances' });
  for (const l of ['grande', 'chica', 'pares', fourth]) {
    const s = settled.get(l);
    const cls = s ? 'done' : l === current ? 'current' : '';
    track.append(el('span', { class: `lance ${cls}` }, LANCE_NAMES[l], s ? [' ', el('small', {}, statusText(s, pairName))] : null));
  }
  box.append(track);
  const sc = v.scores || { piedras: [0, 0] };
  const [a, b] = seated ? [myPair, 1 - myPair] : [0, 1];
  box.append(el('div', { class: 'miniscore', 'data-testid': 'miniscore', title: seated ? 'nosotros – ellos' : 'pair 0–2 – pair 1–3' },
    el('span', { class: 'us' }, String(sc.piedras[a])), ' – ', el('span', { class: 'them' }, String(sc.piedras[b])),
    el('span', { class: 'muted' }, ` piedras of ${(v.rules && v.rules.target) || 40}`)));
  box.append(el('div', { class: 'deckinfo' },
    `mano ${v.hand_number} · juego ${v.game_number}${v.mus_rounds ? ` · ${v.mus_rounds} mus` : ''} · deck ${v.deck_left}`));
  center.append(box);

  const seats = el('div', { class: 'seats' }, spots.map(([w, s]) => plate(w, s)), center);
  const felt = el('div', { class: 'felt' }, seats);

  // ---- the legal actions ----
  const actions = el('div', { class: 'actions', 'data-testid': 'actions' });
  if (!st.replay) felt.append(actions);
  const sendAction = (a, btn) => {
    for (const b of actions.querySelectorAll('button')) b.disabled = true;
    ctx.send(a);
  };
  const button = (a, label, cls = '') => el('button', {
    class: `btn ${cls}`, 'data-testid': 'action', 'data-action': a, onclick: (e) => sendAction(a, e.currentTarget),
  }, label || a);

  if (legal.length === 0 && !st.replay) {
    const waiting = (v.to_act || []).map((s) => ctx.seatName(s));
    let hint = '';
    if (st.table && st.table.status === 'waiting') hint = 'Waiting for the start: the creator starts the game.';
    else if (phase.phase === 'over') hint = 'The match is over.';
    else if (!seated) hint = waiting.length ? `Watching · ${waiting.join(', ')} to play` : 'Watching';
    else if (waiting.length) hint = `Waiting for ${waiting.join(', ')}…`;
    actions.append(el('span', { class: 'hint', 'data-testid': 'waiting' }, hint));
  } else if (discarding) {
    const options = legal.filter((a) => a.startsWith('descarto')).map((a) => ({ a, set: a.split(/\s+/).slice(1).sort().join(' ') }));
    const want = [...ui.selected].sort().join(' ');
    const match = options.find((o) => o.set === want);
    actions.append(el('span', { class: 'hint' }, ui.selected.size ? `Discard ${ui.selected.size}:` : 'Tap the cards to discard'));
    actions.append(el('button', {
      class: 'btn primary', 'data-testid': 'discard-confirm', 'data-action': match ? match.a : '', disabled: !match,
      onclick: () => match && sendAction(match.a),
    }, ui.selected.size ? `Descarto ${ui.selected.size}` : 'Descarto'));
    if (ui.selected.size) actions.append(el('button', { class: 'btn small ghost', onclick: () => { ui.selected.clear(); rerender(); } }, 'clear'));
  } else {
    const simple = legal.filter((a) => !/^(envido|reenvido) \d+$/.test(a) && !a.startsWith('seña '));
    const order = ['mus', 'no hay mus', 'paso', 'quiero', 'no quiero', 'pares sí', 'pares no', 'juego sí', 'juego no'];
    simple.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
    const cls = { mus: 'primary', 'no hay mus': 'gold', quiero: 'primary', 'órdago': 'danger' };
    for (const a of simple.filter((x) => x !== 'órdago')) actions.append(button(a, a, cls[a] || ''));
    for (const kind of ['envido', 'reenvido']) {
      const amounts = legal.filter((a) => a.startsWith(`${kind} `)).map((a) => Number(a.split(' ')[1])).sort((x, y) => x - y);
      if (!amounts.length) continue;
      if (!amounts.includes(ui.amount)) ui.amount = Math.min(Math.max(ui.amount, amounts[0]), amounts[amounts.length - 1]);
      if (!amounts.includes(ui.amount)) ui.amount = amounts[0];
      const i = amounts.indexOf(ui.amount);
      const a = `${kind} ${ui.amount}`;
      const label = kind === 'envido' ? (ui.amount === 2 ? 'envido' : `envido ${ui.amount}`) : `${ui.amount} más`;
      actions.append(el('span', { class: 'picker', 'data-testid': `${kind}-picker` },
        el('button', { class: 'btn gold step', 'data-testid': 'amount-down', disabled: i <= 0, 'aria-label': 'less', onclick: () => { ui.amount = amounts[i - 1]; rerender(); } }, '−'),
        button(a, label, 'gold main'),
        el('button', { class: 'btn gold step', 'data-testid': 'amount-up', disabled: i >= amounts.length - 1, 'aria-label': 'more', onclick: () => { ui.amount = amounts[i + 1]; rerender(); } }, '+')));
    }
    if (simple.includes('órdago')) actions.append(button('órdago', '¡órdago!', 'danger'));
    const senas = legal.filter((a) => a.startsWith('seña '));
    if (senas.length) {
      actions.append(el('span', { class: 'hint' }, 'Seña to your partner:'));
      for (const a of senas) actions.append(button(a, a.slice(5), a === 'seña ninguna' ? '' : 'primary'));
    }
  }

  clear(main).append(felt);

  // ---- side: the score and the counting of the last hand ----
  if (side) {
    clear(side);
    side.append(scoreboard(v, { seated, myPair, ctx }));
    const cuenta = cuentaPanel(v, { pairName, ctx });
    if (cuenta) side.append(cuenta);
  }
}

function scoreboard(v, { seated, myPair, ctx }) {
  const r = v.rules || {};
  const target = r.target || 40;
  const sc = v.scores || { piedras: [0, 0], games: [0, 0], vacas: [0, 0] };
  const order = seated ? [myPair, 1 - myPair] : [0, 1];
  const panel = el('div', { class: 'panel', 'data-testid': 'score', 'data-piedras': sc.piedras.join(','), 'data-games': sc.games.join(','), 'data-vacas': sc.vacas.join(',') });
  panel.append(el('h3', {}, 'Tanteo ', el('span', { class: 'muted small' }, `· game to ${target}`)));
  const grid = el('div', { class: 'score' },
    el('span', { class: 'hdr' }, ''), el('span', { class: 'hdr' }, 'piedras'), el('span', { class: 'hdr' }, 'juegos'), el('span', { class: 'hdr' }, 'vacas'));
  for (const pair of order) {
    const mine = seated && pair === myPair;
    const names = `${ctx.seatName(pair)} & ${ctx.seatName(pair + 2)}`;
    const p = sc.piedras[pair];
    grid.append(
      el('span', { class: 'team', title: names }, el('i', { class: 'sw', style: { background: mine || (!seated && pair === 0) ? 'var(--us)' : 'var(--them)' } }),
        el('span', {}, seated ? (mine ? 'Nosotros' : 'Ellos') : `Pair ${pair}–${pair + 2}`)),
      el('span', { class: 'pts', 'data-testid': `piedras-${seated ? (mine ? 'us' : 'them') : pair}` }, String(p)),
      el('span', { class: 'gv' }, `${sc.games[pair]}`),
      el('span', { class: 'gv' }, `${sc.vacas[pair]}`),
      el('div', { class: 'amarracos', title: `${Math.floor(p / 5)} amarracos and ${p % 5} piedras · ${names}` },
        el('span', { class: 'muted small', style: { marginRight: '4px' } }, names),
        Array.from({ length: Math.floor(p / 5) }, () => el('i', { class: 'amarraco' })),
        Array.from({ length: p % 5 }, () => el('i', { class: 'piedra' }))),
      el('div', { class: 'bar' }, el('div', { style: { width: `${Math.min(100, (100 * p) / target)}%`, background: mine || (!seated && pair === 0) ? 'var(--us)' : 'var(--them)' } })));
  }
  panel.append(grid);
  return panel;
}

function cuentaPanel(v, { pairName, ctx }) {
  const h = v.last_hand;
  if (!h) return null;
  const panel = el('div', { class: 'panel cuenta', 'data-testid': 'cuenta' });
  panel.append(el('h3', {}, `La cuenta · mano ${h.hand}`));
  const showdown = (h.log || []).find((e) => e.type === 'showdown');
  const cards = h.cards || (showdown && showdown.cards);
  if (cards) {
    for (let i = 0; i < 4; i++) {
      const s = (h.mano + i) % 4;
      panel.append(el('div', { class: 'who' },
        el('span', { class: 'nm', title: ctx.seatName(s) }, ctx.seatName(s)),
        el('span', { class: 'chip', style: { background: '#e8e1cf', color: '#5b4b22' } }, POSITION[i]),
        el('span', { class: 'cards' }, cards[s].map((c) => cardEl(c)))));
    }
  } else {
    panel.append(el('div', { class: 'muted small' }, 'The hands were not shown.'));
  }
  const ul = el('ul');
  if (showdown) {
    for (const w of showdown.winners || []) {
      ul.append(el('li', {}, el('b', {}, LANCE_NAMES[w.lance]), ': ',
        w.seat === null || w.seat === undefined ? 'no se juega' : `${ctx.seatName(w.seat)} (${w.reason})`));
    }
  }
  for (const e of h.log || []) {
    if (e.type === 'scored') {
      ul.append(el('li', { class: 'muted' }, `${pairName(e.pair)} +${e.piedras} ${e.piedras === 1 ? 'piedra' : 'piedras'} · ${e.lance} (${String(e.reason).replace('_', ' ')})`));
    } else if (e.type === 'game_won') {
      ul.append(el('li', {}, el('b', {}, `Juego for ${pairName(e.pair)}${e.ordago ? ' (órdago)' : ''}: ${e.piedras.join('–')}`)));
    }
  }
  if (ul.childNodes.length) panel.append(ul);
  return panel;
}

function outcomeText(outcome, table, you) {
  const winners = outcome.winners || [];
  if (you && you.seat !== null && you.seat !== undefined) {
    return winners.includes(you.seat) ? '¡Ganamos! You won the match.' : 'Ellos ganan. You lost the match.';
  }
  return `Pair ${winners.join('–')} won the match.`;
}

registerGame({ name: 'mus', title: 'Mus', rulesForm, rulesSummary, render, outcomeText });
