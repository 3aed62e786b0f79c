// @ts-check
// French playing cards drawn as SVG: spades, hearts, diamonds, clubs (♠ ♥ ♦ ♣, hearts and
// diamonds red), ranks 1 (the ace) to 13 written A, 2–10, J, Q, K on the faces. Card codes
// are the engines' text: rank then suit letter, "1S" "10H" "13C". Every shape is drawn
// here: no images, no fonts beyond the system's. The back is the deck's usual one.

import { backSVG } from './cards.js';

/**
 * The suits by letter: their names, symbols and whether they are red.
 * @type {Record<string, {name: string, symbol: string, red: boolean}>}
 */
export const SUITS = {
  S: { name: 'spades', symbol: '♠', red: false },
  H: { name: 'hearts', symbol: '♥', red: true },
  D: { name: 'diamonds', symbol: '♦', red: true },
  C: { name: 'clubs', symbol: '♣', red: false },
};

/** Suits from the highest: ♠ > ♥ > ♦ > ♣. */
export const SUIT_ORDER = ['S', 'H', 'D', 'C'];

const RED = '#c62828';
const BLACK = '#1b1b1f';

/** @type {Record<number, string>} */
const RANK_NAMES = { 1: 'ace', 11: 'jack', 12: 'queen', 13: 'king' };
/** @type {Record<number, string>} */
const FACE_LETTERS = { 1: 'A', 11: 'J', 12: 'Q', 13: 'K' };

/**
 * Parses "10H" (or "10♥", any case) into {rank: 10, suit: "H"}; null when it is not a French card.
 * @param {string} code
 * @returns {{rank: number, suit: string} | null}
 */
export function parseCard(code) {
  const m = /^(1[0-3]|[1-9])([SHDC♠♥♦♣])$/i.exec(String(code).trim());
  if (!m) return null;
  const s = m[2].toUpperCase();
  const suit = /** @type {Record<string, string>} */ ({ '♠': 'S', '♥': 'H', '♦': 'D', '♣': 'C' })[s] || s;
  return { rank: Number(m[1]), suit };
}

/**
 * What the card's corner says: A, 2–10, J, Q, K.
 * @param {number} rank
 */
export function rankLetter(rank) {
  return FACE_LETTERS[rank] || String(rank);
}

/**
 * "7♥", "K♠": the card in a few characters, as people write it.
 * @param {string} code
 */
export function cardShort(code) {
  const c = parseCard(code);
  return c ? `${rankLetter(c.rank)}${SUITS[c.suit].symbol}` : String(code);
}

/**
 * A page's own words for a card's name, `name(rank, suit)`, in its language (this module stays
 * free of the pages' catalogs, so that the rules' tests load it alone): tikki.js sets it.
 * @type {{name: ((rank: number, suit: string) => string) | null}}
 */
export const frenchWords = { name: null };

/**
 * "seven of hearts" style names: "7 of hearts", "ace of spades", "king of clubs".
 * @param {string} code
 */
export function cardName(code) {
  const c = parseCard(code);
  if (c && frenchWords.name) return frenchWords.name(c.rank, c.suit);
  return c ? `${RANK_NAMES[c.rank] || c.rank} of ${SUITS[c.suit].name}` : String(code);
}

