// Small things of the game pages: the tikki retreat step names the cards to tap and
// answers a tap on the hand with a hint; the lobby's seat texts fit their select at three
// sizes. (That a finished match offers no next hand but a new table is checked at the end
// of the whole game, whole-game.test.mjs.)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createTikkiTable, waitTikki, playTikki } from '../lib.mjs';

test('tikki retreat: the hint names the laid cards, the other one once one is picked, and a tap on the hand gets an answer', { timeout: 120000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    await createTikkiTable(page, { seats: 3, top: 7, rounds: 2, retreat: true });
    await page.getByTestId('start').click();
    const memo = { lays: 1 }; // lay two cards at once sometimes, so that a retreat has two laid cards
    let checked = false;
    for (let i = 0; i < 200 && !checked; i++) {
      const what = await waitTikki(page);
      if (what === 'over') break;
      if (what === 'retreat') {
        const down = page.locator('[data-testid="my-laid"].selectable');
        const laid = await down.evaluateAll((cs) => cs.map((c) => c.dataset.card));
        if (laid.length >= 2 && await page.getByTestId('my-card').count() > 0) {
          const short = async (c) => page.evaluate(async (x) => (await import('/assets/french.js')).cardShort(x), c);
          const hint = page.getByTestId('retreat-hint');
          for (const c of laid) assert.ok((await hint.textContent()).includes(await short(c)), `the hint names ${c}: ${await hint.textContent()}`);
          // A tap on the hand: a visible hint, not nothing.
          await page.getByTestId('my-card').first().click();
          await page.waitForFunction(() => document.querySelector('[data-testid="retreat-hint"]')?.dataset.nudge === 'yes');
          assert.match(await hint.textContent(), /tap one you laid/, 'the hint says where to tap');
          assert.ok(await hint.isVisible());
          // One laid card picked: the hint names the other(s).
          await down.nth(0).click();
          const text = await hint.textContent();
          for (const c of laid.slice(1)) assert.ok(text.includes(await short(c)), `after picking ${laid[0]} the hint names ${c}: ${text}`);
          if (laid.length === 2) assert.match(text, /now tap \S+ to show it/, `the one card to tap: ${text}`);
          await down.nth(0).click(); // unpicked again
          checked = true;
        }
      }
      await playTikki(page, memo);
    }
    assert.ok(checked, 'a retreat step with two laid cards came');
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});

test('the lobby: every seat text fits its select, at three sizes', { timeout: 90000 }, async () => {
  for (const [w, h] of [[1280, 800], [1366, 768], [390, 844]]) {
    const b = await openBrowser({ width: w, height: h });
    try {
      const { page } = b;
      await register(page, 'Ane');
      const games = await page.evaluate(async () => (await fetch('/api/games')).json());
      for (const g of games) {
        await page.getByTestId('game').selectOption(g.name);
        await page.waitForTimeout(150);
        // Each option's text, in the select's own font, against the room inside it (the arrow takes ~24 px).
        const clipped = await page.evaluate(() => {
          const out = [];
          const probe = document.createElement('span');
          probe.style.cssText = 'position:absolute;visibility:hidden;white-space:nowrap';
          document.body.append(probe);
          for (const s of document.querySelectorAll('form select')) {
            if (!s.offsetParent) continue;
            const cs = getComputedStyle(s);
            probe.style.font = cs.font;
            const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
            for (const o of s.options) {
              probe.textContent = o.textContent;
              if (probe.getBoundingClientRect().width > room + 0.5) out.push(`${s.dataset.testid}: "${o.textContent}" ${Math.round(probe.getBoundingClientRect().width)} > ${Math.round(room)}`);
            }
          }
          probe.remove();
          return out;
        });
        assert.deepEqual(clipped.filter((x) => /^seat:/.test(x)), [], `${g.name} at ${w}×${h}: seat texts clipped`);
      }
      assert.deepEqual(b.errors, [], 'no script errors');
    } finally {
      await b.close();
    }
  }
});
