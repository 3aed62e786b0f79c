// Tikki's combinations on the page: what the table page says a set of cards counts as
// (shown as you pick cards to lay) is what the engine says, `tapete tikki best --json`,
// for a few hundred random sets — dense ones from a few ranks, where groups and runs meet,
// sets of one or two suits, where straight flushes of every length do, and sets from the
// whole deck.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BASE, BIN, openBrowser } from '../lib.mjs';

const run = promisify(execFile);
const SUITS = ['S', 'H', 'D', 'C'];

/** A random set of `n` distinct cards of ranks lo..hi (a small seeded generator: the same sets each run). */
function sets(count, seed) {
  let x = seed;
  const rnd = (k) => { x = (x * 1103515245 + 12345) % 2147483648; return Math.floor(x / 65536) % k; };
  const out = [];
  for (let i = 0; i < count; i++) {
    const lo = 1 + rnd(13);
    const hi = Math.min(13, lo + (i % 3 === 1 ? 12 : 2 + rnd(8)));
    // Every third set from one or two suits only: long straight flushes.
    const suits = i % 3 === 2 ? [SUITS[rnd(4)], ...(i % 2 ? [] : [SUITS[rnd(4)]])] : SUITS;
    const deck = [];
    for (let r = lo; r <= hi; r++) for (const s of new Set(suits)) deck.push(`${r}${s}`);
    const n = Math.min(deck.length, 1 + rnd(9));
    const pick = [];
    while (pick.length < n) { const c = deck.splice(rnd(deck.length), 1)[0]; pick.push(c); }
    out.push(pick);
  }
  return out;
}

test('Tikki: the page ranks combinations as the engine does', { timeout: 120000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await page.goto(`${BASE}/`);
    const cases = sets(240, 7);
    const fromPage = await page.evaluate(async (cs) => {
      const { best } = await import('/assets/tikki.js');
      return cs.map((c) => best(c));
    }, cases);
    const kinds = new Set();
    for (const [i, cards] of cases.entries()) {
      const { stdout } = await run(BIN, ['tikki', 'best', ...cards, '--json']);
      const engine = JSON.parse(stdout);
      kinds.add(engine.type);
      const mine = fromPage[i];
      assert.deepEqual({ type: mine.type, top: mine.top, cards: [...mine.cards].sort() }, { type: engine.type, top: engine.top, cards: [...engine.cards].sort() },
        `the best of ${cards.join(' ')}`);
    }
    assert.equal(kinds.size, 10, `every kind is met: ${[...kinds].join(', ')}`);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
