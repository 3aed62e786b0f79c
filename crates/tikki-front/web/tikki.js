// @ts-check
// Tikki at the table: 2–5 seats around the felt, each with the cards it holds (backs), the
// stack it laid face down this trick with its count (never which cards), its trick pile and
// score; your hand sorted, cards picked by tapping with the best combination they make shown
// as you pick, and a lay button the legal actions enable; the reveal with every player's
// best combination marked and the winner taking the trick; the retreat round's
// take-back-and-reveal step; a score sheet after each round. Only what the seat's view
// holds is drawn: the page never has another player's hidden cards.

import { registerGame } from './games.js';
import { el, clear, t, ordinal } from './common.js';
import { cardEl, parseCard, cardShort, cardName, rankLetter, SUIT_ORDER, frenchWords } from './french.js';
import { DEFAULT_RULES, sortCards, best, pileGroups, pilePoints, layActions } from './tikki-rules.js';
import {
  seatedOf, ringSeats, nameplate as plateOf, holdOpen, revealOnce, nextButton, select, field, nameSeatsIn, pointsDetail,
  pointsResult, seatsText, seatsOutcome, frame, gameStyle, onNextOf, feltAlone, othersAwaited, phaseTitle, idleHint,
  scoreTitle, totalRow, fullViewHands,
} from './kit.js';
import { below, deal, rngFromSeed } from './chance.js';

/** @typedef {import('./kit.js').GameModule} GameModule */
/** @typedef {import('./kit.js').GameState} GameState */
/** @typedef {import('./kit.js').GameContext} GameContext */
/** @typedef {import('./tikki-rules.js').Combo} Combo */
/** @typedef {import('./tikki-rules.js').TikkiRules} TikkiRules */

/**
 * A revealed trick: who led, what each seat laid, what each took back in the retreat
 * round, each seat's best combination (null: not in the trick) and who won it.
 * @typedef {{leader: number, laid: string[][], retreated?: number[], best: (Combo | null)[], winner: number}} Trick
 */

/**
 * A finished round as the page gets it: the last one whole, the ones before as their
 * points (`TikkiHost::page_view`).
 * @typedef {{dealer: number, points: number[], piles?: string[][], last_trick?: Trick | null}} RoundResult
 */

/**
 * What a seat sees of tikki (`TikkiView`; a spectator: no hand, no laid cards). A replay's
 * full view has every hand (`hands`) and every seat's laid cards (`laid`, by seat).
 * @typedef {{rules?: Partial<TikkiRules>, seats: number, seat?: number | null, round: number, dealer: number,
 *   leader: number, phase: 'lay' | 'retreat' | 'over', turn?: number | null, hand?: string[], laid?: string[] | string[][],
 *   hand_sizes?: number[], in_trick?: boolean[], laid_counts?: number[], revealed?: string[][], retreated?: number[],
 *   tricks?: Trick[], piles?: string[][], stock: number, scores?: number[], history?: RoundResult[], winners?: number[],
 *   hands?: string[][]}} TikkiView
 */

/**
 * The page's state of a table kept across renders: the cards picked, the retreat's choice,
 * the order of the hand, the reveal seen last, the end of a round on the felt.
 * @typedef {{table: string, sel: Set<string>, back: string | null, reveal: string | null, sort: 'suit' | 'rank',
 *   trickKey: string | null, freshAt: number, grew: number | null, looked?: boolean, nudge?: number,
 *   roundEnd?: import('./kit.js').HoldView, shownTrick?: string}} TikkiUi
 */

// The rules live in tikki-rules.js; the tests and other pages import them from here too.
export { DEFAULT_RULES, KINDS, cardIndex, strength, sortCards, best, kindWords, comboWords, pileGroups, pilePoints } from './tikki-rules.js';

gameStyle('tikki');

// ---------------------------------------------------------------------------------------
// The lobby: every option of the table, with the game's defaults
// ---------------------------------------------------------------------------------------

/** @type {GameModule['rulesForm']} */
function rulesForm(defaults = {}) {
  /** @type {TikkiRules} */
  const d = { ...DEFAULT_RULES, ...defaults };
  /** @type {[number, string][]} */
  const tops = [];
  for (let top = 13; top >= 4; top--) tops.push([top, top === 13 ? t('tk.r.deck52') : t('tk.r.deck_top', { n: 4 * top, top: rankLetter(top) })]);
  const top = select('top', tops, d.top);
  const rounds = select('rounds', [[0, t('tk.r.one_per_player')], ...[1, 2, 3, 4, 5, 6, 8, 10].map((n) => /** @type {[number, string]} */ ([n, plural(n, 'tk.rounds')]))], d.rounds);
  const target = el('input', { type: 'number', name: 'target', min: 0, max: 10000, step: 1, value: d.target, 'data-testid': 'rule-target', title: t('tk.r.target_title') });
  const retreatBox = el('input', { type: 'checkbox', name: 'retreat', checked: !!d.retreat, 'data-testid': 'rule-retreat' });
  const box = el('div', { class: 'tk-rules' },
    el('div', { class: 'fields' },
      field(t('tk.f.deck'), top, t('tk.f.deck_title')),
      field(t('tk.f.rounds'), rounds, t('tk.f.rounds_title')),
      field(t('tk.f.target'), target, t('tk.f.target_title'))),
    el('div', { class: 'row', style: { marginBottom: '.8rem' } },
      el('label', { class: 'check', title: t('tk.f.retreat_title') },
        retreatBox, t('tk.f.retreat'))));
  return {
    el: box,
    read: () => {
      const goal = Number(target.value);
      if (!Number.isInteger(goal) || goal < 0 || goal > 10000) throw new Error(t('tk.err.target'));
      return { top: Number(top.value), rounds: Number(rounds.value), target: goal, retreat: retreatBox.checked };
    },
  };
}

