// Bigger cards where there is room: on a phone (390×844) the own Chinchón hand is at least
// 52 px a card, seven or eight of them still within the screen's width, each card's corner
// in sight.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createChinchonTable, waitChinchon, playChinchon } from '../lib.mjs';

test('Chinchón on a phone: the hand\'s cards are big and the hand still fits', { timeout: 90000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    await createChinchonTable(page, { seats: 2, target: 100 });
    await page.getByTestId('start').click();
    const memo = { tomo: 1 };
    const counts = new Set();
    for (let i = 0; i < 60 && counts.size < 2; i++) {
      const what = await waitChinchon(page);
      if (what === 'over') break;
      if (what === 'draw' || what === 'discard') {
        const seen = await page.evaluate(() => {
          const box = (e) => e.getBoundingClientRect();
          return {
            cards: [...document.querySelectorAll('[data-testid="my-card"]')].map((e) => { const r = box(e); return { left: r.left, right: r.right, width: r.width }; }),
            hand: (() => { const r = box(document.querySelector('[data-testid="my-hand"]')); return { left: r.left, right: r.right }; })(),
            pageWidth: document.scrollingElement.scrollWidth,
          };
        });
        const n = seen.cards.length;
        counts.add(n);
        for (const c of seen.cards) {
          assert.ok(c.width >= 52, `${n} cards: a card ${c.width.toFixed(1)} px wide, at least 52`);
          assert.ok(c.left >= seen.hand.left - 0.5 && c.right <= seen.hand.right + 0.5 && c.right <= 390, `${n} cards: within the hand and the screen`);
        }
        for (let k = 1; k < n; k++) assert.ok(seen.cards[k].left - seen.cards[k - 1].left >= 36, `${n} cards: card ${k}'s corner in sight`);
        assert.ok(seen.pageWidth <= 390, `no sideways scrolling (${seen.pageWidth})`);
      }
      await playChinchon(page, memo);
    }
    assert.ok(counts.has(7) && counts.has(8), `hands of seven and eight seen: ${[...counts]}`);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
