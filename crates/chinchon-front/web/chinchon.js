// @ts-check
// Chinchón at the table: 2–8 seats around the felt, the stock and the pile to draw from,
// your hand with its melds (reordered by dragging or with the arrows), discards and closes
// by clicking, meter cartas, the close laid out for everybody until they press next, and a
// score sheet with eliminations and reenganche. Only what the seat's view holds is drawn:
// the page never has another player's hand.

import { registerGame } from './games.js';
import { el, clear, t, ordinal } from './common.js';
import { cardEl, cardName } from './cards.js';
import { DEFAULT_RULES, analyze, closes, cardValue, tidy } from './chinchon-rules.js';
import {
  seatedOf, ringSeats, ringSpots, circleSpots, nameplate as plateOf, holdOpen, revealOnce, nextButton,
  select, check, field, nameSeatsIn, pointsDetail, pointsResult, seatsText, seatsOutcome, frame, gameStyle, onNextOf, feltAlone,
  othersAwaited, phaseTitle, idleHint, scoreTitle, totalRow, fullViewHands,
} from './kit.js';
import { deal, rngFromSeed } from './chance.js';

/** @typedef {import('./kit.js').GameModule} GameModule */
/** @typedef {import('./kit.js').GameState} GameState */
/** @typedef {import('./kit.js').GameContext} GameContext */
/** @typedef {import('./chinchon-rules.js').ChinchonOptions} ChinchonOptions */
/** @typedef {import('./chinchon-rules.js').Close} Close */

/**
 * A meld as the engine shows it (its kind and cards).
 * @typedef {{kind?: string, cards: string[]}} Meld
 */

/**
 * The close on the table while the others lay cards onto it.
 * @typedef {{closer: number, down: string, close: Close, melds: Meld[], cards?: string[],
 *   laid?: {seat: number, card: string, meld: number}[]}} CloseState
 */

/**
 * A finished hand as everybody saw it at its end: who closed (none when the stock or the
 * turns ran out) and how, every seat's melds, cards left, cards laid and points, the totals.
 * @typedef {{hand: number, closer: number | null, down: string | null, close: Close | null,
 *   results?: {seat: number, melds?: Meld[], unmatched?: string[], laid?: string[], points: number}[],
 *   scores?: number[]}} HandResult
 */

/**
 * A row of the score sheet: a hand's points by seat (null: out), the totals after it.
 * @typedef {{hand: number, closer: number | null, close: Close | null, points: (number | null)[], scores: number[],
 *   out: boolean[], reentered: boolean[]}} SheetRow
 */

/**
 * What a seat sees of Chinchón (`ChinchonView`; a spectator: no hand). A replay's full view
 * has every hand (`hands`).
 * @typedef {{seat?: number | null, seats: number, rules?: Partial<ChinchonOptions>, decks: number, hand_number: number,
 *   dealer: number, mano: number, phase: 'draw' | 'discard' | 'lay_off' | 'over', turn?: number | null, turns?: number,
 *   hand?: string[], hand_sizes?: number[], stock: number, pile?: string[], muestra: string, took?: string[][],
 *   holds?: string[][], discarded?: string[][], scores?: number[], out: boolean[], reentered: boolean[],
 *   out_order?: number[][], close?: CloseState | null, last_hand?: HandResult | null, sheet?: SheetRow[],
 *   winners?: number[], chinchon?: number | null, hands?: string[][]}} ChinchonView
 */

/**
 * The page's state of a table kept across renders: the hand's order (the player's, or the
 * melds' until the player moves a card), the card picked, the cards just drawn, the
 * counting and the pile shown, a card being dragged, and the last render's arguments.
 * @typedef {{table: string, order: string[], manual: boolean, sel: number | null, newCards: string[], handNo: number,
 *   args?: Parameters<GameModule['render']>, dragging?: boolean, justDragged?: boolean, showPile?: boolean,
 *   counting?: import('./kit.js').HoldView, shownClose?: string}} ChinchonUi
 */

// The rules live in chinchon-rules.js; the tests and other pages import them from here too.
export { DEFAULT_RULES, analyze, closeOf, closes, cardValue, seqLen, tidy } from './chinchon-rules.js';

gameStyle('chinchon');

// ---------------------------------------------------------------------------------------
// The lobby: every option of the table, with the game's defaults
// ---------------------------------------------------------------------------------------