/** @type {GameModule['rulesSummary']} */
function rulesSummary(rules = {}) {
  /** @type {TikkiRules} */
  const r = { ...DEFAULT_RULES, ...rules };
  const parts = [];
  if (Number(r.target) > 0) parts.push(t('tk.to_points', { n: r.target }));
  else parts.push(Number(r.rounds) > 0 ? plural(Number(r.rounds), 'tk.rounds') : t('tk.round_per_player'));
  parts.push(Number(r.top) === 13 ? t('game.cards', { n: 52 }) : t('tk.r.deck_top', { n: 4 * r.top, top: rankLetter(Number(r.top)) }));
  if (r.retreat) parts.push(t('tk.retreat_round'));
  return parts.join(' · ');
}

// ---------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------

// Per-table state of the page that survives re-renders: the cards picked, the retreat's
// choice, the reveal seen last, the end of a round on the felt.
/** @type {WeakMap<HTMLElement, TikkiUi>} */
const uiState = new WeakMap();

/**
 * "3 cards", "1 pt": a count with its word (`key.one` / `key.other` of the catalogs).
 * @param {number} n
 * @param {string} key
 */
const plural = (n, key) => t(key, { count: n });

// The cards' names in the page's language: "7 of hearts", "7 de corazones".
frenchWords.name = (rank, suit) => t('fr.card', { rank: [1, 11, 12, 13].includes(rank) ? t(`fr.rank.${rank}`) : rank, suit: t(`fr.suit.${suit}`) });

/**
 * A combination in the page's words: "pair of 7s", "4-card straight flush to 9♥",
 * "single K♠" (tikki-rules.js `comboWords` is the rules' own English).
 * @param {{type: string, top: string, cards: string[]} | null | undefined} combo
 */
function comboText(combo) {
  if (!combo) return '';
  const top = parseCard(combo.top);
  const m = /^straight_flush_(\d)$/.exec(combo.type || '');
  if (m) return t('tk.c.straight_flush', { n: m[1], top: cardShort(combo.top) });
  if (combo.type === 'single') return t('tk.c.single', { card: cardShort(combo.top) });
  const ranks = top ? (top.rank === 6 ? t('tk.sixes') : t('tk.ranks', { r: rankLetter(top.rank) })) : '';
  return t(`tk.c.${combo.type}`, { ranks });
}

/**
 * A sentence with a place (`\u0000`) for the cards it names: the text around them and them.
 * @param {string} text
 * @param {import('./common.js').Child} cards
 */
function withCards(text, cards) {
  const [before, after = ''] = text.split('\u0000');
  return [before, cards, after];
}

// How long the end of a round stays on the felt when the server holds nothing (ms).
const ROUND_END_MS = 8000;
// How long a reveal counts as new (its cards turned and the winner marked) (ms).
const FRESH_MS = 2500;

/**
 * Whether the laid cards are every seat's (a replay's full view), not a seat's own.
 * @param {string[] | string[][]} laid
 * @returns {laid is string[][]}
 */
function bySeat(laid) {
  return laid.every(Array.isArray);
}

/**
 * Whether a round just ended and nothing of the next one happened yet.
 * @param {TikkiView} v
 */
function atRoundStart(v) {
  return v.phase === 'lay' && (v.history || []).length > 0 && !(v.tricks || []).length && (v.laid_counts || []).every((n) => !n);
}

/**
 * Whether the end of the round just finished is on the felt (see kit.js `holdOpen`): also
 * when a spectator arrives at a round's start, and always at the game's end; it goes too
 * when the next round gets going.
 * @param {TikkiUi} ui
 * @param {TikkiView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 */
function roundEndOpen(ui, v, st, ctx) {
  if (v.phase === 'over') return true;
  const key = atRoundStart(v) ? (v.history || []).length : 0;
  return holdOpen(ui, 'roundEnd', key, st, ctx, { me: seatedOf(st), ms: ROUND_END_MS, spectatorsOnArrival: true });
}

/**
 * A small card.
 * @param {string} code
 * @param {import('./cards.js').CardAttrs} [attrs]
 */
const mini = (code, attrs = {}) => cardEl(code, { ...attrs, class: `mini ${attrs.class || ''}` });

/**
 * A row of face-down cards (backs) with how many.
 * @param {number} n
 * @param {{testid?: string, cls?: string, title?: string}} [opts]
 */
function backs(n, { testid, cls = '', title } = {}) {
  return el('span', { class: `tk-backs ${cls}`, 'data-testid': testid, 'data-count': n, title: title || plural(n, 'tk.cards') },
    Array.from({ length: Math.min(n, 7) }, () => cardEl('back')));
}

/**
 * A seat's trick pile: a small stack, its cards and points (public: every card was revealed).
 * @param {TikkiView} v
 * @param {number} s
 * @param {TikkiUi} ui
 */
