// A friend arriving mid-hand asks for a bot's seat: the page says it is theirs from the
// next hand, and at the next hand they hold its cards and the bot is gone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable, playOne, state } from '../lib.mjs';

test('a person takes over a bot\'s seat at the next hand', { timeout: 180000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 375, height: 800 });
  try {
    await register(a.page, 'Ane');
    const id = await createMusTable(a.page, { pace: '0' });
    await a.page.getByTestId('start').click();
    const memo = { saidMus: true };
    await playOne(a.page, memo); // the hand has begun: Ane (mano) spoke

    await b.page.goto(`${BASE}/t/${id}`);
    await b.page.getByTestId('nickname').fill('Mikel');
    await b.page.getByTestId('nickname-save').click();
    await b.page.getByTestId('sit-2').click();
    await b.page.getByTestId('pending-2').waitFor();
    const waiting = await state(b.page);
    assert.equal(waiting.you.seat ?? null, null, 'not before the hand is over');
    assert.deepEqual(waiting.view.cards, [], 'still watching: no cards');

    // Ane plays on until the next hand; then the seat is Mikel's.
    for (let i = 0; i < 400; i++) {
      const st = await state(b.page);
      if (st.you.seat === 2) break;
      const r = await playOne(a.page, memo);
      assert.ok(!r.over, 'the game ended before the next hand');
    }
    await b.page.waitForFunction(() => window.tapete.state.you.seat === 2);
    const seated = await state(b.page);
    assert.equal(seated.view.cards.length, 4);
    assert.equal(seated.table.seats[2].player.nickname, 'Mikel');
    assert.equal(seated.table.seats[2].bot, null);
    await b.page.getByTestId('my-card').first().waitFor();
    await a.page.waitForFunction(() => document.querySelector('[data-testid="seat-name-2"]')?.textContent === 'Mikel');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});