/** @type {GameModule['rulesForm']} */
function rulesForm(defaults = {}) {
  /** @type {ChinchonOptions} */
  const d = { ...DEFAULT_RULES, ...defaults };
  const deck = select('deck', [[40, t('cf.r.deck40')], [48, t('cf.r.deck48')]], d.deck);
  const twoDecks = select('two_decks_from', [...[2, 3, 4, 5, 6, 7, 8].map((n) => /** @type {[number, string]} */ ([n, t('cf.r.from_players', { n })])), ['never', t('cf.r.never')]],
    d.two_decks_from === null ? 'never' : d.two_decks_from);
  const jokers = select('jokers', [[0, t('cf.r.none')], [1, t('cf.r.per_deck', { n: 1 })], [2, t('cf.r.per_deck', { n: 2 })]], d.jokers);
  const jokerPenalty = select('joker_penalty', [[50, t('cf.points', { count: 50 })], [25, t('cf.points', { count: 25 })]], d.joker_penalty);
  const closeLimit = select('close_limit', [3, 4, 5].map((n) => /** @type {[number, string]} */ ([n, t('cf.r.worth_or_less', { n })])), d.close_limit);
  const figures = select('figures', [['number', t('cf.r.fig_number')], ['ten', t('cf.r.fig_ten')], ['eight_nine_ten', t('cf.r.fig_8910')]], d.figures);
  const meter = select('meter_cartas', [['on', t('cf.r.on')], ['not_after_menos_diez', t('cf.r.not_after_md')], ['off', t('cf.r.off')]], d.meter_cartas);
  const target = el('input', { type: 'number', name: 'target', min: 1, max: 500, step: 1, value: d.target, list: 'chinchon-targets', 'data-testid': 'rule-target' });
  const targets = el('datalist', { id: 'chinchon-targets' }, [100, 70, 50].map((n) => el('option', { value: n })));
  const rebuilds = select('stock_rebuilds', [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => /** @type {[number, string]} */ ([n, n === 0 ? t('cf.r.never') : t('cf.r.times', { count: n })])), d.stock_rebuilds);
  const handTurns = el('input', { type: 'number', name: 'hand_turns', min: 50, max: 1000, step: 1, value: d.hand_turns, 'data-testid': 'rule-hand_turns' });
  const reenganche = select('reenganche', [['off', t('cf.r.off')], ['highest', t('cf.r.at_highest')], ['second_highest', t('cf.r.at_second')]], d.reenganche);
  const [firstTurn, firstTurnL] = check('no_close_first_turn', t('cf.r.no_close_first'), d.no_close_first_turn);
  const [falseClose, falseCloseL] = check('allow_false_close', t('cf.r.false_allowed'), d.allow_false_close);
  const box = el('div', { class: 'cf-rules' },
    el('div', { class: 'fields' },
      field(t('cf.f.target'), target, t('cf.f.target_title')),
      field(t('cf.f.deck'), deck),
      field(t('cf.f.two_decks'), twoDecks, t('cf.f.two_decks_title')),
      field(t('cf.f.jokers'), jokers),
      field(t('cf.f.joker_left'), jokerPenalty, t('cf.f.joker_left_title')),
      field(t('cf.f.close_limit'), closeLimit, t('cf.f.close_limit_title')),
      field(t('cf.f.figures'), figures),
      field('Meter cartas', meter, t('cf.f.meter_title')),
      field('Reenganche', reenganche, t('cf.f.reenganche_title')),
      field(t('cf.f.rebuilds'), rebuilds, t('cf.f.rebuilds_title')),
      field(t('cf.f.hand_turns'), handTurns, t('cf.f.hand_turns_title'))),
    targets,
    el('div', { class: 'row', style: { gap: '1.2rem', marginBottom: '.8rem' } }, firstTurnL, falseCloseL));
  return {
    el: box,
    read: () => {
      const out = Number(target.value);
      if (!Number.isInteger(out) || out < 1 || out > 500) throw new Error(t('cf.err.target'));
      const ht = Number(handTurns.value);
      if (!Number.isInteger(ht) || ht < 50 || ht > 1000) throw new Error(t('cf.err.hand_turns'));
      return {
        deck: Number(deck.value),
        two_decks_from: twoDecks.value === 'never' ? null : Number(twoDecks.value),
        jokers: Number(jokers.value),
        joker_penalty: Number(jokerPenalty.value),
        close_limit: Number(closeLimit.value),
        figures: figures.value,
        meter_cartas: meter.value,
        no_close_first_turn: firstTurn.checked,
        target: out,
        reenganche: reenganche.value,
        allow_false_close: falseClose.checked,
        stock_rebuilds: Number(rebuilds.value),
        hand_turns: ht,
      };
    },
  };
}

/** @type {Record<string, string>} */
const FIGURE_WORDS = { ten: 'cf.s.fig_ten', eight_nine_ten: 'cf.s.fig_8910' };
/** @type {Record<string, string>} */
const METER_WORDS = { off: 'cf.s.no_meter', not_after_menos_diez: 'cf.s.meter_not_md' };
/** @type {Record<string, string>} */
const REENGANCHE_WORDS = { highest: 'cf.s.reenganche', second_highest: 'cf.s.reenganche2' };

/** @type {GameModule['rulesSummary']} */
function rulesSummary(rules = {}) {
  /** @type {ChinchonOptions} */
  const r = { ...DEFAULT_RULES, ...rules };
  const parts = [t('cf.s.out_past', { n: r.target }), t('game.cards', { n: r.deck })];
  if (r.jokers) parts.push(`${t('cf.s.jokers', { count: r.jokers })} (${r.joker_penalty})`);
  if (Number(r.close_limit) !== 3) parts.push(t('cf.s.close_le', { n: r.close_limit }));
  if (FIGURE_WORDS[r.figures]) parts.push(t(FIGURE_WORDS[r.figures]));
  if (METER_WORDS[r.meter_cartas]) parts.push(t(METER_WORDS[r.meter_cartas]));
  if (REENGANCHE_WORDS[r.reenganche]) parts.push(t(REENGANCHE_WORDS[r.reenganche]));
  if (r.no_close_first_turn) parts.push(t('cf.s.no_close_first'));
  if (r.allow_false_close) parts.push(t('cf.s.false_closes'));
  if (Number(r.stock_rebuilds) !== DEFAULT_RULES.stock_rebuilds) parts.push(r.stock_rebuilds === 0 ? t('cf.s.rebuilt_never') : t('cf.s.rebuilt_le', { n: r.stock_rebuilds }));
  if (Number(r.hand_turns) !== DEFAULT_RULES.hand_turns) parts.push(t('cf.s.hand_turns', { n: r.hand_turns }));
  return parts.join(' · ');
}

// ---------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------

// Per-table state of the page that survives re-renders: the order of the hand, the card
// picked, the counting on the felt, the score sheet.
/** @type {WeakMap<HTMLElement, ChinchonUi>} */
const uiState = new WeakMap();

/**
 * A multiset of card codes: {code: count}.
 * @param {string[]} codes
 */
function counts(codes) {
  /** @type {Map<string, number>} */
  const m = new Map();
  for (const c of codes) m.set(c, (m.get(c) || 0) + 1);
  return m;
}

/**
 * The hand in the player's order: cards kept where the player put them, new ones at the
 * end (or, until the player reorders, the tidy order of the melds). Answers the order;
 * `ui.newCards` keeps the cards drawn since the last look, to mark them.
 * @param {ChinchonUi} ui
 * @param {string[]} hand
 * @param {ChinchonOptions} rules
 */
function handOrder(ui, hand, rules) {
  const left = counts(hand);
  /** @param {string} c */
  const take = (c) => {
    const n = left.get(c) || 0;
    if (n > 0) left.set(c, n - 1);
    return n > 0;
  };
  const kept = (ui.order || []).filter(take);
  const added = hand.filter(take);
  const fresh = (ui.order || []).length > 0 && added.length > 0 && added.length < hand.length;
  if (fresh) ui.newCards = added;
  else if (added.length || kept.length !== (ui.order || []).length) ui.newCards = [];
  ui.order = ui.manual ? [...kept, ...added] : tidy(hand, rules);
  return ui.order;
}

/**
 * Saves the hand's order for this table and hand, so that a reload keeps it.
 * @param {ChinchonUi} ui
 */
function saveOrder(ui) {
  try { sessionStorage.setItem(`tapete.chinchon.order.${ui.table}`, JSON.stringify({ hand: ui.handNo, order: ui.order, manual: ui.manual })); } catch { /* private mode */ }
}

/**
 * The hand's order kept for this table and hand, if any.
 * @param {ChinchonUi} ui
 */