function pileEl(v, s, ui) {
  const pile = (v.piles || [])[s] || [];
  const pts = pilePoints(pile);
  const grew = ui.grew === s && Date.now() - ui.freshAt < FRESH_MS;
  return el('span', {
    class: `tk-pile ${pile.length ? '' : 'empty'} ${grew ? 'grew' : ''}`, 'data-testid': `pile-${s}`, 'data-count': pile.length, 'data-points': pts,
    title: pile.length ? t('tk.pile_title', { cards: pileGroups(pile).map((g) => g.cards.map(cardShort).join(' ')).join(' · ') }) : t('tk.no_tricks_yet'),
  },
  el('span', { class: 'tk-pile-ico' }, pile.length ? cardEl('back') : null),
  el('span', { class: 'tk-pile-t' }, pile.length ? [el('b', {}, String(pile.length)), ` · ${plural(pts, 'tk.pts')}`] : t('tk.no_tricks')));
}

/**
 * What a seat has on the table this trick: the face-down stack with its count, the cards it showed.
 * @param {TikkiView} v
 * @param {number} s
 * @param {{mine?: boolean, shownLaid?: string[] | null}} [opts]
 */
function stackEl(v, s, { mine = false, shownLaid = null } = {}) {
  const n = (v.laid_counts || [])[s] || 0;
  const shown = (v.revealed || [])[s] || [];
  const back = (v.retreated || [])[s] || 0;
  const inTrick = (v.in_trick || [])[s];
  if (!inTrick) return el('div', { class: 'tk-stack out', 'data-testid': `stack-${s}` }, el('span', { class: 'tk-note' }, t('tk.sits_out')));
  if (!n) return el('div', { class: 'tk-stack none', 'data-testid': `stack-${s}`, 'data-count': 0 }, el('span', { class: 'tk-slot' }), el('span', { class: 'tk-note' }, v.turn === s ? t('tk.laying') : t('tk.to_lay')));
  const down = n - shown.length;
  const known = shownLaid ? sortCards(shownLaid.filter((c) => !shown.includes(c))) : null;
  return el('div', { class: 'tk-stack', 'data-testid': `stack-${s}`, 'data-count': n },
    down > 0 ? el('span', { class: 'tk-down' },
      known ? el('span', { class: 'tk-known', title: mine ? t('tk.your_down') : t('tk.face_down') }, known.map((c) => mini(c, { class: 'facedown-known' })))
        : el('span', { class: 'tk-layers' }, Array.from({ length: Math.min(down, 4) }, (_, k) => cardEl('back', { style: `--k:${k}` }))),
      el('span', { class: 'tk-count', 'data-testid': `laid-count-${s}` }, String(n))) : el('span', { class: 'tk-count', 'data-testid': `laid-count-${s}` }, String(n)),
    shown.length ? el('span', { class: 'tk-shown', 'data-testid': `revealed-${s}`, title: t('tk.shown_retreat') }, shown.map((c) => mini(c))) : null,
    el('span', { class: 'tk-note' }, `${t('tk.n_laid', { n })}${back ? ` · ${t('tk.taken_back', { n: back })}` : ''}`));
}

/**
 * A seat's nameplate: connection, name, away, deals / leads, winner.
 * @param {TikkiView} v
 * @param {number} s
 * @param {GameState} st
 * @param {GameContext} ctx
 */
function nameplate(v, s, st, ctx, { me = false } = {}) {
  const running = v.phase !== 'over' && !(st.table && st.table.status === 'waiting');
  return plateOf(ctx, s, {
    cls: me ? 'us' : '',
    suffix: me ? ` ${t('tk.you')}` : '',
    chips: [
      running && s === v.dealer ? el('span', { class: 'chip dealer', 'data-testid': `dealer-${s}`, title: t('tk.dealt_round') }, t('tk.d')) : null,
      running && s === v.leader ? el('span', { class: 'chip mano', title: t('tk.leads_title') }, t('tk.leads')) : null,
      (v.winners || []).includes(s) ? el('span', { class: 'chip yes', 'data-testid': `winner-${s}` }, t('game.winner')) : null],
  });
}

/**
 * Another seat (or any seat, for spectators and replays) around the felt.
 * @param {TikkiView} v
 * @param {number} s
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {TikkiUi} ui
 * @param {{hand?: string[] | null, laid?: string[] | null, pos?: string}} [opts]
 */
function seatPlate(v, s, st, ctx, ui, { hand = null, laid = null, pos = '' } = {}) {
  const started = !(st.table && st.table.status === 'waiting');
  const toAct = started && v.turn === s && v.phase !== 'over';
  const size = (v.hand_sizes || [])[s] || 0;
  const score = (v.scores || [])[s] ?? 0;
  const cards = hand ? el('span', { class: 'tk-open', 'data-testid': `shown-hand-${s}` }, sortCards(hand).map((c) => mini(c)))
    : started ? backs(size, { testid: `backs-${s}`, title: t('tk.in_hand', { cards: plural(size, 'tk.cards') }) }) : null;
  const verb = v.phase === 'retreat' ? t('tk.may_take_back') : t('tk.lays');
  return el('div', {
    class: `tk-seat ${pos} ${toAct ? 'to-act' : ''} ${ctx.away && ctx.away(s) ? 'away' : ''}`,
    'data-seat': s, 'data-testid': `seat-${s}`, 'data-held': size,
  },
  nameplate(v, s, st, ctx),
  el('div', { class: 'tk-line' },
    el('span', { class: 'tk-pts', 'data-testid': `points-${s}`, title: t('tk.points_title') }, String(score)),
    cards,
    started ? el('span', { class: 'tk-held', title: t('tk.cards_in_hand') }, String(size)) : null,
    toAct ? el('span', { class: 'tk-turn' }, verb) : null),
  started ? stackEl(v, s, { shownLaid: laid }) : null,
  started ? pileEl(v, s, ui) : null,
  ctx.seatControls ? ctx.seatControls(s) : null);
}

