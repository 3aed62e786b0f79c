// "Otra": a short game between two people ends; one asks for another, the other is offered it
// on the finished table and accepts; both are at the new table, one seat on, and it starts.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, guest } from '../lib.mjs';

/** Calls the API as the page's person. */
function apiAs(page, method, path, body) {
  return page.evaluate(async ([m, p, b]) => {
    const r = await fetch(p, {
      method: m,
      headers: { Authorization: `Bearer ${localStorage.getItem('tapete.token')}`, 'Content-Type': 'application/json' },
      body: b === null ? undefined : JSON.stringify(b),
    });
    return r.json();
  }, [method, path, body ?? null]);
}

test('a finished game, otra, and the same people at the new table', { timeout: 30000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser();
  const w = await openBrowser();
  try {
    const ane = await guest(a.page, 'Ane');
    const bea = await guest(b.page, 'Bea');
    // The quickest game: Chinchón to the lowest target, the bots playing at once for whoever
    // is away (the people leave as soon as it starts).
    const made = await apiAs(a.page, 'POST', '/api/tables', {
      game: 'chinchon', seats: 2, rules: { target: 1 }, pace_ms: 0, away_s: 0, hold_s: 0, turn_s: 0,
    });
    assert.ok(made.id, JSON.stringify(made));
    await b.page.goto(`${BASE}/t/${made.id}`);
    await b.page.getByTestId('sit-1').click();
    await b.page.waitForFunction(() => window.tapete && window.tapete.state && window.tapete.state.table.status !== 'waiting');
    await b.page.goto(`${BASE}/assets/favicon.svg`);
    // A watcher keeps the table going to its end.
    await w.page.goto(`${BASE}/t/${made.id}`);
    await w.page.getByTestId('game-over').waitFor({ timeout: 20000 });

    // Ane asks for another.
    await a.page.goto(`${BASE}/t/${made.id}`);
    await b.page.goto(`${BASE}/t/${made.id}`);
    await a.page.getByTestId('otra').click();
    await a.page.waitForURL((u) => u.pathname !== `/t/${made.id}`);
    const next = new URL(a.page.url()).pathname.split('/')[2];
    // While Bea is awaited, Ane's page counts down to the start, second by second.
    const secs = () => a.page.evaluate(() => {
      const e = document.querySelector('[data-testid="rematch-wait"]');
      const m = e && e.textContent.match(/\d+/);
      return m ? Number(m[0]) : null;
    });
    await a.page.getByTestId('rematch-wait').waitFor();
    const first = await secs();
    assert.ok(first > 2, `the countdown starts from the wait: ${first}`);
    await a.page.waitForFunction((f) => {
      const e = document.querySelector('[data-testid="rematch-wait"]');
      const m = e && e.textContent.match(/\d+/);
      return m && Number(m[0]) < f;
    }, first, { timeout: 3000 });
    // Bea is offered it on the finished table, and accepts.
    await b.page.getByTestId('otra-offer').waitFor();
    await b.page.getByTestId('otra').click();
    await b.page.waitForURL((u) => u.pathname === `/t/${next}`);
    const seated = (page) => page.waitForFunction(() => {
      const s = window.tapete && window.tapete.state;
      return s && s.table.status === 'playing' ? s.table.seats.map((x) => x.player && x.player.id) : null;
    }).then((h) => h.jsonValue());
    // One seat on: Ane (seat 0) at seat 1, Bea (seat 1) at seat 0.
    assert.deepEqual(await seated(a.page), [bea, ane]);
    assert.deepEqual(await seated(b.page), [bea, ane]);
    for (const x of [a, b, w]) assert.deepEqual(x.errors, []);
  } finally {
    await a.close();
    await b.close();
    await w.close();
  }
});
