// tikki: what is yours to do stays on screen (see e2e/reach.mjs).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, state, createTikkiTable, waitTikki, playTikki } from '../lib.mjs';
import { SIZES, reach, felt, assertClear, assertInReach } from '../reach.mjs';

// The sizes run side by side: each has its own browser context and table.
describe('tikki: every lay, from the second trick on, in reach at three sizes', { concurrency: true }, () => {
  for (const size of SIZES) {
    test(`at ${size.join('×')}`, { timeout: 150000 }, async () => {
      const b = await openBrowser({ width: size[0], height: size[1] });
      try {
        const { page } = b;
        await register(page, 'Ane');
        await createTikkiTable(page, { seats: 4, top: 9, rounds: 1, retreat: true });
        await page.getByTestId('start').click();
        const memo = {};
        let later = 0;
        for (let i = 0; i < 120; i++) {
          const what = await waitTikki(page);
          if (what === 'over') break;
          const st = await state(page);
          if (what === 'lay' || what === 'retreat') {
            if ((st.view.tricks || []).length > 0) {
              later++;
              if (what === 'lay') {
                // The new reveal came into view by itself, clear of your seat; so does every part of the felt once scrolled to.
                assertClear(await felt(page, '[data-testid="reveal"]', { scroll: false }), size, `tikki reveal ${st.view.tricks.length}, as the page shows it`);
                assertClear(await felt(page, '[data-testid="ring"] .tk-seat, [data-testid="phase"] .phase-title, [data-testid="reveal"] .tk-row'), size, `tikki ${st.view.tricks.length + 1}`);
              }
            }
            assertInReach(await reach(page, { cards: what === 'lay' }), size, `tikki ${what} (tikki ${(st.view.tricks || []).length + 1})`);
          }
          await playTikki(page, memo);
        }
        assert.ok(later >= 1, `tikki at ${size.join('×')}: a lay after the first trick seen`);
        assert.deepEqual(b.errors, [], 'no script errors');
      } finally {
        await b.close();
      }
    });
  }
});