// Each suit symbol is drawn in a box from -10 to 10 around the origin.
/** @type {Record<string, string>} */
const SYMBOL = {
  H: 'M0,9.6 C-5.2,4.6 -9.8,0.6 -9.8,-4 C-9.8,-7.4 -7.3,-9.6 -4.7,-9.6 C-2.6,-9.6 -0.9,-8.4 0,-6.4 C0.9,-8.4 2.6,-9.6 4.7,-9.6 C7.3,-9.6 9.8,-7.4 9.8,-4 C9.8,0.6 5.2,4.6 0,9.6Z',
  D: 'M0,-10 C2.2,-6.6 4.8,-3.2 7.6,0 C4.8,3.2 2.2,6.6 0,10 C-2.2,6.6 -4.8,3.2 -7.6,0 C-4.8,-3.2 -2.2,-6.6 0,-10Z',
  S: 'M0,-10 C-3.4,-5.6 -9.6,-2.2 -9.6,2.6 C-9.6,5.6 -7.3,7.4 -4.9,7.4 C-3.1,7.4 -1.7,6.6 -0.9,5.4 C-1.1,7.2 -2.2,8.8 -4,9.9 H4 C2.2,8.8 1.1,7.2 0.9,5.4 C1.7,6.6 3.1,7.4 4.9,7.4 C7.3,7.4 9.6,5.6 9.6,2.6 C9.6,-2.2 3.4,-5.6 0,-10Z',
  C: 'M0,-9.8 C2.6,-9.8 4.5,-7.8 4.5,-5.3 C4.5,-3.6 3.6,-2.3 2.5,-1.5 C3.3,-2 4.2,-2.2 5.1,-2.2 C7.6,-2.2 9.6,-0.2 9.6,2.3 C9.6,4.8 7.6,6.8 5.1,6.8 C3.2,6.8 1.8,5.8 1,4.4 C1.2,6.6 2.2,8.6 4,9.9 H-4 C-2.2,8.6 -1.2,6.6 -1,4.4 C-1.8,5.8 -3.2,6.8 -5.1,6.8 C-7.6,6.8 -9.6,4.8 -9.6,2.3 C-9.6,-0.2 -7.6,-2.2 -5.1,-2.2 C-4.2,-2.2 -3.3,-2 -2.5,-1.5 C-3.6,-2.3 -4.5,-3.6 -4.5,-5.3 C-4.5,-7.8 -2.6,-9.8 0,-9.8Z',
};

/** @param {string} suit */
function color(suit) {
  return SUITS[suit].red ? RED : BLACK;
}

/**
 * The SVG of a suit symbol alone (for labels and buttons), `size` pixels high.
 * @param {string} suit
 */
export function suitSVG(suit, size = 12) {
  return `<svg viewBox="-10 -10 20 20" width="${size}" height="${size}" aria-hidden="true"><path d="${SYMBOL[suit]}" fill="${color(suit)}"/></svg>`;
}

/**
 * A suit's symbol at (x, y), scaled and turned.
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} scale
 */
function symbol(suit, x, y, scale, rotate = 0) {
  return `<path d="${SYMBOL[suit]}" fill="${color(suit)}" transform="translate(${x},${y}) rotate(${rotate}) scale(${scale})"/>`;
}

// Where the pips of 2–10 sit on the 60 × 90 card (the usual layouts): two columns and the
// middle one; pips below the middle line are drawn upside down.
const L = 19; const M = 30; const R = 41;
/** @type {Record<number, [number, number][]>} */
const PIPS = {
  2: [[M, 19], [M, 71]],
  3: [[M, 19], [M, 45], [M, 71]],
  4: [[L, 19], [R, 19], [L, 71], [R, 71]],
  5: [[L, 19], [R, 19], [M, 45], [L, 71], [R, 71]],
  6: [[L, 19], [R, 19], [L, 45], [R, 45], [L, 71], [R, 71]],
  7: [[L, 19], [R, 19], [M, 32], [L, 45], [R, 45], [L, 71], [R, 71]],
  8: [[L, 19], [R, 19], [M, 32], [L, 45], [R, 45], [M, 58], [L, 71], [R, 71]],
  9: [[L, 19], [R, 19], [L, 36.3], [R, 36.3], [M, 45], [L, 53.7], [R, 53.7], [L, 71], [R, 71]],
  10: [[L, 19], [R, 19], [M, 28], [L, 36.3], [R, 36.3], [L, 53.7], [R, 53.7], [M, 62], [L, 71], [R, 71]],
};

/**
 * The court cards: a figure in a frame, head and shoulders mirrored as on real cards.
 * @param {number} rank
 * @param {string} suit
 */
