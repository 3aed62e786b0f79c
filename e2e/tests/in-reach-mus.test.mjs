// Mus: what is yours to do stays on screen (see e2e/reach.mjs).

import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createMusTable, waitOffer, playOne, state } from '../lib.mjs';
import { SIZES, reach, felt, assertClear, assertInReach } from '../reach.mjs';

// The sizes run side by side: each has its own browser context and table.
describe('Mus: every action in reach at three sizes, the bar one height through a hand', { concurrency: true }, () => {
  for (const size of SIZES) {
    test(`at ${size.join('×')}`, { timeout: 150000 }, async () => {
      const b = await openBrowser({ width: size[0], height: size[1] });
      try {
        const { page } = b;
        await register(page, 'Ane');
        await createMusTable(page, { pace: '0', juegos: '3' });
        await page.getByTestId('start').click();
        const memo = {};
        let heights = [];
        let hand = null;
        let decisions = 0;
        let cuentas = 0;
        // A whole hand, and the next one into its decisions (the last hand's cuenta beside the felt);
        // a hand or two more when a juego ended by an órdago left no cuenta to show.
        for (let i = 0; i < 300 && (memo.countings || 0) < 4 && !(cuentas && heights.length >= 2); i++) {
          const what = await waitOffer(page);
          if (what === 'over') break;
          const st = await state(page);
          if (what === 'act' || what === 'discard') {
            const key = `${st.view.game_number}-${st.view.hand_number}`;
            if (key !== hand) {
              hand = key; heights = [];
              await page.locator('.felt .plate').first().waitFor();
              assertClear(await felt(page, '.felt .plate, .felt [data-testid="phase"]'), size, 'Mus');
              if (await page.getByTestId('cuenta').count()) {
                // The last hand's cuenta beside (or under) the felt: on the screen once scrolled to, clear of the felt and its bar.
                const [c] = await felt(page, '[data-testid="cuenta"]');
                const others = await page.evaluate(() => ['.felt', '[data-testid="actions"]'].flatMap((x) => {
                  const e = document.querySelector(x);
                  if (!e) return [];
                  const r = e.getBoundingClientRect();
                  return [{ what: x, left: r.left, top: r.top, right: r.right, bottom: r.bottom }];
                }));
                assert.ok(c.top >= c.roomTop - 0.5 && c.bottom <= size[1] + 0.5 && c.left >= 0 && c.right <= size[0] + 0.5,
                  `Mus at ${size.join('×')}: the cuenta on the screen: ${JSON.stringify(c)}`);
                for (const o of others) {
                  assert.ok(c.right <= o.left + 0.5 || o.right <= c.left + 0.5 || c.bottom <= o.top + 0.5 || o.bottom <= c.top + 0.5,
                    `Mus at ${size.join('×')}: the cuenta clear of ${o.what}: ${JSON.stringify({ c, o })}`);
                }
                cuentas++;
              }
            }
            let boxes = await reach(page, { cards: what === 'discard' });
            // A bet both partners may answer: the bot partner answered first and the bar went, or
            // is being drawn anew. Give the page a moment: the buttons come back, or the state moved
            // on (look again); a bar that stays empty while the state stands still is the defect.
            let moved = false;
            for (let t = 0; !boxes.length && !moved && t < 40; t++) {
              await page.waitForTimeout(100);
              moved = JSON.stringify((await state(page)).view) !== JSON.stringify(st.view);
              if (!moved) boxes = await reach(page, { cards: what === 'discard' });
            }
            if (moved) continue;
            assertInReach(boxes, size, `Mus ${what} (${st.view.phase.phase})`);
            const bar = await page.evaluate(() => { const e = document.querySelector('[data-testid="actions"]'); if (!e) return null; const r = e.getBoundingClientRect(); return { height: r.height, y: r.top }; });
            // The page drew the next state in between (its bar is drawn anew): look again.
            if (!bar) continue;
            heights.push({ h: Math.round(bar.height), y: Math.round(bar.y), phase: st.view.phase.phase });
            assert.ok(heights.every((x) => x.h === heights[0].h && x.y === heights[0].y),
              `Mus at ${size.join('×')}: the bar in one place, one height, through hand ${hand}: ${JSON.stringify(heights)}`);
            decisions++;
          } else if (what === 'next') {
            assertInReach(await reach(page), size, 'Mus counting');
          }
          await playOne(page, memo);
        }
        assert.ok(decisions >= 3, `Mus at ${size.join('×')}: decisions seen (${decisions})`);
        assert.ok(cuentas >= 1, `Mus at ${size.join('×')}: a hand with the last one's cuenta beside the felt`);
        assert.deepEqual(b.errors, [], 'no script errors');
      } finally {
        await b.close();
      }
    });
  }
});
