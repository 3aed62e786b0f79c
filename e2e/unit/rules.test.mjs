// The pages' ports of the games' rules (chinchon-rules.js, tikki-rules.js, in their front-end crates' web/)
// against the engine, hand by hand: many seeded hands go through the built `tapete` CLI
// (`tapete chinchon analyze --json`, `tapete tikki best --json`) and through the port, and
// the answers must agree. Runs in Node alone (no browser, no server).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, copyFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { webPath } from '../web.mjs';

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = resolve(root, process.env.TAPETE_BIN || join(process.env.CARGO_TARGET_DIR || join(root, 'target'), 'debug/tapete'));

let dir;
let chinchon;
let tikki;

// The web files are ES modules without a package.json of their own, in several folders: a
// copy of each side by side, next to one package.json that says so, lets Node import them as
// the browser does (from /assets/).
before(async () => {
  assert.ok(existsSync(BIN), `no tapete binary at ${BIN}: build it (cargo build) or set TAPETE_BIN`);
  dir = await mkdtemp(join(tmpdir(), 'tapete-unit-'));
  for (const f of ['cards.js', 'french.js', 'chinchon-rules.js', 'tikki-rules.js']) await copyFile(webPath(f), join(dir, f));
  await writeFile(join(dir, 'package.json'), '{"type": "module"}\n');
  chinchon = await import(pathToFileURL(join(dir, 'chinchon-rules.js')).href);
  tikki = await import(pathToFileURL(join(dir, 'tikki-rules.js')).href);
});

after(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

/** A small seeded generator (mulberry32), so that a failing hand comes back on every run. */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pickOut = (rand, xs) => xs.splice(Math.floor(rand() * xs.length), 1)[0];

/** Runs the CLI's words and answers its JSON. */
async function cli(args) {
  const { stdout } = await run(BIN, args, { maxBuffer: 1 << 20 });
  return JSON.parse(stdout);
}

/** Runs `f` over `items` with a few CLI processes at a time. */
async function each(items, f, width = 4) {
  let i = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (i < items.length) { const k = i++; await f(items[k], k); }
  }));
}

// ---- Chinchón ----

const SUITS = ['o', 'c', 'e', 'b'];

/** A deck of the table's options; half the hands come from a narrow corner of it, so melds are common. */
function chinchonHand(rand, rules, size) {
  const numbers = Number(rules.deck) === 48 ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] : [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];
  let deck = SUITS.flatMap((s) => numbers.map((n) => `${n}${s}`));
  if (rand() < 0.6) {
    const suits = new Set([SUITS[Math.floor(rand() * 4)], SUITS[Math.floor(rand() * 4)]]);
    const from = Math.floor(rand() * (numbers.length - 5));
    const near = new Set(numbers.slice(from, from + 5));
    const narrow = deck.filter((c) => suits.has(c.slice(-1)) || near.has(Number(c.slice(0, -1))));
    if (narrow.length >= size + 2) deck = narrow;
  }
  for (let j = 0; j < rules.jokers; j++) deck.push('J');
  const hand = [];
  // A third of the hands are made of melds (a group, a run of a suit) and a few cards more,
  // so that closes of every kind come up.
  if (rand() < 0.35) {
    while (hand.length < size - 1 - Math.floor(rand() * 2)) {
      const meld = [];
      if (rand() < 0.5) {
        const n = numbers[Math.floor(rand() * numbers.length)];
        for (const s of SUITS) if (rand() < 0.8) meld.push(`${n}${s}`);
      } else {
        const s = SUITS[Math.floor(rand() * 4)];
        const from = Math.floor(rand() * (numbers.length - 3));
        const len = 3 + Math.floor(rand() * 3);
        for (const n of numbers.slice(from, from + len)) meld.push(`${n}${s}`);
      }
      for (const c of meld) {
        const i = deck.indexOf(c);
        if (i >= 0 && hand.length < size) { deck.splice(i, 1); hand.push(c); }
      }
    }
  }
  while (hand.length < size) hand.push(pickOut(rand, deck));
  return hand;
}