function court(rank, suit) {
  const c = color(suit);
  const robe = SUITS[suit].red ? '#c62828' : '#2b4f9e';
  const trim = '#e8b931';
  const skin = '#f2cda6';
  const hair = rank === 12 ? '#d9a441' : '#5a3b22';
  const half = () => {
    let s = `<path d="M16,45 C16,36 21,33 30,33 C39,33 44,36 44,45Z" fill="${robe}" stroke="#222" stroke-width=".5"/>
      <path d="M26,33 L30,41 L34,33" fill="#fffdf6" stroke="#222" stroke-width=".4"/>
      <path d="M19,45 V39 M41,45 V39" stroke="${trim}" stroke-width="1.4"/>
      <circle cx="30" cy="26" r="5.2" fill="${skin}" stroke="#5a3b22" stroke-width=".5"/>
      <path d="M24.8,25 C25,20.4 35,20.4 35.2,25 C33,23.6 27,23.6 24.8,25Z" fill="${hair}"/>
      <circle cx="28.2" cy="26" r=".55" fill="#222"/><circle cx="31.8" cy="26" r=".55" fill="#222"/>`;
    if (rank === 13) {
      s += `<path d="M24.6,21.6 L25.4,15.6 L27.8,18.8 L30,14.4 L32.2,18.8 L34.6,15.6 L35.4,21.6Z" fill="${trim}" stroke="#8f6400" stroke-width=".5"/>
        <path d="M26.6,29 C28,32.6 32,32.6 33.4,29 C32,29.8 28,29.8 26.6,29Z" fill="#8b6d4a"/>`;
    } else if (rank === 12) {
      s += `<path d="M25,21.4 C26,17.4 34,17.4 35,21.4 L33,19.6 L30,21 L27,19.6Z" fill="${trim}" stroke="#8f6400" stroke-width=".5"/>
        <circle cx="30" cy="17.8" r="1.1" fill="${c}"/>`;
    } else {
      s += `<path d="M24.4,22.4 C24.8,17.8 35.2,17.8 35.6,22.4Z" fill="${robe}" stroke="#222" stroke-width=".4"/>
        <path d="M35,20 C38,17 40,15 41.5,13.5" stroke="${trim}" stroke-width="1.3" fill="none" stroke-linecap="round"/>`;
    }
    s += symbol(suit, 38.5, 38.5, 0.32);
    return s;
  };
  return `<rect x="11" y="12" width="38" height="66" rx="2" fill="#fbf3df" stroke="${c}" stroke-width=".7"/>
    <g>${half()}</g><g transform="rotate(180 30 45)">${half()}</g>
    <path d="M11,45 H49" stroke="${c}" stroke-width=".5" stroke-opacity=".6"/>`;
}

/**
 * The SVG markup of a face-up card ("13S", "7H"), or of a card back ("back").
 * @param {string} code
 */
export function cardSVG(code) {
  const card = parseCard(code);
  if (!card) return backSVG();
  const { rank, suit } = card;
  const c = color(suit);
  let body = '';
  if (rank === 1) body = symbol(suit, 30, 45, suit === 'S' ? 1.6 : 1.25);
  else if (rank >= 11) body = court(rank, suit);
  else for (const [x, y] of PIPS[rank]) body += symbol(suit, x, y, 0.56, y > 45 ? 180 : 0);
  const letter = rankLetter(rank);
  const size = letter.length > 1 ? 8.6 : 10;
  const corner = `<text x="7.4" y="12.4" font-family="Georgia, 'Times New Roman', serif" font-weight="700" font-size="${size}"
      text-anchor="middle" fill="${c}" ${letter.length > 1 ? 'letter-spacing="-.6"' : ''}>${letter}</text>${symbol(suit, 7.4, 18.6, 0.3)}`;
  return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${cardName(code)}">
    <rect x=".5" y=".5" width="59" height="89" rx="5" fill="#fffdf6" stroke="#b9ae94" stroke-width="1"/>
    ${body}<g>${corner}</g><g transform="rotate(180 30 45)">${corner}</g>
  </svg>`;
}

/**
 * A card element: `<span class="card" data-card="13S">svg</span>`; "back" for a face-down card.
 * @param {string} code
 * @param {import('./cards.js').CardAttrs} [attrs]
 */
export function cardEl(code, attrs = {}) {
  const span = document.createElement('span');
  span.className = 'card';
  span.innerHTML = cardSVG(code);
  if (code !== 'back') {
    span.dataset.card = code;
    span.title = cardName(code);
  }
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') span.classList.add(...String(v).split(/\s+/).filter(Boolean));
    else span.setAttribute(k, String(v));
  }
  return span;
}
