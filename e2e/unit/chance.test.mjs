// The deals' check in the browser against the engine: chance.js gives chance.rs's own golden
// seed → order and stream words, seedOf and commitmentOf give what `sha256sum` and the
// engine's tapete_table::fair give, each game module's firstDeal deals every first hand the
// game crates pin (crates/{mus,chinchon,tikki}/tests/golden/first_deal.json, written by the
// engine), and fairness.js's checks pass a table that checks out and name what is wrong in
// one that was tampered with. Runs in Node alone (no browser, no server).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, copyFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { root, webFiles, catalogs } from '../web.mjs';

/** @type {string} */
let dir;
/** @type {typeof import('../../crates/server/assets/chance.js')} */
let chance;
/** @type {typeof import('../../crates/server/assets/fairness.js')} */
let fairness;
/** @type {Record<string, import('../../crates/server/assets/kit.js').GameModule>} */
const games = {};

/** Every game's pinned first deals, as the engine wrote them. */
const golden = Object.fromEntries(['mus', 'chinchon', 'tikki'].map((g) => [g,
  JSON.parse(readFileSync(join(root, `crates/${g}/tests/golden/first_deal.json`), 'utf8'))]));

// The web files side by side, as the server serves them (/assets/), next to a package.json
// that makes them ES modules and the catalogs the pages fetch; the pages speak English here.
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tapete-chance-'));
  for (const [name, { path }] of webFiles()) if (name.endsWith('.js')) await copyFile(path, join(dir, name));
  await writeFile(join(dir, 'package.json'), '{"type": "module"}\n');
  for (const [lang, c] of Object.entries(catalogs())) await writeFile(join(dir, `${lang}.json`), JSON.stringify(c));
  globalThis.localStorage = /** @type {Storage} */ (/** @type {unknown} */ ({ getItem: () => 'en', setItem() {}, removeItem() {} }));
  globalThis.fetch = /** @type {typeof fetch} */ (/** @type {unknown} */ (async (/** @type {string} */ url) => {
    const lang = String(url).match(/i18n\/(\w+)\.json$/);
    if (!lang) return { ok: false, json: async () => null };
    return { ok: true, json: async () => JSON.parse(readFileSync(join(dir, `${lang[1]}.json`), 'utf8')) };
  }));
  const url = (/** @type {string} */ f) => pathToFileURL(join(dir, f)).href;
  chance = await import(url('chance.js'));
  fairness = await import(url('fairness.js'));
  const { gameModule } = await import(url('games.js'));
  for (const g of ['mus', 'chinchon', 'tikki']) {
    await import(url(`${g}.js`));
    games[g] = await gameModule(g);
  }
});

after(async () => { if (dir) await rm(dir, { recursive: true, force: true }); });

// ---- chance.rs's own goldens (its tests module) ----

const GOLDEN_0 = [22, 32, 37, 36, 17, 5, 0, 6, 38, 21, 33, 30, 25, 18, 9, 10, 35, 3, 23, 11, 16, 1, 8, 29,
  12, 34, 13, 4, 31, 24, 15, 39, 27, 14, 20, 7, 2, 19, 28, 26];
const GOLDEN_7 = [24, 23, 19, 15, 16, 37, 22, 28, 21, 13, 3, 33, 0, 17, 29, 35, 20, 4, 32, 7, 34, 30, 36, 9,
  18, 39, 12, 31, 14, 10, 11, 27, 8, 2, 25, 1, 26, 38, 6, 5];
const GOLDEN_MAX = [4, 13, 17, 31, 26, 27, 2, 36, 29, 15, 18, 3, 10, 33, 39, 32, 11, 24, 1, 25, 19, 37, 34, 12,
  0, 6, 22, 5, 28, 9, 30, 7, 8, 20, 38, 21, 14, 16, 23, 35];
const GOLDEN_WORDS_42 = [962419617, 2928721845, 628724104, 4081401798];
const U64_MAX = (1n << 64n) - 1n;

test("chance.js gives chance.rs's golden seed → order and stream words", () => {
  const order = (/** @type {bigint} */ seed) => chance.shuffle(Array.from({ length: 40 }, (_, i) => i), chance.rngFromSeed(seed));
  assert.deepEqual(order(0n), GOLDEN_0);
  assert.deepEqual(order(7n), GOLDEN_7);
  assert.deepEqual(order(U64_MAX), GOLDEN_MAX);
  const rng = chance.rngFromSeed(42n);
  assert.deepEqual([0, 1, 2, 3].map(() => rng.nextU32()), GOLDEN_WORDS_42);
});