const CHINCHON_TABLES = [
  { deck: 40, jokers: 0, joker_penalty: 50, close_limit: 3, figures: 'number' },
  { deck: 48, jokers: 0, joker_penalty: 50, close_limit: 5, figures: 'number' },
  { deck: 40, jokers: 1, joker_penalty: 25, close_limit: 4, figures: 'ten' },
  { deck: 40, jokers: 1, joker_penalty: 50, close_limit: 3, figures: 'eight_nine_ten' },
];

test('Chinchón: the page finds the engine\'s least deadwood and closes, hand by hand', async () => {
  const rand = rng(20261126);
  const cases = [];
  for (let k = 0; k < 240; k++) {
    const rules = CHINCHON_TABLES[k % CHINCHON_TABLES.length];
    cases.push({ rules, hand: chinchonHand(rand, rules, k % 2 ? 8 : 7) });
  }
  let closing = 0;
  await each(cases, async ({ rules, hand }) => {
    const args = ['chinchon', 'analyze', ...hand, '--json', '--deck', String(rules.deck), '--jokers', String(rules.jokers),
      '--joker-penalty', String(rules.joker_penalty), '--close-limit', String(rules.close_limit), '--figures', rules.figures];
    const want = await cli(args);
    const what = `${hand.join(' ')} with ${JSON.stringify(rules)}`;
    const got = chinchon.analyze(hand, rules);
    assert.equal(got.deadwood, want.deadwood, `deadwood of ${what}`);
    if (hand.length === 7) {
      const close = chinchon.closeOf(hand, rules);
      assert.equal(close ? close.kind : null, want.close, `the close of ${what}`);
      if (close) closing++;
    } else {
      const closes = chinchon.closes(hand, rules);
      for (const d of want.discards) {
        const rest = [...hand];
        rest.splice(rest.indexOf(d.card), 1);
        assert.equal(chinchon.analyze(rest, rules).deadwood, d.deadwood, `deadwood of ${what} after discarding ${d.card}`);
        const c = closes.get(d.card);
        assert.equal(c ? c.kind : null, d.close, `the close of ${what} discarding ${d.card}`);
        if (c) closing++;
      }
    }
  });
  // The hands must exercise the closes, not only the deadwood.
  assert.ok(closing >= 20, `only ${closing} closes among the hands`);
});

// ---- tikki ----

const TIKKI_SUITS = ['S', 'H', 'D', 'C'];

test('tikki: the page picks the engine\'s best combination, hand by hand', async () => {
  const rand = rng(7);
  const cases = [];
  for (let k = 0; k < 240; k++) {
    const top = [13, 7, 5][k % 3];
    let deck = TIKKI_SUITS.flatMap((s) => Array.from({ length: top }, (_, r) => `${r + 1}${s}`));
    if (rand() < 0.5) deck = deck.filter((c) => c.endsWith('H') || c.endsWith('S'));
    const size = 1 + Math.floor(rand() * Math.min(9, deck.length));
    const hand = [];
    while (hand.length < size) hand.push(pickOut(rand, deck));
    cases.push(hand);
  }
  const kinds = new Set();
  await each(cases, async (hand) => {
    const want = await cli(['tikki', 'best', ...hand, '--json']);
    const got = tikki.best(hand);
    const what = hand.join(' ');
    assert.equal(got.type, want.type, `the kind of the best of ${what}`);
    assert.equal(got.top, want.top, `the top card of the best of ${what}`);
    assert.deepEqual([...got.cards].sort(), [...want.cards].sort(), `the cards of the best of ${what}`);
    kinds.add(want.type);
  });
  assert.ok(kinds.size >= 6, `only ${[...kinds].join(', ')} among the hands`);
});