function loadOrder(ui) {
  try {
    const o = JSON.parse(sessionStorage.getItem(`tapete.chinchon.order.${ui.table}`) || 'null');
    if (o && o.hand === ui.handNo && Array.isArray(o.order)) { ui.order = o.order; ui.manual = !!o.manual; }
  } catch { /* nothing kept */ }
}

/**
 * Which finished hand `last_hand` is: it changes exactly when another hand ends.
 * @param {ChinchonView} v
 */
function handKey(v) {
  const h = v && v.last_hand;
  return h ? `${h.hand}|${h.closer}|${h.down}|${(h.scores || []).join(',')}` : '';
}

// How long the counting stays on the felt when the server holds nothing (ms).
const COUNTING_MS = 8000;

/**
 * Whether the counting of the hand just finished is on the felt (see kit.js `holdOpen`); always at the game's end.
 * @param {ChinchonUi} ui
 * @param {ChinchonView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 */
function countingOpen(ui, v, st, ctx) {
  if (v.phase === 'over') return !!v.last_hand;
  return holdOpen(ui, 'counting', handKey(v), st, ctx, { me: seatedOf(st), ms: COUNTING_MS });
}

/**
 * A small card.
 * @param {string} code
 * @param {import('./cards.js').CardAttrs} [attrs]
 */
const mini = (code, attrs = {}) => cardEl(code, { ...attrs, class: `mini ${attrs.class || ''}` });

/**
 * Cards of a meld (or any cards) in a row; `laid` marks the cards others laid onto it.
 * @param {string[]} codes
 * @param {{cls?: string, laid?: string[], testid?: string, size?: string}} [opts]
 */
function cardRow(codes, { cls = '', laid = [], testid, size = 'mini' } = {}) {
  const left = counts(laid);
  return el('span', { class: `cf-row ${cls}`, 'data-testid': testid },
    codes.map((c) => {
      const n = left.get(c) || 0;
      const isLaid = n > 0;
      if (isLaid) left.set(c, n - 1);
      return cardEl(c, { class: `${size} ${isLaid ? 'laid' : ''}`, title: isLaid ? `${cardName(c)} · ${t('cf.laid_on')}` : cardName(c) });
    }));
}

/**
 * A close in words: chinchón, menos diez, or the card left and its points; a false close.
 * @param {Close | null} close
 */
function closeWords(close) {
  if (!close) return t('cf.false_close');
  if (close.kind === 'chinchon') return '¡chinchón!';
  if (close.kind === 'menos_diez') return 'menos diez';
  return t('cf.card_left', { card: close.card, points: close.points });
}

/** @param {number} n */
const pts = (n) => t('cf.points', { count: n });

/**
 * A seat's chips: winner, out, re-entered.
 * @param {ChinchonView} v
 * @param {number} s
 * @param {{winners?: number[]}} [opts]
 */
function statusChips(v, s, { winners = [] } = {}) {
  const chips = [];
  if (winners.includes(s)) chips.push(el('span', { class: 'chip yes', 'data-testid': `winner-${s}` }, t('game.winner')));
  if (v.out && v.out[s]) chips.push(el('span', { class: 'chip out', 'data-testid': `out-${s}` }, t('cf.out')));
  if (v.reentered && v.reentered[s]) chips.push(el('span', { class: 'chip reenganche', 'data-testid': `reentered-${s}`, title: t('cf.reentered_title') }, 'reenganche'));
  return chips;
}

/**
 * A seat's nameplate: connection, name, away, mano / deals, out, re-entered.
 * @param {ChinchonView} v
 * @param {number} s
 * @param {GameState} st
 * @param {GameContext} ctx
 */
function nameplate(v, s, st, ctx, { me = false } = {}) {
  const running = v.phase !== 'over' && !(st.table && st.table.status === 'waiting');
  return plateOf(ctx, s, {
    cls: me ? 'us' : '',
    chips: [
      running && s === v.mano && !v.out[s] ? el('span', { class: 'chip mano', title: t('cf.mano_title') }, 'mano') : null,
      running && s === v.dealer && !v.out[s] ? el('span', { class: 'chip', title: t('cf.dealer_title') }, t('cf.deals')) : null,
      statusChips(v, s, { winners: v.winners || [] })],
  });
}

/**
 * Another seat (or any seat, for spectators and replays) around the felt.
 * @param {ChinchonView} v
 * @param {number} s
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {[number, number] | undefined} spot
 * @param {string[] | null} shown
 */
function seatPlate(v, s, st, ctx, spot, shown) {
  const started = !(st.table && st.table.status === 'waiting');
  const toAct = started && v.turn === s && v.phase !== 'over';
  const out = v.out && v.out[s];
  const size = (v.hand_sizes || [])[s] || 0;
  const holds = (v.holds || [])[s] || [];
  const took = (v.took || [])[s] || [];
  const tookGone = [...took];
  for (const c of holds) { const i = tookGone.indexOf(c); if (i >= 0) tookGone.splice(i, 1); }
  const score = (v.scores || [])[s] ?? 0;
  let cards = null;
  if (shown && shown.length) {
    cards = handWithMelds(shown, v.rules, { testid: `shown-hand-${s}`, size: 'mini' });
  } else if (started && !out && size) {
    cards = el('div', { class: 'cf-backs', 'data-testid': `backs-${s}`, title: t('cf.n_cards', { count: size }) }, Array.from({ length: size }, () => cardEl('back')));
  }
  const tookRow = started && (holds.length || tookGone.length)
    ? el('div', { class: 'cf-took', 'data-testid': `took-${s}`, title: t('cf.took_title') },
      el('span', { class: 'cf-took-l' }, t('cf.took')),
      holds.map((c) => mini(c, { 'data-testid': 'held' })),
      tookGone.map((c) => mini(c, { class: 'gone', title: `${cardName(c)} · ${t('cf.taken_discarded')}` })))
    : null;
  const controls = ctx.seatControls ? ctx.seatControls(s) : null;
  const plate = el('div', {
    class: `cf-seat ${toAct ? 'to-act' : ''} ${out ? 'out' : ''} ${ctx.away && ctx.away(s) ? 'away' : ''}`,
    'data-seat': s, 'data-testid': `seat-${s}`, style: spot ? { left: `${spot[0]}%`, top: `${spot[1]}%` } : null,
  },
  nameplate(v, s, st, ctx),
  el('div', { class: 'cf-line' },
    el('span', { class: 'cf-pts', 'data-testid': `points-${s}`, title: t('cf.points_title') }, String(score)),
    shown ? null : cards,
    started && !out ? el('span', { class: 'cf-count', 'data-testid': `count-${s}`, 'data-unit': t('cf.cards_unit'), title: t('cf.n_cards', { count: size }) }, `${size}`) : null,
    toAct ? el('span', { class: 'cf-turn' }, v.phase === 'lay_off' ? t('cf.lays') : v.phase === 'draw' ? t('cf.draws') : t('cf.discards')) : null),
  shown ? cards : null, tookRow, controls);
  return plate;
}

