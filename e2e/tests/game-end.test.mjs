// The end of a game while its people watch, each scrolled down to their hand as they
// played: the banner saying who won comes into view whole, below the sticky top bar (not
// under it), and "otra" is with the felt's last buttons, on the screen and uncovered — on a
// phone and on a laptop.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, guest, apiAs, chinchonOfferNow, playChinchon } from '../lib.mjs';

/** The boxes of the banner, the top bar and "otra", and whether "otra" is on top at its centre. */
function boxes(page) {
  return page.evaluate(() => {
    const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
    const otra = document.querySelector('[data-testid="otra"]');
    const o = box(otra);
    const top = o && document.elementFromPoint((o.left + o.right) / 2, (o.top + o.bottom) / 2);
    return {
      banner: box(document.querySelector('[data-testid="game-over"]')),
      bar: box(document.querySelector('.topbar')),
      otra: o,
      otraOnTop: !!top && (top === otra || otra.contains(top)),
      otras: document.querySelectorAll('[data-testid="otra"]').length,
      height: innerHeight,
      width: innerWidth,
    };
  });
}

test('the game\'s end: the banner whole below the top bar, otra on the screen, on a phone and a laptop', { timeout: 90000 }, async () => {
  const a = await openBrowser({ width: 390, height: 844, locale: 'es-ES' });
  const b = await openBrowser({ width: 1280, height: 800, locale: 'es-ES' });
  const people = [['phone', a], ['laptop', b]];
  try {
    await guest(a.page, 'Ane');
    await guest(b.page, 'Bea');
    // Chinchón for two to the lowest target: the first hand ends the game.
    const { body: made } = await apiAs(a.page, 'POST', '/api/tables', { game: 'chinchon', seats: 2, rules: { target: 1 }, pace_ms: 0, hold_s: 0, turn_s: 0 });
    assert.ok(made.id, JSON.stringify(made));
    await b.page.goto(`${BASE}/t/${made.id}`);
    await b.page.getByTestId('sit-1').click();
    await a.page.goto(`${BASE}/t/${made.id}`);
    await a.page.getByTestId('my-card').first().waitFor();

    // Both play, each scrolled to the page's foot after every move.
    const memos = [{}, {}];
    let over = false;
    for (let i = 0; i < 600 && !over; i++) {
      const offers = await Promise.all(people.map(([, p]) => chinchonOfferNow(p.page)));
      over = offers.every((o) => o === 'over');
      let acted = false;
      for (const [k, [, p]] of people.entries()) {
        if (!offers[k] || offers[k] === 'over') continue;
        await playChinchon(p.page, memos[k]);
        // (Not once the end is on the page: the end is what is looked at.)
        await p.page.evaluate(() => { if (!document.querySelector('[data-testid="game-over"]')) window.scrollTo(0, document.documentElement.scrollHeight); });
        acted = true;
      }
      if (!acted && !over) await a.page.waitForTimeout(50);
    }
    assert.ok(over, 'the game ended');

    for (const [size, p] of people) {
      await p.page.getByTestId('otra').waitFor();
      const x = await boxes(p.page);
      const at = `${size}: ${JSON.stringify(x)}`;
      assert.ok(x.banner.top >= x.bar.bottom - 0.5 && x.banner.bottom <= x.height + 0.5, `the banner whole below the top bar, on the screen: ${at}`);
      assert.equal(x.otras, 1, `one otra: ${at}`);
      assert.ok(x.otra.top >= x.bar.bottom - 0.5 && x.otra.bottom <= x.height + 0.5 && x.otra.left >= 0 && x.otra.right <= x.width + 0.5, `otra on the screen: ${at}`);
      assert.ok(x.otraOnTop, `otra not covered: ${at}`);
    }
    for (const [, p] of people) assert.deepEqual(p.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});
