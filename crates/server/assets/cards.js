// @ts-check
// Spanish playing cards drawn as SVG: oros, copas, espadas, bastos; 1–9, sota (10),
// caballo (11), rey (12), and the joker (comodín, "J") of the games that play with one.
// Every shape is drawn here: no images, no fonts beyond the system's.

/**
 * The suits by letter: their names, their ink and the gaps of their frame (the pinta).
 * @type {Record<string, {name: string, color: string, gaps: number}>}
 */
export const SUITS = {
  o: { name: 'oros', color: '#b07d0c', gaps: 0 },
  c: { name: 'copas', color: '#b3261e', gaps: 1 },
  e: { name: 'espadas', color: '#2458a6', gaps: 2 },
  b: { name: 'bastos', color: '#3f6b1f', gaps: 3 },
};

/** @type {Record<number, string>} */
export const NUMBER_NAMES = { 1: 'as', 2: 'dos', 3: 'tres', 4: 'cuatro', 5: 'cinco', 6: 'seis', 7: 'siete', 8: 'ocho', 9: 'nueve', 10: 'sota', 11: 'caballo', 12: 'rey' };

/**
 * Parses "12o" into {number: 12, suit: "o"}; null when it is not a Spanish card.
 * @param {string} code
 * @returns {{number: number, suit: string} | null}
 */
export function parseCard(code) {
  const m = /^(1[0-2]|[1-9])([ocebOCEB])$/.exec(String(code).trim());
  return m ? { number: Number(m[1]), suit: m[2].toLowerCase() } : null;
}

/**
 * Whether `code` is the joker ("J").
 * @param {string} code
 */
export function isJoker(code) {
  return String(code).trim().toUpperCase() === 'J';
}

/**
 * "rey de oros", "comodín".
 * @param {string} code
 */
export function cardName(code) {
  if (isJoker(code)) return 'comodín';
  const c = parseCard(code);
  return c ? `${NUMBER_NAMES[c.number]} de ${SUITS[c.suit].name}` : String(code);
}

// Each suit symbol is drawn in a box from -10 to 10 around the origin.
/** @type {Record<string, string>} */
const SYMBOL = {
  o: `<circle r="9.4" fill="#f3c94a" stroke="#936300" stroke-width="1.2"/>
      <circle r="6.6" fill="#f7d978" stroke="#c28a12" stroke-width=".9"/>
      <path d="M0,-6.6V6.6M-6.6,0H6.6M-4.7,-4.7L4.7,4.7M4.7,-4.7L-4.7,4.7" stroke="#d9a21e" stroke-width=".7"/>
      <circle r="2.4" fill="#c28a12" stroke="#936300" stroke-width=".6"/>`,
  c: `<path d="M-8,-7.5 C-8,0 -4.5,2.6 -1.6,3.4 V5.8 H-4.6 C-5.2,7.6 -4.2,9.6 -2.6,9.8 H2.6 C4.2,9.6 5.2,7.6 4.6,5.8 H1.6 V3.4 C4.5,2.6 8,0 8,-7.5Z"
        fill="#cf3b2b" stroke="#7d1a12" stroke-width=".9"/>
      <path d="M-5.5,-4 C-5,-.5 -3,1.2 -1,1.8" stroke="#f6a096" stroke-width="1.1" fill="none" stroke-linecap="round"/>
      <ellipse cx="0" cy="-7.5" rx="8" ry="1.8" fill="#f3c94a" stroke="#7d1a12" stroke-width=".7"/>
      <rect x="-2.4" y="4.4" width="4.8" height="1.4" fill="#f3c94a"/>`,
  e: `<path d="M-1.9,-3.8 H1.9 L1.6,7.6 L0,10.4 L-1.6,7.6Z" fill="#b9d3ef" stroke="#1f4f8f" stroke-width=".8"/>
      <path d="M0,-3.5 V8.5" stroke="#6f97c8" stroke-width=".6"/>
      <path d="M-6.8,-5.8 C-4,-4.6 4,-4.6 6.8,-5.8 L6.2,-3.6 C4,-2.9 -4,-2.9 -6.2,-3.6Z" fill="#2b5fab" stroke="#17376b" stroke-width=".6"/>
      <rect x="-1.2" y="-9.4" width="2.4" height="4.4" rx=".6" fill="#8a5a2b" stroke="#4a2e12" stroke-width=".5"/>
      <circle cy="-9.8" r="1.7" fill="#f3c94a" stroke="#8f6400" stroke-width=".5"/>`,
  b: `<path d="M-4.2,-8.4 C-2,-10.6 2.6,-10.4 4.2,-8 C4.8,-4 2.4,3.8 1.4,9.3 C.8,10.4 -.8,10.4 -1.3,9.3 C-2.2,3.8 -5,-4 -4.2,-8.4Z"
        fill="#7ea04b" stroke="#36501a" stroke-width=".9"/>
      <path d="M-2.6,-7 C-1.6,-2 -1,3 -.4,8" stroke="#b9d08a" stroke-width=".9" fill="none" stroke-linecap="round"/>
      <ellipse cx="2.6" cy="-4.2" rx="1.3" ry=".9" fill="#4e6d25"/>
      <ellipse cx="-2.3" cy="-.6" rx="1.2" ry=".85" fill="#4e6d25"/>
      <ellipse cx="1.6" cy="3.4" rx="1" ry=".75" fill="#4e6d25"/>
      <path d="M3.4,-6 l2.2,-1.2 M-3.2,-2.2 l-2,-1" stroke="#36501a" stroke-width=".9" stroke-linecap="round"/>`,
};

