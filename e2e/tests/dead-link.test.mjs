// A link that goes silent without closing (a phone leaving the wifi, a frozen server) is found
// dead: the server sends a heartbeat after 5 s without a message, and after 10 s without any
// the page closes the link, says "reconnecting…" and connects again. A link that is lost (its
// server killed, the next one not yet there, the balancer naming another server) is connected
// again within a few quick tries, the page saying "reconectando…" meanwhile, never an error.
// Time is the browser's fake clock where the test says so; the silence and the losses are
// made by routing the page's WebSocket.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogs } from '../web.mjs';
import { openBrowser, register, createMusTable, playToOurBet, waitOffer, state } from '../lib.mjs';

const catalog = (lang) => catalogs()[lang];

async function waitFor(cond, what) {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(cond(), what);
}

/** Records, in the page, every notice of a lost link and every error toast shown. */
async function watchNotices(page) {
  await page.evaluate(() => {
    window.seen = { reconnecting: [], errors: [], conn: [] };
    new MutationObserver(() => {
      const n = document.querySelector('[data-testid="reconnecting"]');
      if (n && window.seen.reconnecting.at(-1) !== n.textContent) window.seen.reconnecting.push(n.textContent);
      const e = document.querySelector('.toast.error');
      if (e && window.seen.errors.at(-1) !== e.textContent) window.seen.errors.push(e.textContent);
      const c = document.querySelector('[data-testid="conn"]');
      if (c && window.seen.conn.at(-1) !== c.textContent) window.seen.conn.push(c.textContent);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

test('a silent link is closed after 10 s and the page reconnects', { timeout: 90000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await register(page, 'Ane');
    const id = await createMusTable(page, { pace: '0' });

    let links = 0;
    // Armed, the first link forwards one more heartbeat and then nothing at all.
    let armed = false;
    let silent = false;
    let lastBeat = null;
    const beat = new Promise((resolve) => { lastBeat = resolve; });
    await page.routeWebSocket(/\/ws\//, (ws) => {
      const n = ++links;
      const server = ws.connectToServer();
      ws.onMessage((m) => { if (!(silent && n === 1)) server.send(m); });
      server.onMessage((m) => {
        if (silent && n === 1) return;
        ws.send(m);
        if (armed && n === 1 && JSON.parse(String(m)).type === 'beat') { silent = true; lastBeat(); }
      });
    });
    await page.clock.install();
    await page.goto(page.url());
    await page.waitForFunction(() => window.tapete?.state?.table && window.tapete.connection === 'on');
    assert.equal(links, 1);
    await watchNotices(page);

    // Nothing happens at the table: within 5 s the server says it is there (real time), and
    // from that heartbeat on the page hears nothing more, though the link is not closed.
    const heard = await page.evaluate(() => window.tapete.heard);
    armed = true;
    await beat;
    const now = await page.evaluate(() => Date.now());
    // The page's clock is stopped a moment later (later still if this machine is slow to
    // get there: a clock is never stopped in its past), then run to 9.5 s after the beat.
    let at = now + 50;
    for (;;) {
      try { await page.clock.pauseAt(at); break; } catch (e) {
        if (!/past/.test(String(e))) throw e;
        at = (await page.evaluate(() => Date.now())) + 200;
      }
    }
    assert.ok(at < now + 9000, 'the clock stopped within 9 s of the heartbeat');
    await page.waitForFunction((n) => window.tapete.heard > n, heard);
    await page.clock.runFor(now + 9500 - at);
    assert.equal(await page.evaluate(() => window.tapete.connection), 'on', 'not dead before 10 s of silence');
    await page.clock.runFor(1500);
    await page.waitForFunction(() => window.tapete.connection !== 'on' || window.tapete.connects > 1);
    // It says so, then connects again by itself, on a new link, within a moment.
    await page.clock.runFor(1000);
    await page.waitForFunction(() => window.tapete.connection === 'on' && window.tapete.connects === 2);
    const log = await page.evaluate(() => window.tapete.connLog);
    assert.deepEqual(log.slice(-2), ['off', 'on'], `"reconnecting…" in between, and only that: ${log}`);
    const seen = await page.evaluate(() => window.seen);
    const en = catalog('en');
    assert.deepEqual(seen.reconnecting, [en['table.reconnecting']], 'the notice of a lost link');
    assert.ok(seen.conn.includes(en['conn.off']), `the link's badge: ${seen.conn}`);
    assert.deepEqual(seen.errors, [], 'no error shown');
    assert.equal(links, 2, 'a second link');
    assert.equal((await page.evaluate(() => window.tapete.state.table.id)), id);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});

test('a lost link shows "reconectando…", no error, and is back within three quick tries', { timeout: 180000 }, async () => {
  const b = await openBrowser({ locale: 'es-ES' });
  try {
    const { page } = b;
    await register(page, 'Bea');
    const id = await createMusTable(page, { pace: '0' });
    await page.getByTestId('start').click();
    // Our turn in a lance: nothing moves until we speak.
    const before = await playToOurBet(page);

    // Link 1 works until its "server" goes away; the next try finds nobody (a link that
    // opens and closes without a word, as a dead node's balancer slot does); the page then
    // asks where the table is, and the balancer's answer names another server, which it
    // asks for on the try after.
    let links = 0;
    const urls = [];
    let first = null;
    await page.routeWebSocket(/\/ws\//, (ws) => {
      const n = ++links;
      urls.push(ws.url());
      if (n === 2) { ws.close(); return; }
      const server = ws.connectToServer();
      if (n === 1) first = ws;
      ws.onMessage((m) => server.send(m));
      server.onMessage((m) => ws.send(m));
    });
    await page.reload();
    await waitOffer(page);
    await page.waitForFunction(() => window.tapete.connection === 'on');
    let moved = 0;
    await page.route(new RegExp(`/api/tables/${id}(\\?|$)`), async (route) => {
      if (moved++ > 0) return route.continue();
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'the table is run by the server n2', code: 'table_moved', node: 'n2' }),
      });
    });
    await watchNotices(page);
    const lostAt = Date.now();
    first.close();
    await page.waitForFunction((n) => window.tapete.connection === 'on' && window.tapete.connects > n, 1, { timeout: 10000 });
    const back = Date.now() - lostAt;
    await waitOffer(page);

    const tries = links - 1;
    assert.ok(tries <= 3, `${tries} tries`);
    assert.ok(back < 3000, `back after ${back} ms`);
    assert.match(urls.at(-1), /[?&]node=n2(&|$)/, 'the server the balancer named');
    const es = catalog('es');
    const seen = await page.evaluate(() => window.seen);
    assert.deepEqual(seen.reconnecting, [es['table.reconnecting']], 'the notice of a lost link, in Spanish');
    assert.ok(seen.conn.includes('reconectando…') && es['conn.off'] === 'reconectando…', `the badge: ${seen.conn}`);
    assert.ok(!seen.conn.includes(es['conn.connecting']), `"reconectando…" throughout, not "conectando…": ${seen.conn}`);
    assert.deepEqual(seen.errors, [], 'no error shown');
    const log = await page.evaluate(() => window.tapete.connLog);
    assert.deepEqual(log.slice(-2), ['off', 'on'], `${log}`);
    // The same table, where it was.
    const after = await state(page);
    assert.equal(after.n, before.n);
    assert.deepEqual(after.legal, before.legal);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
