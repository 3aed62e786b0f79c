// Everything that is yours to do stays on screen, in the same place: at 1280×800, 1366×768
// and 390×844, at each of your decisions (the page scrolled to its top), every enabled
// action button — and the cards to tap when discarding or laying — lies inside the viewport
// and is not covered by anything; the Mus bar keeps one height through a hand. And the
// docked seat or bar never hides the felt: every part of it (the seats, the middle, tikki's
// last reveal, Chinchón's close being laid on), scrolled into view, lies clear of the dock
// and of the top bar; a new reveal and a close to lay on come into view by themselves; Mus's
// cuenta beside the felt is on the screen clear of the felt and the bar.

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

/** What docks at the screen's bottom while you play. */
const DOCK = '.felt > .actions, .felt > .cf-mine, .felt > .tk-mine';

/**
 * The boxes of the felt's parts (`sel`), each as the page shows it now (`scroll: false`)
 * or scrolled into view from the page's top the way the keyboard and the page's own
 * scrolling do it (the least scroll that shows it), with the room between the top bar
 * and the docked seat at that moment.
 */
async function felt(page, sel, { scroll = true } = {}) {
  return page.evaluate(([s, dockSel, scrollTo]) => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom }; };
    return [...document.querySelectorAll(s)].map((e) => {
      if (scrollTo) { window.scrollTo(0, 0); e.scrollIntoView({ block: 'nearest' }); }
      const dock = document.querySelector(dockSel);
      return {
        what: `${e.dataset.testid || e.className.split(' ')[0]}${e.dataset.seat ? ` ${e.dataset.seat}` : ''}`,
        ...box(e),
        roomTop: document.querySelector('.topbar').getBoundingClientRect().bottom,
        roomBottom: dock ? dock.getBoundingClientRect().top : window.innerHeight,
      };
    });
  }, [sel, DOCK, scroll]);
}

function assertClear(parts, [w, h], when) {
  assert.ok(parts.length > 0, `${when}: parts of the felt to look at`);
  for (const p of parts) {
    const at = `${when} at ${w}×${h}: ${p.what} (${Math.round(p.top)}–${Math.round(p.bottom)}, room ${Math.round(p.roomTop)}–${Math.round(p.roomBottom)})`;
    assert.ok(p.top >= p.roomTop - 0.5 && p.bottom <= p.roomBottom + 0.5, `${at} clear of the docked seat and the top bar`);
    assert.ok(p.left >= 0 && p.right <= w + 0.5, `${at} inside the screen's width`);
  }
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
      let cuentas = 0;
      // A whole hand, and the next one into its decisions (the last hand's cuenta beside the felt).
      for (let i = 0; i < 200 && (memo.countings || 0) < 2 && !(cuentas && heights.length >= 2); i++) {
        const what = await waitOffer(page);
        if (what === 'over') break;
        const st = await state(page);
        if (what === 'act' || what === 'discard') {
          const key = `${st.view.game_number}-${st.view.hand_number}`;
          if (key !== hand) {
            hand = key; heights = [];
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
          assertInReach(await reach(page, { cards: what === 'discard' }), size, `Mus ${what} (${st.view.phase.phase})`);
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
  }
});

test('Chinchón for four: draws, discards, meter cartas and listo in reach at three sizes', { timeout: 300000 }, async () => {
  for (const size of SIZES) {
    const b = await openBrowser({ width: size[0], height: size[1] });
    try {
      const { page } = b;
      await register(page, 'Ane');
      // Closes worth up to 5 come sooner: a close to lay on (meter cartas) within fewer turns.
      await createChinchonTable(page, { seats: 4, target: 200, rules: { close_limit: '5' } });
      await page.getByTestId('start').click();
      const memo = { tomo: 1 };
      const seen = new Set();
      for (let i = 0; i < 400 && !(seen.has('lay') && seen.has('discard') && seen.has('next')); i++) {
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
  }
});