/**
 * A suit's symbol at (x, y), scaled and turned.
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} scale
 */
function symbol(suit, x, y, scale, rotate = 0) {
  return `<g transform="translate(${x},${y}) rotate(${rotate}) scale(${scale})">${SYMBOL[suit]}</g>`;
}

/** Where the pips of each number go. @type {Record<number, [number, number][]>} */
const PIPS = {
  1: [[30, 45]],
  2: [[30, 25], [30, 65]],
  3: [[30, 22], [30, 45], [30, 68]],
  4: [[20.5, 25], [39.5, 25], [20.5, 65], [39.5, 65]],
  5: [[20.5, 24], [39.5, 24], [30, 45], [20.5, 66], [39.5, 66]],
  6: [[20.5, 22], [39.5, 22], [20.5, 45], [39.5, 45], [20.5, 68], [39.5, 68]],
  7: [[19.5, 18], [40.5, 18], [30, 31.5], [19.5, 45], [40.5, 45], [19.5, 72], [40.5, 72]],
  8: [[19.5, 18], [40.5, 18], [30, 31.5], [19.5, 45], [40.5, 45], [30, 58.5], [19.5, 72], [40.5, 72]],
  9: [[16, 20], [30, 20], [44, 20], [16, 45], [30, 45], [44, 45], [16, 70], [30, 70], [44, 70]],
};
/** @type {Record<number, number>} */
const PIP_SCALE = { 1: 1.9, 7: .68, 8: .64, 9: .58 };

/**
 * A figure's picture: sota (10), caballo (11), rey (12).
 * @param {number} number
 * @param {string} suit
 */
