// @ts-check
// Chinchón's rules as the pages need them: card values, the least deadwood of a hand over
// every set of disjoint melds, the closes seven or eight cards allow, and a tidy order. The
// same rules as the engine's solver (crates/chinchon/src/meld.rs); e2e/unit checks the two
// agree hand by hand against `tapete chinchon analyze --json`. No DOM: it runs in Node too.

import { parseCard, isJoker } from './cards.js';

/**
 * The table options the rules read (the others are the server's business).
 * @typedef {{deck?: number|string, jokers?: number, joker_penalty?: number|string, close_limit?: number|string,
 *   figures?: string, [k: string]: unknown}} ChinchonRules
 */

/**
 * A card as the solver sees it.
 * @typedef {{code: string, joker: boolean, number: number, suit: string, rank: number, value: number}} CardInfo
 */

/**
 * What `analyze` answers: places refer to the cards given, in their order.
 * @typedef {{deadwood: number, melds: number[][], kinds: string[], unmatched: number[],
 *   best: (mask: number) => number, isRun: (mask: number) => boolean, cards: CardInfo[]}} Analysis
 */

/**
 * How seven cards close.
 * @typedef {{kind: 'chinchon'} | {kind: 'menos_diez'} | {kind: 'normal', card: string, points: number}} Close
 */

/**
 * Every option of a Chinchón table, as the lobby's form and a table's view carry them.
 * @typedef {{deck: number, two_decks_from: number | null, jokers: number, joker_penalty: number, close_limit: number,
 *   figures: string, meter_cartas: string, no_close_first_turn: boolean, target: number, reenganche: string,
 *   allow_false_close: boolean, stock_rebuilds: number, hand_turns: number}} ChinchonOptions
 */

/** @type {ChinchonOptions} */
export const DEFAULT_RULES = {
  deck: 40, two_decks_from: 5, jokers: 0, joker_penalty: 50, close_limit: 3, figures: 'number',
  meter_cartas: 'on', no_close_first_turn: false, target: 100, reenganche: 'off', allow_false_close: false,
  stock_rebuilds: 3, hand_turns: 300,
};

/** @type {Record<string, number>} */
const SUIT_ORDER = { o: 0, c: 1, e: 2, b: 3 };

/** Ranks in sequence order: 1–7, sota, caballo, rey (10 of them) or 1–12 with 48 cards. */
/** @param {ChinchonRules | null | undefined} rules @returns {number} */
export function seqLen(rules) {
  return Number((rules || {}).deck) === 48 ? 12 : 10;
}

/** @param {number} number @param {ChinchonRules} rules */
function rankOf(number, rules) {
  return seqLen(rules) === 12 || number <= 7 ? number : number - 2;
}

/** What a card counts left unmatched: its number, the figures as the table says, a joker its penalty. */
/** @param {string} code @param {ChinchonRules} [rules] @returns {number} */
export function cardValue(code, rules) {
  const r = { ...DEFAULT_RULES, ...(rules || {}) };
  if (isJoker(code)) return Number(r.joker_penalty);
  const c = parseCard(code);
  if (!c) return 0;
  if (c.number >= 10 && r.figures === 'ten') return 10;
  if (c.number >= 10 && r.figures === 'eight_nine_ten') return c.number - 2;
  return c.number;
}

/** @param {string} code @param {ChinchonRules} rules @returns {CardInfo} */
function info(code, rules) {
  const joker = isJoker(code);
  const c = joker ? null : parseCard(code);
  return {
    code, joker, number: c ? c.number : 0, suit: c ? c.suit : '', rank: c ? rankOf(c.number, rules) : 0, value: cardValue(code, rules),
  };
}

/** @param {number} m */
const bits = (m) => { let n = 0; for (let x = m; x; x &= x - 1) n++; return n; };
/** @param {number} m @returns {number[]} */
const places = (m) => { const out = []; for (let i = 0; m >> i; i++) if ((m >> i) & 1) out.push(i); return out; };

/**
 * Whether the cards at the places of `mask` are one meld, and which: 'group' (3 or 4 of
 * one number) or 'run' (3 or more of one suit in sequence order, no wrap), a joker standing
 * for any one card, at most one per meld.
 * @param {CardInfo[]} cards @param {number} mask @param {number} len @returns {'group'|'run'|null}
 */
function meldKind(cards, mask, len) {
  const at = places(mask);
  if (at.length < 3) return null;
  const jokers = at.filter((i) => cards[i].joker).length;
  if (jokers > 1) return null;
  const real = at.filter((i) => !cards[i].joker).map((i) => cards[i]);
  if (real.length < 2) return null;
  if (at.length <= 4 && real.every((c) => c.number === real[0].number)) return 'group';
  if (!real.every((c) => c.suit === real[0].suit)) return null;
  const ranks = real.map((c) => c.rank).sort((a, b) => a - b);
  for (let k = 1; k < ranks.length; k++) if (ranks[k] === ranks[k - 1]) return null;
  const span = ranks[ranks.length - 1] - ranks[0] + 1;
  if (at.length > len) return null;
  if (jokers === 0 ? span === at.length : span <= at.length) return 'run';
  return null;
}

/**
 * The least deadwood of up to eight cards over every set of disjoint melds: {deadwood,
 * melds: [[place…]…], unmatched: [place…], kinds: ['group'|'run'…], best(mask), isRun(mask)}.
 * @param {string[]} codes @param {ChinchonRules} [rules] @returns {Analysis}
 */