/**
 * A revealed trick: each player's cards, the best combination marked, the winner taking it.
 * @param {Trick} trick
 * @param {TikkiView} v
 * @param {GameContext} ctx
 * @param {{fresh?: boolean, title?: string, testid?: string}} [opts]
 */
function trickEl(trick, v, ctx, { fresh = false, title, testid = 'reveal' } = {}) {
  const seats = trick.laid.length;
  const total = trick.laid.reduce((n, l) => n + l.length, 0);
  const rows = el('div', { class: 'tk-rows' });
  let k = 0;
  for (let j = 0; j < seats; j++) {
    const s = (trick.leader + j) % seats;
    const combo = trick.best[s];
    if (!combo) continue;
    const inCombo = new Set(combo.cards);
    const ordered = [...sortCards(trick.laid[s].filter((c) => inCombo.has(c))), ...sortCards(trick.laid[s].filter((c) => !inCombo.has(c)))];
    const won = s === trick.winner;
    const back = (trick.retreated || [])[s];
    rows.append(el('div', { class: `tk-row ${won ? 'winner' : ''}`, 'data-testid': `reveal-seat-${s}`, 'data-combo': combo.type, style: `--i:${k++}` },
      el('span', { class: 'tk-who' }, el('b', {}, ctx.seatName(s)), back ? el('small', {}, t('tk.taken_back', { n: back })) : null),
      el('span', { class: 'tk-cards' }, ordered.map((c, i) => mini(c, { class: inCombo.has(c) ? 'combo' : 'ballast', style: `--j:${i}` }))),
      el('span', { class: 'tk-combo', 'data-testid': `combo-${s}` }, comboText(combo)),
      won ? el('span', { class: 'chip takes', 'data-testid': 'trick-winner', 'data-seat': s }, t('tk.takes_cards', { cards: plural(total, 'tk.cards') })) : null));
  }
  return el('div', { class: `tk-reveal ${fresh ? 'fresh' : ''}`, 'data-testid': testid, 'data-winner': trick.winner },
    el('div', { class: 'tk-reveal-t' }, title || '', el('span', {}, ` · ${trick.winner === ctx.mySeat ? t('tk.you_take') : t('tk.takes', { name: ctx.seatName(trick.winner) })}`)),
    rows);
}

/**
 * The end of a round on the felt: its last reveal, every pile by rank with its points, the totals.
 * @param {TikkiView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {{onNext: () => void, seated: number | null}} how
 */
function roundEndEl(v, st, ctx, { onNext, seated }) {
  const over = v.phase === 'over';
  const history = v.history || [];
  const r = history[history.length - 1];
  const roundNo = over ? v.round : v.round - 1;
  const rows = el('div', { class: 'tk-end-rows' });
  const scores = v.scores || [];
  for (let s = 0; s < v.seats; s++) {
    const pile = (r && r.piles ? r.piles[s] : null) || [];
    const groups = pileGroups(pile);
    rows.append(el('div', { class: `tk-end-row ${s === seated ? 'mine' : ''} ${(v.winners || []).includes(s) ? 'won' : ''}`, 'data-testid': `round-seat-${s}`, 'data-points': r ? r.points[s] : 0 },
      el('div', { class: 'tk-end-who' }, el('b', {}, ctx.seatName(s)), r && r.dealer === s ? el('span', { class: 'chip dealer' }, t('tk.dealt')) : null,
        (v.winners || []).includes(s) ? el('span', { class: 'chip yes', 'data-testid': `winner-${s}` }, t('game.winner')) : null),
      el('div', { class: 'tk-groups', 'data-testid': `groups-${s}` }, groups.length ? groups.map((g) => el('span', { class: `tk-group g${g.cards.length}`, title: t('tk.group_title', { cards: plural(g.cards.length, 'tk.cards'), rank: rankLetter(g.rank), points: g.points }) },
        el('span', { class: 'tk-group-c' }, g.cards.map((c) => mini(c))), el('small', {}, String(g.points)))) : el('span', { class: 'tk-note' }, t('tk.no_tricks'))),
      el('div', { class: 'tk-end-pts' }, el('b', {}, `+${r ? r.points[s] : 0}`), el('small', {}, t('game.total', { n: scores[s] ?? 0 })))));
  }
  const last = r && r.last_trick ? trickEl(r.last_trick, v, ctx, { title: t('tk.last_tikki'), testid: 'last-trick' }) : null;
  const next = nextButton(st, { over, onNext, ctx, testid: 'next-round', label: t('tk.next_round'), yourTurnLabel: t('tk.next_round_lead') });
  const waiting = othersAwaited(st, seated);
  return el('div', { class: 'tk-end', 'data-testid': 'round-end', 'data-round': roundNo },
    el('div', { class: 'phase-title' }, over ? `${t('hint.game_over')} · ${plural(history.length, 'tk.rounds')}` : t('tk.round_over', { n: roundNo })),
    el('div', { class: 'tk-end-how small' }, t('tk.pile_rule')),
    last,
    rows,
    el('div', { class: 'tk-end-next' }, next,
      waiting.length && !over ? el('span', { class: 'small muted-felt' }, t('game.waiting_for', { names: waiting.map(ctx.seatName).join(', ') })) : null));
}

/**
 * The score: each seat's points, this round's pile, and a row per finished round.
 * @param {TikkiView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 */
