// @ts-check
// Tikki's combinations as the pages need them: the engine's order of cards, the best
// combination among some cards, their words, and what a trick pile scores. The same
// ranking as the engine (crates/tikki/src/combo.rs); e2e/unit checks the two agree hand by
// hand against `tapete tikki best --json`. No DOM: it runs in Node too.

import { parseCard, cardShort, rankLetter, SUIT_ORDER } from './french.js';

/**
 * A combination as the engine names it: its kind, its cards (engine order) and top card.
 * @typedef {{type: string, cards: string[], top: string}} Combo
 */

/**
 * A table's options: the deck's top rank (13: the 52 cards), the rounds (0: one per
 * player), the target (0: play the rounds) and whether the retreat round is played.
 * @typedef {{top: number, rounds: number, target: number, retreat: boolean}} TikkiRules
 */

/** @type {TikkiRules} */
export const DEFAULT_RULES = { top: 13, rounds: 0, target: 0, retreat: false };

/** The kinds of combination, weakest first (the engine's names). */
export const KINDS = ['single', 'pair', 'straight_flush_2', 'three_of_a_kind', 'straight_flush_3', 'straight_flush_4',
  'four_of_a_kind', 'straight_flush_5', 'straight_flush_6', 'straight_flush_7'];

/** A card's place in the engine's order: rank, then ♠ ♥ ♦ ♣ (the order its texts use). */
/** @param {string} code @returns {number} */
export function cardIndex(code) {
  const c = parseCard(code);
  return c ? (c.rank - 1) * 4 + SUIT_ORDER.indexOf(c.suit) : -1;
}

/** How strong a card is as the top of a combination: rank first, then suit (♠ highest). */
/** @param {string} code @returns {number} */
export function strength(code) {
  const c = parseCard(code);
  return c ? (c.rank - 1) * 4 + (3 - SUIT_ORDER.indexOf(c.suit)) : -1;
}

/** Cards in the engine's order (ace first, ♠ ♥ ♦ ♣ within a rank). */
/** @param {string[]} codes @returns {string[]} */
export function sortCards(codes) {
  return [...codes].sort((a, b) => cardIndex(a) - cardIndex(b));
}

/**
 * The best combination among `codes`: {type, cards, top} as the engine names them, or null
 * for no cards. Groups of a rank and runs of a suit (straight flushes, no wrap-around; a
 * longer run counts as its top seven), compared by kind and then by the top card.
 */
/** @param {string[]} codes @returns {Combo | null} */
export function best(codes) {
  const cards = codes.map((code) => ({ ...parseCard(code), code })).filter((c) => c.rank);
  if (!cards.length) return null;
  /** @type {{score: number, type: string, cards: string[], top: string}[]} */
  const seen = [];
  /** @type {(type: string, set: string[], top: string) => void} */
  const consider = (type, set, top) => { seen.push({ score: KINDS.indexOf(type) * 64 + strength(top), type, cards: set, top }); };
  for (let r = 1; r <= 13; r++) {
    const group = cards.filter((c) => c.rank === r).map((c) => c.code);
    if (!group.length) continue;
    const top = group.reduce((a, b) => (strength(b) > strength(a) ? b : a));
    consider(['single', 'pair', 'three_of_a_kind', 'four_of_a_kind'][group.length - 1], group, top);
  }
  for (const suit of SUIT_ORDER) {
    const has = new Map(cards.filter((c) => c.suit === suit).map((c) => [c.rank, c.code]));
    /** @type {string[]} */
    let run = [];
    for (let r = 1; r <= 13; r++) {
      const code = has.get(r);
      if (code === undefined) { run = []; continue; }
      run.push(code);
      if (run.length >= 2) {
        const set = run.slice(-7);
        consider(`straight_flush_${set.length}`, set, code);
      }
    }
  }
  // The best kind, then the best top; the first of equals (never two: a card is in one group).
  const found = seen.reduce((a, b) => (b.score > a.score ? b : a));
  return { type: found.type, cards: sortCards(found.cards), top: found.top };
}

/** "pair", "3-card straight flush", "single card". */
/** @param {string} type @returns {string} */
export function kindWords(type) {
  const m = /^straight_flush_(\d)$/.exec(type || '');
  if (m) return `${m[1]}-card straight flush`;
  return { single: 'single card', pair: 'pair', three_of_a_kind: 'three of a kind', four_of_a_kind: 'four of a kind' }[type] || String(type);
}

/** "pair of 7s", "4-card straight flush to 9♥", "single K♠". */
/** @param {Combo | null} combo @returns {string} */
export function comboWords(combo) {
  if (!combo) return '';
  const top = parseCard(combo.top);
  const plural = (/** @type {number} */ r) => (r === 6 ? 'sixes' : `${rankLetter(r)}s`);
  if (/^straight_flush/.test(combo.type)) return `${kindWords(combo.type)} to ${cardShort(combo.top)}`;
  if (combo.type === 'single') return `single ${cardShort(combo.top)}`;
  return `${kindWords(combo.type)}${top ? ` of ${plural(top.rank)}` : ''}`;
}

/** A pile by rank: [{rank, cards, points}], points 1/5/10/20 for 1/2/3/4 cards of a rank. */
/** @param {string[] | null | undefined} codes @returns {{rank: number, cards: string[], points: number}[]} */
export function pileGroups(codes) {
  const by = new Map();
  for (const c of codes || []) {
    const p = parseCard(c);
    if (!p) continue;
    if (!by.has(p.rank)) by.set(p.rank, []);
    by.get(p.rank).push(c);
  }
  return [...by.entries()].sort((a, b) => a[0] - b[0])
    .map(([rank, cards]) => ({ rank, cards: sortCards(cards), points: [0, 1, 5, 10, 20][cards.length] || 0 }));
}

/** What a pile scores. */
/** @param {string[] | null | undefined} codes @returns {number} */
export function pilePoints(codes) {
  return pileGroups(codes).reduce((n, g) => n + g.points, 0);
}

/** The lays of the legal list by their cards: a map from the sorted cards to the action's text. */
/** @param {string[]} legal @returns {Map<string, string>} */
export function layActions(legal) {
  const m = new Map();
  for (const a of legal) if (a.startsWith('lay ')) m.set(sortCards(a.slice(4).trim().split(/\s+/)).join(' '), a);
  return m;
}
