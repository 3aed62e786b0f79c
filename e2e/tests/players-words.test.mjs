// The pages speak to players in their words (a Spanish browser): the lobby names the bot
// levels and the seats as players do, and its buttons say what they do ("Entrar" is only
// logging in); a Mus result names both pairs by their players, for a player and a watcher
// alike; a lost game of pairs is "perdida" on a profile, not a place.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register } from '../lib.mjs';

const RAW_BOTS = ['random', 'basico', 'avanzado', 'experto', 'maestro', 'conservador', 'agresivo', 'farolero', 'pasivo', 'cortamus', 'umbral'];

test('a Spanish lobby names bot levels and seats as players do; "Entrar" means one thing', { timeout: 60000 }, async () => {
  const b = await openBrowser({ locale: 'es-ES' });
  try {
    const { page } = b;
    await page.goto(`${BASE}/`);
    await page.getByTestId('nickname').waitFor();
    const save = (await page.getByTestId('nickname-save').textContent()).trim();
    await page.getByTestId('nav-login').waitFor({ state: 'attached' });
    const login = (await page.getByTestId('nav-login').textContent()).trim();
    assert.equal(login, 'Entrar');
    assert.notEqual(save, login, 'saving a nickname is not logging in');
    await register(page, `Ane${Date.now() % 100000}`);
    await page.getByTestId('create').waitFor();

    // Mus: the bot levels and styles by their names, the seats as mano, segundo, tercero, postre
    // (who partners whom said under them).
    const bots = (await page.getByTestId('bot').locator('option').allTextContents()).map((x) => x.trim());
    for (const name of ['Principiante', 'Básico', 'Avanzado', 'Experto', 'Maestro', 'Farolero']) assert.ok(bots.includes(name), `${name} in ${bots}`);
    for (const raw of RAW_BOTS) assert.ok(!bots.includes(raw), `no raw "${raw}" in ${bots}`);
    assert.equal(await page.getByTestId('bot').inputValue(), 'avanzado', 'the value sent is still the level\'s code');
    const groups = await page.getByTestId('bot').locator('optgroup').evaluateAll((gs) => gs.map((g) => g.label));
    assert.deepEqual(groups, ['Niveles', 'Estilos de juego']);
    const seats = (await page.getByTestId('seat').locator('option').allTextContents()).map((x) => x.trim());
    assert.deepEqual(seats, ['Mano', 'Segundo', 'Tercero', 'Postre']);
    assert.match(await page.getByTestId('help-seat').textContent(), /la mano habla primero y juega con el tercero; el segundo, con el postre/);
    // Chinchón: places round the table.
    await page.getByTestId('game').selectOption('chinchon');
    await page.waitForFunction(() => document.querySelector('[data-testid="seat"] option')?.textContent.startsWith('1.º'));
    const places = (await page.getByTestId('seat').locator('option').allTextContents()).map((x) => x.trim());
    assert.deepEqual(places.slice(0, 2), ['1.º, mano', '2.º']);
    const chinchonBots = (await page.getByTestId('bot').locator('option').allTextContents()).map((x) => x.trim());
    for (const raw of RAW_BOTS) assert.ok(!chinchonBots.includes(raw), `no raw "${raw}" in ${chinchonBots}`);

    // A table of the list: its bots by level name; its button is not "Entrar".
    await page.getByTestId('game').selectOption('mus');
    await page.waitForFunction(() => document.querySelector('[data-testid="seat"] option')?.textContent.startsWith('Mano'));
    await page.getByTestId('bot').selectOption('basico');
    await page.getByTestId('create').click();
    await page.waitForURL(/\/t\/[^/?]+$/);
    const id = new URL(page.url()).pathname.split('/')[2];
    await page.getByTestId('status').waitFor();
    assert.match(await page.locator('.notice').first().textContent(), /nivel Básico/);
    // Another person's lobby lists it.
    const c = await openBrowser({ locale: 'es-ES' });
    try {
      await register(c.page, `Bea${Date.now() % 100000}`);
      const row = c.page.locator(`[data-testid="table-row"][data-table="${id}"]`);
      await row.waitFor();
      const text = await row.textContent();
      assert.match(text, /3 bots \(Básico\)/, text);
      assert.doesNotMatch(text, /basico|sitio \d/, text);
      assert.equal((await row.getByTestId('open-table').textContent()).trim(), 'Unirme');
      assert.deepEqual(c.errors, []);
    } finally {
      await c.close();
    }
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('a Mus result names both pairs by their players, for a player and a watcher', { timeout: 30000 }, async () => {
  const b = await openBrowser({ locale: 'es-ES' });
  try {
    const { page } = b;
    await page.goto(`${BASE}/`);
    await page.getByTestId('nickname').waitFor();
    const said = await page.evaluate(async () => {
      const mus = await (await import('/assets/games.js')).gameModule('mus');
      const names = ['Ane', 'Iker', 'Bea', 'Jon'];
      const seatName = (s) => names[s];
      const outcome = { winners: [0, 2] };
      const view = { scores: { piedras: [30, 22], games: [1, 0], vacas: [1, 0] }, winner: 0 };
      return {
        watcher: mus.outcomeText(outcome, null, null, { seatName }),
        winner: mus.outcomeText(outcome, null, { seat: 2 }, { seatName }),
        loser: mus.outcomeText(outcome, null, { seat: 1 }, { seatName }),
        detail: mus.outcomeDetail({ view, outcome }, { seatName, mySeat: 1 }),
        result: mus.resultName(1, { seatName, mySeat: 1 }),
        running: mus.pairName(1, { seatName, mySeat: 1 }),
      };
    });
    assert.equal(said.watcher, 'Ane y Bea ganan la partida.');
    assert.equal(said.winner, 'Ane y Bea ganan la partida: ¡habéis ganado!');
    assert.equal(said.loser, 'Ane y Bea ganan la partida: habéis perdido.');
    assert.equal(said.detail, 'Ane y Bea contra Iker y Jon: vacas 1–0, juegos 1–0, piedras 30–22');
    assert.equal(said.result, 'Iker y Jon', 'a result names the reader\'s own pair by its players');
    assert.equal(said.running, 'nosotros', 'while playing, one\'s own side is nosotros');
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('a profile shows a lost game of pairs as "perdida", a place otherwise', { timeout: 30000 }, async () => {
  const b = await openBrowser({ locale: 'es-ES' });
  try {
    const { page } = b;
    const name = `Zorro${Date.now() % 100000}`;
    const r = await fetch(`${BASE}/api/accounts`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ nickname: name, password: 'caballo de copas' }),
    });
    assert.equal(r.status, 200);
    const id = (await r.json()).id;
    // The profile as the server gives it after three rated games.
    const rating = (game) => ({ game, rating: 1500, deviation: 200, played: 1, won: 0, abandoned: 0, provisional: true, history: [] });
    const game = (table, g, won, place) => ({ table, game: g, at: 1764300000, place, won, abandoned: false, rating: 1490, replay: `/replay/${table}` });
    await page.route(`**/api/profiles/${name}`, (route) => route.fulfill({
      contentType: 'application/json',
      body: JSON.stringify({ id, nickname: name, account: true, ratings: [rating('mus'), rating('chinchon')],
        recent: [game('aaaaaaaa', 'mus', false, 2), game('bbbbbbbb', 'chinchon', false, 2), game('cccccccc', 'mus', true, 1)] }),
    }));
    await page.goto(`${BASE}/@/${name}`);
    await page.getByTestId('recent-game').first().waitFor();
    const results = (await page.getByTestId('recent-result').allTextContents()).map((x) => x.trim());
    assert.deepEqual(results, ['perdida', '2.º', 'ganada']);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});

test('a Spanish rules page speaks to players; the terminal is a box at its end', { timeout: 30000 }, async () => {
  const b = await openBrowser({ locale: 'es-ES' });
  try {
    const { page } = b;
    await page.goto(`${BASE}/rules/mus`);
    const rules = page.getByTestId('rules');
    await rules.waitFor();
    const box = rules.locator('aside.box');
    assert.ok(await box.isVisible(), 'the terminal box is drawn');
    assert.equal(await rules.evaluate((a) => a.lastElementChild.tagName), 'ASIDE', 'the box is the page\'s end');
    assert.match(await box.textContent(), /--mode 8reyes/);
    const text = await rules.evaluate((a) => [...a.children].filter((c) => c.tagName !== 'ASIDE').map((c) => c.textContent).join('\n'));
    assert.match(text, /mano, segundo, tercero y postre/);
    for (const dev of ['crates/', '--', 'sitios 0', 'posiciones 0', 'pareja 0–2', 'tapete mus eval']) assert.ok(!text.includes(dev), `"${dev}" outside the box`);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
