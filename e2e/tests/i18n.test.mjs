// The pages speak the browser's language: a Spanish browser sees the lobby and a Mus table in
// Spanish, with no English left in what it shows; the switch turns every page to English for
// good (after a reload, on the next page, and on the pages the server writes); an English
// browser sees English.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable, playOne } from '../lib.mjs';

// Words that would betray a string left in English (whole words, case-sensitive where a
// Spanish word shares their letters).
const ENGLISH = [
  'Lobby', 'History', 'Solitaire', 'Playing as', 'Pick a nickname', 'New table', 'Open tables',
  'Create table', 'Players', 'players', 'Your seat', 'Bot speed', 'Turn clock', 'Away after',
  'Refresh', 'Join', 'Watch', 'Waiting', 'waiting', 'Share link', 'How to play', 'Stand up',
  'Your turn', 'left', 'Watching', 'Next hand', 'Final score', 'piedras of', 'deck', 'Deck',
  'Game to', 'per vaca', 'best of', 'between partners', 'the', 'and', 'your', 'you', 'seat',
  'Seat', 'Start', 'connecting', 'live', 'reconnecting', 'Before the start', 'declaring',
  'Discard', 'Tap', 'clear', 'round', 'rounds', 'Calls', 'this hand', 'Menu', 'Replay',
];

/** The text a person sees on the page, but for the narration (its lines are checked apart). */
function visibleText(page) {
  return page.evaluate(() => {
    const lines = document.querySelector('[data-testid="lines"]');
    if (lines) lines.style.display = 'none';
    const text = document.body.innerText;
    if (lines) lines.style.display = '';
    return text;
  });
}

/** The English words found in `text`, each with a little of what surrounds it. */
function englishIn(text) {
  const found = [];
  for (const w of ENGLISH) {
    const re = new RegExp(`(^|[^\\p{L}])${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=$|[^\\p{L}])`, 'u');
    const m = re.exec(text);
    if (m) found.push(`${w}: …${text.slice(Math.max(0, m.index - 20), m.index + w.length + 20).replace(/\s+/g, ' ')}…`);
  }
  return found;
}

test('a Spanish browser sees the lobby and a Mus table in Spanish; the switch makes it English for good', { timeout: 120000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 900, locale: 'es-ES' });
  try {
    const { page } = b;
    await page.goto(`${BASE}/`);
    await page.getByTestId('nickname').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'es');
    assert.equal(await page.locator('.panel h2').first().textContent(), 'Elige un apodo');
    assert.equal((await page.getByTestId('nav').locator('a').first().textContent()).trim(), 'Mesas');
    assert.equal(await page.title(), 'Mesas · tapete');
    // A nickname the server refuses: its error in Spanish, from the error's code.
    await page.getByTestId('nickname').fill('a\u200Bb');
    await page.getByTestId('nickname-save').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="nickname-error"]')?.textContent);
    assert.match(await page.getByTestId('nickname-error').textContent(), /caracteres que no se ven/);

    await register(page, 'Ane');
    await page.getByTestId('create').waitFor();
    assert.equal((await page.getByTestId('create').textContent()).trim(), 'Crear mesa');
    assert.ok((await page.getByTestId('game').locator('option').allTextContents()).includes('Mus (4 jugadores)'));
    assert.deepEqual(englishIn(await visibleText(page)), [], 'English left in the Spanish lobby');

    await createMusTable(page, { pace: '700' });
    await page.getByTestId('start').click();
    await page.waitForFunction(() => window.tapete?.state?.table?.status === 'playing');
    await page.getByTestId('actions').waitFor();
    assert.equal((await page.getByTestId('status').textContent()).trim(), 'jugando');
    assert.equal((await page.getByTestId('share').textContent()).trim(), 'Compartir enlace');
    assert.equal((await page.getByTestId('rules-link').textContent()).trim(), 'Reglas');
    // A few moves, so that the felt shows bets, declarations and a discard.
    const memo = {};
    for (let i = 0; i < 6; i++) {
      const r = await playOne(page, memo);
      if (r.over) break;
      assert.deepEqual(englishIn(await visibleText(page)), [], `English left on the Spanish Mus table (move ${i})`);
    }
    assert.match(await page.getByTestId('score').textContent(), /Tanteo.*juego a 30/);
    assert.deepEqual(b.errors, [], 'no script errors');

    // The switch: English now, after a reload, on the next page and on the server's pages.
    await page.getByTestId('lang-en').click();
    await page.waitForFunction(() => document.documentElement.lang === 'en');
    await page.getByTestId('share').waitFor();
    assert.equal((await page.getByTestId('share').textContent()).trim(), 'Share link');
    await page.reload();
    await page.getByTestId('share').waitFor();
    assert.equal((await page.getByTestId('share').textContent()).trim(), 'Share link');
    // The Mus table's score in English too: no Spanish word there but the game's own terms.
    await page.getByTestId('score').waitFor();
    assert.match(await page.getByTestId('score').textContent(), /^Score/);
    await page.goto(`${BASE}/`);
    await page.getByTestId('create').waitFor();
    assert.equal((await page.getByTestId('create').textContent()).trim(), 'Create table');
    assert.equal(await page.getByTestId('lang-en').getAttribute('aria-pressed'), 'true');
    await page.goto(`${BASE}/rules/mus`);
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.match(await page.title(), /How to play/);
    // And back to Spanish, from the server's page.
    // The switch reloads the page: wait for the new one's title, not only its lang
    // attribute, which comes first in the document.
    await page.getByTestId('lang-es').click();
    await page.waitForFunction(() => document.documentElement.lang === 'es'
      && /Cómo se juega/.test(document.title));
    await page.waitForLoadState('load');
    assert.match(await page.title(), /Cómo se juega/);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});

test('an English browser sees English', { timeout: 60000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 900, locale: 'en-US' });
  try {
    const { page } = b;
    await page.goto(`${BASE}/`);
    await page.getByTestId('nickname').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
    assert.equal(await page.locator('.panel h2').first().textContent(), 'Pick a nickname');
    assert.equal(await page.title(), 'Lobby · tapete');
    assert.equal(await page.getByTestId('lang-en').getAttribute('aria-pressed'), 'true');
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
