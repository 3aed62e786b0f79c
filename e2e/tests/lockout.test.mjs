// A stranger's wrong guesses never lock an owner out of the browser she logged in from: the
// browser keeps the device token each login gives it and sends it with the next login. A
// browser the account does not know is told to wait, in its language; a nickname that only
// looks like the account's is refused, in the lobby's language. And the lobby pages its list
// of tables with a "More tables" control.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser } from '../lib.mjs';

/** Opens the top bar's account dialog `which` (`nav-login`, `nav-create-account`). */
async function openDialog(page, which) {
  await page.getByTestId(which).waitFor({ state: 'attached' });
  if (await page.getByTestId('nav-toggle').isVisible()) await page.getByTestId('nav-toggle').click();
  await page.getByTestId(which).click();
}

/** Logs in from the top bar's dialog; answers once the page has reloaded or told an error. */
async function logIn(page, nickname, password) {
  await page.goto(`${BASE}/`);
  await openDialog(page, 'nav-login');
  await page.getByTestId('login-nickname').fill(nickname);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('account-login-submit').click();
}

test('a known browser gets in while a stranger holds the nickname shut; the others are told why', { timeout: 120000 }, async () => {
  const owner = await openBrowser();
  const other = await openBrowser({ locale: 'es-ES' });
  const n = Date.now() % 1000000;
  const nick = `Victim${n}`;
  const password = 'sota de oros';
  try {
    // The owner makes her account: this browser is one it knows.
    await owner.page.goto(`${BASE}/`);
    await openDialog(owner.page, 'nav-create-account');
    await owner.page.getByTestId('account-nickname').fill(nick);
    await owner.page.getByTestId('account-password').fill(password);
    await owner.page.getByTestId('account-create-submit').click();
    await owner.page.getByTestId('nav-logout').waitFor({ state: 'attached' });
    const kept = await owner.page.evaluate(() => JSON.parse(localStorage.getItem('tapete.devices') || '{}'));
    assert.equal(Object.keys(kept).length, 1, 'one device token kept');
    await owner.page.evaluate(() => localStorage.removeItem('tapete.token'));

    // A stranger guesses until the nickname is shut to devices it does not know.
    let refused = 0;
    for (let i = 0; i < 8 && !refused; i++) {
      const r = await fetch(`${BASE}/api/sessions`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ nickname: nick, password: `guess ${i}` }),
      });
      if (r.status === 429) refused += 1;
      else assert.equal(r.status, 401);
    }
    assert.equal(refused, 1, 'the stranger is held up');

    // Another browser, with the right password, waits: told so in Spanish.
    await logIn(other.page, nick, password);
    await other.page.waitForFunction(() => document.querySelector('[data-testid="account-error"]')?.textContent !== '');
    assert.match(await other.page.getByTestId('account-error').textContent(), /^Demasiados intentos fallidos: espera \d+ s y vuelve a probar\.$/);

    // The owner's browser gets in, as often as she likes.
    for (let i = 0; i < 2; i++) {
      await logIn(owner.page, nick.toLowerCase(), password);
      await owner.page.getByTestId('nav-logout').waitFor({ state: 'attached' });
      await owner.page.evaluate(() => localStorage.removeItem('tapete.token'));
    }

    // A guest's nickname that only looks like hers (an accent) is refused, in Spanish.
    await other.page.goto(`${BASE}/`);
    await other.page.getByTestId('nickname').fill(`Víctim${n}`);
    await other.page.getByTestId('nickname-save').click();
    await other.page.waitForFunction(() => document.querySelector('[data-testid="nickname-error"]')?.textContent !== '');
    assert.match(await other.page.getByTestId('nickname-error').textContent(), /^Ese apodo ya está cogido/);
    assert.deepEqual([...owner.errors, ...other.errors], []);
  } finally {
    await owner.close();
    await other.close();
  }
});

test('the lobby lists a page of tables and shows more on asking', { timeout: 60000 }, async () => {
  const b = await openBrowser({ locale: 'es-ES' });
  try {
    // One real table's description, copied into 53 (the server's pages are stood in for,
    // so that no other test's lobby fills with tables).
    const guest = await (await fetch(`${BASE}/api/players`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ nickname: 'Pages' }),
    })).json();
    const table = await (await fetch(`${BASE}/api/tables`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${guest.token}` },
      body: JSON.stringify({ game: 'mus' }),
    })).json();
    const copies = Array.from({ length: 53 }, (_, i) => ({ ...table, id: `page${String(i).padStart(4, '0')}` }));
    await b.page.route((url) => url.pathname === '/api/tables', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const page = Number(new URL(route.request().url()).searchParams.get('page') || '1');
      const headers = { 'Content-Type': 'application/json', 'X-Total-Count': '53' };
      if (page === 1) headers.Link = '</api/tables?page=2>; rel="next"';
      return route.fulfill({ status: 200, headers, body: JSON.stringify(copies.slice((page - 1) * 50, page * 50)) });
    });
    await b.page.goto(`${BASE}/`);
    await b.page.getByTestId('more-tables').waitFor();
    assert.equal(await b.page.getByTestId('table-row').count(), 50);
    assert.equal(await b.page.getByTestId('tables-shown').textContent(), '50 de 53 mesas abiertas');
    assert.equal(await b.page.getByTestId('more-tables').textContent(), 'Más mesas');
    await b.page.getByTestId('more-tables').click();
    await b.page.waitForFunction(() => document.querySelectorAll('[data-testid="table-row"]').length === 53);
    assert.equal(await b.page.getByTestId('more-tables').count(), 0, 'nothing more to show');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