export function analyze(codes, rules) {
  const r = { ...DEFAULT_RULES, ...(rules || {}) };
  const cards = codes.map((c) => info(c, r));
  const n = cards.length;
  const len = seqLen(r);
  const full = (1 << n) - 1;
  /** @type {Map<number, 'group' | 'run'>} */
  const kindOf = new Map();
  /** @type {number[]} */
  const melds = [];
  for (let m = 1; m <= full; m++) {
    if (bits(m) < 3) continue;
    const k = meldKind(cards, m, len);
    if (k) { melds.push(m); kindOf.set(m, k); }
  }
  const best = new Array(full + 1).fill(0);
  const choice = new Array(full + 1).fill(0);
  for (let s = 1; s <= full; s++) {
    const low = s & -s;
    let b = cards[31 - Math.clz32(low)].value + best[s & (s - 1)];
    let ch = 0;
    for (const m of melds) {
      if ((m & low) && (m & ~s) === 0 && best[s ^ m] < b) { b = best[s ^ m]; ch = m; }
    }
    best[s] = b;
    choice[s] = ch;
  }
  /** @type {Analysis} */
  const out = { deadwood: best[full], melds: [], kinds: [], unmatched: [], best: (m) => best[m], isRun: (m) => kindOf.get(m) === 'run', cards };
  for (let s = full; s;) {
    const ch = choice[s];
    if (ch) { out.melds.push(places(ch)); out.kinds.push(/** @type {'group' | 'run'} (a chosen meld's) */ (kindOf.get(ch))); s ^= ch; } else { const low = s & -s; out.unmatched.push(31 - Math.clz32(low)); s ^= low; }
  }
  return out;
}

/**
 * How seven cards close, if they do: {kind: 'chinchon'} (one escalera), {kind:
 * 'menos_diez'} (all in melds), {kind: 'normal', card, points} (all but one, worth the close
 * limit or less: the lowest such card), or null.
 * @param {string[]} seven @param {ChinchonRules} [rules] @returns {Close | null}
 */
export function closeOf(seven, rules) {
  const r = { ...DEFAULT_RULES, ...(rules || {}) };
  if (seven.length !== 7) return null;
  const a = analyze(seven, r);
  const full = 0x7f;
  if (a.isRun(full)) return { kind: 'chinchon' };
  if (a.deadwood === 0) return { kind: 'menos_diez' };
  /** @type {{kind: 'normal', card: string, points: number} | null} */
  let found = null;
  for (let i = 0; i < 7; i++) {
    const v = a.cards[i].value;
    if (v <= Number(r.close_limit) && a.best(full ^ (1 << i)) === 0 && (!found || v < found.points)) found = { kind: 'normal', card: seven[i], points: v };
  }
  return found;
}

/** For eight cards: each distinct card whose discard leaves a close, with that close. */
/** @param {string[]} eight @param {ChinchonRules} [rules] @returns {Map<string, Close>} */
export function closes(eight, rules) {
  const out = new Map();
  eight.forEach((c, i) => {
    if (out.has(c)) return;
    const close = closeOf(eight.filter((_, k) => k !== i), rules);
    if (close) out.set(c, close);
  });
  return out;
}

/** Where each card of a meld sits in its display order: runs by rank (the joker in its gap), groups by suit, the joker last. */
/** @param {CardInfo[]} cards @param {number[]} at @param {string} kind @param {number} len @returns {number[]} */
function meldOrder(cards, at, kind, len) {
  const real = at.filter((i) => !cards[i].joker);
  const joker = at.find((i) => cards[i].joker);
  if (kind === 'group') {
    real.sort((x, y) => SUIT_ORDER[cards[x].suit] - SUIT_ORDER[cards[y].suit]);
    return joker === undefined ? real : [...real, joker];
  }
  real.sort((x, y) => cards[x].rank - cards[y].rank);
  if (joker === undefined) return real;
  for (let k = 1; k < real.length; k++) {
    if (cards[real[k]].rank - cards[real[k - 1]].rank > 1) return [...real.slice(0, k), joker, ...real.slice(k)];
  }
  return cards[real[real.length - 1]].rank < len ? [...real, joker] : [joker, ...real];
}

/** @param {string} a @param {string} b */
function bySuit(a, b) {
  const x = parseCard(a); const y = parseCard(b);
  if (!x || !y) return x ? -1 : y ? 1 : 0;
  return SUIT_ORDER[x.suit] - SUIT_ORDER[y.suit] || x.number - y.number;
}

/** The cards in a tidy order: each meld together, then the cards left by suit and number. */
/** @param {string[]} codes @param {ChinchonRules} [rules] @returns {string[]} */
export function tidy(codes, rules) {
  const a = analyze(codes, rules);
  const len = seqLen({ ...DEFAULT_RULES, ...(rules || {}) });
  const out = [];
  a.melds.map((at, k) => meldOrder(a.cards, at, a.kinds[k], len))
    .sort((x, y) => bySuit(codes[x[0]], codes[y[0]]))
    .forEach((at) => out.push(...at.map((i) => codes[i])));
  out.push(...a.unmatched.map((i) => codes[i]).sort(bySuit));
  return out;
}
