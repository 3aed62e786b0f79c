// Table chat through the pages: a player and a spectator at one table; the player's words
// reach both, the spectator's line never reaches the player while the game is on; markup
// sent as a message is shown as text; on a phone the chat starts closed, its strip counting
// the unread messages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable } from '../lib.mjs';

/** The chat lines a page shows now, as text. */
function shown(page) {
  return page.getByTestId('chat-text').allTextContents();
}

test('a player and a spectator chat; the spectator\'s line is not the player\'s', { timeout: 30000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    await register(a.page, 'Ane');
    const id = await createMusTable(a.page);
    await a.page.getByTestId('start').click();
    await a.page.getByTestId('my-card').first().waitFor();
    await register(b.page, 'Bea');
    await b.page.goto(`${BASE}/t/${id}`);
    await b.page.getByTestId('status').waitFor();

    // Ane writes to the table.
    // Sent with Enter, as the form takes it: a click is aimed where the button was, and the
    // column beside the felt sets its height as the page scrolls to it (once, under load, a
    // click missed the moved button: the line stayed in the input, unsent).
    await a.page.getByTestId('chat-input').fill('buenas, ¿mus?');
    await a.page.getByTestId('chat-input').press('Enter');
    try {
      await a.page.getByTestId('chat-lines').getByText('buenas, ¿mus?').waitFor();
    } catch (e) {
      // Said with what the page knew: its link's states, the toasts, the input's text.
      const seen = await a.page.evaluate(() => {
        const w = /** @type {any} */ (window).tapete || {};
        const toasts = [...document.querySelectorAll('.toast')].map((t) => t.textContent);
        const input = /** @type {HTMLInputElement|null} */ (document.querySelector('[data-testid="chat-input"]'));
        return { connLog: w.connLog, connects: w.connects, heard: w.heard, toasts, input: input && input.value };
      });
      throw new Error(`Ane's line never showed: ${JSON.stringify(seen)}; ${e}`);
    }

    // Bea, on a phone: the chat is closed, its strip counting one unread message.
    const unread = b.page.getByTestId('chat-unread');
    await unread.waitFor();
    assert.equal(await unread.textContent(), '1');
    assert.equal(await b.page.getByTestId('chat-lines').isVisible(), false, 'collapsed on a phone');
    await b.page.getByTestId('chat-toggle').click();
    await b.page.getByTestId('chat-tab-players').click();
    await b.page.getByTestId('chat-lines').getByText('buenas, ¿mus?').waitFor();

    // Bea writes among the spectators, markup and all: it shows as text.
    await b.page.getByTestId('chat-tab-spectators').click();
    const evil = '<img src=x onerror="window.hacked=1">';
    await b.page.getByTestId('chat-input').fill(evil);
    await b.page.getByTestId('chat-send').click();
    await b.page.getByTestId('chat-text').filter({ hasText: 'onerror' }).waitFor();
    assert.deepEqual(await shown(b.page), [evil]);
    assert.equal(await b.page.locator('.chat-lines img').count(), 0, 'no element made of the message');
    assert.equal(await b.page.evaluate(() => window.hacked), undefined);

    // Ane writes again; her page shows only the players' channel, never Bea's line.
    await a.page.getByTestId('chat-input').fill('paso');
    await a.page.getByTestId('chat-send').click();
    await a.page.getByTestId('chat-lines').getByText('paso', { exact: true }).waitFor();
    assert.deepEqual(await shown(a.page), ['buenas, ¿mus?', 'paso']);
    assert.equal(await a.page.getByTestId('chat-tab-spectators').count(), 0, 'no spectators\' tab while seated');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});