/**
 * Cards with their melds marked (for shown hands: replays).
 * @param {string[]} codes
 * @param {Partial<ChinchonOptions> | undefined} rules
 * @param {{testid: string, size: string}} how
 */
function handWithMelds(codes, rules, { testid, size }) {
  const order = tidy(codes, rules);
  const a = analyze(order, rules);
  const meldOf = new Array(order.length).fill(-1);
  a.melds.forEach((at, k) => at.forEach((i) => { meldOf[i] = k; }));
  return el('div', { class: 'cf-row shown', 'data-testid': testid },
    order.map((c, i) => cardEl(c, { class: `${size} ${meldOf[i] >= 0 ? `m${meldOf[i]}` : 'loose'}` })));
}

/**
 * The stock and the pile, clickable when drawing is legal.
 * @param {ChinchonView} v
 * @param {GameState} st
 * @param {string[]} legal
 * @param {(action: string) => void} send
 */
function drawArea(v, st, legal, send) {
  const started = !(st.table && st.table.status === 'waiting');
  const canRobo = legal.includes('robo');
  const canTomo = legal.includes('tomo');
  const stockN = started ? v.stock : 0;
  const layers = Math.min(4, Math.ceil(stockN / 8));
  const stock = el(canRobo ? 'button' : 'div', {
    class: `cf-stock ${canRobo ? 'can' : ''}`, 'data-testid': 'stock', 'data-action': canRobo ? 'robo' : null, 'data-count': stockN,
    title: canRobo ? t('cf.robo_title') : t('cf.stock_title', { count: stockN }), onclick: canRobo ? () => send('robo') : null,
  },
  el('span', { class: 'cf-stack' }, Array.from({ length: Math.max(1, layers) }, (_, k) => cardEl('back', { style: `--k:${k}` }))),
  el('span', { class: 'cf-lbl' }, canRobo ? 'robo' : t('cf.in_stock', { n: stockN })));
  const pile = started ? v.pile || [] : [];
  const top = pile[pile.length - 1];
  const under = pile.slice(-3, -1);
  const pileEl = el(canTomo ? 'button' : 'div', {
    class: `cf-pile ${canTomo ? 'can' : ''}`, 'data-testid': 'pile', 'data-action': canTomo ? 'tomo' : null, 'data-top': top || '', 'data-count': pile.length,
    title: canTomo ? t('cf.tomo_title', { card: cardName(top) }) : t('cf.pile_title'), onclick: canTomo ? () => send('tomo') : null,
  },
  el('span', { class: 'cf-stack' }, under.map((c, k) => cardEl(c, { class: 'under', style: `--k:${k}` })), top ? cardEl(top) : el('span', { class: 'cf-empty' })),
  el('span', { class: 'cf-lbl' }, canTomo ? `tomo ${top}` : top ? t('cf.the_pile') : t('cf.no_pile')));
  return el('div', { class: 'cf-draw' }, stock, pileEl);
}

/** The whole pile, bottom first (everybody saw every card of it). */
/**
 * @param {ChinchonView} v
 * @param {ChinchonUi} ui
 * @param {() => void} rerender
 */
function pileList(v, ui, rerender) {
  const pile = v.pile || [];
  if (pile.length < 2) return null;
  return el('div', { class: 'cf-pilelist' },
    el('button', { class: 'linkish', 'data-testid': 'show-pile', onclick: () => { ui.showPile = !ui.showPile; rerender(); } },
      ui.showPile ? t('cf.hide_pile') : t('cf.whole_pile', { n: pile.length })),
    ui.showPile ? el('div', { class: 'cf-row', 'data-testid': 'pile-cards' }, pile.map((c) => mini(c))) : null);
}

/** The close on the table while the others lay cards onto it. */
/**
 * @param {ChinchonView} v
 * @param {GameContext} ctx
 */
function closeBand(v, ctx) {
  const c = v.close;
  if (!c) return null;
  const laid = (c.laid || []).map((l) => l.card);
  return el('div', { class: 'cf-close', 'data-testid': 'table-close' },
    el('div', { class: 'cf-close-t' }, el('b', {}, ctx.seatName(c.closer)), ` ${t('cf.closes', { how: closeWords(c.close) })}`,
      v.phase === 'lay_off' && v.turn !== null && v.turn !== undefined ? el('span', { class: 'muted-felt' }, ` · ${t('cf.meter_lays', { name: ctx.seatName(v.turn) })}`) : null),
    el('div', { class: 'cf-melds' }, (c.melds || []).map((m, k) => cardRow(m.cards, { cls: 'meld', laid, testid: `close-meld-${k}` })),
      c.close && c.close.kind === 'normal' ? el('span', { class: 'cf-left' }, cardRow([c.close.card], { cls: 'loose' }), el('small', {}, t('cf.left'))) : null,
      el('span', { class: 'cf-left' }, cardRow([c.down], { cls: 'down' }), el('small', {}, t('cf.put_down')))));
}

/** The counting of a finished hand on the felt: the close, every player's melds, cards left and points, the totals. */
/**
 * @param {ChinchonView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {{onNext: () => void, seated: number | null}} how
 */
