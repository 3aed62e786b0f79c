// @ts-check
// tapete's pinned chance in the browser, so that anyone can check a table's deals without
// trusting its server: the commitment and the seed of commit and reveal (the table crate's
// fair.rs), and the steps from a seed to a deal (the cards crate's chance.rs) — the seed
// expanded into a ChaCha8 key by PCG32, the stream's 32-bit words as rand_chacha 0.3's
// ChaCha8Rng gives them, a bounded number by widening multiply and rejection, Durstenfeld's
// shuffle from the last place down, and the deal one card a seat a round from the top.
// Every 64-bit step is done with BigInt. SHA-256 is the browser's own (WebCrypto, which
// Node has too). No DOM: it runs in Node too (e2e/unit/chance.test.mjs checks it against
// the Rust goldens).

const MASK64 = (1n << 64n) - 1n;

/** The secret's length in hexadecimal digits (32 bytes). */
export const SECRET_DIGITS = 64;
/** A person's contribution: this many lowercase hexadecimal digits (16 bytes). */
export const CONTRIBUTION_DIGITS = 32;

/**
 * Lowercase hexadecimal of `bytes`.
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function toHex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The bytes of an even-length hexadecimal text (either case); throws on anything else.
 * @param {string} text
 * @returns {Uint8Array}
 */
export function fromHex(text) {
  if (typeof text !== 'string' || text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) {
    throw new Error(`not hexadecimal bytes: ${JSON.stringify(String(text).slice(0, 80))}`);
  }
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

/**
 * Whether this page may compute SHA-256: browsers give WebCrypto only to secure pages
 * (https, or this machine's own address).
 * @returns {boolean}
 */
export function hasSha256() {
  return !!(globalThis.crypto && globalThis.crypto.subtle);
}

/**
 * The SHA-256 digest of `data` (a text is hashed as its UTF-8 bytes).
 * @param {Uint8Array | string} data
 * @returns {Promise<Uint8Array>}
 */
async function sha256(data) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) throw new Error('this browser offers no SHA-256 here (WebCrypto needs a secure page: https or localhost)');
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return new Uint8Array(await subtle.digest('SHA-256', /** @type {Uint8Array<ArrayBuffer>} */ (bytes)));
}

/**
 * The lowercase hexadecimal SHA-256 of `data` (a text is hashed as its UTF-8 bytes): what
 * `sha256sum` prints.
 * @param {Uint8Array | string} data
 * @returns {Promise<string>}
 */
export async function sha256Hex(data) {
  return toHex(await sha256(data));
}

/**
 * The secret's bytes, checked: 32 bytes in hexadecimal.
 * @param {string} secretHex
 */
function secretBytes(secretHex) {
  if (typeof secretHex !== 'string' || secretHex.length !== SECRET_DIGITS || !/^[0-9a-fA-F]*$/.test(secretHex)) {
    throw new Error(`the secret is not 32 bytes in hexadecimal (${SECRET_DIGITS} digits): ${JSON.stringify(String(secretHex).slice(0, 80))}`);
  }
  return fromHex(secretHex);
}

/**
 * The commitment to a secret (hexadecimal): the lowercase hexadecimal SHA-256 of its bytes,
 * what `xxd -r -p | sha256sum` prints for it.
 * @param {string} secretHex
 * @returns {Promise<string>}
 */
export async function commitmentOf(secretHex) {
  return sha256Hex(secretBytes(secretHex));
}

/**
 * The game's seed from the secret and every seat's contribution (seat order; the empty
 * string where nobody contributed): the first 8 bytes, little-endian, of the SHA-256 of the
 * ASCII text `SECRET_HEX:C0:C1:…` (the secret in lowercase). A contribution is 32 lowercase
 * hexadecimal digits or empty; anything else throws, as the server refuses it.
 * @param {string} secretHex
 * @param {string[]} contributions
 * @returns {Promise<bigint>}
 */
export async function seedOf(secretHex, contributions) {
  secretBytes(secretHex);
  for (const c of contributions) {
    if (typeof c !== 'string' || (c !== '' && !/^[0-9a-f]{32}$/.test(c))) {
      throw new Error(`a contribution is ${CONTRIBUTION_DIGITS} lowercase hexadecimal digits (16 bytes) or empty, not ${JSON.stringify(String(c).slice(0, 80))}`);
    }
  }
  const text = [secretHex.toLowerCase(), ...contributions].join(':');
  const digest = await sha256(text);
  let seed = 0n;
  for (let i = 7; i >= 0; i--) seed = (seed << 8n) | BigInt(digest[i]);
  return seed;
}

/**
 * A seed as the server sends it (a decimal string, as a u64 does not fit a JavaScript
 * number; a number is taken only where it is exact), or null for anything else.
 * @param {unknown} value
 * @returns {bigint | null}
 */
export function parseSeed(value) {
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) {
    const n = BigInt(value);
    return n <= MASK64 ? n : null;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'bigint' && value >= 0n && value <= MASK64) return value;
  return null;
}

// ---- the stream ----

/**
 * A 32-bit word rotated left by `r`.
 * @param {number} x
 * @param {number} r
 */