function scorePanel(v, st, ctx) {
  const seated = seatedOf(st);
  const r = { ...DEFAULT_RULES, ...(v.rules || {}) };
  const history = v.history || [];
  const goal = Number(r.target) > 0 ? t('tk.to_points', { n: r.target }) : plural(Number(r.rounds) > 0 ? Number(r.rounds) : v.seats, 'tk.rounds');
  const panel = el('div', { class: 'panel tk-score', 'data-testid': 'score', 'data-points': (v.scores || []).join(',') });
  panel.append(scoreTitle(v.phase === 'over', goal));
  const grid = el('div', { class: 'tk-score-grid' });
  const running = v.phase !== 'over';
  for (let s = 0; s < v.seats; s++) {
    const pile = (v.piles || [])[s] || [];
    grid.append(el('div', { class: `tk-score-row ${s === seated ? 'mine' : ''}`, 'data-testid': `score-${s}` },
      el('span', { class: 'nm' }, ctx.seatName(s)),
      el('span', { class: 'now small muted', title: t('tk.pile_so_far') }, running ? `${t('tk.pile_n', { n: pile.length })} · ${plural(pilePoints(pile), 'tk.pts')}` : ''),
      el('span', { class: 'pts', 'data-testid': `score-points-${s}` }, String((v.scores || [])[s] ?? 0))));
  }
  panel.append(grid);
  if (history.length) {
    const head = el('tr', {}, el('th', {}, t('tk.round')), Array.from({ length: v.seats }, (_, s) => el('th', { title: ctx.seatName(s) }, ctx.seatName(s))));
    const body = el('tbody');
    history.forEach((h, i) => body.append(el('tr', { 'data-testid': 'sheet-row' }, el('td', {}, String(i + 1)),
      h.points.map((p, s) => el('td', { class: s === h.dealer ? 'dealt' : '', title: s === h.dealer ? t('tk.dealt_round') : null }, String(p))))));
    body.append(totalRow(v.scores || []));
    panel.append(el('div', { class: 'tablewrap' }, el('table', { class: 'tk-sheet', 'data-testid': 'score-sheet' }, el('thead', {}, head), body)));
  }
  return panel;
}

/** @type {GameModule['render']} */
function render(cols, st, outer) {
  const { main } = cols;
  const v = /** @type {TikkiView | null} */ (st.view);
  if (!v) { clear(main); return; }
  const { ui, ctx, seated, legal, started, send } = frame(uiState, cols, st, outer, {
    fresh: (table) => {
      /** @type {TikkiUi} */
      const fresh = { table, sel: new Set(), back: null, reveal: null, sort: 'suit', trickKey: null, freshAt: 0, grew: null };
      return fresh;
    },
    draw: render,
    onSend: (ui) => { ui.sel = new Set(); ui.back = null; ui.reveal = null; ui.nudge = 0; },
  });
  const { rerender } = ctx;

  // A new reveal: its cards turn over and the winner's pile grows, for a moment.
  const tricks = v.tricks || [];
  const lastTrick = tricks[tricks.length - 1] || null;
  const trickKey = lastTrick ? `${v.round}.${tricks.length}` : null;
  if (trickKey !== ui.trickKey) {
    // Not on the page's first look: a reveal that was already there when it opened is not new.
    if (ui.looked && lastTrick) {
      ui.freshAt = Date.now();
      ui.grew = lastTrick.winner;
      setTimeout(rerender, FRESH_MS + 50);
    }
    ui.trickKey = trickKey;
  }
  ui.looked = true;
  const fresh = lastTrick && Date.now() - ui.freshAt < FRESH_MS;

  // ---- the end of a round ----
  if (started && (v.history || []).length && (st.replay ? atRoundStart(v) || v.phase === 'over' : roundEndOpen(ui, v, st, ctx))) {
    const onNext = onNextOf(st, ctx, ui, 'roundEnd');
    const felt = el('div', { class: 'felt tk-felt round-end-on' }, roundEndEl(v, st, ctx, { onNext, seated }));
    feltAlone(cols, felt, st, ui.roundEnd, () => scorePanel(v, st, ctx));
    return;
  }

  // ---- the seats around the felt ----
  const hands = st.replay ? st.hands || v.hands || null : null;
  // A replay's full view has every seat's hand and laid cards (`laid` by seat).
  const laidAll = st.replay && v.laid && bySeat(v.laid) ? v.laid : null;
  const others = ringSeats(seated, v.seats);
  const ring = el('div', { class: `tk-ring n${others.length} ${seated === null ? 'all' : ''}`, 'data-testid': 'ring' });
  others.forEach((s, k) => {
    const pos = others.length > 2 && (k === 0 || k === others.length - 1) ? 'end' : '';
    ring.append(seatPlate(v, s, st, ctx, ui, { hand: hands ? hands[s] : null, laid: laidAll ? laidAll[s] : null, pos }));
  });

  // ---- the middle: whose turn, the round, the last reveal ----
  const r = { ...DEFAULT_RULES, ...(v.rules || {}) };
  const doing = v.phase === 'retreat' ? t('tk.doing_retreat') : t('tk.doing_lay');
  const title = phaseTitle(v, { started, seated, ctx, doing });
  const rounds = Number(r.target) > 0 ? t('tk.to_points', { n: r.target }) : t('tk.of_n', { n: Number(r.rounds) > 0 ? r.rounds : v.seats });
  const center = el('div', { class: 'tk-center', 'data-testid': 'phase', 'data-phase': started ? v.phase : 'waiting', 'data-turn': v.turn ?? '' },
    el('div', { class: `phase-title ${v.turn === seated && started ? 'mine' : ''}` }, title),
    started ? el('div', { class: 'deckinfo', 'data-testid': 'round-info' },
      `${t('tk.round_n', { n: v.round })} ${rounds} · tikki ${tricks.length + 1} · `, el('span', { 'data-testid': 'stock', 'data-count': v.stock }, t('tk.in_stock', { cards: plural(v.stock, 'tk.cards') })),
      r.retreat ? ` · ${t('tk.retreat_on')}` : '') : null,
    lastTrick ? trickEl(lastTrick, v, ctx, { fresh, title: `Tikki ${tricks.length}` }) : started ? el('div', { class: 'tk-reveal empty small' }, t('tk.first_tikki')) : null);

  const felt = el('div', { class: 'felt tk-felt' }, ring, center);
  const awaited = othersAwaited(st, seated);
  if (awaited.length) felt.append(el('div', { class: 'tk-hold small', 'data-testid': 'hold' }, t('tk.waiting_to_see', { names: awaited.map(ctx.seatName).join(', ') })));
  if (seated !== null) felt.append(mySeat(v, st, ctx, ui, { seated, legal, send, rerender, started }));
  clear(main).append(felt);
  // A reveal that came while the page watched is brought clear of the docked seat, once,
  // and again when your turn makes the seat taller.
  if (fresh && !st.replay) revealOnce(felt.querySelector('[data-testid="reveal"]'), ui, 'shownTrick', `${trickKey}${legal.length ? ' yours' : ''}`);
  if (cols.side) clear(cols.side).append(scorePanel(v, st, ctx));
}

