// Everything that is yours to do stays on screen, in the same place: at 1280×800, 1366×768
// and 390×844, at each of your decisions (the page scrolled to its top), every enabled
// action button — and the cards to tap when discarding or laying — lies inside the viewport
// and is not covered by anything; the Mus bar keeps one height through a hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  openBrowser, register, createMusTable, waitOffer, playOne, state,
  createChinchonTable, waitChinchon, playChinchon, createTikkiTable, waitTikki, playTikki,
} from '../lib.mjs';

const SIZES = [[1280, 800], [1366, 768], [390, 844]];

/**
 * The boxes of what the person may press now (the page at its top), each with whether it
 * is the topmost thing at its centre; `cards` adds the hand's cards.
 */
async function reach(page, { cards = false } = {}) {
  await page.evaluate(() => window.scrollTo(0, 0));
  return page.evaluate((withCards) => {
    const sel = ['[data-testid="actions"] button:not([disabled])', '[data-testid="next-hand"]', '[data-testid="next-round"]'];
    if (withCards) sel.push('[data-testid="my-card"]');
    return [...document.querySelectorAll(sel.join(','))].map((e) => {
      const r = e.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return {
        what: `${e.dataset.testid} ${e.dataset.action || e.dataset.card || e.textContent.trim().slice(0, 30)}`,
        left: r.left, top: r.top, right: r.right, bottom: r.bottom, onTop: !!top && (top === e || e.contains(top)),
      };
    });
  }, cards);
}

function assertInReach(boxes, [w, h], when) {
  assert.ok(boxes.length > 0, `${when}: something to press`);
  for (const b of boxes) {
    assert.ok(b.left >= 0 && b.top >= 0 && b.right <= w + 0.5 && b.bottom <= h + 0.5,
      `${when} at ${w}×${h}: ${b.what} inside the screen (${Math.round(b.left)},${Math.round(b.top)})–(${Math.round(b.right)},${Math.round(b.bottom)})`);
    assert.ok(b.onTop, `${when} at ${w}×${h}: ${b.what} not covered`);
  }
}

test('Mus: every action in reach at three sizes, the bar one height through a hand', { timeout: 240000 }, async () => {
  for (const size of SIZES) {
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
      for (let i = 0; i < 200 && (memo.countings || 0) < 2; i++) {
        const what = await waitOffer(page);
        if (what === 'over') break;
        const st = await state(page);
        if (what === 'act' || what === 'discard') {
          const key = `${st.view.game_number}-${st.view.hand_number}`;
          if (key !== hand) { hand = key; heights = []; }
          assertInReach(await reach(page, { cards: what === 'discard' }), size, `Mus ${what} (${st.view.phase.phase})`);
          const bar = await page.evaluate(() => { const r = document.querySelector('[data-testid="actions"]').getBoundingClientRect(); return { height: r.height, y: r.top }; });
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
      assert.deepEqual(b.errors, [], 'no script errors');
    } finally {
      await b.close();
    }
  }
});

test('Chinchón for four: draws, discards, meter cartas and listo in reach at three sizes', { timeout: 300000 }, async () => {
  for (const size of SIZES) {
    const b = await openBrowser({ width: size[0], height: size[1] });
    try {
      const { page } = b;
      await register(page, 'Ane');
      await createChinchonTable(page, { seats: 4, target: 200 });
      await page.getByTestId('start').click();
      const memo = { tomo: 1 };
      const seen = new Set();
      for (let i = 0; i < 400 && !(seen.has('lay') && seen.has('discard') && seen.has('next')); i++) {
        const what = await waitChinchon(page);
        if (what === 'over') break;
        if (what) {
          seen.add(what);
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
  }
});

test('tikki: every lay, from the second trick on, in reach at three sizes', { timeout: 240000 }, async () => {
  for (const size of SIZES) {
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
          if ((st.view.tricks || []).length > 0) later++;
          assertInReach(await reach(page, { cards: what === 'lay' }), size, `tikki ${what} (tikki ${(st.view.tricks || []).length + 1})`);
        }
        await playTikki(page, memo);
      }
      assert.ok(later >= 1, `tikki at ${size.join('×')}: a lay after the first trick seen`);
      assert.deepEqual(b.errors, [], 'no script errors');
    } finally {
      await b.close();
    }
  }
});
