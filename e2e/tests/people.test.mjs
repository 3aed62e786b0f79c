// Pages for people: the turn clock seen by the player and a watcher, the options explained
// in the lobby, the rules linked from the lobby and the table, a page for an unknown
// address, a nickname left empty, and a move to the other partnership asked first.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, state } from '../lib.mjs';

/** Makes a table through the API, as the lobby would, from a page holding a token. */
async function makeTable(page, body) {
  const t = await page.evaluate(async (b) => {
    const r = await fetch('/api/tables', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('tapete.token')}` },
      body: JSON.stringify(b),
    });
    return { status: r.status, body: await r.json() };
  }, body);
  assert.equal(t.status, 200, JSON.stringify(t.body));
  return t.body;
}

test('the turn clock: the player and a watcher see it run; when it runs out the bot plays until the player is back', { timeout: 90000 }, async () => {
  const a = await openBrowser({ width: 390, height: 844 });
  const w = await openBrowser();
  try {
    await register(a.page, 'Ane');
    const t = await makeTable(a.page, { game: 'mus', rules: { target: 30, juegos: 3, vacas: 1 }, pace_ms: 0, seat: 0, start: true, turn_s: 10 });
    assert.equal(t.turn_s, 10);
    await a.page.goto(`${BASE}/t/${t.id}`);
    await w.page.goto(`${BASE}/t/${t.id}`);
    // Ane's turn comes (the bots play theirs at once): her clock shows, counting down.
    const mine = a.page.getByTestId('clock-0');
    await mine.waitFor({ timeout: 20000 });
    const text = await mine.textContent();
    assert.match(text, /^Your turn: 0:(10|0\d) left$/, text);
    const watched = w.page.getByTestId('clock-0');
    await watched.waitFor();
    assert.match(await watched.textContent(), /^Ane's turn: 0:\d\d left$/);
    await a.page.waitForFunction((t0) => document.querySelector('[data-testid="clock-0"]')?.textContent !== t0, text, { timeout: 3000 });
    // She does nothing: she is away and the bot plays for her; she says she is back.
    await a.page.getByTestId('away-notice').waitFor({ timeout: 20000 });
    assert.equal((await state(w.page)).table.seats[0].away, true, 'the watcher sees her away');
    await a.page.getByTestId('back').click();
    await a.page.waitForFunction(() => window.tapete.state.table.seats[0].away === false);
    assert.deepEqual(a.errors, [], 'no script errors');
  } finally {
    await a.close();
    await w.close();
  }
});

test('the lobby explains every option in view and links each game\'s rules; the table links them too', { timeout: 60000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    await page.getByTestId('create').waitFor();
    const games = await page.evaluate(async () => (await fetch('/api/games')).json());
    const mus = games.find((g) => g.name === 'mus');
    for (const key of ['game', 'bot', 'pace', 'seat', 'away', 'turn', ...Object.keys(mus.rule_docs)]) {
      const help = page.getByTestId(`help-${key}`);
      assert.ok(await help.isVisible(), `the explanation of ${key} is visible`);
      assert.ok((await help.textContent()).length > 10, key);
    }
    assert.equal(await page.getByTestId('turn').inputValue(), '60', 'a minute per turn by default');
    const link = page.getByTestId('rules-link');
    assert.equal(await link.getAttribute('href'), '/rules/mus');
    await page.goto(`${BASE}/rules/mus`);
    assert.equal(await page.locator('h1').first().textContent(), 'Mus');
    assert.ok(await page.getByTestId('rules').locator('table').first().isVisible(), 'its tables are drawn');
    await page.goto(`${BASE}/`);
    await page.getByTestId('game').selectOption('tikki');
    await page.waitForFunction(() => document.querySelector('[data-testid="rules-link"]')?.getAttribute('href') === '/rules/tikki');
    const t = await makeTable(page, { game: 'chinchon', seats: 2, seat: 0 });
    await page.goto(`${BASE}/t/${t.id}`);
    assert.equal(await page.getByTestId('rules-link').getAttribute('href'), '/rules/chinchon');
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});

test('an unknown address is a page with a way to the lobby; an empty nickname is explained', { timeout: 60000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    const { page } = b;
    const r = await page.goto(`${BASE}/no/such/page`);
    assert.equal(r.status(), 404);
    await page.getByTestId('no-such-page').waitFor();
    await page.getByRole('link', { name: 'To the lobby' }).click();
    await page.waitForURL(`${BASE}/`);
    await page.getByTestId('nickname-save').click();
    const err = page.getByTestId('nickname-error');
    await page.waitForFunction(() => document.querySelector('[data-testid="nickname-error"]')?.textContent);
    assert.match(await err.textContent(), /nickname/i);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});

test('moving to the other partnership mid-match asks first, naming the side and the score', { timeout: 60000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await register(page, 'Ane');
    const t = await makeTable(page, { game: 'mus', rules: { target: 30, juegos: 3, vacas: 1 }, pace_ms: 0, seat: 0, start: true, turn_s: 0 });
    await page.goto(`${BASE}/t/${t.id}`);
    await page.getByTestId('sit-1').waitFor();
    // The server asks (the page shows its question); the answer to the dialog, once given.
    const asked = (yes) => new Promise((resolve) => {
      page.once('dialog', async (d) => { const m = d.message(); await (yes ? d.accept() : d.dismiss()); resolve(m); });
    });
    const within = (p, what) => {
      let timer;
      const late = new Promise((_, no) => { timer = setTimeout(() => no(new Error(what)), 15000); });
      return Promise.race([p, late]).finally(() => clearTimeout(timer));
    };
    // The page's timers run on a clock the test moves.
    await page.clock.install();
    const first = asked(false);
    await page.getByTestId('sit-1').click();
    assert.match(await within(first, 'not asked'), /other side \(bot 1 and bot 3\), now piedras \d+–\d+/);
    // Declined: whatever the page might still send, it sends within the next seconds of
    // its clock, run at once. Then nothing was sent: the server, which answers one
    // connection's messages in order, asks the same again on a second tap (a move made
    // meanwhile would not be asked).
    await page.clock.runFor(5000);
    assert.equal((await state(page)).you.pending_seat, null, 'declined: nothing changed');
    const second = asked(true);
    await page.getByTestId('sit-1').click();
    assert.match(await within(second, 'not asked again: the declined move was made'), /other side \(bot 1 and bot 3\)/);
    await page.waitForFunction(() => window.tapete.state.you.pending_seat === 1 || window.tapete.state.you.seat === 1);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