const rotl = (x, r) => ((x << r) | (x >>> (32 - r))) >>> 0;

/**
 * A 32-bit word rotated right by `r` (0–31).
 * @param {number} x
 * @param {number} r
 */
const rotr = (x, r) => ((x >>> r) | (x << ((32 - r) & 31))) >>> 0;

/**
 * ChaCha's quarter round on four words of `x`.
 * @param {Uint32Array} x
 * @param {number} a
 * @param {number} b
 * @param {number} c
 * @param {number} d
 */
function quarter(x, a, b, c, d) {
  x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 16);
  x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 12);
  x[a] += x[b]; x[d] = rotl(x[d] ^ x[a], 8);
  x[c] += x[d]; x[b] = rotl(x[b] ^ x[c], 7);
}

/**
 * A stream of 32-bit words.
 * @typedef {{nextU32: () => number}} Rng
 */

/**
 * The ChaCha8 stream of a 256-bit key (eight little-endian words), stream 0, its 64-bit
 * block counter from 0: each block's sixteen words in order, block after block — the words
 * rand_chacha 0.3's `ChaCha8Rng::from_seed(key).next_u32()` gives.
 * @param {Uint32Array} key
 * @returns {Rng}
 */
export function chacha8(key) {
  const input = new Uint32Array(16);
  input.set([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);
  input.set(key.subarray(0, 8), 4);
  let counter = 0n;
  const block = new Uint32Array(16);
  let at = 16;
  return {
    nextU32() {
      if (at === 16) {
        input[12] = Number(counter & 0xffffffffn);
        input[13] = Number(counter >> 32n);
        counter = (counter + 1n) & MASK64;
        block.set(input);
        for (let round = 0; round < 8; round += 2) {
          quarter(block, 0, 4, 8, 12); quarter(block, 1, 5, 9, 13);
          quarter(block, 2, 6, 10, 14); quarter(block, 3, 7, 11, 15);
          quarter(block, 0, 5, 10, 15); quarter(block, 1, 6, 11, 12);
          quarter(block, 2, 7, 8, 13); quarter(block, 3, 4, 9, 14);
        }
        for (let i = 0; i < 16; i++) block[i] += input[i];
        at = 0;
      }
      return block[at++];
    },
  };
}

/**
 * The stream every tapete game deals from: ChaCha8 keyed from a 64-bit seed by PCG32 (the
 * expansion rand_core 0.6 used for `seed_from_u64`), as chance.rs's `rng_from_seed`.
 * @param {bigint} seed
 * @returns {Rng}
 */
export function rngFromSeed(seed) {
  const MUL = 6364136223846793005n;
  const INC = 11634580027462260723n;
  let state = BigInt.asUintN(64, seed);
  const key = new Uint32Array(8);
  for (let i = 0; i < 8; i++) {
    state = (state * MUL + INC) & MASK64;
    const xorshifted = Number((((state >> 18n) ^ state) >> 27n) & 0xffffffffn);
    key[i] = rotr(xorshifted, Number(state >> 59n));
  }
  return chacha8(key);
}

/**
 * A uniform number in `0..n` (1 ≤ n < 2³²): the high half of a word times `n`, rejecting
 * the words whose low half falls past the zone that keeps it unbiased.
 * @param {Rng} rng
 * @param {number} n
 * @returns {number}
 */
export function below(rng, n) {
  if (!Number.isInteger(n) || n < 1 || n > 0xffffffff) throw new Error(`below(${n}): n is 1 to 2³²−1`);
  const zone = BigInt((((n << Math.clz32(n)) >>> 0) - 1) >>> 0);
  const big = BigInt(n);
  for (;;) {
    const product = BigInt(rng.nextU32()) * big;
    if ((product & 0xffffffffn) <= zone) return Number(product >> 32n);
  }
}

/**
 * Shuffles `items` in place: for each place from the last down to the second, swaps it
 * with a uniformly chosen place at or before it.
 * @template T
 * @param {T[]} items
 * @param {Rng} rng
 * @returns {T[]} the same array
 */
export function shuffle(items, rng) {
  for (let i = items.length - 1; i >= 1; i--) {
    const j = below(rng, i + 1);
    const x = items[i];
    items[i] = items[j];
    items[j] = x;
  }
  return items;
}

/**
 * Shuffles a copy of `cards` by the pinned shuffle, then deals `rounds` cards to each of
 * `seats` seats in turn, one a seat a round, from the top (the end): `hands[i]` the cards
 * of the i-th seat dealt to, in the order they came; `rest` what is left, its top last.
 * @template T
 * @param {T[]} cards
 * @param {Rng} rng
 * @param {number} seats
 * @param {number} rounds
 * @returns {{hands: T[][], rest: T[]}}
 */
export function deal(cards, rng, seats, rounds) {
  const rest = shuffle(cards.slice(), rng);
  /** @type {T[][]} */
  const hands = Array.from({ length: seats }, () => []);
  for (let r = 0; r < rounds; r++) {
    for (const hand of hands) {
      const c = rest.pop();
      if (c !== undefined) hand.push(c);
    }
  }
  return { hands, rest };
}
