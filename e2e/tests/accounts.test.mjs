// Accounts through the pages: a guest creates a table, then an account from the top bar (it
// keeps its table); a second browser logs in (a wrong password first, told in the dialog) and
// is the same player, with the same table and history; the account page lists both sessions
// and ends the other one; logging out forgets the token.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable, state } from '../lib.mjs';

/** `/api/me` as the page's token sees it: {status, body}. */
function meOf(page) {
  return page.evaluate(async () => {
    const token = localStorage.getItem('tapete.token');
    const r = await fetch('/api/me', { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    return { status: r.status, body: await r.json() };
  });
}

/** The history page's list of games, as text. */
async function history(page) {
  await page.goto(`${BASE}/history`);
  await page.waitForLoadState('networkidle');
  return page.locator('#app').innerText();
}

test('sign up keeping a guest\'s table, log in elsewhere, end a session, log out', { timeout: 120000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 390, height: 844 });
  const alerts = [];
  for (const p of [a.page, b.page]) p.on('dialog', (d) => { alerts.push(d.message()); d.dismiss(); });
  const nick = `Ane${Date.now() % 1000000}`;
  const password = 'sota de oros';
  try {
    // A guest with a table of its own.
    const id = await register(a.page, nick);
    const table = await createMusTable(a.page);

    // "Create account" in the top bar: the guest keeps its id.
    await a.page.getByTestId('nav-create-account').click();
    const form = a.page.getByTestId('account-create');
    await form.waitFor();
    assert.equal(await a.page.getByTestId('account-nickname').inputValue(), nick, 'the guest\'s nickname offered');
    await a.page.getByTestId('account-password').fill('corta');
    await a.page.getByTestId('account-create-submit').click();
    // Too short: the browser's own check or the server's words, in the page.
    await a.page.getByTestId('account-password').fill(password);
    await a.page.getByTestId('account-create-submit').click();
    await a.page.getByTestId('nav-logout').waitFor();
    assert.deepEqual((await meOf(a.page)).body, { id, nickname: nick, account: true });
    const mine = await history(a.page);

    // Another browser: a wrong password is told in the dialog, then the right one logs in.
    await b.page.goto(`${BASE}/`);
    // The bar is drawn once the page's words are in and its account links once /api/me
    // answers: only then does the phone's menu button tell whether the links are folded.
    await b.page.getByTestId('nav-login').waitFor({ state: 'attached' });
    if (await b.page.getByTestId('nav-toggle').isVisible()) await b.page.getByTestId('nav-toggle').click();
    await b.page.getByTestId('nav-login').click();
    await b.page.getByTestId('login-nickname').fill(nick.toUpperCase());
    await b.page.getByTestId('login-password').fill('mala contraseña');
    await b.page.getByTestId('account-login-submit').click();
    await b.page.waitForFunction(() => document.querySelector('[data-testid="account-error"]')?.textContent !== '');
    assert.match(await b.page.getByTestId('account-error').textContent(), /password|contraseña/i);
    await b.page.getByTestId('login-password').fill(password);
    await b.page.getByTestId('account-login-submit').click();
    await b.page.getByTestId('nav-logout').waitFor({ state: 'attached' });
    assert.equal((await meOf(b.page)).body.id, id, 'the same player');
    assert.equal(await history(b.page), mine, 'the same history');
    await b.page.goto(`${BASE}/t/${table}`);
    await b.page.waitForFunction(() => window.tapete && window.tapete.state);
    assert.equal((await state(b.page)).table.seats[0].player.id, id, 'the same table, at the same seat');

    // The account page lists both sessions; the first ends the second.
    await a.page.goto(`${BASE}/account`);
    await a.page.getByTestId('session-current').waitFor();
    assert.equal(await a.page.getByTestId('session').count(), 2);
    // Asked from here, not from b's page: its table page reloads as a visitor once its link
    // is refused, which may happen at any moment now.
    const bToken = await b.page.evaluate(() => localStorage.getItem('tapete.token'));
    await a.page.getByTestId('end-session').click();
    await a.page.waitForFunction(() => document.querySelectorAll('[data-testid="session"]').length === 1);
    const ended = await fetch(`${BASE}/api/me`, { headers: { Authorization: `Bearer ${bToken}` } });
    assert.equal(ended.status, 401, 'the ended session is refused');

    // Logging out: back to the lobby, no token, "Log in" offered again.
    await a.page.getByTestId('account-logout').click();
    await a.page.waitForURL(`${BASE}/`);
    assert.equal(await a.page.evaluate(() => localStorage.getItem('tapete.token')), null);
    await a.page.getByTestId('nav-login').waitFor({ state: 'attached' });
    assert.deepEqual(alerts, [], 'no alert boxes');
    assert.deepEqual(a.errors, [], 'no script errors');
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await a.close();
    await b.close();
  }
});
