// A cuadrilla: made on /cuadrillas by one account, joined by its link in a second browser,
// two games of tikki played at its tables (made from its page, opened by the other member
// without any link), and its league table after them, as both members' pages show it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, makeAccount, createTikkiTable, playTikki } from '../lib.mjs';

const SHOTS = process.env.TAPETE_SHOTS || '';

/** Plays the page's turns until its game is over. */
async function playAll(page) {
  for (let i = 0; i < 400; i += 1) {
    const r = await playTikki(page);
    if (r.over) return;
  }
  throw new Error('the game did not end');
}

test('a cuadrilla created, joined by its link, and its league table after two games', { timeout: 180000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    // Accounts of their own: a name an account holds is no guest's any more, and the other
    // tests' guests are called Ane and Bea.
    const suffix = String(Date.now() % 100000);
    const ane = await register(a.page, `Amaia${suffix}`);
    await makeAccount(a.page, `Amaia${suffix}`);
    const bea = await register(b.page, `Begoña${suffix}`);
    await makeAccount(b.page, `Begoña${suffix}`);

    // Ane makes the cuadrilla, with its Thursday game.
    await a.page.goto(`${BASE}/cuadrillas`);
    await a.page.getByTestId('cuadrilla-name').fill('Los del jueves');
    await a.page.getByTestId('slot-day').selectOption('3');
    await a.page.getByTestId('slot-time').fill('22:00');
    await a.page.getByTestId('cuadrilla-create').click();
    await a.page.waitForURL(/\/c\/[^/?]+$/);
    const id = decodeURIComponent(new URL(a.page.url()).pathname.split('/')[2]);
    assert.equal(await a.page.getByTestId('cuadrilla-title').textContent(), 'Los del jueves');
    assert.match(await a.page.getByTestId('cuadrilla-slot').textContent(), /Thursdays at 22:00/);
    const link = await a.page.getByTestId('cuadrilla-copy').getAttribute('data-link');
    assert.match(link, new RegExp(`/c/${id}\\?invite=[0-9a-f]{32}$`));

    // Its address alone is nothing to Bea; its link lets her join.
    await b.page.goto(`${BASE}/c/${id}`);
    await b.page.getByTestId('cuadrilla-error').waitFor();
    await b.page.goto(link);
    await b.page.getByTestId('cuadrilla-join').click();
    await b.page.waitForURL(new RegExp(`/c/${id}$`));
    await b.page.getByTestId('cuadrilla-new-table').waitFor();
    assert.equal(await b.page.getByTestId('cuadrilla-member').count(), 2);
    await b.page.goto(`${BASE}/cuadrillas`);
    assert.equal(await b.page.getByTestId('my-cuadrilla').textContent(), 'Los del jueves');

    // Two games: each made from the cuadrilla's page, Bea sitting down by its plain address.
    for (const k of [1, 2]) {
      await a.page.goto(`${BASE}/c/${id}`);
      await a.page.getByTestId('cuadrilla-new-table').click();
      await a.page.getByTestId('for-cuadrilla').filter({ hasText: 'Los del jueves' }).waitFor();
      const table = await createTikkiTable(a.page, { seats: 2, top: 7, rounds: 1 });
      await b.page.goto(`${BASE}/c/${id}`);
      await b.page.getByTestId('cuadrilla-table').first().click();
      await b.page.waitForURL(new RegExp(`/t/${table}$`));
      await b.page.getByTestId('sit-1').click();
      await Promise.all([playAll(a.page), playAll(b.page)]);
      assert.ok(k);
    }

    // The league: both played both games, and the games were two.
    for (const page of [a.page, b.page]) {
      await page.goto(`${BASE}/c/${id}`);
      await page.getByTestId('league-tikki').waitFor();
      const rows = await page.$$eval('[data-testid="league-tikki-row"]', (rs) => rs.map((r) => ({
        who: r.getAttribute('data-who'),
        played: r.querySelector('[data-testid="played"]').textContent,
        won: Number(r.querySelector('[data-testid="won"]').textContent),
      })));
      assert.deepEqual(rows.map((r) => r.who).sort(), [String(ane), String(bea)].sort());
      assert.deepEqual(rows.map((r) => r.played), ['2', '2']);
      // A game shared at the top is won by both.
      for (const r of rows) assert.ok(r.won >= 0 && r.won <= 2, JSON.stringify(rows));
      assert.equal(await page.locator('[data-testid="cuadrilla-recent"] tr').count(), 2);
    }
    if (SHOTS) {
      await a.page.screenshot({ path: `${SHOTS}/cuadrilla-laptop.png`, fullPage: true });
      await b.page.screenshot({ path: `${SHOTS}/cuadrilla-phone.png`, fullPage: true });
    }
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});
