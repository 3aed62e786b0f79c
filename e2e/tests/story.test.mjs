// A person whose browser speaks Spanish reads the Mus table's narration in Spanish, with
// the players' names on it; one whose browser speaks English reads it as the terminal does.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createMusTable, playToOurBet } from '../lib.mjs';

/** The narration as the page shows it, a line a row. */
function told(page) {
  return page.getByTestId('lines').evaluate((e) => [...e.children].map((x) => x.textContent));
}

for (const [locale, first, said] of [
  ['es-ES', /^Mano 1 \(juego 1\): se reparte y es mano (Ane|bot [123])$/, /^(Ane|bot [123]) \((mano|segundo|tercero|postre)\): (mus|no hay mus)$/],
  ['en-US', /^hand 1 \(game 1\): cards dealt, (Ane|bot [123]) is mano$/, /^(Ane|bot [123]) \((mano|2nd|3rd|postre)\): (mus|no hay mus)$/],
]) {
  test(`a Mus table narrated in ${locale}`, { timeout: 120000 }, async () => {
    const b = await openBrowser({ locale });
    try {
      const { page } = b;
      await register(page, 'Ane');
      await createMusTable(page, { pace: '0' });
      await page.getByTestId('start').click();
      await playToOurBet(page, { saidMus: true });
      const log = await told(page);
      assert.ok(log.some((l) => first.test(l)), `the hand's first line: ${log.slice(0, 3).join(' / ')}`);
      assert.ok(log.some((l) => said.test(l)), `the calls, by name: ${log.slice(0, 6).join(' / ')}`);
      for (const l of log) assert.doesNotMatch(l, /story\.|[{}]|seat \d|asiento \d/, `every line told in words: ${l}`);
      assert.deepEqual(b.errors, [], 'no script errors');
    } finally {
      await b.close();
    }
  });
}
