// Deals anyone can verify, in Spanish: Ane makes a Chinchón table (her page contributes to
// its deal), sees the commitment on the table before any card, plays the game out against
// the bot, then follows "Comprobar el reparto" to /verify/{id}: the commitment, the seed and
// the first deal all "coincide", recomputed by the browser; her contribution is the one her
// page kept. A table whose game goes on says its secret is not revealed yet.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createChinchonTable, playChinchon } from '../lib.mjs';

test('a game played to its end checks out on /verify', { timeout: 240000 }, async () => {
  const a = await openBrowser({ locale: 'es-ES' });
  try {
    await register(a.page, `Ane${String(Date.now() % 100000)}`);
    // A short game (to 5 points): the check is the same whatever its length.
    const id = await createChinchonTable(a.page, { seats: 2, target: 5 });
    // The commitment is on the table before the start.
    const deal = a.page.getByTestId('deal');
    await deal.waitFor();
    await deal.locator('summary').click();
    const shown = (await a.page.getByTestId('deal-commitment').textContent()).trim();
    assert.match(shown, /^[0-9a-f]{64}$/);
    const mine = await a.page.evaluate((t) => sessionStorage.getItem(`tapete.deal.${t}`), id);
    assert.match(mine, /^[0-9a-f]{32}$/);
    // Not revealed while the game has not ended.
    await a.page.goto(`${BASE}/verify/${id}`);
    await a.page.locator('[data-testid="verify-not_revealed"]').waitFor();
    await a.page.goto(`${BASE}/t/${id}`);
    await a.page.getByTestId('start').click();
    const memo = {};
    let over = false;
    for (let i = 0; i < 400 && !over; i += 1) over = (await playChinchon(a.page, memo)).over;
    assert.ok(over, 'the game ended');
    await a.page.reload();
    await a.page.getByTestId('deal').locator('summary').click();
    await a.page.getByTestId('deal-verify').click();
    await a.page.waitForURL(/\/verify\//);
    const verdict = a.page.getByTestId('verify-verdict');
    await verdict.waitFor({ timeout: 20000 });
    for (const line of ['verdict', 'commitment', 'seed', 'deal']) {
      assert.equal(await a.page.getByTestId(`verify-${line}`).getAttribute('data-ok'), 'true', line);
    }
    const text = await a.page.getByTestId('verify-lines').textContent();
    assert.ok(text.includes(shown), 'the commitment shown before the start');
    assert.ok(text.includes(mine), 'her page\'s contribution');
    assert.match(text, /coincide/);
    assert.doesNotMatch(text, /no coincide/);
    if (process.env.TAPETE_SHOTS) await a.page.screenshot({ path: `${process.env.TAPETE_SHOTS}/verify.png`, fullPage: true });
    assert.deepEqual(a.errors, []);
  } finally {
    await a.close();
  }
});