function countingEl(v, st, ctx, { onNext, seated }) {
  const h = /** @type {HandResult} (shown only with a last hand) */ (v.last_hand);
  const rules = { ...DEFAULT_RULES, ...(v.rules || {}) };
  const results = [...(h.results || [])];
  // A hand nobody closed (its stock or its turns ran out) has no closer to start from.
  const closerSeat = h.closer;
  const nobody = closerSeat === null || closerSeat === undefined;
  const from = closerSeat ?? 0;
  results.sort((a, b) => (a.seat === h.closer ? -1 : b.seat === h.closer ? 1 : ((a.seat - from + v.seats) % v.seats) - ((b.seat - from + v.seats) % v.seats)));
  const rows = el('div', { class: 'cf-ct-rows' });
  const laidAll = results.flatMap((r) => r.laid || []);
  for (const r of results) {
    const closer = r.seat === h.closer;
    const total = (h.scores || v.scores || [])[r.seat];
    const passed = total > rules.target;
    const fate = v.out[r.seat] && passed ? el('span', { class: 'chip out' }, t('cf.out'))
      : v.reentered[r.seat] && passed ? el('span', { class: 'chip reenganche' }, 'reenganche') : null;
    rows.append(el('div', { class: `cf-ct-row ${closer ? 'closer' : ''} ${r.seat === seated ? 'mine' : ''}`, 'data-testid': `counting-seat-${r.seat}`, 'data-points': r.points },
      el('div', { class: 'cf-ct-who' }, el('b', {}, ctx.seatName(r.seat)), closer ? el('span', { class: 'chip mano' }, h.close ? t('cf.closed') : t('cf.false_close')) : null, fate),
      el('div', { class: 'cf-ct-cards' },
        (r.melds || []).map((m) => cardRow(m.cards, { cls: 'meld', laid: closer ? laidAll : [] })),
        r.unmatched && r.unmatched.length ? cardRow(r.unmatched, { cls: 'loose', testid: `counting-left-${r.seat}` }) : null,
        r.laid && r.laid.length ? el('span', { class: 'cf-laid' }, el('small', {}, t('cf.laid')), cardRow(r.laid, { cls: 'laidrow' })) : null),
      el('div', { class: 'cf-ct-pts' }, el('b', {}, r.points > 0 ? `+${r.points}` : String(r.points)), el('small', {}, t('game.total', { n: total })))));
  }
  const how = h.close ? closeWords(h.close) : t('cf.false_close_how', { points: pts(FALSE_PENALTY) });
  const over = v.phase === 'over';
  const next = nextButton(st, { over, onNext, ctx });
  const waiting = othersAwaited(st, seated);
  return el('div', { class: 'cf-counting', 'data-testid': 'counting', 'data-hand': h.hand },
    el('div', { class: 'phase-title' }, t('cf.the_count', { n: h.hand })),
    nobody
      ? el('div', { class: 'cf-ct-how', 'data-testid': 'nobody-closed' }, t('cf.nobody_closed'))
      : el('div', { class: 'cf-ct-how' }, el('b', {}, ctx.seatName(closerSeat)), ` ${t('cf.closed_how', { how })}`, h.down ? [` · ${t('cf.put_down')} `, mini(h.down)] : null),
    rows,
    el('div', { class: 'cf-ct-next' }, next,
      waiting.length && !over ? el('span', { class: 'small muted-felt' }, t('game.waiting_for', { names: waiting.map(ctx.seatName).join(', ') })) : null));
}
const FALSE_PENALTY = 50;

/** The score: each seat's points against the target, who is out or re-entered, and the hands seen. */
/**
 * @param {ChinchonView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {ChinchonUi} ui
 */
function scorePanel(v, st, ctx, ui) {
  const rules = { ...DEFAULT_RULES, ...(v.rules || {}) };
  const winners = v.winners || [];
  const panel = el('div', { class: 'panel cf-score', 'data-testid': 'score', 'data-points': (v.scores || []).join(',') });
  panel.append(scoreTitle(v.phase === 'over', t('cf.s.out_past', { n: rules.target })));
  const grid = el('div', { class: 'cf-score-grid' });
  for (let s = 0; s < v.seats; s++) {
    const p = (v.scores || [])[s] ?? 0;
    const mine = s === seatedOf(st);
    grid.append(el('div', { class: `cf-score-row ${v.out[s] ? 'out' : ''} ${mine ? 'mine' : ''}`, 'data-testid': `score-${s}` },
      el('span', { class: 'nm' }, ctx.seatName(s)),
      el('span', { class: 'chips' }, statusChips(v, s, { winners })),
      el('span', { class: 'pts', 'data-testid': `score-points-${s}` }, String(p)),
      el('div', { class: 'bar' }, el('div', { style: { width: `${Math.max(0, Math.min(100, (100 * p) / rules.target))}%`, background: p > rules.target ? 'var(--them)' : mine ? 'var(--us)' : '#8aa39a' } }))));
  }
  panel.append(grid);
  // The score sheet comes with the view: every hand of the game, whenever one arrives.
  const sheet = Array.isArray(v.sheet) ? v.sheet : [];
  if (sheet.length) {
    const head = el('tr', {}, el('th', {}, t('cf.hand')), Array.from({ length: v.seats }, (_, s) => el('th', { title: ctx.seatName(s), class: v.out[s] ? 'out' : '' }, ctx.seatName(s))));
    const body = el('tbody');
    /** @type {SheetRow | null} */
    let prev = null;
    for (const r of sheet) {
      body.append(el('tr', { 'data-testid': 'sheet-row' }, el('td', {}, String(r.hand)),
        r.points.map((p, s) => {
          const wentOut = r.out[s] && !(prev && prev.out[s]);
          const reentered = r.reentered[s] && !(prev && prev.reentered[s]);
          if (p === null || p === undefined) return el('td', { class: 'muted' }, r.out[s] ? '' : '·');
          return el('td', { class: `${s === r.closer ? 'closer' : ''} ${wentOut ? 'wentout' : ''}`, title: t('game.total', { n: r.scores[s] }) },
            p > 0 ? `+${p}` : String(p), wentOut ? el('span', { class: 'mark' }, ` ${t('cf.out')}`) : null, reentered ? el('span', { class: 'mark re' }, ' ↺') : null);
        })));
      prev = r;
    }
    body.append(totalRow(v.scores || []));
    panel.append(el('div', { class: 'tablewrap' }, el('table', { class: 'cf-sheet', 'data-testid': 'score-sheet' }, el('thead', {}, head), body)));
  }
  const outs = (v.out_order || []).flat();
  if (outs.length) panel.append(el('div', { class: 'small muted', 'data-testid': 'out-order' }, t('cf.out_order', { names: outs.map(ctx.seatName).join(', ') })));
  return panel;
}