/**
 * Your plate, your laid stack, your hand (sorted, cards picked by tapping) and the actions.
 * @param {TikkiView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {TikkiUi} ui
 * @param {{seated: number, legal: string[], send: (action: string) => void, rerender: () => void, started: boolean}} how
 */
function mySeat(v, st, ctx, ui, { seated, legal, send, rerender, started }) {
  const hand = v.hand || [];
  // The seat's own cards on the table (a replay's laid cards by seat never come here).
  const laid = v.laid && !bySeat(v.laid) ? v.laid : [];
  const shown = (v.revealed || [])[seated] || [];
  const phase = v.phase;
  const myTurn = started && v.turn === seated && legal.length > 0;
  const laying = phase === 'lay' && hand.length > 0 && started;
  const retreating = myTurn && phase === 'retreat';
  const lays = layActions(legal);
  for (const c of [...ui.sel]) if (!hand.includes(c)) ui.sel.delete(c);
  const faceDown = laid.filter((c) => !shown.includes(c));
  if (ui.back && !faceDown.includes(ui.back)) ui.back = null;
  if (ui.reveal && !faceDown.includes(ui.reveal)) ui.reveal = null;

  const order = ui.sort === 'rank' ? sortCards(hand)
    : [...hand].sort((a, b) => {
      const x = parseCard(a); const y = parseCard(b);
      return x && y ? SUIT_ORDER.indexOf(x.suit) - SUIT_ORDER.indexOf(y.suit) || x.rank - y.rank : 0;
    });
  const picked = order.filter((c) => ui.sel.has(c));
  const combo = best(picked);
  const inCombo = new Set(combo ? combo.cards : []);
  const handEl = el('div', { class: `tk-hand ${laying ? 'picking' : ''}`, 'data-testid': 'my-hand' });
  for (const c of order) {
    const on = ui.sel.has(c);
    const card = cardEl(c, {
      'data-testid': 'my-card', class: `${on ? 'selected' : ''} ${on && inCombo.has(c) ? 'combo' : ''} ${laying ? 'selectable' : ''}`,
      role: laying ? 'button' : null, tabindex: laying ? '0' : null, 'aria-pressed': on ? 'true' : 'false',
    });
    if (laying) {
      const pick = () => { if (ui.sel.has(c)) ui.sel.delete(c); else ui.sel.add(c); rerender(); };
      card.addEventListener('click', pick);
      card.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); } });
    } else if (retreating) {
      // The hand takes no part in the retreat: say where to tap instead of doing nothing.
      card.addEventListener('click', () => { ui.nudge = Date.now(); rerender(); });
    }
    handEl.append(card);
  }

  // ---- my cards on the table this trick ----
  let table = null;
  if (laid.length) {
    const cards = sortCards(laid).map((c) => {
      const isShown = shown.includes(c);
      const role = ui.back === c ? 'back' : ui.reveal === c ? 'show' : '';
      const card = mini(c, {
        'data-testid': 'my-laid', class: `${isShown ? 'shown' : 'down'} ${role ? `pick-${role}` : ''} ${retreating && !isShown ? 'selectable' : ''}`,
        title: isShown ? `${cardName(c)} · ${t('tk.shown_all')}` : `${cardName(c)} · ${t('tk.down_only_you')}`,
      });
      if (role) card.append(el('span', { class: 'tk-tag' }, t(`tk.role_${role}`)));
      if (retreating && !isShown) {
        card.addEventListener('click', () => {
          if (ui.back === c) ui.back = null;
          else if (ui.reveal === c) ui.reveal = null;
          else if (!ui.back) ui.back = c;
          else ui.reveal = c;
          rerender();
        });
      }
      return card;
    });
    table = el('div', { class: `tk-mylaid ${retreating ? 'choosing' : ''} ${retreating && ui.nudge && Date.now() - ui.nudge < 6000 && !ui.back ? 'nudge' : ''}`, 'data-testid': 'my-stack', 'data-count': laid.length },
      el('span', { class: 'small muted-felt' }, shown.length ? t('tk.on_table_shown') : t('tk.on_table')),
      el('span', { class: 'tk-row-cards' }, cards),
      el('span', { class: 'small muted-felt', title: t('tk.best_laid') }, comboText(best(laid))));
  }

  // ---- the plate ----
  const score = (v.scores || [])[seated] ?? 0;
  const handBest = best(hand);
  const plate = el('div', { class: `tk-me ${v.turn === seated && started && phase !== 'over' ? 'to-act' : ''}`, 'data-seat': seated, 'data-testid': `seat-${seated}` },
    el('div', { class: 'tk-me-head' }, nameplate(v, seated, st, ctx, { me: true }),
      el('span', { class: 'tk-pts', 'data-testid': `points-${seated}` }, String(score)),
      started ? pileEl(v, seated, ui) : null,
      hand.length > 1 ? el('button', {
        class: 'btn small ghost', 'data-testid': 'sort', title: t('tk.sort_title'),
        onclick: () => { ui.sort = ui.sort === 'rank' ? 'suit' : 'rank'; rerender(); },
      }, ui.sort === 'rank' ? t('tk.by_suit') : t('tk.by_rank')) : null),
    table,
    handEl);

  // ---- the actions ----
  const actions = el('div', { class: 'actions tk-actions', 'data-testid': 'actions' });
  /** @type {(action: string, label: string, cls?: string, extra?: {testid?: string, title?: string, disabled?: boolean}) => HTMLButtonElement} */
  const button = (action, label, cls = '', extra = {}) => el('button', {
    class: `btn ${cls}`, 'data-testid': extra.testid || 'action', 'data-action': action, title: extra.title, disabled: extra.disabled, onclick: () => send(action),
  }, label);
  const idle = idleHint({ started, over: phase === 'over' });
  if (idle) {
    actions.append(idle);
  } else if (phase === 'lay' && hand.length) {
    const key = sortCards(picked).join(' ');
    const action = picked.length ? lays.get(key) : null;
    const words = combo ? `${comboText(combo)}${picked.length > combo.cards.length ? ` + ${plural(picked.length - combo.cards.length, 'tk.other_cards')}` : ''}` : '';
    actions.append(el('span', { class: 'hint tk-pickline', 'data-testid': 'selection', 'data-combo': combo ? combo.type : '', 'data-top': combo ? combo.top : '' },
      picked.length ? [`${plural(picked.length, 'tk.cards')}: `, el('b', {}, words)] : myTurn ? t('tk.hint.your_turn') : t('tk.hint.pick')));
    actions.append(el('button', {
      class: 'btn primary', 'data-testid': 'lay', 'data-action': action || '', disabled: !action || !myTurn,
      title: !myTurn ? t('tk.not_yet') : action ? t('tk.lay_title', { cards: picked.map(cardShort).join(' ') }) : t('tk.pick_one'), onclick: () => action && send(action),
    }, picked.length ? t('tk.lay_n', { cards: plural(picked.length, 'tk.cards') }) : t('tk.lay')));
    if (picked.length) actions.append(el('button', { class: 'btn small ghost', 'data-testid': 'clear', onclick: () => { ui.sel = new Set(); rerender(); } }, t('game.clear')));
    if (handBest && handBest.cards.length > 1 && key !== handBest.cards.join(' ')) {
      actions.append(el('button', {
        class: 'btn small ghost', 'data-testid': 'pick-best', title: t('tk.pick_best_title'),
        onclick: () => { ui.sel = new Set(handBest.cards); rerender(); },
      }, t('tk.best', { combo: comboText(handBest) })));
    }
    if (!myTurn) {
      const who = v.turn === null || v.turn === undefined ? '' : ctx.seatName(v.turn);
      actions.append(el('span', { class: 'hint small', 'data-testid': 'waiting' }, who ? t('tk.who_lays', { name: who }) : ''));
    }
  } else if (retreating) {
    const { back, reveal } = ui;
    const action = back && reveal ? `retreat ${back} reveal ${reveal}` : null;
    const ok = action !== null && legal.includes(action);
    // Name the cards to tap: the laid ones still face down (the other one, once one is picked).
    const names = (/** @type {string[]} */ cs) => cs.map((c, i) => [i ? (i === cs.length - 1 ? ` ${t('words.or')} ` : ', ') : '', el('b', {}, cardShort(c))]);
    const others = sortCards(faceDown.filter((c) => c !== ui.back));
    const nudged = ui.nudge && Date.now() - ui.nudge < 6000;
    let hint;
    if (!ui.back) {
      hint = nudged
        ? withCards(t('tk.hint.nudge', { cards: '\u0000' }), names(sortCards(faceDown)))
        : withCards(t('tk.hint.retreat', { cards: '\u0000' }), names(sortCards(faceDown)));
    } else if (!ui.reveal) {
      hint = withCards(t(others.length === 1 ? 'tk.hint.back_one' : 'tk.hint.back_many', { card: cardShort(ui.back), cards: '\u0000' }), names(others));
    } else {
      hint = '';
    }
    if (nudged && !ui.back) setTimeout(() => { if (ui.nudge && Date.now() - ui.nudge >= 6000) { ui.nudge = 0; rerender(); } }, 6100);
    actions.append(el('span', { class: `hint ${nudged && !ui.back ? 'nudge' : ''}`, 'data-testid': 'retreat-hint', 'data-nudge': nudged && !ui.back ? 'yes' : null }, hint));
    actions.append(el('button', {
      class: 'btn gold', 'data-testid': 'retreat', 'data-action': ok ? action : '', disabled: !ok,
      onclick: () => { if (ok && action) send(action); },
    }, ok && back && reveal ? t('tk.take_show', { back: cardShort(back), show: cardShort(reveal) }) : t('tk.take_show_any')));
    if (legal.includes('keep')) actions.append(button('keep', t('tk.keep'), 'primary', { testid: 'keep' }));
  } else {
    const who = v.turn === null || v.turn === undefined ? '' : ctx.seatName(v.turn);
    actions.append(el('span', { class: 'hint', 'data-testid': 'waiting' },
      !hand.length && phase === 'lay' ? t('tk.no_cards') : who ? t(phase === 'retreat' ? 'tk.who_may_take' : 'tk.who_lays', { name: who }) : ''));
  }
  return el('div', { class: 'tk-mine' }, plate, actions);
}

