// Chinchón's table drawn for eight players: on a desktop (1280×800) the seats around the
// felt overlap neither each other nor the stock and the pile; on a phone (390×844) nothing
// scrolls sideways — the seats, the hand of eight cards, the actions and the count all fit
// the screen's width. Screenshots are kept for a look.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, register, createChinchonTable, playChinchon, waitChinchon } from '../lib.mjs';

/** The boxes of the seats around the felt and of its middle. */
function boxes(page) {
  return page.evaluate(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, seat: e.dataset.seat }; };
    return {
      seats: [...document.querySelectorAll('.cf-ring .cf-seat')].map(box),
      center: box(document.querySelector('[data-testid="phase"]')),
      width: window.innerWidth,
      pageWidth: document.scrollingElement.scrollWidth,
      hand: [...document.querySelectorAll('[data-testid="my-card"]')].map(box),
    };
  });
}

const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;

function fitsWidth(seen, what) {
  assert.ok(seen.pageWidth <= seen.width, `${what}: no sideways scrolling (${seen.pageWidth} > ${seen.width})`);
  for (const r of [...seen.seats, seen.center, ...seen.hand]) {
    assert.ok(r.left >= 0 && r.right <= seen.width + 0.5, `${what}: ${JSON.stringify(r)} within the screen's width`);
  }
}

test('Chinchón for eight: seats clear of each other on a desktop, everything within a phone\'s width', { timeout: 150000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    await createChinchonTable(page, { seats: 8, target: 15 });
    await page.getByTestId('start').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="my-card"]').length >= 7);

    let seen = await boxes(page);
    assert.equal(seen.seats.length, 7, 'the seven others around the felt');
    fitsWidth(seen, 'desktop');
    for (let i = 0; i < seen.seats.length; i++) {
      assert.ok(!overlap(seen.seats[i], seen.center), `seat ${seen.seats[i].seat} clear of the stock and the pile`);
      for (let j = i + 1; j < seen.seats.length; j++) assert.ok(!overlap(seen.seats[i], seen.seats[j]), `seats ${seen.seats[i].seat} and ${seen.seats[j].seat} apart`);
    }
    const shots = [];
    const shot = async (name) => { const path = join(tmpdir(), `tapete-e2e-chinchon-${name}.png`); await page.screenshot({ path }); shots.push(path); };
    await shot('desk-8');

    // On a phone: the same table, and a turn of ours with eight cards in hand.
    await page.setViewportSize({ width: 390, height: 844 });
    const memo = { tomo: 1 };
    let discard = false;
    let count = false;
    for (let k = 0; k < 200 && !(discard && count); k++) {
      const what = await waitChinchon(page);
      if (what === 'over') break;
      if (what === 'discard' && !discard) {
        discard = true;
        seen = await boxes(page);
        assert.equal(seen.hand.length, 8);
        fitsWidth(seen, 'phone, eight cards in hand');
        const actions = await page.getByTestId('actions').boundingBox();
        assert.ok(actions.x >= 0 && actions.x + actions.width <= 390, 'the actions within the width');
        await shot('phone-8-discard');
      }
      if (what === 'next' && !count) {
        count = true;
        const r = await page.evaluate(() => {
          const c = document.querySelector('[data-testid="counting"]').getBoundingClientRect();
          const n = document.querySelector('[data-testid="next-hand"]').getBoundingClientRect();
          return { c: { left: c.left, right: c.right }, n: { left: n.left, right: n.right }, pageWidth: document.scrollingElement.scrollWidth };
        });
        assert.ok(r.pageWidth <= 390, `the count: no sideways scrolling (${r.pageWidth})`);
        assert.ok(r.c.left >= 0 && r.c.right <= 390 && r.n.left >= 0 && r.n.right <= 390, `the count within the width: ${JSON.stringify(r)}`);
        await shot('phone-8-count');
      }
      await playChinchon(page, memo);
    }
    assert.ok(discard, 'a discard of ours was seen on the phone');
    console.log(`screenshots: ${shots.join(' ')}`);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