test('below stays in range and reaches every value; deal hands out from the top', () => {
  const rng = chance.rngFromSeed(3n);
  for (const n of [1, 2, 3, 7, 40, 1000, 0xffffffff]) {
    for (let i = 0; i < 200; i++) {
      const x = chance.below(rng, n);
      assert.ok(Number.isInteger(x) && x >= 0 && x < n, `below(${n}) gave ${x}`);
    }
  }
  const seen = new Set();
  for (let i = 0; i < 200; i++) seen.add(chance.below(rng, 5));
  assert.equal(seen.size, 5);
  assert.throws(() => chance.below(rng, 0), /below\(0\)/);
  const cards = Array.from({ length: 10 }, (_, i) => i);
  const dealt = chance.deal(cards, chance.rngFromSeed(1n), 3, 2);
  assert.deepEqual(cards, Array.from({ length: 10 }, (_, i) => i), 'the cards given are left as they were');
  const order = chance.shuffle(cards.slice(), chance.rngFromSeed(1n));
  assert.deepEqual(dealt.hands, [[order[9], order[6]], [order[8], order[5]], [order[7], order[4]]]);
  assert.deepEqual(dealt.rest, order.slice(0, 4));
});

// ---- commit and reveal: values from sha256sum in a shell ----
//   printf %s 0000…(64) | xxd -r -p | sha256sum
//   printf %s '0000…(64):0123456789abcdef0123456789abcdef:' | sha256sum → first 16 digits,
//   read as 8 bytes from the last: the seed (bash: printf '%u' "$((16#…))")

const ZERO = '0'.repeat(64);
const AB = 'ab'.repeat(32);

test('commitmentOf and seedOf give what sha256sum gives', async () => {
  assert.equal(await chance.sha256Hex('tapete'), '7d6c36a4fd820ad5668e6c801b2027a09a8652dff1a91774e8cf69e3f62e3953');
  assert.equal(await chance.sha256Hex('ñ'), '024bb90888ca89a15a19e9bdd8c712bfb070465fce1ef25e43c170ea44fc5e5f', 'a text is hashed as UTF-8');
  assert.equal(await chance.commitmentOf(ZERO), '66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925');
  assert.equal(await chance.commitmentOf(AB), '9a2db2e23f1504cd056606553ac049c5e718e8f9ce9233876df1a7a1821af885');
  assert.equal(await chance.commitmentOf(AB.toUpperCase()), '9a2db2e23f1504cd056606553ac049c5e718e8f9ce9233876df1a7a1821af885');
  // sha256sum: a3a7a69768f30251…
  assert.equal(await chance.seedOf(ZERO, ['0123456789abcdef0123456789abcdef', '']), 5837495697572013987n);
  // No contributions: the secret alone (lowercased) — sha256sum: 271a413bd339c570…
  assert.equal(await chance.seedOf(AB.toUpperCase(), []), 8125964682054933031n);
  // Four empty seats, a seed past 2⁶³ — sha256sum: 900a9602e9a531fb…
  assert.equal(await chance.seedOf(AB, ['', '', '', '']), 18100430797568084624n);
});

test('seedOf and commitmentOf refuse what the server refuses', async () => {
  await assert.rejects(chance.commitmentOf('xyz'), /not 32 bytes/);
  await assert.rejects(chance.commitmentOf('0'.repeat(62)), /not 32 bytes/);
  await assert.rejects(chance.seedOf('0'.repeat(66), []), /not 32 bytes/);
  for (const bad of ['0123456789ABCDEF0123456789ABCDEF', '0123', 'g'.repeat(32), '0'.repeat(33), ' '.repeat(32)]) {
    await assert.rejects(chance.seedOf(ZERO, [bad]), /contribution/, bad);
  }
  assert.equal(chance.parseSeed('18446744073709551615'), U64_MAX);
  assert.equal(chance.parseSeed(7), 7n);
  for (const bad of ['18446744073709551616', '-1', '1e3', '', 2 ** 60, null, undefined, {}]) assert.equal(chance.parseSeed(bad), null, String(bad));
});

