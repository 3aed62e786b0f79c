// (1) A player creates a Mus table with three bots and plays a whole game to the end
// through the UI (the finished match offers a new table, no next hand); then finds it in
// the history and replays it step by step.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable, playOne, state } from '../lib.mjs';

test('a whole game against three bots, played by clicking legal actions', { timeout: 300000 }, async () => {
  const b = await openBrowser();
  try {
    const { page } = b;
    const me = await register(page, 'Ane');
    const id = await createMusTable(page, { pace: '0' });
    assert.equal(await page.getByTestId('status').textContent(), 'waiting');
    for (const s of [1, 2, 3]) assert.match(await page.getByTestId(`seat-name-${s}`).textContent(), /^bot/);
    await page.getByTestId('start').click();

    // Own cards are drawn: four of them, face up.
    await page.getByTestId('my-card').first().waitFor();
    assert.equal(await page.getByTestId('my-card').count(), 4);

    const memo = {};
    const played = [];
    const deadline = Date.now() + 240000;
    // The narration box shows the story's lines, each once; within a hand a new state adds
    // rows without drawing the old ones anew (a row marked before is still there).
    const story = () => page.evaluate(() => {
      const rows = [...document.querySelectorAll('[data-testid="lines"] > div')];
      const s = window.tapete.state;
      const marked = rows.some((r) => r.dataset.kept === 'yes');
      if (rows.length) rows[rows.length - 1].dataset.kept = 'yes';
      return { rows: rows.length, lines: s.lines.length, hand: `${s.view.game_number}-${s.view.hand_number}`, n: s.n, marked };
    });
    let before = null;
    let keptSeen = 0;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game did not end in time; played ${played.length}: ${played.slice(-10).join(', ')}`);
      const r = await playOne(page, memo);
      if (r.over) break;
      if (r.action) played.push(r.action);
      const now = await story();
      assert.equal(now.rows, now.lines, `one row a line: ${JSON.stringify(now)}`);
      if (before && before.hand === now.hand && now.n > before.n && now.lines < 200) {
        assert.ok(now.marked, `the rows drawn before stay: ${JSON.stringify({ before, now })}`);
        keptSeen++;
      }
      before = now;
    }
    assert.ok(played.length > 0, 'the player acted');
    assert.ok(keptSeen > 0, 'a hand went on over several states');

    // A finished match offers no next hand; the counting of the last hand, if it is still
    // up, offers a new table instead.
    assert.equal(await page.getByTestId('next-hand').count(), 0, 'no next hand after the match');
    if (await page.getByTestId('counting').count()) {
      assert.equal(await page.getByTestId('new-match').getAttribute('href'), '/', 'a new table instead');
    }

    // The banner, the final score and the outcome agree.
    const banner = page.getByTestId('game-over');
    await banner.waitFor();
    assert.match(await banner.textContent(), /won|lost|ganamos|ganan/i);
    const st = await state(page);
    assert.equal(st.table.status, 'finished');
    assert.ok(st.outcome && st.outcome.winners.length === 2, 'two winners');
    const scores = st.view.scores;
    const winnerPair = st.outcome.winners[0] % 2;
    assert.ok(scores.games[winnerPair] >= 1 || scores.vacas[winnerPair] >= 1, `the winning pair won a game: ${JSON.stringify(scores)}`);
    const shown = await page.getByTestId('score').getAttribute('data-games');
    assert.equal(shown, scores.games.join(','));
    // The final score stays, in pair order (the side of seats 0 and 2 first) as the server
    // tells it: in the banner and in the score panel.
    const w = winnerPair;
    const finalLine = await page.getByTestId('final-score').textContent();
    const [p0, p1] = scores.piedras;
    assert.equal(await page.getByTestId('score').getAttribute('data-piedras'), `${p0},${p1}`, 'the final piedras are shown');
    assert.ok(Math.max(p0, p1) > 0, `the final piedras are kept: ${p0}–${p1}`);
    const pairOrder = `vacas ${scores.vacas[0]}–${scores.vacas[1]}, juegos ${scores.games[0]}–${scores.games[1]}, piedras ${p0}–${p1}`;
    // A result names both pairs by their players, for the players too.
    assert.equal(finalLine, `Ane and bot 2 against bot 1 and bot 3: ${pairOrder}`);
    assert.ok(scores.piedras[w] >= st.view.rules.target || (st.view.last_hand?.log || []).some((e) => e.type === 'game_won' && e.ordago),
      `the winner reached the target: ${finalLine}`);
    assert.ok(scores.games[w] >= 1 && scores.vacas[w] >= 1, `the last vaca's juegos are kept: ${finalLine}`);
    const log = await page.getByTestId('lines').evaluate((e) => [...e.children].map((x) => x.textContent));
    assert.ok(log.some((l) => /^(Ane and bot 2|bot 1 and bot 3) win the game( by órdago)? \(Ane and bot 2 against bot 1 and bot 3: piedras (\d+)–(\d+)\)$/.test(l) && l.endsWith(`${p0}–${p1})`)),
      `the log tells the last juego in the same order: ${log.slice(-6).join(' / ')}`);
    // The banner says whose the match is, by name, and to her whether she won.
    assert.match(await banner.textContent(), new RegExp(`${w === 0 ? 'Ane and bot 2' : 'bot 1 and bot 3'} won the match: you ${st.outcome.winners.includes(st.you.seat) ? 'won' : 'lost'}`));
    // Never "pair 0–2" anywhere on the page.
    assert.doesNotMatch(await page.locator('body').textContent(), /pair \d[–-]\d/, 'no "pair 0–2" shown');

    // History lists it with its result, the sides by their names; on a phone too, with
    // its Replay button on the screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${BASE}/history`);
    await page.getByTestId('game-row').first().waitFor();
    const row = page.getByTestId('game-row').first();
    assert.match(await row.textContent(), st.outcome.winners.includes(st.you.seat) ? /won/ : /lost/);
    assert.doesNotMatch(await row.textContent(), /pair \d/, 'sides by name in the history');
    const summary = await row.getByTestId('game-summary').textContent();
    // The history words the outcome alone: who won, by name, and the vacas in pair order.
    assert.equal(summary, `${w === 0 ? 'Ane and bot 2' : 'bot 1 and bot 3'} won the match. (vacas ${scores.vacas[0]}–${scores.vacas[1]})`);
    const link = await row.getByTestId('replay-link').boundingBox();
    assert.ok(link && link.x >= 0 && link.x + link.width <= 390, `the Replay button on a phone screen: ${JSON.stringify(link)}`);
    await page.setViewportSize({ width: 1200, height: 900 });
    await row.getByTestId('replay-link').click();
    await page.waitForURL(new RegExp(`/replay/${id}`));
    await page.locator('[data-testid="game"][data-step="0"]').waitFor();
    assert.match(await page.getByTestId('replay-step').textContent(), /^step 0 \/ \d+/);
    // The deal shows all four hands.
    for (const s of [0, 1, 2, 3]) assert.equal(await page.getByTestId(`shown-hand-${s}`).locator('.card').count(), 4);
    await page.getByTestId('replay-next').click();
    assert.match(await page.getByTestId('replay-step').textContent(), /^step 1 \//);
    await page.getByTestId('replay-last').click();
    const [, last, total] = /^step (\d+) \/ (\d+)/.exec(await page.getByTestId('replay-step').textContent());
    assert.equal(last, total);
    await page.locator(`[data-testid="game"][data-step="${total}"]`).waitFor();
    // The replay says who won with the same final score, in the same order.
    await page.waitForFunction(() => / against /.test(document.querySelector('[data-testid="replay-outcome"]')?.textContent || ''));
    const replayOutcome = await page.getByTestId('replay-outcome').textContent();
    assert.ok(replayOutcome.includes(`Ane and bot 2 against bot 1 and bot 3: ${pairOrder}`), `the replay's final score: ${replayOutcome}`);
    assert.doesNotMatch(await page.locator('body').textContent(), /pair \d[–-]\d/, 'no "pair 0–2" in the replay');
    assert.ok(Number(total) >= played.length, 'every action of the game is a step');
    assert.deepEqual(b.errors, [], 'no script errors');
    void me;
  } finally {
    await b.close();
  }
});
