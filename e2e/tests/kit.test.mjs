// The pages' shared pieces: the top bar lists the games the server offers (from
// /api/games) and their tools, each game link opening the lobby's form on that game; the
// game modules load with their shared kit and rule modules and draw without errors. On a
// phone the bar keeps one line: the player's name whole, the links behind a menu button.

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

/** The top bar's pieces as the page lays them out. */
function barBoxes(page) {
  return page.evaluate(() => {
    const box = (e) => { const r = e.getBoundingClientRect(); return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, height: r.height }; };
    const bar = document.querySelector('.topbar');
    const who = document.querySelector('[data-testid="who"]');
    return {
      bar: box(bar),
      parts: [...bar.children].filter((e) => e.getClientRects().length && getComputedStyle(e).position !== 'absolute').map((e) => ({ what: e.className || e.tagName, ...box(e) })),
      who: { ...box(who), text: who.textContent, cut: who.scrollWidth > who.clientWidth + 0.5 },
      width: window.innerWidth,
      pageWidth: document.scrollingElement.scrollWidth,
    };
  });
}

test('phone: the top bar is one line, the name whole, every link a tap away', { timeout: 60000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    const { page } = b;
    const name = 'Itziar Etxeberria';
    await register(page, name);
    const games = await page.evaluate(async () => (await fetch('/api/games')).json());
    const tools = games.flatMap((g) => g.tools || []).length;
    await page.getByTestId(`nav-game-${games[games.length - 1].name}`).waitFor({ state: 'attached' });
    for (const where of ['/', '/history']) {
      await page.goto(`${BASE}${where}`);
      await page.getByTestId(`nav-game-${games[games.length - 1].name}`).waitFor({ state: 'attached' });
      await page.getByTestId('who').filter({ hasText: name }).waitFor();
      const seen = await barBoxes(page);
      const line = seen.parts[0];
      for (const p of seen.parts) {
        assert.ok(p.top < line.bottom && line.top < p.bottom, `${where}: ${p.what} on the bar's one line: ${JSON.stringify(seen.parts)}`);
        assert.ok(p.left >= 0 && p.right <= seen.width + 0.5, `${where}: ${p.what} inside the screen: ${JSON.stringify(p)}`);
      }
      assert.ok(seen.bar.height <= 56, `${where}: the bar is one line high: ${seen.bar.height}`);
      assert.equal(seen.who.text, `Playing as ${name}`);
      assert.equal(seen.who.cut, false, `${where}: "Playing as ${name}" is not cut: ${JSON.stringify(seen.who)}`);
      assert.ok(seen.pageWidth <= seen.width, `${where}: no sideways scrolling: ${seen.pageWidth}`);
    }
    // The menu button names the page and opens every link on the screen, each a tap away.
    assert.equal((await page.getByTestId('nav-toggle').textContent()).trim().endsWith('History'), true, 'the menu says the page');
    await page.getByTestId('nav-toggle').click();
    const shown = await page.evaluate(() => [...document.querySelectorAll('.topbar nav a')].map((a) => {
      const r = a.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { text: a.textContent, left: r.left, top: r.top, right: r.right, bottom: r.bottom, onTop: !!top && (top === a || a.contains(top)) };
    }));
    const texts = shown.map((a) => a.text);
    const fixed = ['Lobby', 'Solitaire', 'History', 'Leaderboard', 'Tournaments', 'Cuadrillas'];
    assert.equal(texts.length, fixed.length + games.length + tools, `every link is in the menu: ${texts}`);
    for (const t of [...fixed, ...games.map((g) => g.title || g.name)]) assert.ok(texts.includes(t), `${t} in the menu: ${texts}`);
    for (const a of shown) {
      assert.ok(a.left >= 0 && a.top >= 0 && a.right <= 390.5 && a.bottom <= 844.5 && a.bottom - a.top >= 32, `${a.text} on the screen, big enough to tap: ${JSON.stringify(a)}`);
      assert.ok(a.onTop, `${a.text} not covered`);
    }
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.topbar nav a').first().isVisible(), false, 'Escape folds the menu');
    await page.getByTestId('nav-toggle').click();
    await page.getByTestId('nav-game-chinchon').click();
    await page.waitForURL(/\?game=chinchon$/);
    await page.waitForFunction(() => document.querySelector('[data-testid="game"]')?.value === 'chinchon');
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});

test('laptops: with an account, every link of the top bar on one line from 1181 px up, in both languages', { timeout: 90000 }, async () => {
  for (const [width, locale] of [[1200, 'en-US'], [1200, 'es-ES'], [1366, 'en-US'], [1440, 'es-ES']]) {
    const b = await openBrowser({ width, height: 800, locale });
    try {
      const { page } = b;
      const name = `Portatil${width}${locale.slice(0, 2)}`;
      await register(page, name);
      const made = await page.evaluate(async (nickname) => {
        const r = await fetch('/api/accounts', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('tapete.token')}` },
          body: JSON.stringify({ nickname, password: 'caballo de espadas' }),
        });
        return r.status;
      }, name);
      assert.equal(made, 200);
      await page.goto(`${BASE}/torneos`);
      const games = await page.evaluate(async () => (await fetch('/api/games')).json());
      await page.getByTestId(`nav-game-${games[games.length - 1].name}`).waitFor();
      await page.getByTestId('nav-account').locator('button, a').first().waitFor();
      const seen = await barBoxes(page);
      assert.equal(await page.getByTestId('nav-toggle').isVisible(), false, `${width}: no menu button`);
      const links = await page.evaluate(() => [...document.querySelectorAll('.topbar nav a, .topbar nav button')].map((e) => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      }));
      const line = links[0];
      for (const l of links) {
        assert.ok(l.top < line.bottom && line.top < l.bottom, `${width} ${locale}: ${l.text} on the bar's one line: ${JSON.stringify(links)}`);
        assert.ok(l.right <= seen.width + 0.5, `${width} ${locale}: ${l.text} inside the screen`);
      }
      assert.ok(seen.bar.height <= 56, `${width} ${locale}: the bar is one line high: ${seen.bar.height}`);
      assert.ok(seen.pageWidth <= seen.width, `${width} ${locale}: no sideways scrolling`);
      assert.deepEqual(b.errors, [], 'no script errors');
    } finally {
      await b.close();
    }
  }
});