test('the engine and the page make the same commitment and seed from a secret and contributions', async () => {
  for (const [g, cases] of Object.entries(golden)) {
    const revealed = cases.filter((c) => c.secret);
    assert.ok(revealed.length >= 1, `${g}: a case dealt by commit and reveal`);
    for (const c of revealed) {
      assert.equal(await chance.commitmentOf(c.secret), c.commitment, g);
      assert.equal(await chance.seedOf(c.secret, c.contributions), BigInt(c.seed), g);
    }
  }
});

// ---- each game's first deal ----

test("each game's firstDeal deals the first hands the engine pins, named as its full view names them", () => {
  for (const [g, cases] of Object.entries(golden)) {
    const mod = games[g];
    assert.ok(mod.firstDeal && mod.dealtHands, `${g} deals again`);
    assert.ok(cases.length >= 4, `${g}: its golden cases`);
    for (const c of cases) {
      assert.deepEqual(mod.firstDeal(BigInt(c.seed), c.rules, c.seats), c.hands, `${g}, seed ${c.seed}, ${c.seats} seats, ${JSON.stringify(c.rules)}`);
      assert.deepEqual(mod.dealtHands({ hands: c.hands, phase: 'x' }), c.hands);
    }
    assert.equal(mod.dealtHands({ phase: 'x' }), null);
    assert.equal(mod.dealtHands(null), null);
    assert.equal(mod.dealtHands({ hands: [[1, 2]] }), null);
  }
});

// ---- the page's check ----

/**
 * A finished table of the game's revealed golden case, with its fairness and its replay's
 * first step as the server gives them.
 * @param {string} g
 */
function table(g) {
  const c = golden[g].find((x) => x.secret);
  const names = ['Ane', 'Mikel', 'Iker', 'Jon', 'Irati'];
  return {
    table: /** @type {any} */ ({
      id: 'T1', game: g, rules: c.rules, status: 'finished',
      seats: Array.from({ length: c.seats }, (_, s) => (c.contributions[s] ? { seat: s, player: { id: s + 1, nickname: names[s] } } : { seat: s, bot: 'basico' })),
    }),
    fair: { commitment: c.commitment, contributions: c.contributions.slice(), secret: c.secret, seed: c.seed },
    step0: { view: { hands: c.hands.map((h) => h.slice()) } },
  };
}

/** @param {{lines: {id: string, ok: boolean | null}[]}} r @param {string} id */
const line = (r, id) => r.lines.find((l) => l.id === id);
/** @param {{lines: {id: string, ok: boolean | null}[]}} r */
const marks = (r) => r.lines.filter((l) => l.ok !== null).map((l) => `${l.id}${'seat' in l ? l.seat : ''}:${l.ok ? '✓' : '✗'}`);

test('a table that checks out: every line ✓', async () => {
  for (const g of Object.keys(golden)) {
    const { table: t, fair, step0 } = table(g);
    const r = await fairness.checks(fair, t, step0, games[g]);
    assert.equal(r.ok, true, `${g}: ${JSON.stringify(r.lines, null, 1)}`);
    assert.equal(r.lines[0].id, 'verdict');
    assert.ok(r.lines.every((l) => l.ok !== false), g);
    for (const id of ['verdict', 'commitment', 'seed', 'deal']) assert.equal(line(r, id)?.ok, true, `${g}: ${id}`);
    assert.equal(r.lines.filter((l) => l.id === 'deal_seat' && l.ok).length, t.seats.length);
    const contributions = r.lines.filter((l) => l.id === 'contribution').map((l) => l.text);
    assert.equal(contributions.length, t.seats.length);
    assert.ok(contributions.some((x) => x === `seat ${fair.contributions.indexOf('')}: none (a bot or an empty seat)`), contributions.join(' | '));
    assert.ok(contributions.some((x) => /^(Ane|Mikel|Iker): [0-9a-f]{32}$/.test(x)), contributions.join(' | '));
    assert.match(line(r, 'commitment')?.text || '', /matches the one shown before the deal/);
  }
});