// ---------------------------------------------------------------------------------------
// Words for the table page, the history and the replays
// ---------------------------------------------------------------------------------------

/**
 * A narration line with the players' names on its seats and the cards as people write them ("7♥").
 * @type {NonNullable<GameModule['nameLine']>}
 */
function nameLine(line, { seatName }) {
  return nameSeatsIn(line, seatName).replace(/\b(1[0-3]|[1-9])([SHDC])\b/g, (m) => cardShort(m));
}

/**
 * The game-over banner's words: who won, and for a player whether they did (alone, or
 * sharing the win).
 * @type {NonNullable<GameModule['outcomeText']>}
 */
function outcomeText(outcome, table, you, ctx = {}) {
  return seatsOutcome(outcome, you, ctx, {
    youWon: (names, winners) => (winners.length === 1 ? t('game.you_won') : t('tk.you_share', { names })),
  });
}

/** The final points: "Ane 31 · bot 1 24 · bot 2 18". */
const outcomeDetail = pointsDetail;

/** The final points for the history, from the outcome alone. */
const resultDetail = pointsResult;

/**
 * The lobby's words for a seat: its place round the table ("1.º", "2.º"…).
 * @type {NonNullable<GameModule['seatLabel']>}
 */
function seatLabel(i) {
  return ordinal(i + 1);
}