/** @type {GameModule['render']} */
function render(cols, st, outer) {
  const { main } = cols;
  const v = /** @type {ChinchonView | null} */ (st.view);
  if (!v) { clear(main); return; }
  const { ui, ctx, seated, legal, started, send } = frame(uiState, cols, st, outer, {
    fresh: (table) => {
      /** @type {ChinchonUi} */
      const fresh = { table, order: [], manual: false, sel: null, newCards: [], handNo: v.hand_number };
      loadOrder(fresh);
      return fresh;
    },
    draw: render,
    onSend: (ui) => {
      // Nothing more to pick until the answer comes.
      for (const h of main.querySelectorAll('.cf-hand')) h.classList.remove('discarding', 'laying');
      ui.sel = null;
    },
  });
  ui.args = [cols, st, outer];
  if (ui.dragging) return; // drawn again when the card is dropped
  if (ui.handNo !== v.hand_number) { ui.handNo = v.hand_number; ui.order = []; ui.manual = false; ui.sel = null; ui.newCards = []; }
  const { rerender } = ctx;
  const rules = { ...DEFAULT_RULES, ...(v.rules || {}) };

  // ---- the count of the hand just finished ----
  const counting = v.last_hand && (st.replay ? !!st.counting || v.phase === 'over' : countingOpen(ui, v, st, ctx));
  if (counting) {
    const onNext = onNextOf(st, ctx, ui, 'counting');
    const felt = el('div', { class: 'felt cf-felt counting-on' }, countingEl(v, st, ctx, { onNext, seated }));
    feltAlone(cols, felt, st, ui.counting, () => scorePanel(v, st, ctx, ui));
    return;
  }

  // ---- the seats around the felt ----
  const hands = st.replay ? st.hands || v.hands || null : null;
  const others = ringSeats(seated, v.seats);
  // Spectators see every seat in the ring, seat 0 at the bottom.
  const spots = seated !== null ? ringSpots(others.length) : circleSpots(v.seats);
  const ring = el('div', { class: `cf-ring n${v.seats} ${seated === null ? 'all' : ''}`, 'data-testid': 'ring' });
  const ringIn = el('div', { class: 'cf-ring-in' });
  ring.append(ringIn);
  others.forEach((s, k) => ringIn.append(seatPlate(v, s, st, ctx, spots[k], hands ? hands[s] : null)));

  // ---- the middle: who plays, the stock and the pile ----
  /** @type {Record<string, string>} */
  const phaseWords = { draw: t('cf.ph.draw'), discard: legal.some((x) => x.startsWith('cierro')) ? t('cf.ph.discard_close') : 'descarto', lay_off: 'meter cartas', over: t('cf.ph.over') };
  const title = phaseTitle(v, { started, seated, ctx, doing: phaseWords[v.phase] || '' });
  const center = el('div', { class: 'cf-center', 'data-testid': 'phase', 'data-phase': started ? v.phase : 'waiting', 'data-turn': v.turn ?? '' },
    el('div', { class: `phase-title ${v.turn === seated && started ? 'mine' : ''}` }, title),
    started ? drawArea(v, st, legal, send) : el('div', { class: 'cf-draw' }, el('div', { class: 'cf-stock' }, el('span', { class: 'cf-stack' }, cardEl('back')), el('span', { class: 'cf-lbl' }, t('cf.dealt_at_start')))),
    started ? el('div', { class: 'deckinfo' }, `${t('cf.hand_n', { n: v.hand_number })}${v.decks > 1 ? ` · ${t('cf.two_decks')}` : ''} · muestra ${v.muestra}`) : null,
    started ? pileList(v, ui, rerender) : null);
  (seated === null ? ringIn : ring).append(center);

  const felt = el('div', { class: 'felt cf-felt' }, ring);
  if (v.close) felt.append(closeBand(v, ctx) || '');
  const awaited = othersAwaited(st, seated);
  if (awaited.length) felt.append(el('div', { class: 'cf-hold small', 'data-testid': 'hold' }, t('cf.waiting_to_see', { names: awaited.map(ctx.seatName).join(', ') })));

  // ---- my seat: the hand and what I can do ----
  if (seated !== null) felt.append(mySeat(v, st, ctx, ui, { seated, legal, send, rules, rerender, started }));
  clear(main).append(felt);
  // The close to lay cards on is brought clear of the docked seat when the laying starts,
  // on each new turn to lay and as it grows (only if it is not already in view).
  if (v.close && v.phase === 'lay_off' && !st.replay) {
    const key = `${v.hand_number}:${v.turn}:${(v.close.laid || []).length}`;
    revealOnce(felt.querySelector('[data-testid="table-close"]'), ui, 'shownClose', key);
  }
  if (cols.side) clear(cols.side).append(scorePanel(v, st, ctx, ui));
}

/**
 * Your plate, your hand (melds marked, in your order) and the actions.
 * @param {ChinchonView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {ChinchonUi} ui
 * @param {{seated: number, legal: string[], send: (action: string) => void, rules: ChinchonOptions,
 *   rerender: () => void, started: boolean}} how
 */
