// A server killed mid-game (SIGKILL) and started again on the same database and port:
// the open page reconnects by itself and the hand goes on exactly where it was.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, serve, kill, createMusTable, playOne, playToOurBet, waitOffer, state } from '../lib.mjs';

test('a server restart mid-hand: the page reconnects and the hand goes on', { timeout: 180000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tapete-restart-'));
  const db = join(dir, 'r.db');
  let server = await serve('127.0.0.1:0', db);
  const port = new URL(server.url).port;
  const b = await openBrowser();
  try {
    const { page } = b;
    await page.goto(`${server.url}/`);
    await page.getByTestId('nickname').fill('Ane');
    await page.getByTestId('nickname-save').click();
    await page.getByTestId('my-nickname').waitFor();
    await createMusTable(page, { pace: '0' });
    await page.getByTestId('start').click();

    // Into the hand: our turn in a lance, where nothing moves until we speak.
    const memo = { saidMus: true };
    const before = await playToOurBet(page, memo);

    await kill(server.proc);
    await page.waitForFunction(() => window.tapete.connection !== 'on', null, { timeout: 30000 });
    server = await serve(`127.0.0.1:${port}`, db);

    // The page was not reloaded: its socket reconnects and gets the same state again.
    await page.waitForFunction(() => window.tapete.connection === 'on', null, { timeout: 30000 });
    await waitOffer(page);
    const after = await state(page);
    assert.equal(after.n, before.n, 'no action was lost');
    assert.deepEqual(after.view.cards, before.view.cards);
    assert.deepEqual(after.legal, before.legal);
    assert.deepEqual(after.lines, before.lines);

    // And the game carries on against the restarted server.
    let r = { action: null };
    for (let i = 0; i < 5 && !r.action; i++) r = await playOne(page, memo);
    assert.ok(r.action, 'acted after the restart');
    await page.waitForFunction((n) => window.tapete.state.n > n, before.n, { timeout: 30000 });
  } finally {
    await b.close();
    await kill(server.proc);
    await rm(dir, { recursive: true, force: true });
  }
});
