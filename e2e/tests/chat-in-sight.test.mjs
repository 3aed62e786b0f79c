// The table's chat stays in sight while people play: on a laptop its last message and its
// line to write are on the screen well into a hand; on a phone a strip along the bottom shows
// the last message and how many are unread, and opens the chat; a quick phrase and a
// reaction are a tap away and reach the other player (the reaction drawn, not an emoji
// glyph, and shown beside the sender's seat, covering nothing). And the table's small
// things: no "pick a nickname" note for a person who has one; the sound toggle is a drawing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  BASE, openBrowser, register, guest, apiAs, createMusTable, playToCounting, playToOurBet,
} from '../lib.mjs';

/** The box of the last element `sel` matches, and whether it is the topmost thing at its centre. */
function lastBox(page, sel) {
  return page.evaluate((s) => {
    const all = document.querySelectorAll(s);
    const e = all[all.length - 1];
    if (!e) return null;
    const r = e.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const bar = document.querySelector('.topbar').getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, onTop: !!top && (top === e || e.contains(top)), barBottom: bar.bottom, height: innerHeight, width: innerWidth };
  }, sel);
}

/** Asserts a box lies on the screen, below the top bar, and is not covered. */
function assertInSight(b, what) {
  assert.ok(b, `${what}: on the page`);
  assert.ok(b.top >= b.barBottom - 0.5 && b.bottom <= b.height + 0.5 && b.left >= 0 && b.right <= b.width + 0.5,
    `${what}: on the screen below the top bar: ${JSON.stringify(b)}`);
  assert.ok(b.onTop, `${what}: not covered: ${JSON.stringify(b)}`);
}

test('at 1280×800 well into a hand, the chat\'s last message and its line to write are on the screen', { timeout: 90000 }, async () => {
  const a = await openBrowser({ width: 1280, height: 800, locale: 'es-ES' });
  try {
    const { page } = a;
    await register(page, 'Ane');
    await createMusTable(page, { pace: '0', juegos: '3' });
    await page.getByTestId('start').click();
    // A whole hand and into the next one: the calls of both fill their box beside the felt.
    const memo = { saidMus: true };
    await playToCounting(page, memo);
    await page.getByTestId('next-hand').click();
    await playToOurBet(page, memo);
    // Written without touching the page's scroll (a click or a fill would scroll to the line).
    const scrolled = await page.evaluate(() => window.scrollY);
    for (const text of ['buenas', 'vaya mano llevo', 'envido a la chica y a lo que sea']) {
      await page.evaluate((x) => {
        const input = document.querySelector('[data-testid="chat-input"]');
        input.value = x;
        input.form.requestSubmit();
      }, text);
      await page.waitForFunction((x) => [...document.querySelectorAll('[data-testid="chat-text"]')].some((e) => e.textContent === x), text);
    }
    assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'nothing scrolled the page');
    const line = await lastBox(page, '[data-testid="chat-line"]');
    assertInSight(line, 'the last chat message');
    assert.equal(await page.evaluate(() => { const all = document.querySelectorAll('[data-testid="chat-text"]'); return all[all.length - 1].textContent; }), 'envido a la chica y a lo que sea');
    assertInSight(await lastBox(page, '[data-testid="chat-input"]'), 'the line to write');
    assertInSight(await lastBox(page, '[data-testid="action"]:not([disabled])'), 'an action of the hand');
    assert.deepEqual(a.errors, []);
  } finally {
    await a.close();
  }
});

