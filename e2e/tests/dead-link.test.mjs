// A link that goes silent without closing (a phone leaving the wifi, a stuck proxy) is found
// dead: the page pings every 10 s, and after 25 s without any message it closes the link,
// shows "reconnecting…" and connects again. Time is the browser's fake clock; the silence
// is made by routing the page's WebSocket and dropping every frame of the first link.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createMusTable } from '../lib.mjs';

async function waitFor(cond, what) {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(cond(), what);
}

test('a silent link is closed after 25 s and the page reconnects', { timeout: 90000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    await register(page, 'Ane');
    const id = await createMusTable(page, { pace: '0' });

    let links = 0;
    let silent = false;
    const fromPage = [];
    let pongs = 0;
    let forwarded = 0;
    await page.routeWebSocket(/\/ws\//, (ws) => {
      const n = ++links;
      const server = ws.connectToServer();
      ws.onMessage((m) => { if (n === 1) fromPage.push(String(m)); if (!(silent && n === 1)) server.send(m); });
      server.onMessage((m) => {
        if (silent && n === 1) return;
        if (n === 1 && JSON.parse(String(m)).type === 'pong') pongs++;
        if (n === 1) forwarded++;
        ws.send(m);
      });
    });
    await page.clock.install();
    await page.goto(page.url());
    await page.waitForFunction(() => window.tapete?.state?.table && window.tapete.connection === 'on');
    assert.equal(links, 1);

    // Pings go out every 10 s while the link is quiet.
    await page.clock.runFor(21000);
    const pings = fromPage.filter((m) => JSON.parse(m).type === 'ping').length;
    assert.ok(pings >= 2, `pings: ${fromPage.join(' ')}`);
    // The pongs travel in real time while the page's clock stands still: the silence starts
    // only once the last ping is answered, so the 25 s count from that answer.
    await waitFor(() => pongs >= pings, 'every ping answered');
    await page.waitForFunction((n) => window.tapete.heard >= n, forwarded);
    assert.equal(await page.evaluate(() => window.tapete.connection), 'on', 'answered pings keep the link');

    // Now nothing arrives any more, though the link is not closed.
    silent = true;
    await page.clock.runFor(20000);
    assert.equal(await page.evaluate(() => window.tapete.connection), 'on', 'not dead before 25 s of silence');
    await page.clock.runFor(7000);
    await page.waitForFunction(() => window.tapete.connection !== 'on' || window.tapete.connects > 1);
    // It says so, then connects again by itself, on a new link.
    await page.clock.runFor(15000);
    await page.waitForFunction(() => window.tapete.connection === 'on' && window.tapete.connects === 2);
    const log = await page.evaluate(() => window.tapete.connLog);
    assert.deepEqual(log.slice(-3), ['off', 'connecting', 'on'], `shown "reconnecting…" in between: ${log}`);
    assert.equal(links, 2, 'a second link');
    assert.equal((await page.evaluate(() => window.tapete.state.table.id)), id);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
