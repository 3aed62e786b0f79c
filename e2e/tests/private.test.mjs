// A private table: made in one browser, it is in no other browser's lobby, the table's address
// alone shows "no such table", and its invitation link seats a friend.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register } from '../lib.mjs';

test('a private table is absent from another lobby and joined by its link', { timeout: 30000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser();
  try {
    await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
    await register(a.page, 'Ane');
    const bea = await register(b.page, 'Bea');
    await a.page.getByTestId('create').waitFor();
    await a.page.getByTestId('game').selectOption('chinchon');
    await a.page.getByTestId('rule-target').waitFor();
    await a.page.getByTestId('private-table').check();
    await a.page.getByTestId('create').click();
    await a.page.waitForURL(/\/t\/[^/?]+\?invite=[0-9a-f]{32}$/);
    const link = a.page.url();
    const id = new URL(link).pathname.split('/')[2];
    // The creator copies the invitation link.
    await a.page.getByTestId('copy-invite').click();
    await a.page.getByTestId('toast').waitFor();
    assert.equal(await a.page.evaluate(() => navigator.clipboard.readText()), link);

    // Bea's lobby does not list it.
    await b.page.goto(`${BASE}/`);
    await b.page.locator('[data-testid="no-tables"], [data-testid="table-row"]').first().waitFor();
    assert.equal(await b.page.locator(`[data-testid="table-row"][data-table="${id}"]`).count(), 0);
    // Its address alone is a table that does not exist.
    await b.page.goto(`${BASE}/t/${id}`);
    await b.page.getByTestId('no-such-table').waitFor();
    // The link seats her.
    await b.page.goto(link);
    await b.page.getByTestId('sit-1').click();
    await b.page.waitForFunction((me) => {
      const s = window.tapete && window.tapete.state;
      return s && s.table.seats[1].player && s.table.seats[1].player.id === me;
    }, bea);
    await b.page.getByTestId('copy-invite').waitFor();
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});
