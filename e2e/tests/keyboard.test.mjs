// Playable with the keyboard alone and readable by a screen reader: a Chinchón turn — draw,
// pick a card, discard it — by Tab and Enter only, the focus kept in the game as the page
// redraws, and the turn and the moves read out in the live region. The optional chime.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createChinchonTable, state } from '../lib.mjs';

/** Presses Tab until `pred` (run in the page) holds for the focused element. */
async function tabTo(page, pred, what) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(pred)) return;
  }
  assert.fail(`${what} never got the keyboard's focus`);
}

test('Chinchón: a turn by keyboard alone, read out as it goes', { timeout: 60000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await register(page, 'Ane');
    await createChinchonTable(page, { seats: 2 });
    await page.getByTestId('start').click();
    await page.waitForFunction(() => (window.tapete.state?.legal || []).includes('robo'));
    const before = await state(page);
    const hand = before.view.hand.length;
    await page.waitForFunction(() => /Your turn/.test(document.querySelector('[data-testid="live"]').textContent));

    // Draw from the stock.
    await tabTo(page, () => document.activeElement?.dataset?.action === 'robo', 'the stock');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.tapete.state.n > n, before.n);
    await page.waitForFunction(() => (window.tapete.state.legal || []).some((a) => a.startsWith('descarto')));
    assert.notEqual(await page.evaluate(() => document.activeElement === document.body), true, 'the focus stays in the page after the draw');

    // Pick a card (Enter), then Enter again on it discards it.
    await tabTo(page, () => document.activeElement?.dataset?.testid === 'my-card', 'a card of the hand');
    const card = await page.evaluate(() => document.activeElement.dataset.card);
    await page.keyboard.press('Enter');
    await page.waitForFunction((c) => document.activeElement?.dataset?.card === c && document.activeElement.getAttribute('aria-pressed') === 'true', card);
    const drawn = await state(page);
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => window.tapete.state.n > n, drawn.n);
    const after = await state(page);
    assert.equal(after.view.hand.length, hand, 'the hand is back to its size');
    // Gone from the hand (the pile may have lost it again: the bot, next, may draw it).
    assert.ok(!after.view.hand.includes(card), `${card} was discarded`);
    // The moves were read out: the draw and the discard, in the page's words.
    const heard = await page.getByTestId('live').evaluate((e) => [...e.children].map((x) => x.textContent));
    assert.ok(heard.some((x) => /Ane/.test(x) && /discard/i.test(x)), `the discard was read out: ${JSON.stringify(heard)}`);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('the chime on your turn is off until asked for, and the choice is kept', { timeout: 60000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await register(page, 'Mikel');
    await createChinchonTable(page, { seats: 2 });
    const toggle = page.getByTestId('sound');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="sound"]').getAttribute('aria-pressed') === 'true');
    assert.equal(await page.evaluate(() => window.tapete.beeps), 1, 'turning it on plays it once');
    await page.getByTestId('start').click();
    await page.waitForFunction(() => (window.tapete.state?.legal || []).length > 0 && window.tapete.beeps >= 2);
    await page.reload();
    await page.getByTestId('sound').waitFor();
    assert.equal(await page.getByTestId('sound').getAttribute('aria-pressed'), 'true', 'kept after a reload');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