function figure(number, suit) {
  const color = SUITS[suit].color;
  const skin = '#f2cda6';
  let s = `<rect x="10.5" y="14" width="39" height="62" rx="3" fill="#f4ead2" stroke="${color}" stroke-width=".6" stroke-opacity=".6"/>`;
  if (number === 11) {
    // caballo: a rider on a horse
    s += `<path d="M15,58 C15,51 22,49 30,50 C37,50 44,50 45,56 C46,61 41,63 35,63 L24,63 C19,63 15,62 15,58Z" fill="#8a5a32" stroke="#4a2e12" stroke-width=".7"/>
      <path d="M17,57 C14,52 13,46 12.5,42 C14,40 17,41 18,43 C19,47 21,51 22,53Z" fill="#8a5a32" stroke="#4a2e12" stroke-width=".7"/>
      <path d="M13,41.5 l-1.2,-2 l2.6,.8" fill="#4a2e12"/>
      <path d="M20,62 l-1,11 M26,63 l.5,10 M36,63 l1,10 M42,61 l2,11" stroke="#4a2e12" stroke-width="1.6" stroke-linecap="round"/>
      <path d="M45,55 C48,58 48,64 46,68" stroke="#4a2e12" stroke-width="1.4" fill="none" stroke-linecap="round"/>
      <path d="M27,37 H36 L38,53 H25Z" fill="${color}" stroke="#2b2b2b" stroke-width=".6"/>
      <circle cx="31.5" cy="32" r="4.4" fill="${skin}" stroke="#5a3b22" stroke-width=".6"/>
      <path d="M26.5,29.5 C28,25.5 35,25.5 36.5,29.5Z" fill="#3b2a1a"/>
      ${symbol(suit, 41, 38, .42)}`;
  } else {
    const rey = number === 12;
    s += `<path d="M24,39 H36 L41,73 H19Z" fill="${color}" stroke="#2b2b2b" stroke-width=".6"/>
      <path d="M24,39 H36 L35,46 H25Z" fill="#f3c94a" stroke="#2b2b2b" stroke-width=".4"/>
      <path d="M30,46 V73" stroke="rgba(255,255,255,.45)" stroke-width="1"/>
      <circle cx="30" cy="32" r="5" fill="${skin}" stroke="#5a3b22" stroke-width=".6"/>`;
    if (rey) {
      s += `<path d="M24.5,28 L25.5,21 L28,25 L30,19.5 L32,25 L34.5,21 L35.5,28Z" fill="#f3c94a" stroke="#8f6400" stroke-width=".6"/>
        <path d="M26.5,35.5 C28,39 32,39 33.5,35.5 C32,36.5 28,36.5 26.5,35.5Z" fill="#8b8b8b"/>`;
    } else {
      s += `<path d="M24.2,30 C24.5,24.5 35.5,24.5 35.8,30 C33,28.6 27,28.6 24.2,30Z" fill="#3b2a1a"/>
        <path d="M35,27 l5,-4" stroke="#c0392b" stroke-width="1.2" stroke-linecap="round"/>`;
    }
    s += symbol(suit, rey ? 18.5 : 41.5, 52, .5);
  }
  return s;
}

/** @param {string} suit */
function frame(suit) {
  // The pinta: gaps in the frame's top and bottom lines tell the suit (oros none,
  // copas one, espadas two, bastos three).
  const gaps = SUITS[suit].gaps;
  let s = `<rect x="3.2" y="3.2" width="53.6" height="83.6" rx="3" fill="none" stroke="${SUITS[suit].color}" stroke-width=".7" stroke-opacity=".75"/>`;
  const xs = gaps === 1 ? [30] : gaps === 2 ? [25, 35] : gaps === 3 ? [21, 30, 39] : [];
  for (const x of xs) {
    s += `<rect x="${x - 2}" y="2.4" width="4" height="1.6" fill="#fffdf6"/><rect x="${x - 2}" y="86" width="4" height="1.6" fill="#fffdf6"/>`;
  }
  return s;
}

