// (3) Reloading the page in the middle of a hand puts the player back where it was: same
// hand, same cards, same legal actions; and the game carries on from there.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createMusTable, playOne, playToOurBet, waitOffer, state } from '../lib.mjs';

test('a reload mid-hand resumes the hand', { timeout: 180000 }, async () => {
  const b = await openBrowser({ width: 375, height: 812 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    await createMusTable(page, { pace: '0' });
    await page.getByTestId('start').click();

    // Play until it is our turn in the betting of a lance: well into a hand, and nothing
    // moves until we speak.
    const memo = { saidMus: true };
    const before = await playToOurBet(page, memo);
    const cardsBefore = await page.$$eval('[data-testid="my-card"]', (cs) => cs.map((c) => c.dataset.card));
    const offeredBefore = await page.$$eval('[data-testid="action"]', (bs) => bs.map((x) => x.dataset.action));

    await page.reload();
    await waitOffer(page);
    const after = await state(page);
    assert.equal(after.n, before.n, 'no action was lost or added');
    assert.equal(after.view.hand_number, before.view.hand_number);
    assert.equal(after.view.game_number, before.view.game_number);
    assert.deepEqual(after.view.phase, before.view.phase);
    assert.deepEqual(after.view.cards, before.view.cards);
    assert.deepEqual(after.legal, before.legal);
    assert.deepEqual(after.lines, before.lines, 'the calls of the hand are all there');
    assert.deepEqual(await page.$$eval('[data-testid="my-card"]', (cs) => cs.map((c) => c.dataset.card)), cardsBefore);
    assert.deepEqual(await page.$$eval('[data-testid="action"]', (bs) => bs.map((x) => x.dataset.action)), offeredBefore);

    // And it carries on: our next action is applied.
    const r = await playOne(page, memo);
    assert.ok(r.action, 'acted after the reload');
    await page.waitForFunction((n) => window.tapete.state.n > n, before.n);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
