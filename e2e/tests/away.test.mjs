// Away seats: partners at seats 0 and 2 at a table where a bot plays for whoever is gone 2 s.
// Mikel closes his page mid-hand; Ane sees him away and plays the hand to its end (the bot
// plays his seat); Mikel comes back (same browser, same token) and plays his next decision.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, playOne, offersNow, state } from '../lib.mjs';

test('away: a bot plays for a partner who left, who plays again on return', { timeout: 180000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    await register(a.page, 'Ane');
    // A table with a short away time, made through the API as the lobby would.
    const table = await a.page.evaluate(async () => {
      const r = await fetch('/api/tables', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('tapete.token')}` },
        body: JSON.stringify({ game: 'mus', rules: { target: 30, juegos: 1, vacas: 1 }, pace_ms: 0, seat: 0, away_s: 2 }),
      });
      return { status: r.status, body: await r.json() };
    });
    assert.equal(table.status, 200, JSON.stringify(table.body));
    const id = table.body.id;
    assert.equal(table.body.away_s, 2);
    await a.page.goto(`${BASE}/t/${id}`);

    await b.page.goto(`${BASE}/t/${id}`);
    await b.page.getByTestId('nickname').fill('Mikel');
    await b.page.getByTestId('nickname-save').click();
    await b.page.getByTestId('sit-2').click();
    await b.page.waitForFunction(() => window.tapete?.state?.you?.seat === 2);
    await a.page.getByTestId('start').click();

    // Into the first hand until it is Mikel's turn; then he closes the page.
    const memoA = { saidMus: true };
    const memoB = { saidMus: true };
    for (let i = 0; i < 400; i++) {
      const mine = await offersNow(b.page);
      if (mine === 'act' || mine === 'discard') break;
      if (await offersNow(a.page)) await playOne(a.page, memoA);
      else await new Promise((r) => setTimeout(r, 50));
    }
    const left = await state(b.page);
    assert.ok(left.legal.length > 0, 'Mikel had a decision to make');
    const hand = left.view.hand_number;
    await b.page.close();

    // Ane sees him away; the hand goes on without him to its end.
    await a.page.getByTestId('away-2').waitFor({ timeout: 20000 });
    assert.match(await a.page.locator('.plate[data-seat="2"]').textContent(), /Mikel.*away, bot plays/);
    const deadline = Date.now() + 90000;
    while ((await state(a.page)).view.hand_number === hand) {
      assert.ok(Date.now() < deadline, 'the hand did not end without Mikel');
      const what = await offersNow(a.page);
      assert.notEqual(what, 'over');
      if (what) await playOne(a.page, memoA);
      else await new Promise((r) => setTimeout(r, 50));
    }

    // Mikel is back (same profile, same token): his seat, and he plays his next decision.
    const back = await b.context.newPage();
    b.page = back;
    back.on('pageerror', (e) => b.errors.push(e.message));
    await back.goto(`${BASE}/t/${id}`);
    await back.waitForFunction(() => window.tapete?.state?.you?.seat === 2);
    await a.page.waitForFunction(() => !document.querySelector('[data-testid="away-2"]'), null, { timeout: 20000 });
    let played = null;
    for (let i = 0; i < 400 && !played; i++) {
      const mine = await offersNow(back);
      if (mine === 'act' || mine === 'discard') {
        const r = await playOne(back, memoB);
        if (r.action) played = r.action;
      } else if (mine === 'next') {
        await playOne(back, memoB);
      } else if (await offersNow(a.page)) {
        await playOne(a.page, memoA);
      } else {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    assert.ok(played, 'Mikel played again');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
