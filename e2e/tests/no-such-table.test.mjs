// A link to a table that does not exist says so and stops trying: no endless "reconnecting…".
// A replay link to no table says the same.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser } from '../lib.mjs';

test('an unknown table shows "no such table" and stops reconnecting', { timeout: 60000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    const sockets = [];
    page.on('websocket', (ws) => sockets.push(ws.url()));
    // The page's timers run on the browser's fake clock, moved on by hand below.
    await page.clock.install();
    await page.goto(`${BASE}/t/nonexistent`);
    const box = page.getByTestId('no-such-table');
    await box.waitFor();
    assert.match(await box.textContent(), /no such table/i);
    assert.equal(await page.evaluate(() => window.tapete.connection), 'gone');

    // Longer than the first backoff steps (0.5 s, 1 s, 2 s): no other attempt is made.
    await page.clock.runFor(4000);
    assert.equal(await page.evaluate(() => window.tapete.connects), 1, 'one attempt only');
    assert.equal(sockets.length, 1, `one WebSocket only: ${sockets.join(', ')}`);
    assert.equal(await page.getByText('reconnecting…').count(), 0);

    await page.goto(`${BASE}/replay/nonexistent`);
    await page.getByTestId('no-such-table').waitFor();
    assert.match(await page.getByTestId('no-such-table').textContent(), /no such table/i);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