const sidesText = seatsText;

/**
 * An action in the page's words for the review (`lay 3D 6D`: "lay 3♦ 6♦"), its cards apart:
 * the engine's texts are its own English (`lay`, `retreat BACK reveal SHOWN`, `keep`).
 * @type {NonNullable<GameModule['actionParts']>}
 */
function actionParts(action) {
  const words = String(action).trim().split(/\s+/);
  /** Fills `key`'s text, each of its `{name}` placeholders replaced by the cards given for it. */
  const fill = (/** @type {string} */ key, /** @type {Record<string, string[]>} */ cards) => {
    const marks = Object.keys(cards);
    const text = t(key, Object.fromEntries(marks.map((m, i) => [m, String.fromCharCode(i + 1)])));
    return text.split(/([\u0001-\u0009])/).flatMap((p) => {
      const i = p.length === 1 ? p.charCodeAt(0) - 1 : -1;
      if (i < 0 || i >= marks.length) return p ? [p] : [];
      return cards[marks[i]].flatMap((c, k) => (k ? [' ', { card: c }] : [{ card: c }]));
    });
  };
  if (words[0] === 'lay' && words.length > 1) return fill('review.tikki.lay', { cards: words.slice(1) });
  if (words[0] === 'keep' && words.length === 1) return fill('review.tikki.keep', {});
  if (words[0] === 'retreat' && words.length === 4 && words[2] === 'reveal') return fill('review.tikki.retreat', { back: [words[1]], reveal: [words[3]] });
  return [String(action)];
}

// ---- the first deal, dealt again (the check of a table's deals) ----

/**
 * Every seat's seven cards of a game's first deal from its seed, by seat, as the replay's
 * full view names them (`10H`; by rank, then ♠ ♥ ♦ ♣): the first dealer drawn by lot
 * from the stream, then the deck of ranks 1–`top` in card-index order dealt seven a seat
 * from the dealer's left by the pinned shuffle (chance.js), as the engine's `TikkiGame::new`.
 * @type {NonNullable<GameModule['firstDeal']>}
 */
function firstDeal(seed, rules, seats) {
  const top = Math.min(13, Math.max(1, Number({ ...DEFAULT_RULES, ...(rules || {}) }.top) || 13));
  const rng = rngFromSeed(seed);
  const dealer = below(rng, seats);
  const { hands } = deal(Array.from({ length: 4 * top }, (_, i) => i), rng, seats, 7);
  /** @type {string[][]} */
  const out = Array.from({ length: seats }, () => []);
  hands.forEach((h, k) => {
    out[(dealer + 1 + k) % seats] = h.sort((a, b) => a - b).map((i) => `${Math.floor(i / 4) + 1}${'SHDC'[i % 4]}`);
  });
  return out;
}

registerGame({
  name: 'tikki', title: 'Tikki', rulesForm, rulesSummary, render, outcomeText, outcomeDetail, resultDetail, nameLine, seatLabel, sidesText, actionParts,
  firstDeal, dealtHands: fullViewHands,
});
