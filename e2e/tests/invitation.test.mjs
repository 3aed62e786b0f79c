// An invitation carries its friend in: in a Spanish browser, Ane makes a private Mus table
// and invites Bea from it; Bea presses "Unirme" in her lobby and is seated at the table
// (without its link: the invitation is her way in), and the invitation is gone once she
// sits. An invitation declined ("Descartar") is gone too, and opens nothing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, makeAccount, befriend, apiAs } from '../lib.mjs';

test('"Unirme" seats the invitee at a private table; declining removes the invitation', { timeout: 60000 }, async () => {
  const a = await openBrowser({ locale: 'es-ES' });
  const b = await openBrowser({ width: 390, height: 844, locale: 'es-ES' });
  const suffix = String(Date.now() % 100000);
  const [ane, bea] = [`Zorro${suffix}`, `Lince${suffix}`];
  try {
    await register(a.page, ane);
    await makeAccount(a.page, ane);
    const beaId = await register(b.page, bea);
    await makeAccount(b.page, bea);
    await befriend(a.page, ane, b.page, bea);

    // Ane makes a private Mus table from the lobby and invites Bea from the table.
    await a.page.goto(`${BASE}/`);
    await a.page.getByTestId('create').waitFor();
    await a.page.getByTestId('pace').selectOption('0');
    await a.page.getByTestId('private-table').check();
    await a.page.getByTestId('create').click();
    await a.page.waitForURL(/\/t\/[^/?]+\?invite=/);
    const id = new URL(a.page.url()).pathname.split('/')[2];
    await a.page.getByTestId('invite-friend').selectOption(bea);
    // Sent by the button's own click, not one aimed at where it was: the column beside the
    // felt sets its height as the page scrolls to the button, which can move it.
    const sent = a.page.waitForResponse((r) => r.url().includes(`/api/tables/${id}/invitations`) && r.request().method() === 'POST');
    await a.page.getByTestId('invite-send').evaluate((b) => /** @type {HTMLButtonElement} */ (b).click());
    assert.equal((await sent).status(), 200);

    // Bea's lobby shows it; "Unirme" takes her to the table, seated.
    await b.page.goto(`${BASE}/`);
    const inv = b.page.getByTestId('invitation');
    await inv.waitFor();
    assert.match(await inv.textContent(), new RegExp(`${ane} te invita a su mesa de Mus`));
    assert.equal((await b.page.getByTestId('invitation-join').textContent()).trim(), 'Unirme');
    await b.page.getByTestId('invitation-join').click();
    await b.page.waitForURL(new RegExp(`/t/${id}$`));
    await b.page.waitForFunction((me) => {
      const s = window.tapete && window.tapete.state;
      return s && s.table.seats.some((x) => x.player && x.player.id === me);
    }, beaId);
    assert.equal(await b.page.getByTestId('no-such-table').count(), 0);
    // Ane's table shows her seated too.
    await a.page.waitForFunction((me) => {
      const s = window.tapete && window.tapete.state;
      return s && s.table.seats.some((x) => x.player && x.player.id === me);
    }, beaId);
    // Seated, the invitation is answered: her lobby shows it no more.
    await b.page.goto(`${BASE}/`);
    await b.page.getByTestId('friend').first().waitFor();
    assert.equal(await b.page.getByTestId('invitation').count(), 0);

    // Declined, an invitation is gone, and the private table it was for is closed to her.
    const made = await apiAs(a.page, 'POST', '/api/tables', { game: 'mus', private: true });
    assert.equal(made.status, 200);
    const other = made.body.id;
    assert.equal((await apiAs(a.page, 'POST', `/api/tables/${other}/invitations`, { nickname: bea })).status, 200);
    await b.page.reload();
    await b.page.locator(`[data-testid="invitation"][data-table="${other}"]`).waitFor();
    assert.equal((await b.page.getByTestId('invitation-dismiss').textContent()).trim(), 'Descartar');
    await b.page.getByTestId('invitation-dismiss').click();
    await b.page.waitForFunction(() => !document.querySelector('[data-testid="invitation"]'));
    await b.page.reload();
    await b.page.getByTestId('friend').first().waitFor();
    assert.equal(await b.page.getByTestId('invitation').count(), 0);
    await b.page.goto(`${BASE}/t/${other}`);
    await b.page.getByTestId('no-such-table').waitFor();
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});

test('keeping a seat picks a friend from a list (or any account by nickname); the friend is invited to it', { timeout: 60000 }, async () => {
  const a = await openBrowser({ locale: 'es-ES' });
  const b = await openBrowser({ locale: 'es-ES' });
  const c = await openBrowser({ locale: 'es-ES' });
  const suffix = String(Date.now() % 100000);
  const [ane, bea, cid] = [`Garza${suffix}`, `Tejon${suffix}`, `Nutria${suffix}`];
  let dialogs = 0;
  a.page.on('dialog', (d) => { dialogs++; d.dismiss().catch(() => {}); });
  try {
    for (const [p, n] of [[a.page, ane], [b.page, bea], [c.page, cid]]) {
      await register(p, n);
      await makeAccount(p, n);
    }
    await befriend(a.page, ane, b.page, bea);
    // Ane's private table, waiting: seat 1 free.
    await a.page.goto(`${BASE}/`);
    await a.page.getByTestId('create').waitFor();
    await a.page.getByTestId('private-table').check();
    await a.page.getByTestId('create').click();
    await a.page.waitForURL(/\/t\/[^/?]+\?invite=/);
    const id = new URL(a.page.url()).pathname.split('/')[2];
    await a.page.getByTestId('keep-1').click();
    const picker = a.page.getByTestId('keep-picker');
    await picker.waitFor();
    const listed = (await picker.getByTestId('keep-friend').allTextContents()).map((x) => x.trim());
    assert.deepEqual(listed, [bea], 'her friends, to pick with one tap');
    await picker.getByTestId('keep-friend').click();
    await a.page.getByTestId('toast').filter({ hasText: bea }).waitFor();
    await a.page.waitForFunction((n) => window.tapete?.state?.table?.reserved?.[1]?.nickname === n, bea);
    // Anyone else by nickname: Cid is not her friend.
    await a.page.getByTestId('keep-2').click();
    await a.page.getByTestId('keep-nickname').fill(cid);
    await a.page.getByTestId('keep-send').click();
    await a.page.waitForFunction((n) => window.tapete?.state?.table?.reserved?.[2]?.nickname === n, cid);
    assert.equal(dialogs, 0, 'no prompt() of the browser');

    // Bea is invited to the seat kept for her: "Unirme" seats her there.
    await b.page.goto(`${BASE}/`);
    await b.page.locator(`[data-testid="invitation"][data-table="${id}"]`).waitFor({ timeout: 8000 });
    await b.page.getByTestId('invitation-join').click();
    await b.page.waitForURL(new RegExp(`/t/${id}$`));
    await b.page.waitForFunction((n) => window.tapete?.state?.table?.seats?.[1]?.player?.nickname === n, bea);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
    await c.close();
  }
});

test('the seat picker of somebody without friends offers the nickname field alone', { timeout: 30000 }, async () => {
  const a = await openBrowser();
  try {
    await register(a.page, `Solo${Date.now() % 100000}`);
    await a.page.goto(`${BASE}/`);
    await a.page.getByTestId('create').waitFor();
    await a.page.getByTestId('private-table').check();
    await a.page.getByTestId('create').click();
    await a.page.waitForURL(/\/t\/[^/?]+\?invite=/);
    await a.page.getByTestId('keep-1').click();
    const picker = a.page.getByTestId('keep-picker');
    await picker.getByTestId('keep-nickname').waitFor();
    assert.equal(await picker.getByTestId('keep-friend').count(), 0);
    // No list, and no word of one: the dialog once read "null" where the list would be.
    const words = await picker.evaluate((d) => [...d.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent));
    assert.deepEqual(words, []);
    assert.deepEqual(a.errors, []);
  } finally {
    await a.close();
  }
});
