// Señas reach the partner only: after the first game (mus corrido) the player passes a
// seña through the UI; the page shows it as passed, and a spectator never learns it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, playOne, waitOffer, state } from '../lib.mjs';

test('señas: passed through the UI, never shown to a spectator', { timeout: 240000 }, async () => {
  const a = await openBrowser();
  const watcher = await openBrowser({ width: 375, height: 800 });
  try {
    const { page } = a;
    await register(page, 'Ane');
    await page.getByTestId('rule-target').selectOption('30');
    await page.getByTestId('rule-juegos').selectOption('3');
    await page.getByTestId('rule-senas').check();
    await page.getByTestId('pace').selectOption('0');
    await page.getByTestId('create').click();
    await page.waitForURL(/\/t\/[^/]+$/);
    const id = new URL(page.url()).pathname.split('/')[2];
    await watcher.page.goto(`${BASE}/t/${id}`);
    await page.getByTestId('start').click();

    const memo = { saidMus: true };
    let chosen = null;
    const deadline = Date.now() + 200000;
    while (!chosen) {
      assert.ok(Date.now() < deadline, 'no señas phase in time');
      const what = await waitOffer(page);
      assert.notEqual(what, 'over', 'the match ended before a seña');
      const st = await state(page);
      // The seña buttons are there once the counting of the hand before is put away.
      if (what === 'act' && st.view.phase.phase === 'senas' && st.legal.some((x) => x.startsWith('seña '))) {
        assert.ok(st.view.game_number >= 2, 'no señas in the first game (mus corrido)');
        const offered = await page.$$eval('[data-testid="action"]', (bs) => bs.map((b) => b.dataset.action));
        assert.deepEqual([...offered].sort(), [...st.legal].sort(), 'a button for every legal seña, no more');
        chosen = offered.find((x) => x !== 'seña ninguna') || 'seña ninguna';
        await page.locator(`[data-testid="action"][data-action="${chosen}"]`).click();
      } else {
        await playOne(page, memo);
      }
    }
    const words = chosen.slice('seña '.length);
    await page.getByTestId('my-sena').waitFor();
    assert.equal(await page.getByTestId('my-sena').textContent(), `your seña: ${words}`);

    const w = await state(watcher.page);
    assert.equal(w.you.seat ?? null, null);
    assert.equal(w.view.my_sena ?? null, null);
    assert.equal(w.view.partner_sena ?? null, null);
    assert.ok(!JSON.stringify(w).includes(chosen), 'the spectator never hears the seña');
    assert.equal(await watcher.page.getByTestId('partner-sena').count(), 0);
    assert.equal(await watcher.page.getByTestId('my-sena').count(), 0);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(watcher.errors, []);
  } finally {
    await Promise.all([a.close(), watcher.close()]);
  }
});