function mySeat(v, st, ctx, ui, { seated, legal, send, rules, rerender, started }) {
  const hand = v.hand || [];
  const order = handOrder(ui, hand, rules);
  saveOrder(ui);
  const a = analyze(order, rules);
  const meldOf = new Array(order.length).fill(-1);
  a.melds.forEach((at, k) => at.forEach((i) => { meldOf[i] = k; }));
  const phase = v.phase;
  const myTurn = started && v.turn === seated && legal.length > 0;
  const discarding = myTurn && phase === 'discard';
  const laying = myTurn && phase === 'lay_off';
  const fits = new Set(legal.filter((x) => x.startsWith('meto ')).map((x) => x.slice(5)));
  const closable = new Set(legal.filter((x) => x.startsWith('cierro ')).map((x) => x.slice(7)));
  const goodCloses = discarding && closable.size ? closes(order, rules) : new Map();
  if (ui.sel !== null && (ui.sel >= order.length || ui.sel < 0)) ui.sel = null;
  const newLeft = counts(ui.newCards || []);

  const handEl = el('div', {
    class: `cf-hand ${discarding ? 'discarding' : ''} ${laying ? 'laying' : ''}`, 'data-testid': 'my-hand', 'data-deadwood': a.deadwood,
    style: `--n:${Math.max(1, order.length)}`,
  });
  order.forEach((c, i) => {
    const n = newLeft.get(c) || 0;
    const isNew = n > 0;
    if (isNew) newLeft.set(c, n - 1);
    const m = meldOf[i];
    const card = cardEl(c, {
      'data-testid': 'my-card', 'data-index': i, 'data-meld': m >= 0 ? m : '', 'data-value': cardValue(c, rules),
      class: `${m >= 0 ? `m${m}` : 'loose'} ${ui.sel === i ? 'selected' : ''} ${isNew ? 'new' : ''} ${laying && fits.has(c) ? 'fits' : ''} ${discarding ? 'selectable' : ''}`,
      role: 'button', tabindex: '0', 'aria-pressed': ui.sel === i ? 'true' : 'false',
    });
    if (isNew) { card.title = `${cardName(c)} · ${t('cf.just_drawn')}`; card.dataset.new = t('cf.new'); }
    if (goodCloses.has(c) && closable.has(c)) card.append(el('span', { class: 'cf-tag' }, 'cierra'));
    const pick = () => {
      if (ui.justDragged) { ui.justDragged = false; return; }
      if (laying && fits.has(c)) { send(`meto ${c}`); return; }
      if (discarding && ui.sel === i) { send(`descarto ${c}`); return; }
      ui.sel = ui.sel === i ? null : i;
      rerender();
    };
    card.addEventListener('click', pick);
    card.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); }
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') { e.preventDefault(); ui.sel = i; move(ui, e.key === 'ArrowLeft' ? -1 : 1, rerender, true); }
    });
    handEl.append(card);
  });
  dragToReorder(handEl, ui, rerender);

  // ---- the plate and the summary of the hand ----
  const score = (v.scores || [])[seated] ?? 0;
  const out = v.out && v.out[seated];
  const summary = !hand.length ? (out ? t('cf.you_are_out') : '')
    : `${a.melds.length ? t('cf.melds', { count: a.melds.length }) : t('cf.no_melds')} · ${t('cf.points_left', { count: a.deadwood })}`;
  const plate = el('div', { class: `cf-me ${v.turn === seated && started && phase !== 'over' ? 'to-act' : ''}`, 'data-seat': seated, 'data-testid': `seat-${seated}` },
    el('div', { class: 'cf-me-head' }, nameplate(v, seated, st, ctx, { me: true }),
      el('span', { class: 'cf-pts', 'data-testid': `points-${seated}` }, String(score)),
      el('span', { class: 'small muted-felt', 'data-testid': 'hand-summary' }, summary),
      hand.length > 1 ? el('button', { class: 'btn small ghost', 'data-testid': 'tidy', title: t('cf.sort_title'), onclick: () => { ui.manual = false; ui.sel = null; rerender(); } }, t('cf.sort')) : null),
    tookRow(v, seated),
    handEl);

  // ---- the actions ----
  const actions = el('div', { class: 'actions cf-actions', 'data-testid': 'actions' });
  /** @type {(action: string, label: import('./common.js').Child, cls?: string, extra?: {testid?: string, title?: string}) => HTMLButtonElement} */
  const button = (action, label, cls = '', extra = {}) => el('button', { class: `btn ${cls}`, 'data-testid': extra.testid || 'action', 'data-action': action, title: extra.title, onclick: () => send(action) }, label);
  const sel = ui.sel !== null ? order[ui.sel] : null;
  const idle = idleHint({ started, over: phase === 'over' });
  if (idle) {
    actions.append(idle);
  } else if (!myTurn) {
    const who = v.turn === null || v.turn === undefined ? '' : ctx.seatName(v.turn);
    actions.append(el('span', { class: 'hint', 'data-testid': 'waiting' }, who ? t('hint.waiting_for', { names: who }) : ''));
  } else if (phase === 'draw') {
    const pile = v.pile || [];
    const top = pile[pile.length - 1];
    actions.append(el('span', { class: 'hint' }, t('cf.hint.draw')));
    if (legal.includes('robo')) actions.append(button('robo', 'robo', 'primary'));
    if (legal.includes('tomo')) actions.append(button('tomo', ['tomo ', mini(top)], 'gold'));
  } else if (phase === 'discard') {
    if (sel === null) actions.append(el('span', { class: 'hint' }, t('cf.hint.pick')));
    else {
      actions.append(button(`descarto ${sel}`, ['descarto ', mini(sel)], 'primary', { testid: 'discard' }));
      if (closable.has(sel)) {
        const good = goodCloses.get(sel);
        actions.append(button(`cierro ${sel}`, [`${t('cf.cierro_down')} `, mini(sel), good ? ` · ${closeWords(good)}` : ` · ${t('cf.false_close')} (+50)`], good ? 'gold' : 'danger', { testid: 'close', title: good ? t('cf.close_title') : t('cf.false_title') }));
      }
    }
    // The closes the hand allows, best first, whatever card is picked.
    const offers = [...goodCloses.entries()].filter(([c]) => closable.has(c) && c !== sel);
    offers.sort(([, x], [, y]) => closeRank(y) - closeRank(x));
    for (const [c, close] of offers) actions.append(button(`cierro ${c}`, [`${t('cf.cierro_down')} `, mini(c), ` · ${closeWords(close)}`], 'gold', { testid: 'close' }));
  } else if (phase === 'lay_off') {
    actions.append(el('span', { class: 'hint' }, fits.size ? t('cf.hint.lay') : t('cf.hint.nothing')));
    for (const c of fits) actions.append(button(`meto ${c}`, ['meto ', mini(c)], 'primary'));
    if (legal.includes('listo')) actions.append(button('listo', 'listo', 'gold'));
  }
  if (sel !== null && hand.length > 1) {
    actions.append(el('span', { class: 'cf-move' },
      el('button', { class: 'btn small ghost', 'data-testid': 'move-left', 'aria-label': t('cf.move_left'), disabled: ui.sel === 0, onclick: () => move(ui, -1, rerender) }, '◀'),
      el('button', { class: 'btn small ghost', 'data-testid': 'move-right', 'aria-label': t('cf.move_right'), disabled: ui.sel === order.length - 1, onclick: () => move(ui, 1, rerender) }, '▶')));
  }
  return el('div', { class: 'cf-mine' }, plate, actions);
}

/**
 * How good a close is: chinchón, menos diez, then the fewest points left.
 * @param {Close} c
 */
function closeRank(c) {
  return c.kind === 'chinchon' ? 100 : c.kind === 'menos_diez' ? 50 : 10 - c.points;
}

/**
 * The cards a seat took from the pile and still holds (everybody saw them taken).
 * @param {ChinchonView} v
 * @param {number} s
 */
function tookRow(v, s) {
  const holds = (v.holds || [])[s] || [];
  if (!holds.length) return null;
  return el('div', { class: 'cf-took', 'data-testid': `took-${s}`, title: t('cf.took_mine_title') },
    el('span', { class: 'cf-took-l' }, t('cf.took_mine')), holds.map((c) => mini(c)));
}

/**
 * Moves the picked card one place left (-1) or right (1); `focus`: keep the keyboard on it.
 * @param {ChinchonUi} ui
 * @param {number} by
 * @param {() => void} rerender
 */
