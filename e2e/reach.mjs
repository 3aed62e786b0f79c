// The checks shared by the in-reach tests (e2e/tests/in-reach-*.test.mjs), one file per
// game so that the three run side by side:
// everything that is yours to do stays on screen, in the same place: at 1280×800, 1366×768
// and 390×844, at each of your decisions (the page scrolled to its top), every enabled
// action button — and the cards to tap when discarding or laying — lies inside the viewport
// and is not covered by anything; the Mus bar keeps one height through a hand. And the
// docked seat or bar never hides the felt: every part of it (the seats, the middle, tikki's
// last reveal, Chinchón's close being laid on), scrolled into view, lies clear of the dock
// and of the top bar; a new reveal and a close to lay on come into view by themselves; Mus's
// cuenta beside the felt is on the screen clear of the felt and the bar.

import assert from 'node:assert/strict';

export const SIZES = [[1280, 800], [1366, 768], [390, 844]];

/**
 * The boxes of what the person may press now (the page at its top), each with whether it
 * is the topmost thing at its centre; `cards` adds the hand's cards.
 */
export async function reach(page, { cards = false } = {}) {
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
export const DOCK = '.felt > .actions, .felt > .cf-mine, .felt > .tk-mine';

/**
 * The boxes of the felt's parts (`sel`), each as the page shows it now (`scroll: false`)
 * or scrolled into view from the page's top the way the keyboard and the page's own
 * scrolling do it (the least scroll that shows it), with the room between the top bar
 * and the docked seat at that moment.
 */
export async function felt(page, sel, { scroll = true } = {}) {
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

export function assertClear(parts, [w, h], when) {
  assert.ok(parts.length > 0, `${when}: parts of the felt to look at`);
  for (const p of parts) {
    const at = `${when} at ${w}×${h}: ${p.what} (${Math.round(p.top)}–${Math.round(p.bottom)}, room ${Math.round(p.roomTop)}–${Math.round(p.roomBottom)})`;
    assert.ok(p.top >= p.roomTop - 0.5 && p.bottom <= p.roomBottom + 0.5, `${at} clear of the docked seat and the top bar`);
    assert.ok(p.left >= 0 && p.right <= w + 0.5, `${at} inside the screen's width`);
  }
}

export function assertInReach(boxes, [w, h], when) {
  assert.ok(boxes.length > 0, `${when}: something to press`);
  for (const b of boxes) {
    assert.ok(b.left >= 0 && b.top >= 0 && b.right <= w + 0.5 && b.bottom <= h + 0.5,
      `${when} at ${w}×${h}: ${b.what} inside the screen (${Math.round(b.left)},${Math.round(b.top)})–(${Math.round(b.right)},${Math.round(b.bottom)})`);
    assert.ok(b.onTop, `${when} at ${w}×${h}: ${b.what} not covered`);
  }
}
