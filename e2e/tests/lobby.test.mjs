// The lobby's create form: every game offered with its players, the away time chosen reaches
// the table (away_s), the default too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable, state } from '../lib.mjs';

test('the lobby sets how long a seat may be away before a bot plays it', { timeout: 60000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    for (const [choice, want] of [[null, 30], ['10', 10], ['120', 120]]) {
      if (choice !== null) {
        await page.goto(`${BASE}/`);
        await page.getByTestId('create').waitFor();
        await page.getByTestId('away').selectOption(choice);
      } else {
        assert.equal(await page.getByTestId('away').inputValue(), '30', 'the default is 30 s');
        // Every game is offered with its players; Mus has one seat count, so no choice.
        const offered = await page.getByTestId('game').locator('option').allTextContents();
        assert.ok(offered.includes('Mus (4 players)'), `games offered: ${offered}`);
        assert.equal(await page.getByTestId('seats').isVisible(), false, 'no seat-count choice for Mus');
      }
      await createMusTable(page, { pace: '0' });
      await page.waitForFunction(() => window.tapete?.state?.table);
      assert.equal((await state(page)).table.away_s, want, `away after ${want} s`);
      assert.equal((await state(page)).table.seats.length, 4, 'a Mus table of four seats');
    }
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