test('a tampered table: the check names what does not match', async () => {
  const g = 'mus';
  const mod = games[g];
  // Another commitment: ✗ on the commitment, both hashes side by side.
  {
    const { table: t, fair, step0 } = table(g);
    fair.commitment = 'f'.repeat(64);
    const r = await fairness.checks(fair, t, step0, mod);
    assert.equal(r.ok, false);
    assert.deepEqual(marks(r), ['verdict:✗', 'commitment:✗', 'seed:✓', 'deal:✓', 'deal_seat0:✓', 'deal_seat1:✓', 'deal_seat2:✓', 'deal_seat3:✓']);
    const c = line(r, 'commitment');
    assert.match(c?.text || '', /does not match/);
    assert.deepEqual(/** @type {any} */ (c).detail.slice(0, 2).map((/** @type {string[]} */ d) => d[1]), ['f'.repeat(64), golden[g].find((x) => x.secret).commitment]);
  }
  // Two seats' contributions swapped: the seed is another, and so is the deal.
  {
    const { table: t, fair, step0 } = table(g);
    [fair.contributions[0], fair.contributions[2]] = [fair.contributions[2], fair.contributions[0]];
    const r = await fairness.checks(fair, t, step0, mod);
    assert.equal(r.ok, false);
    assert.equal(line(r, 'commitment')?.ok, true);
    assert.equal(line(r, 'seed')?.ok, false);
    assert.equal(line(r, 'deal')?.ok, false);
  }
  // The server claims another seed than the one the secret makes.
  {
    const { table: t, fair, step0 } = table(g);
    fair.seed = String(BigInt(fair.seed) + 1n);
    const r = await fairness.checks(fair, t, step0, mod);
    assert.deepEqual(marks(r).slice(0, 4), ['verdict:✗', 'commitment:✓', 'seed:✗', 'deal:✓']);
  }
  // The replay shows other cards: two seats exchanged a card.
  {
    const { table: t, fair, step0 } = table(g);
    const hands = step0.view.hands;
    [hands[1][0], hands[3][2]] = [hands[3][2], hands[1][0]];
    const r = await fairness.checks(fair, t, step0, mod);
    assert.deepEqual(marks(r), ['verdict:✗', 'commitment:✓', 'seed:✓', 'deal:✗', 'deal_seat0:✓', 'deal_seat1:✗', 'deal_seat2:✓', 'deal_seat3:✗']);
    const bad = r.lines.find((l) => l.id === 'deal_seat' && !l.ok);
    assert.equal(bad?.text, 'seat 1: does not match');
    assert.deepEqual(bad?.detail.map((d) => d[0]), ['dealt here', 'in the replay']);
  }
  // A secret that is not hexadecimal, a contribution that is not either.
  {
    const { table: t, fair, step0 } = table(g);
    fair.secret = 'not a secret';
    const r = await fairness.checks(fair, t, step0, mod);
    assert.deepEqual(marks(r), ['verdict:✗', 'commitment:✗', 'seed:✗']);
    assert.equal(line(r, 'deal')?.ok, null);
  }
  {
    const { table: t, fair, step0 } = table(g);
    fair.contributions[1] = /** @type {any} */ (7);
    assert.deepEqual(marks(await fairness.checks(fair, t, step0, mod)), ['verdict:✗', 'commitment:✓', 'seed:✗']);
    fair.contributions[1] = "'; rm -rf ~; '";
    const r = await fairness.checks(fair, t, step0, mod);
    assert.deepEqual(marks(r), ['verdict:✗', 'commitment:✓', 'seed:✗']);
    const shell = fairness.shellLines(fair).join('\n');
    assert.ok(!shell.includes('rm -rf'), 'what is not hexadecimal never reaches the shell lines');
    assert.match(shell, /C0:C1/);
  }
});

