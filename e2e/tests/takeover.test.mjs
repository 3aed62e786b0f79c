// A friend arriving mid-hand asks for a bot's seat: the page says it is theirs from the
// next hand, and at the next hand they hold its cards and the bot is gone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable, playOne, offersNow, state } from '../lib.mjs';

test('a person takes over a bot\'s seat at the next hand', { timeout: 180000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 375, height: 800 });
  try {
    await register(a.page, 'Ane');
    const id = await createMusTable(a.page, { pace: '0', juegos: '3' });
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

    // Ane plays on until the next hand; then the seat is Mikel's. Whichever comes first is
    // answered: Ane's turn, or the new hand making Mikel the holder of seat 2 (who may speak
    // before Ane in it, so Ane must not wait for her turn once the seat is his).
    const seated = async () => (await state(b.page))?.you?.seat === 2;
    for (let i = 0; i < 4000 && !(await seated()); i++) {
      if (!(await offersNow(a.page))) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      const r = await playOne(a.page, memo);
      assert.ok(!r.over, 'the game ended before the next hand');
    }
    await b.page.waitForFunction(() => window.tapete.state.you.seat === 2);
    const now = await state(b.page);
    assert.equal(now.view.cards.length, 4);
    assert.equal(now.table.seats[2].player.nickname, 'Mikel');
    assert.equal(now.table.seats[2].bot, null);
    // The hand before is counted on his felt too: past "next hand", his own cards.
    await b.page.locator('[data-testid="my-card"], [data-testid="next-hand"]').first().waitFor();
    if (await b.page.getByTestId('next-hand').count()) await b.page.getByTestId('next-hand').click({ timeout: 3000 }).catch(() => {});
    await b.page.getByTestId('my-card').first().waitFor();
    await a.page.waitForFunction(() => document.querySelector('[data-testid="seat-name-2"]')?.textContent === 'Mikel');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});
