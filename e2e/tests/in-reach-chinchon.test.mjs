// Chinchón: what is yours to do stays on screen (see e2e/reach.mjs).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createChinchonTable, waitChinchon, playChinchon } from '../lib.mjs';
import { SIZES, reach, felt, assertClear, assertInReach } from '../reach.mjs';

// The sizes run side by side: each has its own browser context and table.
describe('Chinchón for four: draws, discards, meter cartas and listo in reach at three sizes', { concurrency: true }, () => {
  for (const size of SIZES) {
    test(`at ${size.join('×')}`, { timeout: 150000 }, async () => {
      const b = await openBrowser({ width: size[0], height: size[1] });
      try {
        const { page } = b;
        await register(page, 'Ane');
        // Closes worth up to 5 come sooner: a close to lay on (meter cartas) within fewer turns.
        await createChinchonTable(page, { seats: 4, target: 200, rules: { close_limit: '5' } });
        await page.getByTestId('start').click();
        const memo = { tomo: 1 };
        const seen = new Set();
        // Meter cartas waits for a close, which takes a while: it is looked for at the
        // shortest desktop and the phone, where the felt is tightest, not at 1280×800 too.
        const wantLay = size[1] < 800 || size[0] < 800;
        for (let i = 0; i < 400 && !((seen.has('lay') || !wantLay) && seen.has('discard') && seen.has('next')); i++) {
          const what = await waitChinchon(page);
          if (what === 'over') break;
          if (what) {
            seen.add(what);
            if (what === 'lay') {
              // The close to lay on came into view by itself, clear of your seat; so does every part of the felt once scrolled to.
              assertClear(await felt(page, '[data-testid="table-close"]', { scroll: false }), size, 'Chinchón close, as the page shows it');
              assertClear(await felt(page, '[data-testid="ring"] .cf-seat, [data-testid="phase"], [data-testid="table-close"]'), size, 'Chinchón meter cartas');
            }
            assertInReach(await reach(page, { cards: what === 'discard' }), size, `Chinchón ${what}`);
            // The seats around the felt stay clear of its middle (the stock and the pile).
            const clash = await page.evaluate(() => {
              const mid = document.querySelector('[data-testid="phase"]');
              if (!mid) return []; // the count of a hand is on the felt
              const c = mid.getBoundingClientRect();
              return [...document.querySelectorAll('.cf-ring .cf-seat')].filter((e) => {
                const r = e.getBoundingClientRect();
                return r.left < c.right - 1 && c.left < r.right - 1 && r.top < c.bottom - 1 && c.top < r.bottom - 1;
              }).map((e) => e.dataset.seat);
            });
            assert.deepEqual(clash, [], `Chinchón at ${size.join('×')}: seats over the middle of the felt`);
          }
          await playChinchon(page, memo);
        }
        assert.ok(seen.has('discard') && seen.has('draw'), `Chinchón at ${size.join('×')}: turns seen (${[...seen]})`);
        assert.deepEqual(b.errors, [], 'no script errors');
      } finally {
        await b.close();
      }
    });
  }
});
