// A Spanish browser meets the server's refusals in Spanish: a nickname an account already
// has is "ya está cogido" (not "the server could not do it now"), a wrong password and a
// friend who does not exist are told in the page's words, and every row of the Historial
// says who won in Spanish, from the outcome the server gives (not its English summary).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register } from '../lib.mjs';

/** Makes an account straight through the API; answers its token. */
async function account(nickname, password) {
  const r = await fetch(`${BASE}/api/accounts`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ nickname, password }),
  });
  const body = await r.text();
  assert.equal(r.status, 200, `account ${nickname}: ${body}`);
  return JSON.parse(body).token;
}

/** Waits until the element of `testid` says something, and answers what. */
async function saying(page, testid) {
  await page.waitForFunction((id) => (document.querySelector(`[data-testid="${id}"]`)?.textContent || '') !== '', testid);
  return page.getByTestId(testid).textContent();
}

test('refusals and the history in Spanish', { timeout: 90000 }, async () => {
  const a = await openBrowser({ locale: 'es-ES' });
  const taken = `Zorro${Date.now() % 1000000}`;
  try {
    await account(taken, 'caballo de copas');
    await register(a.page, `Lince${Date.now() % 1000000}`);

    // A guest makes an account under a nickname an account has.
    await a.page.getByTestId('nav-create-account').click();
    await a.page.getByTestId('account-nickname').fill(taken.toLowerCase());
    await a.page.getByTestId('account-password').fill('sota de bastos');
    await a.page.getByTestId('account-create-submit').click();
    const said = await saying(a.page, 'account-error');
    assert.match(said, /ya está cogido/, said);
    await a.page.keyboard.press('Escape');

    // A wrong password, in a dialog of its own.
    await a.page.goto(`${BASE}/`);
    await a.page.getByTestId('nav-login').waitFor({ state: 'attached' });
    if (await a.page.getByTestId('nav-toggle').isVisible()) await a.page.getByTestId('nav-toggle').click();
    await a.page.getByTestId('nav-login').click();
    await a.page.getByTestId('login-nickname').fill(taken);
    await a.page.getByTestId('login-password').fill('no es esta');
    await a.page.getByTestId('account-login-submit').click();
    const wrong = await saying(a.page, 'account-error');
    assert.match(wrong, /Apodo o contraseña incorrectos/, wrong);
    await a.page.getByTestId('login-password').fill('caballo de copas');
    await a.page.getByTestId('account-login-submit').click();
    await a.page.getByTestId('nav-logout').waitFor({ state: 'attached' });

    // A friend nobody is called.
    await a.page.goto(`${BASE}/`);
    await a.page.getByTestId('friends-nickname').fill('NoExiste');
    await a.page.getByTestId('friends-add').click();
    const toast = await saying(a.page, 'toast');
    assert.match(toast, /No hay ninguna cuenta con ese apodo/, toast);
    assert.doesNotMatch(toast, /account|called/, toast);

    // The Historial words each row from its outcome: a Mus match, a Chinchón game.
    const me = await a.page.evaluate(async () => {
      const r = await fetch('/api/me', { headers: { Authorization: `Bearer ${localStorage.getItem('tapete.token')}` } });
      return (await r.json()).id;
    });
    await a.page.route(`**/api/players/${me}/games`, (route) => route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify([
        { table: 'aaaaaaaa', game: 'mus', finished: 1764300000, seat: 0, won: false, winners: [1, 3], scores: [0, 1],
          summary: 'pair 1–3 wins the match (pair 0–2 against pair 1–3: vacas 0–1, juegos 0–1, piedras 10–40)',
          players: [{ nickname: taken }, null, null, null] },
        { table: 'bbbbbbbb', game: 'chinchon', finished: 1764300000, seat: 0, won: true, winners: [0], scores: [12, 104],
          summary: 'seat 0 wins the game', players: [{ nickname: taken }, null] },
      ]),
    }));
    await a.page.goto(`${BASE}/history`);
    await a.page.getByTestId('game-row').first().waitFor();
    const rows = await a.page.getByTestId('game-summary').allTextContents();
    assert.equal(rows.length, 2);
    assert.match(rows[0], /bot 1 y bot 3 ganan la partida/, rows[0]);
    assert.match(rows[0], /vacas 0–1/, rows[0]);
    assert.match(rows[1], new RegExp(`${taken}.*12`), rows[1]);
    for (const r of rows) assert.doesNotMatch(r, /\b(wins?|pair|seat|match)\b/, r);
    assert.deepEqual(a.errors, [], 'no script errors');
  } finally {
    await a.close();
  }
});