test('nothing to judge yet: not revealed, never committed, no replay, no SHA-256, a game that cannot deal', async () => {
  const g = 'tikki';
  {
    const { table: t, fair } = table(g);
    const r = await fairness.checks({ commitment: fair.commitment, contributions: fair.contributions, secret: null, seed: null }, t, null, games[g]);
    assert.equal(r.ok, null);
    assert.equal(r.lines[0].id, 'not_revealed');
    assert.match(r.lines[0].text, /revealed when the game is over/);
    assert.deepEqual(r.lines[0].detail, [['shown before the deal', fair.commitment]]);
    assert.ok(r.lines.every((l) => l.ok === null), 'no ✗ before the end');
  }
  for (const none of [null, undefined]) {
    const { table: t } = table(g);
    const r = await fairness.checks(none, t, null, games[g]);
    assert.deepEqual([r.ok, r.lines.map((l) => [l.id, l.ok])], [null, [['not_committed', null]]]);
    assert.match(r.lines[0].text, /not committed/);
  }
  {
    const { table: t, fair } = table(g);
    const r = await fairness.checks(fair, t, { error: 'the server is busy' }, games[g]);
    assert.equal(r.ok, null);
    assert.deepEqual(marks(r), ['commitment:✓', 'seed:✓']);
    assert.deepEqual(line(r, 'deal')?.detail, [['why', 'the server is busy']]);
    assert.match(r.lines[0].text, /could not be compared/);
  }
  {
    // A page on plain http from another machine: the browser keeps SHA-256 from it.
    const { table: t, fair, step0 } = table(g);
    const had = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    assert.ok(had && had.configurable, 'Node lets the test take WebCrypto away');
    Object.defineProperty(globalThis, 'crypto', { value: {}, configurable: true, writable: true });
    try {
      const r = await fairness.checks(fair, t, step0, games[g]);
      assert.deepEqual([r.ok, r.lines.map((l) => [l.id, l.ok])], [null, [['no_sha256', null]]]);
      assert.match(r.lines[0].text, /secure page/);
      await assert.rejects(chance.commitmentOf(fair.secret), /secure page/);
    } finally {
      Object.defineProperty(globalThis, 'crypto', had);
    }
    assert.equal(chance.hasSha256(), true);
  }
  {
    const { table: t, fair, step0 } = table(g);
    const plain = { ...games[g], firstDeal: undefined };
    const r = await fairness.checks(fair, t, step0, plain);
    assert.equal(r.ok, null);
    assert.match(line(r, 'deal')?.text || '', /cannot deal its cards again/);
  }
});

test('the shell lines carry the table\'s values and make its commitment and seed', () => {
  const { fair } = table('chinchon');
  const [commit, seedLine, bash] = fairness.shellLines(fair);
  assert.equal(commit, `printf %s ${fair.secret} | xxd -r -p | sha256sum`);
  assert.equal(seedLine, `printf %s '${[fair.secret, ...fair.contributions].join(':')}' | sha256sum`);
  const sh = (/** @type {string} */ line) => execFileSync('bash', ['-c', line], { encoding: 'utf8' });
  assert.equal(sh(commit).split(' ')[0], fair.commitment);
  assert.equal(sh(bash).trim(), fair.seed);
});

test('the check speaks Spanish: coincide, no coincide', () => {
  const script = `
    import { readFileSync } from 'node:fs';
    globalThis.localStorage = { getItem: () => 'es', setItem() {} };
    globalThis.fetch = async (url) => {
      const l = String(url).match(/i18n\\/(\\w+)\\.json$/)[1];
      return { ok: true, json: async () => JSON.parse(readFileSync(${JSON.stringify(dir)} + '/' + l + '.json', 'utf8')) };
    };
    const { checks } = await import(${JSON.stringify(pathToFileURL(join(dir, 'fairness.js')).href)});
    await import(${JSON.stringify(pathToFileURL(join(dir, 'mus.js')).href)});
    const { gameModule } = await import(${JSON.stringify(pathToFileURL(join(dir, 'games.js')).href)});
    const args = ${JSON.stringify(table('mus'))};
    args.fair.commitment = 'f'.repeat(64);
    const hands = args.step0.view.hands;
    [hands[1][0], hands[3][2]] = [hands[3][2], hands[1][0]];
    const r = await checks(args.fair, args.table, args.step0, await gameModule('mus'));
    console.log(JSON.stringify(r.lines.map((l) => l.text)));
  `;
  const texts = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
  assert.match(texts[0], /^Algo no coincide/);
  assert.ok(texts.includes('Compromiso: el SHA-256 del secreto revelado, calculado aquí, no coincide con el mostrado antes de repartir.'), texts.join('\n'));
  assert.ok(texts.includes('Ane: coincide'), texts.join('\n'));
  assert.ok(texts.includes('sitio 1: no coincide'), texts.join('\n'));
  assert.ok(texts.some((x) => x.startsWith('Semilla: ') && x.includes(' coincide con la que se usó para repartir')), texts.join('\n'));
});
