// Ratings through the pages: a guest is told rated games are for accounts; an account's
// lobby offers a rated game, always with a turn clock; the account makes a rated tikki table
// with bots and leaves it to them (the bot plays its seat as soon as it is gone), the game
// ends in seconds, and the profile shows the rating (which the bot's play cannot raise), its
// chart and the game with its replay, saying the bot played it; the leaderboard lists the
// bot level as a reference point and says which games count less or not at all.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register } from '../lib.mjs';

test('a rated game left to the bots shows on the account\'s profile, with no gain from the bot\'s play', { timeout: 30000 }, async () => {
  const b = await openBrowser();
  const { page } = b;
  const nick = `Rai${Date.now() % 1000000}`;
  try {
    // A guest: the lobby's rated choice is off, and says why.
    await register(page, `${nick}g`);
    await page.getByTestId('rated').waitFor();
    assert.equal(await page.getByTestId('rated').isDisabled(), true);
    assert.match(await page.getByTestId('rated-help').textContent(), /account/);

    // An account (made through the API, as the account page does), then the rated table:
    // two seats, instant bots, gone means the bot plays at once.
    const made = await page.evaluate(async (nickname) => {
      const r = await fetch('/api/accounts', {
        method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ nickname, password: 'sota de bastos' }),
      });
      const a = await r.json();
      localStorage.setItem('tapete.token', a.token);
      const t = await fetch('/api/tables', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${a.token}` },
        body: JSON.stringify({ game: 'tikki', seats: 2, rated: true, start: true, pace_ms: 0, hold_s: 0, away_s: 0 }),
      });
      return { id: a.id, table: await t.json() };
    }, nick);
    assert.equal(made.table.rated, true, JSON.stringify(made.table));
    const id = made.table.id;

    // The lobby offers the rated choice to the account.
    await page.goto(`${BASE}/`);
    await page.getByTestId('rated').waitFor();
    assert.equal(await page.getByTestId('rated').isDisabled(), false);
    // A rated game always has a turn clock: "no clock" is put away while it is ticked.
    await page.getByTestId('turn').selectOption('0');
    await page.getByTestId('rated').check();
    assert.equal(await page.getByTestId('turn').inputValue(), '60');
    const noClockOff = () => page.getByTestId('turn').evaluate((s) => [...s.options].find((o) => o.value === '0').disabled);
    assert.equal(await noClockOff(), true);
    await page.getByTestId('rated').uncheck();
    assert.equal(await noClockOff(), false);
    // The top bar's nickname leads to the profile.
    await page.getByTestId('who-profile').waitFor();
    assert.equal(await page.getByTestId('who-profile').getAttribute('href'), `/@/${nick}`);

    // The table says it is rated; then the person goes to their profile and the bot plays on.
    await page.goto(`${BASE}/t/${id}`);
    await page.getByTestId('rated-badge').waitFor();
    assert.equal(await page.getByTestId('seat-profile-0').getAttribute('href'), `/p/${made.id}`);
    // A table nobody watches plays no bot moves: a spectator keeps it going.
    const watcher = await b.context.browser().newContext();
    const watch = await watcher.newPage();
    await watch.goto(`${BASE}/t/${id}`);
    await watch.getByTestId('status').waitFor();
    await page.goto(`${BASE}/@/${nick}`);
    await page.getByTestId('profile-name').waitFor();
    const deadline = Date.now() + 20000;
    while (!(await page.getByTestId('rating-tikki').count())) {
      assert.ok(Date.now() < deadline, 'the rated game ended and shows on the profile');
      await page.waitForTimeout(500);
      await page.reload();
      await page.getByTestId('profile-name').waitFor();
    }
    await watcher.close();
    const card = page.getByTestId('rating-tikki');
    assert.equal(await card.getByTestId('played').textContent(), '1');
    assert.equal(await card.getByTestId('abandoned').textContent(), '0', 'gone is not leaving the seat');
    const shown = await card.getByTestId('rating-value').getAttribute('data-rating');
    const api = await page.evaluate(async (pid) => (await fetch(`/api/players/${pid}`)).json(), made.id);
    const r = api.ratings.find((x) => x.game === 'tikki');
    assert.equal(shown, String(r.rating));
    // The bot played the seat: a loss counts, a win does not.
    assert.ok(r.rating <= 1500, `the bot's play raised nothing: ${JSON.stringify(r)}`);
    // The chart: the start and the one game.
    assert.equal(await card.locator('circle').count(), 2);
    const row = page.getByTestId('recent-game');
    assert.equal(await row.count(), 1);
    assert.equal(await row.getAttribute('data-table'), id);
    assert.equal(await row.getByTestId('replay-link').getAttribute('href'), `/replay/${id}`);
    assert.equal(await row.getByTestId('assisted-badge').count(), 1);
    assert.match(await row.getByTestId('rating-note').textContent(), /bot/);

    // The leaderboard: too few games for the account; the bot level is there as a reference.
    await page.goto(`${BASE}/leaderboard/tikki`);
    await page.getByTestId('leaderboard-bot').first().waitFor();
    assert.equal(await page.getByTestId('leaderboard-row').filter({ hasText: nick }).count(), 0);
    assert.match(await page.getByTestId('leaderboard-fair').textContent(), /address/);
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
