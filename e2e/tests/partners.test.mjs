// (2) A second browser joins a table through its link as the creator's partner; each
// sees its own cards only, and a spectator sees none.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable, state } from '../lib.mjs';

async function myCards(page) {
  await page.getByTestId('my-card').first().waitFor();
  return page.$$eval('[data-testid="my-card"]', (cs) => cs.map((c) => c.dataset.card));
}

test('partners see their own cards only', { timeout: 120000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 375, height: 800 }); // the partner is on a phone
  const watcher = await openBrowser();
  try {
    await register(a.page, 'Ane');
    const id = await createMusTable(a.page, { pace: '700' });

    // The partner opens the shared link, picks a nickname on the table page and sits.
    await b.page.goto(`${BASE}/t/${id}`);
    await b.page.getByTestId('nickname').fill('Mikel');
    await b.page.getByTestId('nickname-save').click();
    await b.page.getByTestId('sit-2').click();
    await a.page.waitForFunction(() => document.querySelector('[data-testid="seat-name-2"]')?.textContent === 'Mikel');
    await b.page.waitForFunction(() => window.tapete?.state?.you?.seat === 2);

    await watcher.page.goto(`${BASE}/t/${id}`);
    await a.page.getByTestId('start').click();

    const cardsA = await myCards(a.page);
    const cardsB = await myCards(b.page);
    assert.equal(cardsA.length, 4);
    assert.equal(cardsB.length, 4);
    assert.equal(new Set([...cardsA, ...cardsB]).size, 8, `different cards: ${cardsA} / ${cardsB}`);

    // Each page knows its own cards only: the other's never reach it, nor any face-up hand.
    const stA = await state(a.page);
    const stB = await state(b.page);
    assert.equal(stA.you.seat, 0);
    assert.equal(stB.you.seat, 2);
    assert.deepEqual([...stA.view.cards].sort(), [...cardsA].sort());
    assert.deepEqual([...stB.view.cards].sort(), [...cardsB].sort());
    const jsonA = JSON.stringify(stA.view);
    const jsonB = JSON.stringify(stB.view);
    for (const c of cardsB) assert.ok(!jsonA.includes(`"${c}"`), `Ane's page holds Mikel's ${c}`);
    for (const c of cardsA) assert.ok(!jsonB.includes(`"${c}"`), `Mikel's page holds Ane's ${c}`);
    for (const p of [a.page, b.page]) assert.equal(await p.locator('[data-testid^="shown-hand-"]').count(), 0);
    assert.equal(await a.page.getByTestId('my-hand').locator('.card').count(), 4);
    // Both see each other at the table.
    assert.equal(await b.page.getByTestId('seat-name-0').textContent(), 'Ane');

    // The spectator: no seat, no cards of anyone.
    await watcher.page.waitForFunction(() => window.tapete?.state?.table?.status === 'playing');
    const stW = await state(watcher.page);
    assert.equal(stW.you.seat ?? null, null);
    assert.deepEqual(stW.view.cards, []);
    const jsonW = JSON.stringify(stW.view);
    for (const c of [...cardsA, ...cardsB]) assert.ok(!jsonW.includes(`"${c}"`), `the spectator's page holds ${c}`);
    assert.equal(await watcher.page.getByTestId('my-card').count(), 0);
    assert.equal(await watcher.page.locator('[data-testid^="shown-hand-"]').count(), 0);

    for (const x of [a, b, watcher]) assert.deepEqual(x.errors, [], 'no script errors');
  } finally {
    await Promise.all([a.close(), b.close(), watcher.close()]);
  }
});
