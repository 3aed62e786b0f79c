// Shared helpers of the browser tests: a fresh headless browser context per "person", the lobby
// steps, and a player that always clicks a legal action.

import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { after } from 'node:test';
import { catalogs, webPath } from './web.mjs';

export const BASE = (process.env.TAPETE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
export const BIN = process.env.TAPETE_BIN || 'target/release/tapete';

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const TYPES = { js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', html: 'text/html', json: 'application/json' };

/**
 * While working on the pages: with TAPETE_ASSETS=1 the browsers get the pages' files from
 * the source tree (the platform's crates/server/assets and every crates/<crate>/web, the catalogs
 * merged as the server merges them: web.mjs) instead of the ones built into the server, so
 * a change is tried without rebuilding.
 */
async function serveAssetsFromSource(context) {
  await context.route('**/assets/**', async (route) => {
    const name = new URL(route.request().url()).pathname.replace(/^.*?\/assets\//, '');
    try {
      const lang = /^i18n\/(\w+)\.json$/.exec(name);
      const body = lang ? JSON.stringify(catalogs()[lang[1]]) : await readFile(webPath(name));
      if (body === undefined) throw new Error(`no catalog ${name}`);
      await route.fulfill({ body, contentType: TYPES[name.split('.').pop()] || 'application/octet-stream' });
    } catch {
      await route.continue();
    }
  });
}

/** How the tests' Chromium is started (here, or once for every file by browser.mjs). */
export const LAUNCH = {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ARGS,
};

// One Chromium per test file (each file runs in a process of its own): the one run.sh
// started for every file when TAPETE_BROWSER names it, else one started here on first use,
// and let go once the file's tests are done. Starting a browser costs a second or more of
// CPU, a context in a running one a few milliseconds.
let shared = null;

function launch() {
  if (!shared) shared = process.env.TAPETE_BROWSER ? chromium.connect(process.env.TAPETE_BROWSER) : chromium.launch(LAUNCH);
  return shared;
}

/**
 * Closes the file's browser, or only its contexts and its link when it is the shared one
 * (the test runner does it after the file's last test).
 */
export async function closeBrowsers() {
  const b = shared;
  shared = null;
  if (b) await (await b.catch(() => null))?.close().catch(() => {});
}

// In a test file (run by `node --test` or by itself) the runner closes it after the last test;
// a script (shots.mjs) calls closeBrowsers itself.
if (process.env.NODE_TEST_CONTEXT || /\.test\.mjs$/.test(process.argv[1] || '')) after(closeBrowsers);

/**
 * A browser of its own for one person: a fresh context of the file's Chromium (its own
 * localStorage, so its own token, and its own cookies), with one page; `close()` ends it.
 * The pages are told the person prefers reduced motion, so the felt's looping pulses do not
 * keep the renderer painting while a test waits; `locale` is the browser's language.
 */
export async function openBrowser({ width = 1200, height = 900, locale = 'en-US', serviceWorkers = 'block' } = {}) {
  const browser = await launch();
  // The pages speak the browser's language: English unless a test asks for another. The
  // site's service worker (the offline page) is installed only where a test asks for it:
  // installing it in every context costs the browser's CPU and no other test reads it.
  const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce', locale, serviceWorkers });
  const page = await context.newPage();
  if (process.env.TAPETE_ASSETS) await serveAssetsFromSource(context);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.setDefaultTimeout(20000);
  return {
    context, page, errors,
    async close() {
      await context.close().catch(() => {});
    },
  };
}

/** Picks a nickname in the lobby; answers the player's id. */
export async function register(page, nickname) {
  await page.goto(`${BASE}/`);
  await page.getByTestId('nickname').fill(nickname);
  await page.getByTestId('nickname-save').click();
  await page.getByTestId('my-nickname').waitFor();
  return page.evaluate(async () => {
    const r = await fetch('/api/me', { headers: { Authorization: `Bearer ${localStorage.getItem('tapete.token')}` } });
    return (await r.json()).id;
  });
}

/** Calls the API as the page's person (its token); answers {status, body}. */
export function apiAs(page, method, path, body) {
  return page.evaluate(async ([method, path, body]) => {
    const headers = { Authorization: `Bearer ${localStorage.getItem('tapete.token')}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : null };
  }, [method, path, body]);
}

/** Makes the page's guest an account (through the API, as the account page does). */
export async function makeAccount(page, nickname) {
  const r = await apiAs(page, 'POST', '/api/accounts', { nickname, password: 'caballo de espadas' });
  if (r.status !== 200) throw new Error(`account ${nickname}: ${JSON.stringify(r.body)}`);
}

/** The accounts of two pages become friends (each asks the other, through the API). */
export async function befriend(a, aName, b, bName) {
  for (const [page, other] of [[a, bName], [b, aName]]) {
    const r = await apiAs(page, 'POST', '/api/friends', { nickname: other });
    if (r.status !== 200) throw new Error(`friends ${other}: ${JSON.stringify(r.body)}`);
  }
}

/**
 * A guest of this nickname for the page, made through the API on a light page of the site
 * (quicker than the lobby's form when the form is not what a test is about); answers its id.
 */
export async function guest(page, nickname) {
  await page.goto(`${BASE}/assets/favicon.svg`);
  return page.evaluate(async (n) => {
    const r = await fetch('/api/players', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ nickname: n }) });
    const p = await r.json();
    localStorage.setItem('tapete.token', p.token);
    return p.id;
  }, nickname);
}

/**
 * Creates a Mus table from the lobby form: short rules (30 piedras, 1 juego unless told
 * otherwise, 1 vaca), instant bots unless told otherwise. Tests that must see several hands
 * ask for 3 juegos, so one órdago won does not end the match. Lands on the table page; answers the table id.
 */
export async function createMusTable(page, { pace = '0', seat = '0', bot, juegos = '1' } = {}) {
  await page.getByTestId('create').waitFor();
  await page.getByTestId('rule-target').selectOption('30');
  await page.getByTestId('rule-juegos').selectOption(juegos);
  await page.getByTestId('rule-vacas').selectOption('1');
  await page.getByTestId('pace').selectOption(pace);
  await page.getByTestId('seat').selectOption(seat);
  if (bot) await page.getByTestId('bot').selectOption(bot);
  await page.getByTestId('create').click();
  await page.waitForURL(/\/t\/[^/]+$/);
  await page.getByTestId('status').waitFor();
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
}

/** The last state the table page received over its WebSocket. */
export function state(page) {
  return page.evaluate(() => (window.tapete ? window.tapete.state : null));
}

// What the page offers now: 'over', 'next' (the counting of a hand, with its "next hand"
// button), 'act' (enabled action buttons), 'discard', or null.
function offer() {
  if (document.querySelector('[data-testid="game-over"]')) return 'over';
  if (document.querySelector('[data-testid="next-hand"]')) return 'next';
  if (document.querySelector('[data-testid="discard-confirm"]')) return 'discard';
  if ([...document.querySelectorAll('[data-testid="action"]')].some((b) => !b.disabled)) return 'act';
  return null;
}

/** What the page offers right now ('over', 'next', 'act', 'discard' or null), without waiting. */
export function offersNow(page) {
  return page.evaluate(offer);
}

/** Waits until the page offers something to do (or the game is over). */
export async function waitOffer(page, timeout = 60000) {
  const h = await page.waitForFunction(offer, null, { timeout, polling: 50 });
  return h.jsonValue();
}

const PREFERRED = ['no hay mus', 'paso', 'no quiero', 'pares sí', 'pares no', 'juego sí', 'juego no', 'seña ninguna'];

/**
 * Plays one decision through the UI with a cautious, always-legal policy: say `mus`
 * once (to go through a discard), then cut; pass, decline; discard the first card; and
 * press "next hand" when the counting of a hand is shown. Answers what was done.
 */
export async function playOne(page, memo = {}) {
  const what = await waitOffer(page);
  if (what === 'over') return { over: true };
  if (what === 'next') {
    try {
      await page.getByTestId('next-hand').click({ timeout: 3000 });
    } catch {
      return { action: null }; // the counting went by itself meanwhile
    }
    memo.countings = (memo.countings || 0) + 1;
    return { next: true };
  }
  if (what === 'discard') {
    // A card picked by an earlier call (the page then redrawn under it) stays picked: a
    // second click would put it back and leave nothing to discard.
    const picked = () => page.evaluate(() => {
      const b = document.querySelector('[data-testid="discard-confirm"]');
      return b ? !b.disabled : null;
    });
    if ((await picked()) === false) await page.getByTestId('my-card').first().click({ timeout: 3000 }).catch(() => {});
    const confirm = page.getByTestId('discard-confirm');
    try {
      await page.waitForFunction(() => {
        const b = document.querySelector('[data-testid="discard-confirm"]');
        return !b || !b.disabled;
      }, null, { timeout: 3000 });
    } catch {
      return { action: null }; // look again
    }
    if (await confirm.count() === 0) return { action: null };
    const action = await confirm.getAttribute('data-action');
    await confirm.click();
    memo.discarded = (memo.discarded || 0) + 1;
    return { action };
  }
  const offered = await page.$$eval('[data-testid="action"]', (bs) => bs.filter((b) => !b.disabled).map((b) => b.dataset.action));
  if (offered.length === 0) return { action: null };
  let pick;
  if (!memo.saidMus && offered.includes('mus')) { pick = 'mus'; memo.saidMus = true; }
  else pick = PREFERRED.find((a) => offered.includes(a)) || offered[0];
  const button = page.locator(`[data-testid="action"][data-action="${pick}"]:not([disabled])`).first();
  try {
    await button.click({ timeout: 3000 });
  } catch {
    return { action: null }; // the page re-rendered under us: look again
  }
  return { action: pick };
}

/**
 * Plays on (through `playOne`) until it is this page's turn in the betting of a lance — well
 * into a hand, where nothing moves until it speaks — and answers the state at that moment.
 * `memo` is `playOne`'s, kept for the caller's later moves.
 */
export async function playToOurBet(page, memo = { saidMus: true }) {
  for (let i = 0; i < 400; i++) {
    const what = await waitOffer(page);
    if (what === 'over') throw new Error('the game ended before a turn in a lance');
    const st = await state(page);
    if (what === 'act' && st.view.phase.phase === 'bet' && st.legal.length > 0) return st;
    await playOne(page, memo);
  }
  throw new Error('no bet of ours within 400 decisions');
}

/**
 * Plays on (through `playOne`) until the counting of a hand is on the felt — one whose
 * cards were shown, unless `shown` is false — and answers the state at that moment.
 */
export async function playToCounting(page, memo = { saidMus: true }, { shown = true } = {}) {
  for (let i = 0; i < 600; i++) {
    const what = await waitOffer(page);
    if (what === 'over') throw new Error('the match ended before a counting');
    if (what === 'next') {
      const st = await state(page);
      if (!shown || (st.view.last_hand && st.view.last_hand.cards)) return st;
    }
    await playOne(page, memo);
  }
  throw new Error('no counting within 600 decisions');
}

/**
 * Creates a short Mus table, starts it and plays to the counting of a hand whose cards were
 * shown. A short match can end on the first hand (an órdago seen and won), so a match that
 * ends first is left and a new table made, up to `tries` times.
 */
export async function musToCounting(page, memo = { saidMus: true }, { tries = 5 } = {}) {
  for (let t = 1; ; t++) {
    await createMusTable(page, { pace: '0' });
    await page.getByTestId('start').click();
    try {
      return await playToCounting(page, memo);
    } catch (e) {
      if (t >= tries || !/ended before a counting/.test(String(e.message))) throw e;
      await page.goto(`${BASE}/`);
    }
  }
}

// ---- Chinchón ----

/**
 * Creates a Chinchón table from the lobby form: `seats` players, points past `target` put a
 * player out, instant bots unless told otherwise; `rules` sets other options by their
 * form's test ids ({close_limit: '5'} selects rule-close_limit). Lands on the table page;
 * answers the table id.
 */
export async function createChinchonTable(page, { seats = 2, target = 20, pace = '0', seat = '0', bot, rules = {} } = {}) {
  await page.getByTestId('create').waitFor();
  await page.getByTestId('game').selectOption('chinchon');
  await page.getByTestId('rule-target').waitFor();
  await page.getByTestId('seats').selectOption(String(seats));
  await page.getByTestId('rule-target').fill(String(target));
  for (const [name, value] of Object.entries(rules)) {
    const input = page.getByTestId(`rule-${name}`);
    if (typeof value === 'boolean') await input.setChecked(value);
    else await input.selectOption(String(value));
  }
  await page.getByTestId('pace').selectOption(pace);
  await page.getByTestId('seat').selectOption(String(seat));
  if (bot) await page.getByTestId('bot').selectOption(bot);
  await page.getByTestId('create').click();
  await page.waitForURL(/\/t\/[^/]+$/);
  await page.getByTestId('status').waitFor();
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
}

// What a Chinchón page offers now: 'over', 'next' (the count of a hand), 'draw' (the stock
// or the pile may be clicked), 'discard', 'lay' (meter cartas), or null.
function chinchonOffer() {
  if (document.querySelector('[data-testid="game-over"]')) return 'over';
  if (document.querySelector('[data-testid="next-hand"]')) return 'next';
  const enabled = (sel) => [...document.querySelectorAll(sel)].some((b) => !b.disabled);
  if (enabled('[data-testid="stock"][data-action]')) return 'draw';
  if (document.querySelector('.cf-hand.discarding') && enabled('[data-testid="my-card"]')) return 'discard';
  if (document.querySelector('.cf-hand.laying') && enabled('[data-testid="action"]')) return 'lay';
  return null;
}

/** What the Chinchón page offers right now, without waiting. */
export function chinchonOfferNow(page) {
  return page.evaluate(chinchonOffer);
}

/** Waits until the Chinchón page offers something (or the game is over). */
export async function waitChinchon(page, timeout = 60000) {
  const h = await page.waitForFunction(chinchonOffer, null, { timeout, polling: 50 });
  return h.jsonValue();
}

/** The cards of the hand as the page shows them, in its order. */
export function shownHand(page) {
  return page.$$eval('[data-testid="my-card"]', (cs) => cs.map((c) => c.dataset.card));
}

/**
 * Plays one Chinchón decision through the UI: takes the pile's top card the first time, and
 * after that when it goes into a meld of the hand (else clicks the stock), closes whenever a close is offered, else
 * discards the highest card in no meld (tap, tap again); lays every card that fits after a
 * close, then listo; presses next at a count. Answers what was done ({action}, {next},
 * {over}), counting in `memo`.
 */
export async function playChinchon(page, memo = {}) {
  const what = await waitChinchon(page);
  const bump = (k) => { memo[k] = (memo[k] || 0) + 1; };
  const click = async (locator) => {
    try { await locator.click({ timeout: 3000 }); return true; } catch { return false; }
  };
  if (what === 'over') return { over: true };
  if (what === 'next') {
    if (!(await click(page.getByTestId('next-hand')))) return { action: null };
    bump('countings');
    return { next: true };
  }
  if (what === 'draw') {
    const take = await page.evaluate(async (took) => {
      const top = document.querySelector('[data-testid="pile"][data-action]')?.dataset.top;
      if (!top) return false;
      if (!took) return true;
      const { analyze } = await import('/assets/chinchon.js');
      const hand = window.tapete.state.view.hand;
      const a = analyze([...hand, top], window.tapete.state.view.rules);
      return a.melds.some((m) => m.includes(hand.length));
    }, memo.tomo || 0);
    const target = page.getByTestId(take ? 'pile' : 'stock');
    const action = take ? 'tomo' : 'robo';
    if (!(await click(target))) return { action: null };
    bump(action);
    return { action };
  }
  if (what === 'discard') {
    const close = page.locator('[data-testid="close"]:not([disabled])').first();
    if (await close.count()) {
      const action = await close.getAttribute('data-action');
      if (!(await click(close))) return { action: null };
      bump('cierro');
      return { action };
    }
    const pick = await page.$$eval('[data-testid="my-card"]', (cs) => {
      let best = -1; let value = -1;
      cs.forEach((c, i) => { const v = c.dataset.meld === '' ? Number(c.dataset.value) : -1; if (v > value) { value = v; best = i; } });
      return best >= 0 ? best : cs.length - 1;
    });
    const card = page.getByTestId('my-card').nth(pick);
    const code = await card.getAttribute('data-card');
    if (!(await click(card))) return { action: null };
    // Every other time the second tap is on the card, else on the button it brings up.
    const second = (memo.descarto || 0) % 2 ? page.locator(`[data-testid="discard"][data-action="descarto ${code}"]`) : card;
    if (!(await click(second))) return { action: null };
    bump('descarto');
    return { action: `descarto ${code}` };
  }
  if (what === 'lay') {
    const fit = page.locator('[data-testid="my-card"].fits').first();
    if (await fit.count()) {
      const code = await fit.getAttribute('data-card');
      if (!(await click(fit))) return { action: null };
      bump('meto');
      return { action: `meto ${code}` };
    }
    if (!(await click(page.locator('[data-testid="action"][data-action="listo"]')))) return { action: null };
    bump('listo');
    return { action: 'listo' };
  }
  return { action: null };
}

// ---- Tikki ----

/**
 * Creates a tikki table from the lobby form: `seats` players, the deck of ranks 1..`top`
 * (short rounds), `rounds` rounds, the retreat round on or off, instant bots unless told
 * otherwise. Lands on the table page; answers the table id.
 */
export async function createTikkiTable(page, { seats = 3, top = 7, rounds = 1, retreat = true, pace = '0', seat = '0', bot } = {}) {
  await page.getByTestId('create').waitFor();
  await page.getByTestId('game').selectOption('tikki');
  await page.getByTestId('rule-top').waitFor();
  await page.getByTestId('seats').selectOption(String(seats));
  await page.getByTestId('rule-top').selectOption(String(top));
  await page.getByTestId('rule-rounds').selectOption(String(rounds));
  await page.getByTestId('rule-retreat').setChecked(retreat);
  await page.getByTestId('pace').selectOption(pace);
  await page.getByTestId('seat').selectOption(String(seat));
  if (bot) await page.getByTestId('bot').selectOption(bot);
  await page.getByTestId('create').click();
  await page.waitForURL(/\/t\/[^/]+$/);
  await page.getByTestId('status').waitFor();
  return decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
}

// What a tikki page offers now: 'over', 'next' (the end of a round, with its "next round"
// button), 'lay' (your turn to lay: cards to pick), 'retreat' (the retreat round's
// choice), or null.
function tikkiOffer() {
  if (document.querySelector('[data-testid="game-over"]')) return 'over';
  if (document.querySelector('[data-testid="next-round"]')) return 'next';
  const st = window.tapete && window.tapete.state;
  const legal = (st && st.legal) || [];
  if (legal.some((a) => a.startsWith('lay ')) && document.querySelector('.tk-hand.picking [data-testid="my-card"]')
    && document.querySelector('[data-testid="lay"]')) return 'lay';
  if (legal.includes('keep') && document.querySelector('[data-testid="keep"]:not([disabled])')) return 'retreat';
  return null;
}

/** What the tikki page offers right now, without waiting. */
export function tikkiOfferNow(page) {
  return page.evaluate(tikkiOffer);
}

/** Waits until the tikki page offers something (or the game is over). */
export async function waitTikki(page, timeout = 60000) {
  const h = await page.waitForFunction(tikkiOffer, null, { timeout, polling: 50 });
  return h.jsonValue();
}

/**
 * Plays one tikki decision through the page: every third lay the hand's best combination
 * (its button), else the lowest card alone, or the two lowest every fifth time — tapping
 * the cards, then "lay"; in the retreat round takes one card back (tapping it, then the one
 * to show) every other time, else keeps; presses next at the end of a round. Waits until
 * the table has taken the action. Answers what was done ({action, picked}, {next},
 * {over}), counting in `memo`.
 */
export async function playTikki(page, memo = {}) {
  const what = await waitTikki(page);
  const bump = (k) => { memo[k] = (memo[k] || 0) + 1; };
  const click = async (locator) => {
    try { await locator.click({ timeout: 3000 }); return true; } catch { return false; }
  };
  if (what === 'over') return { over: true };
  if (what === 'next') {
    if (!(await click(page.getByTestId('next-round')))) return { action: null };
    bump('nexts');
    return { next: true };
  }
  const n = (await state(page)).n;
  let action = null;
  let picked = [];
  if (what === 'lay') {
    const k = memo.lays || 0;
    const best = page.getByTestId('pick-best');
    if (k % 3 === 0 && await best.count()) {
      if (!(await click(best))) return { action: null };
      bump('bests');
    } else {
      const cards = await page.$$eval('[data-testid="my-card"]', (cs) => cs.map((c) => c.dataset.card));
      const byRank = [...cards].sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
      for (const c of byRank.slice(0, k % 5 === 4 && byRank.length > 1 ? 2 : 1)) {
        if (!(await click(page.locator(`[data-testid="my-card"][data-card="${c}"]`)))) return { action: null };
      }
    }
    picked = await page.$$eval('[data-testid="my-card"].selected', (cs) => cs.map((c) => c.dataset.card));
    const lay = page.locator('[data-testid="lay"]:not([disabled])');
    await lay.waitFor({ timeout: 3000 }).catch(() => {});
    if (!(await lay.count())) return { action: null };
    action = await lay.getAttribute('data-action');
    if (!(await click(lay))) return { action: null };
    bump('lays');
  } else if (what === 'retreat') {
    const down = page.locator('[data-testid="my-laid"].selectable');
    if ((memo.retreatTurns || 0) % 2 === 0 && await down.count() >= 2) {
      if (!(await click(down.nth(0))) || !(await click(down.nth(1)))) return { action: null };
      const go = page.locator('[data-testid="retreat"]:not([disabled])');
      if (!(await go.count())) return { action: null };
      action = await go.getAttribute('data-action');
      if (!(await click(go))) return { action: null };
      bump('retreats');
    } else {
      action = 'keep';
      if (!(await click(page.getByTestId('keep')))) return { action: null };
      bump('keeps');
    }
    bump('retreatTurns');
  } else {
    return { action: null };
  }
  await page.waitForFunction((x) => window.tapete.state.n > x, n, { timeout: 15000 });
  return { action, picked };
}

/**
 * Starts a `tapete serve` of the test's own (BIN), with `args` beside its address and
 * database, and answers { proc, url } once it says where it listens.
 */
export function serve(addr, db, args = []) {
  return new Promise((resolve, reject) => {
    const proc = spawn(BIN, ['serve', '--addr', addr, '--db', db, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/127\.0\.0\.1:\d+/);
      if (m) resolve({ proc, url: m[0] });
    });
    proc.on('exit', (code) => reject(new Error(`tapete serve exited (${code}): ${out}`)));
  });
}

/** Stops a server `serve` started, at once (SIGKILL), as a crash would. */
export function kill(proc) {
  return new Promise((resolve) => {
    proc.removeAllListeners('exit');
    proc.on('exit', resolve);
    proc.kill('SIGKILL');
  });
}