test('on a phone a strip shows the last message and the unread count and opens the chat; quick words a tap away reach the other player', { timeout: 60000 }, async () => {
  const a = await openBrowser({ width: 390, height: 844, locale: 'es-ES' });
  const b = await openBrowser({ width: 1280, height: 800 });
  try {
    await guest(a.page, 'Ane');
    await guest(b.page, 'Bea');
    const { body: made } = await apiAs(a.page, 'POST', '/api/tables', { game: 'chinchon', seats: 2, rules: { target: 50 }, pace_ms: 0, turn_s: 0 });
    assert.ok(made.id, JSON.stringify(made));
    await b.page.goto(`${BASE}/t/${made.id}`);
    await b.page.getByTestId('sit-1').click();
    await b.page.getByTestId('my-card').first().waitFor();
    await a.page.goto(`${BASE}/t/${made.id}`);
    await a.page.getByTestId('my-card').first().waitFor();

    // Bea writes; on Ane's phone the strip shows it, one unread, without any scrolling.
    await b.page.getByTestId('chat-input').fill('¡Hola, Ane!');
    await b.page.getByTestId('chat-send').click();
    await a.page.getByTestId('chat-last').filter({ hasText: '¡Hola, Ane!' }).waitFor();
    assert.equal(await a.page.getByTestId('chat-unread').textContent(), '1');
    assert.equal(await a.page.evaluate(() => window.scrollY), 0);
    assertInSight(await lastBox(a.page, '[data-testid="chat-last"]'), 'the strip\'s last message');
    assertInSight(await lastBox(a.page, '[data-testid="chat-unread"]'), 'the unread count');
    assert.equal(await a.page.getByTestId('chat-lines').isVisible(), false, 'the chat itself is closed');
    // What the strip leaves of the screen still shows the hand and what to press.
    assertInSight(await lastBox(a.page, '[data-testid="stock"]'), 'the stock to draw from');

    // The strip opens the chat over the table; the count goes.
    await a.page.getByTestId('chat-toggle').click();
    await a.page.getByTestId('chat-lines').getByText('¡Hola, Ane!').waitFor();
    assert.equal(await a.page.getByTestId('chat-unread').isVisible(), false);
    await a.page.getByTestId('chat-close').click();
    assert.equal(await a.page.getByTestId('chat-lines').isVisible(), false);

    // A quick phrase, in Ane's language, from the strip's tray.
    await a.page.getByTestId('chat-quick-toggle').click();
    await a.page.locator('[data-testid="chat-phrase"][data-key="buena"]').click();
    await b.page.getByTestId('chat-text').getByText('¡Buena!', { exact: true }).waitFor();
    assert.equal(await a.page.getByTestId('chat-tray').isVisible(), false, 'the tray goes once a word is said');

    // A reaction: drawn at Bea's end (no emoji glyph to fall back on) and beside Ane's seat.
    await a.page.getByTestId('chat-quick-toggle').click();
    await a.page.locator('[data-testid="chat-react"][data-text="😂"]').click();
    // (The phrase's bubble may still be up beside Ane's seat: the reaction's replaces it.)
    const said = b.page.getByTestId('chat-said-0');
    await said.locator('svg').waitFor();
    assert.equal(await said.locator('svg').count(), 1, 'the bubble holds the drawing');
    const last = b.page.getByTestId('chat-text').last();
    assert.equal(await last.getAttribute('data-text'), '😂');
    assert.equal(await last.locator('svg').count(), 1);
    assert.equal((await last.textContent()).trim(), '', 'no emoji glyph on the page');
    const clash = await b.page.evaluate(() => {
      const r = document.querySelector('[data-testid="chat-said-0"]').getBoundingClientRect();
      return [...document.querySelectorAll('.felt .card, .felt button, .felt .nameplate, .felt .chip')].map((e) => e.getBoundingClientRect())
        .filter((o) => o.width && !(r.right <= o.left || o.right <= r.left || r.bottom <= o.top || o.bottom <= r.top)).length;
    });
    assert.equal(clash, 0, 'the bubble covers no card, button, name or chip');
    const near = await b.page.evaluate(() => {
      const r = document.querySelector('[data-testid="chat-said-0"]').getBoundingClientRect();
      const n = document.querySelector('[data-testid="seat-name-0"]').closest('.nameplate').getBoundingClientRect();
      return Math.max(0, n.left - r.right, r.left - n.right) + Math.max(0, n.top - r.bottom, r.top - n.bottom);
    });
    assert.ok(near <= 12, `the bubble beside Ane's name (${near}px away)`);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});

test('no nickname note for a person with one, the note for a visitor; the sound toggle is a drawing', { timeout: 30000 }, async () => {
  const a = await openBrowser({ locale: 'es-ES' });
  const v = await openBrowser({ locale: 'es-ES' });
  try {
    await guest(a.page, 'Ane');
    const { body: made } = await apiAs(a.page, 'POST', '/api/tables', { game: 'mus', pace_ms: 0 });
    assert.ok(made.id, JSON.stringify(made));
    await a.page.goto(`${BASE}/t/${made.id}`);
    await a.page.getByTestId('chat-input').waitFor();
    assert.doesNotMatch(await a.page.getByTestId('chat-note').textContent(), /apodo/);

    await v.page.goto(`${BASE}/t/${made.id}`);
    await v.page.getByTestId('status').waitFor();
    await v.page.getByTestId('chat-note').getByText('Elige un apodo para escribir.').waitFor();

    const sound = a.page.getByTestId('sound');
    assert.equal(await sound.locator('svg').count(), 1);
    assert.equal((await sound.textContent()).trim(), '', 'no emoji in the button');
    assert.equal(await sound.getAttribute('aria-label'), 'Sonido cuando te toca');
    assert.equal(await sound.getAttribute('aria-pressed'), 'false');
    assert.equal(await sound.locator('[data-icon]').getAttribute('data-icon'), 'bellOff');
    await sound.click();
    await a.page.waitForFunction(() => document.querySelector('[data-testid="sound"]').getAttribute('aria-pressed') === 'true');
    assert.equal(await a.page.getByTestId('sound').locator('[data-icon]').getAttribute('data-icon'), 'bell');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(v.errors, []);
  } finally {
    await a.close();
    await v.close();
  }
});
