// The pages' shared pieces: the top bar lists the games the server offers (from
// /api/games) and their tools, each game link opening the lobby's form on that game; the
// game modules load with their shared kit and rule modules and draw without errors.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register } from '../lib.mjs';

test('the top bar links every game of /api/games and its tools; a game link opens the form on it', { timeout: 60000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    const games = await page.evaluate(async () => (await fetch('/api/games')).json());
    assert.ok(games.length >= 3, 'the server offers its games');
    await page.getByTestId(`nav-game-${games[games.length - 1].name}`).waitFor();
    for (const g of games) {
      const a = page.getByTestId(`nav-game-${g.name}`);
      assert.equal(await a.textContent(), g.title || g.name, `${g.name}'s link says its title`);
      for (const tool of g.tools || []) assert.equal(await page.getByTestId(`nav-tool-${tool}`).count(), 1, `${g.name}'s tool ${tool} is linked`);
    }
    const last = games[games.length - 1];
    await page.getByTestId(`nav-game-${last.name}`).click();
    await page.waitForURL(new RegExp(`\\?game=${last.name}$`));
    await page.getByTestId('create').waitFor();
    await page.waitForFunction((n) => document.querySelector('[data-testid="game"]')?.value === n, last.name);
    // The tools' own pages keep their link active.
    await page.goto(`${BASE}/leyes`);
    await page.getByTestId('nav-tool-leyes').waitFor();
    assert.equal(await page.getByTestId('nav-tool-leyes').evaluate((e) => e.classList.contains('active')), true, 'the leyes page marks its link');
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
