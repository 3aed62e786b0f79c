// The counting is a moment: when a hand ends the felt shows all four hands face up at their
// seats with who won each lance and the piedras each side got, until "next hand".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, musToCounting, waitOffer } from '../lib.mjs';

test('the counting: four hands face up, the lances and the cuenta, until next hand', { timeout: 120000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  try {
    const { page } = b;
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
    await register(page, 'Ane');

    const st = await musToCounting(page);
    const h = st.view.last_hand;
    const counting = page.getByTestId('counting');
    await counting.waitFor();

    // All four hands, face up, each at its seat: the cards of the hand just finished.
    for (const s of [0, 1, 2, 3]) {
      const shown = await page.getByTestId(`counting-hand-${s}`).locator('[data-card]').evaluateAll((cs) => cs.map((c) => c.dataset.card));
      assert.deepEqual([...shown].sort(), [...h.cards[s]].sort(), `seat ${s} shows its cards`);
    }
    const mySpot = await page.locator('.ct-seat.seat-bottom').getAttribute('data-seat');
    assert.equal(Number(mySpot), st.you.seat, 'our own hand at the bottom');

    // Each lance with its winner at the showdown, and the cuenta: the piedras each side got.
    const showdown = h.log.find((e) => e.type === 'showdown');
    for (const w of showdown.winners) {
      const row = page.getByTestId(`counting-lance-${w.lance}`);
      assert.equal(await row.count(), 1, `a row for ${w.lance}`);
      if (w.seat !== null) {
        const info = st.table.seats[w.seat];
        const name = info.player ? info.player.nickname : `bot ${w.seat}`;
        assert.ok((await row.textContent()).includes(name), `${w.lance}: its winner, ${name}`);
      }
    }
    const got = [0, 0];
    for (const e of h.log) if (e.type === 'scored') got[e.pair] += e.piedras;
    assert.equal(await page.getByTestId('counting-cuenta').getAttribute('data-piedras'), got.join(','));
    const words = await page.getByTestId('counting-cuenta').textContent();
    const mine = st.you.seat % 2;
    assert.ok(words.includes(`nosotros +${got[mine]}`) && words.includes(`ellos +${got[1 - mine]}`), `the cuenta in our words: ${words}`);
    assert.doesNotMatch(await counting.textContent(), /pair \d|seat \d/, 'no "pair 0–2" nor "seat 2" shown');

    // It stays while we look (no action buttons under it), and "next hand" ends it.
    assert.equal(await page.locator('[data-testid="action"]').count(), 0, 'the counting covers the actions');
    await page.getByTestId('next-hand').click();
    await counting.waitFor({ state: 'detached' });
    const after = await waitOffer(page);
    // The game goes on, unless that hand ended it (an órdago seen, say).
    const over = await page.evaluate(() => !!(window.tapete && window.tapete.state && window.tapete.state.outcome));
    assert.ok(['act', 'discard', 'next'].includes(after) || (after === 'over' && over), `the game goes on: ${after}`);
    if (st.hold && st.hold.waiting.includes(st.you.seat)) {
      assert.ok(sent.some((f) => JSON.parse(f).type === 'next'), 'the server heard "next"');
    }
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