function move(ui, by, rerender, focus = false) {
  const i = ui.sel;
  if (i === null) return;
  const j = i + by;
  if (j < 0 || j >= ui.order.length) return;
  [ui.order[i], ui.order[j]] = [ui.order[j], ui.order[i]];
  ui.sel = j;
  ui.manual = true;
  saveOrder(ui);
  rerender();
  if (focus) /** @type {HTMLElement | null} */ (document.querySelector(`.cf-hand [data-index="${j}"]`))?.focus();
}

/**
 * Dragging a card along the hand moves it there (mouse or finger; a short move is a tap).
 * While a card is held the page does not redraw; the latest state is drawn when it drops.
 * @param {HTMLElement} handEl
 * @param {ChinchonUi} ui
 * @param {() => void} rerender
 */
function dragToReorder(handEl, ui, rerender) {
  handEl.addEventListener('pointerdown', (e) => {
    const card = e.target instanceof Element ? /** @type {HTMLElement | null} */ (e.target.closest('[data-testid="my-card"]')) : null;
    if (!card || e.button !== 0) return;
    const from = Number(card.dataset.index);
    const x0 = e.clientX; const y0 = e.clientY;
    let dragging = false;
    let at = from;
    const onMove = (/** @type {PointerEvent} */ ev) => {
      const dx = ev.clientX - x0;
      if (!dragging) {
        if (Math.abs(dx) < 8 && Math.abs(ev.clientY - y0) < 8) return;
        if (Math.abs(dx) < Math.abs(ev.clientY - y0)) { stop(); return; }
        dragging = true;
        ui.dragging = true;
        card.classList.add('dragging');
        try { card.setPointerCapture(e.pointerId); } catch { /* not capturable */ }
      }
      ev.preventDefault();
      const cards = [...handEl.querySelectorAll('[data-testid="my-card"]')];
      const others = cards.filter((x) => x !== card);
      let k = others.findIndex((x) => { const r = x.getBoundingClientRect(); return ev.clientX < r.left + r.width / 2; });
      if (k < 0) k = others.length;
      if (k !== at) {
        if (k >= others.length) handEl.append(card); else handEl.insertBefore(card, others[k]);
        at = k;
      }
      const r = card.getBoundingClientRect();
      const base = r.left - (Number(card.dataset.shift) || 0);
      const shift = ev.clientX - (base + r.width / 2);
      card.dataset.shift = String(shift);
      card.style.transform = `translateX(${shift}px) translateY(-10px)`;
    };
    const stop = () => {
      handEl.removeEventListener('pointermove', onMove);
      window.removeEventListener('pointerup', onUp);
      window.removeEventListener('pointercancel', onUp);
    };
    const onUp = () => {
      stop();
      if (!dragging) return;
      ui.dragging = false;
      ui.justDragged = true;
      setTimeout(() => { ui.justDragged = false; }, 0);
      const c = ui.order.splice(from, 1)[0];
      ui.order.splice(at, 0, c);
      ui.manual = true;
      ui.sel = null;
      saveOrder(ui);
      if (ui.args) render(...ui.args); else rerender();
    };
    handEl.addEventListener('pointermove', onMove);
    window.addEventListener('pointerup', onUp);
    window.addEventListener('pointercancel', onUp);
  });
}

// ---------------------------------------------------------------------------------------
// Words for the table page, the history and the replays
// ---------------------------------------------------------------------------------------

/**
 * A narration line with the players' names on its seats ("seat 2 discards 7o" → "Ane discards 7o").
 * @type {NonNullable<GameModule['nameLine']>}
 */
function nameLine(line, { seatName }) {
  return nameSeatsIn(line, seatName);
}

/**
 * The game-over banner's words: who won (by a chinchón, or on points), and for a player
 * whether they did.
 * @type {NonNullable<GameModule['outcomeText']>}
 */
function outcomeText(outcome, table, you, ctx = {}) {
  const chinchon = /chinch[oó]n/.test(outcome.summary || '');
  return seatsOutcome(outcome, you, ctx, {
    whoKey: chinchon ? 'cf.win_chinchon' : 'game.win',
    youWon: () => (chinchon ? t('cf.you_won_chinchon') : t('game.you_won')),
  });
}

/** The final points: "Ane 12 · bot 1 104 (out)". */
const outcomeDetail = pointsDetail;

/** The final points for the history, from the outcome alone. */
const resultDetail = pointsResult;

/**
 * The lobby's words for a seat: its place in the first hand ("1.º, mano", "2.º"…).
 * @type {NonNullable<GameModule['seatLabel']>}
 */
function seatLabel(i) {
  return i === 0 ? t('cf.seat_mano', { nth: ordinal(1) }) : ordinal(i + 1);
}

const sidesText = seatsText;

// ---- the first deal, dealt again (the check of a table's deals) ----

/**
 * Every seat's seven cards of a game's first deal from its seed, by seat, as the replay's
 * full view names them (`12o`, `J`; by suit, then number, the jokers last): the table's
 * deck (40 or 48 cards, each copy's suits in order then its jokers, two copies from
 * `two_decks_from` players on) dealt seven a seat from the mano, seat 0, by the pinned
 * shuffle (chance.js), as the engine's `ChinchonGame::start`.
 * @type {NonNullable<GameModule['firstDeal']>}
 */
function firstDeal(seed, rules, seats) {
  const r = { ...DEFAULT_RULES, ...(rules || {}) };
  const numbers = Number(r.deck) === 48 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];
  const from = r.two_decks_from;
  const copies = from !== null && from !== undefined && seats >= Number(from) ? 2 : 1;
  const jokers = Number(r.jokers) || 0;
  /** @type {number[]} */
  const cards = [];
  for (let copy = 0; copy < copies; copy++) {
    for (let suit = 0; suit < 4; suit++) for (const n of numbers) cards.push(suit * 12 + n - 1);
    for (let j = 0; j < jokers; j++) cards.push(48);
  }
  const { hands } = deal(cards, rngFromSeed(seed), seats, 7);
  return hands.map((h) => h.sort((a, b) => a - b).map((i) => (i === 48 ? 'J' : `${(i % 12) + 1}${'oceb'[Math.floor(i / 12)]}`)));
}

registerGame({
  name: 'chinchon', title: 'Chinchón', rulesForm, rulesSummary, render, outcomeText, outcomeDetail, resultDetail, nameLine, seatLabel, sidesText,
  firstDeal, dealtHands: fullViewHands,
});
