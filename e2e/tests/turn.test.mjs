// Your turn shows on the tab itself: its title starts with "● Your turn" and its icon gets a
// dot while the page offers you actions, so a person reading another tab sees it; a
// spectator's tab never says so.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createMusTable, BASE } from '../lib.mjs';

const icon = (page) => page.evaluate(() => document.querySelector('link[rel="icon"]').getAttribute('href'));

test('your turn on the tab: its title and icon, never for a spectator', { timeout: 120000 }, async () => {
  const a = await openBrowser();
  const w = await openBrowser({ locale: 'es-ES' });
  try {
    await register(a.page, 'Ane');
    // The bots' normal pace: a bot's answer comes 0.7 s after Ane's, time to see the turn go.
    const id = await createMusTable(a.page, { pace: '700' });
    await a.page.getByTestId('start').click();
    await a.page.waitForFunction(() => document.title.startsWith('● Your turn · '), null, { timeout: 60000, polling: 50 });
    assert.match(await a.page.title(), /^● Your turn · Mus · \w+ · tapete$/);
    assert.equal(await icon(a.page), '/assets/favicon-turn.svg');

    // A Spanish-speaking spectator: the table's title, never a turn.
    await register(w.page, 'Bea');
    await w.page.goto(`${BASE}/t/${encodeURIComponent(id)}`);
    await w.page.getByTestId('status').waitFor();
    for (let i = 0; i < 20; i++) {
      assert.doesNotMatch(await w.page.title(), /Te toca|Your turn/);
      assert.equal(await icon(w.page), '/assets/favicon.svg');
      await w.page.waitForTimeout(100);
    }
    // Once Ane has played, the turn leaves the tab until it comes back to her.
    await a.page.locator('[data-testid="action"]:not([disabled])').first().click();
    await a.page.waitForFunction(() => !document.title.startsWith('● Your turn'), null, { timeout: 30000, polling: 20 });
    assert.equal(await icon(a.page), '/assets/favicon.svg');
    assert.deepEqual([...a.errors, ...w.errors], [], 'no script errors');
  } finally {
    await a.close();
    await w.close();
  }
});
