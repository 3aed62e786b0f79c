// Friends through the pages: two accounts become friends (one asks, the other accepts in
// the lobby); one invites the other from its table; the other sees the invitation in the
// lobby and joins.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable } from '../lib.mjs';

/** Makes the page's guest an account (through the API, as the account page does). */
async function makeAccount(page, nickname) {
  const r = await page.evaluate(async (nickname) => {
    const token = localStorage.getItem('tapete.token');
    const res = await fetch('/api/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ nickname, password: 'caballo de espadas' }),
    });
    return res.status;
  }, nickname);
  assert.equal(r, 200);
}

test('two accounts become friends; one invites the other, who joins from the lobby', { timeout: 30000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 390, height: 844 });
  const suffix = String(Date.now() % 100000);
  const [ane, bea] = [`Ane${suffix}`, `Bea${suffix}`];
  try {
    for (const [p, n] of [[a.page, ane], [b.page, bea]]) {
      await register(p, n);
      await makeAccount(p, n);
      await p.goto(`${BASE}/`);
    }
    // Ane asks Bea.
    await a.page.getByTestId('friends-nickname').fill(bea);
    await a.page.getByTestId('friends-add').click();
    await a.page.getByTestId('friend-sent').waitFor();
    // Bea sees the request (the lobby asks again every few seconds; a reload at once) and
    // accepts.
    await b.page.reload();
    await b.page.getByTestId('friend-accept').click();
    await b.page.getByTestId('friend').filter({ hasText: ane }).waitFor();

    // Ane opens a table and invites Bea from it.
    const id = await createMusTable(a.page);
    await a.page.getByTestId('invite-friend').selectOption(bea);
    await a.page.getByTestId('invite-send').click();
    await a.page.getByTestId('toast').filter({ hasText: bea }).waitFor();

    // Bea's lobby shows it (at its next look, within 5 s); she joins.
    const inv = b.page.getByTestId('invitation');
    await inv.waitFor({ timeout: 8000 });
    assert.match(await inv.textContent(), new RegExp(ane));
    await b.page.getByTestId('invitation-join').click();
    await b.page.waitForURL(new RegExp(`/t/${id}$`));
    await b.page.getByTestId('status').waitFor();
    // Joining answered the invitation: the lobby shows it no more.
    await b.page.goto(`${BASE}/`);
    await b.page.getByTestId('friend').first().waitFor();
    assert.equal(await b.page.getByTestId('invitation').count(), 0);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});
