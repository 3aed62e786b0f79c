// A tournament among friends, in Spanish: Ane makes a private Chinchón knockout, signs up
// from its page and passes the link on; Bea (on a phone) signs up through the link; Ane
// starts it; both see "¡Tu partida está lista!", take their seats, play the match out, and
// both tournament pages show the bracket with the match played and the champion. An
// organiser makes a Mus tournament whose absent pairs lose juego by juego, from the form.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, makeAccount, apiAs, playChinchon } from '../lib.mjs';

/** Signs up from the tournament page open in `page`. */
async function signUp(page) {
  const form = page.getByTestId('tournament-join');
  await form.waitFor();
  await form.getByRole('button').click();
  await page.getByText('Estás apuntado.').waitFor();
}

/** Waits for the match, sits, and plays it out on its table. */
async function playMatch(page) {
  await page.getByTestId('tournament-your-match').waitFor({ timeout: 20000 });
  assert.match(await page.getByTestId('tournament-your-match').textContent(), /¡Tu partida está lista!/);
  await page.getByTestId('tournament-sit').click();
  await page.waitForURL(/\/t\/[^/]+$/);
  const memo = {};
  for (let i = 0; i < 400; i += 1) {
    const r = await playChinchon(page, memo);
    if (r.over) return;
  }
  throw new Error('the match did not end');
}

test('a private knockout: joined by its link, the match starts, is played, the bracket moves', { timeout: 240000 }, async () => {
  const a = await openBrowser({ locale: 'es-ES' });
  const b = await openBrowser({ width: 390, height: 844, locale: 'es-ES' });
  const suffix = String(Date.now() % 100000);
  const [ane, bea] = [`Garza${suffix}`, `Nutria${suffix}`];
  try {
    await register(a.page, ane);
    await makeAccount(a.page, ane);
    await register(b.page, bea);
    await makeAccount(b.page, bea);
    const made = await apiAs(a.page, 'POST', '/api/tournaments', {
      name: 'Torneo del jueves', game: 'chinchon', format: 'knockout', rules: { target: 10 },
      private: true, pace_ms: 0, courtesy_s: 600,
    });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const id = made.body.id;

    await a.page.goto(`${BASE}/torneo/${id}`);
    await signUp(a.page);
    const link = await a.page.getByTestId('tournament-link').inputValue();
    assert.match(link, new RegExp(`/torneo/${id}\\?invite=`));

    // Without the link the tournament is not there; with it Bea signs up.
    await b.page.goto(`${BASE}/torneo/${id}`);
    await b.page.getByText('Ese torneo no existe.').waitFor();
    await b.page.goto(link);
    await signUp(b.page);
    await a.page.reload();
    await a.page.getByTestId('tournament-entrants').getByText(bea).waitFor();

    await a.page.getByTestId('tournament-start').click();
    await Promise.all([playMatch(a.page), playMatch(b.page)]);

    // Back at the tournament: the bracket shows the match played and the champion.
    for (const p of [a.page, b.page]) {
      await p.goto(`${BASE}/torneo/${id}`);
      await p.getByTestId('tournament-champion').waitFor({ timeout: 20000 });
      assert.equal(await p.locator('[data-testid="bracket-match"][data-state="played"]').count(), 1);
      assert.match(await p.getByTestId('tournament-champion').textContent(), new RegExp(`Gana el torneo: (${ane}|${bea})`));
    }
    if (process.env.TAPETE_SHOTS) await b.page.screenshot({ path: `${process.env.TAPETE_SHOTS}/tournament-phone.png`, fullPage: true });
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
  }
});

test('the organiser chooses that who does not come loses juego by juego', { timeout: 120000 }, async () => {
  const a = await openBrowser({ locale: 'es-ES' });
  const name = `Lide${String(Date.now() % 100000)}`;
  try {
    await register(a.page, name);
    await makeAccount(a.page, name);
    await a.page.goto(`${BASE}/torneos`);
    const absent = a.page.getByTestId('tournament-absent');
    await a.page.getByTestId('tournament-game').selectOption('mus');
    await absent.waitFor();
    // Not with stand-ins (they would play), not for a game without juegos.
    await a.page.getByText('Un bot juega por quien no llegue').click();
    await absent.waitFor({ state: 'hidden' });
    await a.page.getByText('Un bot juega por quien no llegue').click();
    await a.page.getByTestId('tournament-game').selectOption('chinchon');
    await absent.waitFor({ state: 'hidden' });
    await a.page.getByTestId('tournament-game').selectOption('mus');
    await absent.selectOption('juego');
    await a.page.getByTestId('tournament-name').fill('Liguilla del bar');
    await a.page.getByTestId('tournament-make').click();
    await a.page.waitForURL(/\/torneo\//);
    const rules = a.page.getByTestId('tournament-rules');
    await rules.waitFor();
    assert.match(await rules.textContent(), /Quien no se presenta pierde un juego por cada tiempo de cortesía/);
    assert.deepEqual(a.errors, []);
  } finally {
    await a.close();
  }
});