/** The joker: a jester's cap with bells over a star, in the four suits' colours. */
function jokerSVG() {
  /** @type {(cx: number, cy: number, r: number) => string} */
  const star = (cx, cy, r) => {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + (i * Math.PI) / 5;
      const rr = i % 2 ? r * .45 : r;
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`);
    }
    return `<polygon points="${pts.join(' ')}" fill="#f3c94a" stroke="#8f6400" stroke-width=".6"/>`;
  };
  /** @type {(x: number, y: number, rot: number) => string} */
  const idx = (x, y, rot) =>
    `<text x="${x}" y="${y}" transform="rotate(${rot} ${x} ${y - 3.4})" font-family="Georgia, 'Times New Roman', serif" font-weight="700" font-size="9" text-anchor="middle" fill="#6d2c91">J</text>`;
  return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="comodín">
    <rect x=".5" y=".5" width="59" height="89" rx="5" fill="#fffdf6" stroke="#b9ae94" stroke-width="1"/>
    <rect x="3.2" y="3.2" width="53.6" height="83.6" rx="3" fill="none" stroke="#6d2c91" stroke-width=".7" stroke-opacity=".75"/>
    <path d="M30,44 C26,34 18,26 9,25 C15,31 17,38 18,46Z" fill="#cf3b2b" stroke="#5b1a12" stroke-width=".7"/>
    <path d="M30,44 C31,33 30,22 30,14 C27,22 24,33 24,45Z" fill="#2b5fab" stroke="#17376b" stroke-width=".7"/>
    <path d="M30,44 C32,33 34,22 30,14 C36,22 38,33 36,45Z" fill="#3f6b1f" stroke="#22400f" stroke-width=".7"/>
    <path d="M30,44 C34,34 42,26 51,25 C45,31 43,38 42,46Z" fill="#f3c94a" stroke="#8f6400" stroke-width=".7"/>
    <circle cx="9" cy="25" r="2.3" fill="#f3c94a" stroke="#8f6400" stroke-width=".6"/>
    <circle cx="30" cy="13" r="2.3" fill="#f3c94a" stroke="#8f6400" stroke-width=".6"/>
    <circle cx="51" cy="25" r="2.3" fill="#cf3b2b" stroke="#5b1a12" stroke-width=".6"/>
    <path d="M17,45.5 C22,43 38,43 43,45.5 L42,49 C37,47 23,47 18,49Z" fill="#6d2c91" stroke="#3c1552" stroke-width=".6"/>
    <circle cx="30" cy="56" r="7.5" fill="#f2cda6" stroke="#5a3b22" stroke-width=".6"/>
    <circle cx="27.2" cy="54.6" r=".9" fill="#3b2a1a"/><circle cx="32.8" cy="54.6" r=".9" fill="#3b2a1a"/>
    <path d="M26.2,58.3 C28,61 32,61 33.8,58.3" stroke="#8b2620" stroke-width=".9" fill="none" stroke-linecap="round"/>
    <path d="M20,66 L25,63 L30,67 L35,63 L40,66 L38,70 L22,70Z" fill="#6d2c91" stroke="#3c1552" stroke-width=".6"/>
    ${star(30, 77.5, 5)}${idx(8.2, 12.2, 0)}${idx(51.8, 81.2, 180)}
  </svg>`;
}

/**
 * The SVG markup of a face-up card ("12o", "J"), or of a card back ("back").
 * @param {string} code
 */
export function cardSVG(code) {
  if (isJoker(code)) return jokerSVG();
  const card = code === 'back' ? null : parseCard(code);
  if (!card) return backSVG();
  const { number, suit } = card;
  const color = SUITS[suit].color;
  let body = '';
  if (number >= 10) body = figure(number, suit);
  else for (const [x, y] of PIPS[number]) body += symbol(suit, x, y, PIP_SCALE[number] || .82);
  /** @type {(x: number, y: number, rot: number) => string} */
  const idx = (x, y, rot) =>
    `<text x="${x}" y="${y}" transform="rotate(${rot} ${x} ${y - 3.4})" font-family="Georgia, 'Times New Roman', serif" font-weight="700" font-size="9.5" text-anchor="middle" fill="${color}">${number}</text>`;
  return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${cardName(code)}">
    <rect x=".5" y=".5" width="59" height="89" rx="5" fill="#fffdf6" stroke="#b9ae94" stroke-width="1"/>
    ${frame(suit)}${body}${idx(8.2, 12.2, 0)}${idx(51.8, 81.2, 180)}
  </svg>`;
}

/**
 * The words a page gives a card's back in its language (this module stays free of the pages'
 * catalogs, so that the rules' tests load it alone): kit.js sets them.
 */
export const backWords = { label: 'card back' };

/** The SVG markup of a card's back. */
export function backSVG() {
  return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${backWords.label}">
    <defs><pattern id="tapete-back" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="8" height="8" fill="#9c2a22"/><path d="M0,4H8M4,0V8" stroke="#c8493c" stroke-width="1.2"/>
      <circle cx="4" cy="4" r="1.1" fill="#f0c75a"/></pattern></defs>
    <rect x=".5" y=".5" width="59" height="89" rx="5" fill="#fffdf6" stroke="#8a7b5c" stroke-width="1"/>
    <rect x="4" y="4" width="52" height="82" rx="3" fill="url(#tapete-back)" stroke="#7a1f16" stroke-width=".8"/>
    <rect x="18" y="33" width="24" height="24" rx="12" fill="#7a1f16" stroke="#f0c75a" stroke-width="1.2"/>
    <text x="30" y="49.5" text-anchor="middle" font-family="Georgia, serif" font-size="13" font-weight="700" fill="#f0c75a">t</text>
  </svg>`;
}

/**
 * A card element's attributes: `class` adds classes, anything else is set as it is
 * (null, undefined and false leave it out).
 * @typedef {Record<string, string | number | boolean | null | undefined>} CardAttrs
 */

/**
 * A card element: `<span class="card" data-card="12o">svg</span>`.
 * @param {string} code
 * @param {CardAttrs} [attrs]
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
    if (k === 'class') span.classList.add(...String(v).split(/\s+/).filter(Boolean));
    else if (v !== null && v !== undefined && v !== false) span.setAttribute(k, String(v));
  }
  return span;
}
