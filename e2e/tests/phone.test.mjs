// On a phone (390×844) the counting of a hand is on the screen as it is, without scrolling:
// the four hands, the cuenta and the "next hand" button. A screenshot is kept for a look.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, register, musToCounting } from '../lib.mjs';

test('phone: the counting shows without scrolling', { timeout: 120000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    await musToCounting(page);
    await page.getByTestId('counting').waitFor();

    const seen = await page.evaluate(() => {
      const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
      return {
        scrollY: window.scrollY, width: window.innerWidth, height: window.innerHeight,
        counting: box('[data-testid="counting"]'),
        next: box('[data-testid="next-hand"]'),
        hands: [0, 1, 2, 3].map((s) => box(`[data-testid="counting-hand-${s}"]`)),
        cuenta: box('[data-testid="counting-cuenta"]'),
        pageWidth: document.scrollingElement.scrollWidth,
      };
    });
    const path = join(tmpdir(), 'tapete-e2e-phone-counting.png');
    await page.screenshot({ path });
    console.log(`# phone counting screenshot: ${path}`);

    assert.equal(seen.scrollY, 0, 'not scrolled');
    assert.ok(seen.pageWidth <= seen.width, `no sideways scrolling: ${seen.pageWidth} > ${seen.width}`);
    const inside = (r, what) => {
      assert.ok(r.top >= 0 && r.bottom <= seen.height && r.left >= 0 && r.right <= seen.width, `${what} on the screen: ${JSON.stringify(r)}`);
    };
    seen.hands.forEach((r, s) => inside(r, `the hand of seat ${s}`));
    inside(seen.cuenta, 'the cuenta');
    inside(seen.next, 'the next-hand button');
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
