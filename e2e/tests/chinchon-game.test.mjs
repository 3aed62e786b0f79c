// Chinchón: a player creates a 2-seat table from the lobby (every option offered with the
// game's defaults), plays a whole game against a bot through the page — clicking the stock
// or the pile, tapping cards to discard, closing when a close is offered, laying cards after
// the bot's closes, pressing next at each count — reorders the hand by dragging and with the
// arrows, then finds the game in the history and replays it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createChinchonTable, playChinchon, waitChinchon, shownHand, state } from '../lib.mjs';

/** Drags the card at `from` of the hand to the place of the card at `to`. */
async function drag(page, from, to) {
  const cards = page.getByTestId('my-card');
  const a = await cards.nth(from).boundingBox();
  const b = await cards.nth(to).boundingBox();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  const steps = 12;
  const endX = b.x + b.width / 2 + (to > from ? 10 : -10);
  for (let k = 1; k <= steps; k++) await page.mouse.move(a.x + a.width / 2 + ((endX - a.x - a.width / 2) * k) / steps, a.y + a.height / 2);
  await page.mouse.up();
}

test('Chinchón: a whole 2-player game against a bot, played through the page', { timeout: 300000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  try {
    const { page } = b;
    await register(page, 'Ane');

    // ---- the lobby: Chinchón with its players, every option at the game's default ----
    await page.getByTestId('game').selectOption('chinchon');
    await page.getByTestId('rule-target').waitFor();
    const games = await page.evaluate(async () => (await fetch('/api/games')).json());
    const kind = games.find((g) => g.name === 'chinchon');
    const offered = await page.getByTestId('game').locator('option').allTextContents();
    assert.ok(offered.includes('Chinchón (2–8 players)'), `games offered: ${offered}`);
    assert.deepEqual(await page.getByTestId('seats').locator('option').evaluateAll((os) => os.map((o) => o.value)), ['2', '3', '4', '5', '6', '7', '8']);
    assert.equal(await page.getByTestId('seats').inputValue(), String(kind.seats.default));
    assert.equal(await page.getByTestId('bot').inputValue(), kind.default_bot);
    assert.deepEqual(await page.getByTestId('bot').locator('option').evaluateAll((os) => os.map((o) => o.value)), kind.bots);
    const defaults = kind.rules;
    for (const name of Object.keys(defaults)) {
      const input = page.getByTestId(`rule-${name}`);
      assert.equal(await input.count(), 1, `the form has the option ${name}`);
      const type = await input.evaluate((e) => e.type);
      const shown = type === 'checkbox' ? await input.isChecked() : await input.inputValue();
      const want = typeof defaults[name] === 'boolean' ? defaults[name] : defaults[name] === null ? 'never' : String(defaults[name]);
      assert.equal(shown, want, `${name} starts at its default`);
    }

    const id = await createChinchonTable(page, { seats: 2, target: 20 });
    const waiting = await state(page);
    assert.equal(waiting.table.seats.length, 2, 'two seats');
    assert.equal(waiting.table.rules.target, 20);
    assert.equal(await page.getByTestId('my-card').count(), 0, 'no cards before the start');
    await page.getByTestId('start').click();

    // ---- the deal: seven cards, the stock and the pile as the view says ----
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="my-card"]').length === 7);
    let st = await state(page);
    assert.deepEqual([...(await shownHand(page))].sort(), [...st.view.hand].sort(), 'the hand shown is the hand dealt');
    assert.equal(await page.getByTestId('stock').getAttribute('data-count'), String(st.view.stock));
    assert.equal(await page.getByTestId('pile').getAttribute('data-top'), st.view.pile[st.view.pile.length - 1]);
    assert.equal(await page.getByTestId('backs-1').locator('.card').count(), 7, 'the bot holds seven cards, face down');

    const memo = {};
    const played = [];
    let reordered = false;
    let closesOffered = 0;
    let checkedCounts = 0;
    const trail = [];
    const deadline = Date.now() + 240000;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game did not end in time; played ${played.length}: ${played.slice(-10).join(', ')}`);
      const what = await waitChinchon(page);
      st = await state(page);
      trail.push(`${what}@${st.n}/h${st.view.hand_number}/${st.hold ? 'hold' : '-'}/${st.view.last_hand ? st.view.last_hand.hand : '-'}`);

      if (what === 'discard') {
        // The closes offered are exactly the legal ones: the page's melds agree with the engine's.
        const seen = await page.evaluate(() => ({
          legal: window.tapete.state.legal.filter((a) => a.startsWith('cierro')).sort(),
          shown: [...document.querySelectorAll('[data-testid="close"]')].map((x) => x.dataset.action).sort(),
          cards: document.querySelectorAll('[data-testid="my-card"]').length,
        }));
        assert.deepEqual(seen.shown, seen.legal, 'a close button for every legal close, none other');
        assert.equal(seen.cards, 8, `eight cards after drawing: ${JSON.stringify({ n: st.n, hand: st.view.hand, phase: st.view.phase, turn: st.view.turn, legal: st.legal, played })}`);
        if (seen.legal.length) closesOffered++;

        if (!reordered) {
          reordered = true;
          // Dragging the first card to the end puts it there; the order holds over re-renders.
          const before = await shownHand(page);
          await drag(page, 0, before.length - 1);
          await page.waitForFunction((x) => [...document.querySelectorAll('[data-testid="my-card"]')].map((c) => c.dataset.card).join(' ') === x,
            [...before.slice(1), before[0]].join(' '));
          // Tap the (new) first card, move it right with the arrow: the two swap.
          const dragged = await shownHand(page);
          await page.getByTestId('my-card').first().click();
          await page.getByTestId('move-right').click();
          const moved = await shownHand(page);
          assert.deepEqual(moved, [dragged[1], dragged[0], ...dragged.slice(2)], 'the arrow moves the picked card');
          // "sort" puts the melds together again.
          await page.getByTestId('tidy').click();
          const tidy = await page.evaluate(async () => {
            const { tidy: t } = await import('/assets/chinchon.js');
            return t(window.tapete.state.view.hand, window.tapete.state.view.rules);
          });
          assert.deepEqual(await shownHand(page), tidy);
        }
      }

      if (what === 'next' || what === 'over') {
        // The count: every seat's melds, cards left and points, as the engine counted them,
        // and the page's own melds give the same points.
        const h = st.view.last_hand;
        assert.ok(h, 'a count has a last hand');
        await page.getByTestId('counting').waitFor();
        for (const r of h.results) {
          assert.equal(await page.getByTestId(`counting-seat-${r.seat}`).getAttribute('data-points'), String(r.points));
          if (r.seat === h.closer) continue;
          const dw = await page.evaluate(async ([cards, rules]) => (await import('/assets/chinchon.js')).analyze(cards, rules).deadwood,
            [[...r.melds.flatMap((m) => m.cards), ...r.unmatched], st.view.rules]);
          assert.equal(dw, r.points, `seat ${r.seat}: the page's deadwood is the engine's`);
          checkedCounts++;
        }
        // The score sheet: a row for every hand of the game (it comes with the view), the
        // hand just counted last, every hand this page counted among them.
        memo.hands = [...new Set([...(memo.hands || []), h.hand])];
        const rows = await page.getByTestId('sheet-row').locator('td:first-child').allTextContents();
        assert.deepEqual(rows, st.view.sheet.map((r) => String(r.hand)), `the sheet is the view's: ${trail.join(' ')}`);
        assert.equal(rows[rows.length - 1], String(h.hand), 'the hand just counted is the last row');
        for (const n of memo.hands) assert.ok(rows.includes(String(n)), `hand ${n} is on the sheet`);
      }
      if (what === 'over') break;

      const pileTop = st.view.pile[st.view.pile.length - 1];
      const r = await playChinchon(page, memo);
      if (r.action) played.push(r.action);
      if (r.action === 'tomo') {
        // The pile's top card is ours now, marked as just drawn.
        await page.waitForFunction((c) => document.querySelector(`[data-testid="my-card"].new[data-card="${c}"]`), pileTop);
        assert.equal(await page.getByTestId('took-0').locator(`[data-card="${pileTop}"]`).count(), 1, 'the card taken shows as taken');
      }
      // Every action of ours is taken: the table moves on.
      if (r.action) await page.waitForFunction((n) => window.tapete.state.n > n, st.n);
    }

    console.log(`${played.length} actions: ${JSON.stringify(memo)}; closes offered ${closesOffered}; counts checked ${checkedCounts}`);
    const draws = (memo.robo || 0) + (memo.tomo || 0);
    assert.ok(memo.tomo > 0, 'took the pile\'s top card (the first draw does)');
    assert.ok(memo.robo > 0 || draws < 4, 'drew from the stock');
    assert.ok(memo.descarto > 0 || memo.cierro > 0, 'discarded or closed');
    const byChinchon = /chinch[oó]n/.test((await state(page)).outcome.summary);
    assert.ok(checkedCounts > 0 || byChinchon, 'a count was checked');
    assert.ok(closesOffered === 0 || memo.cierro > 0, 'closed when a close was offered');

    // ---- the end: the banner, the final points, the count stays ----
    const banner = page.getByTestId('game-over');
    await banner.waitFor();
    st = await state(page);
    assert.equal(st.table.status, 'finished');
    const won = st.outcome.winners.includes(0);
    assert.match(await banner.textContent(), won ? /You won/ : /You lost/);
    const final = await page.getByTestId('final-score').textContent();
    assert.equal(final, st.view.scores.map((p, s) => `${s === 0 ? 'Ane' : 'bot 1'} ${p}${st.view.out[s] ? ' (out)' : ''}`).join(' · '));
    // A game ends past the target, or at once on a chinchón.
    assert.ok(byChinchon || st.view.scores.some((p) => p > 20), `somebody passed 20: ${st.view.scores}`);
    assert.equal(await page.getByTestId('score').getAttribute('data-points'), st.view.scores.join(','));
    for (const s of st.view.winners) assert.equal(await page.getByTestId(`winner-${s}`).count() > 0, true, `seat ${s} marked as the winner`);

    // ---- the history and the replay ----
    await page.goto(`${BASE}/history`);
    const row = page.getByTestId('game-row').first();
    await row.waitFor();
    assert.match(await row.textContent(), won ? /won/ : /lost/);
    const summary = await row.getByTestId('game-summary').textContent();
    // Both may pass the target in one hand at the same score: a shared win.
    assert.match(summary, /^((Ane|bot 1) wins( with a chinchón)?|Ane and bot 1 share the win)\. Ane -?\d+ · bot 1 -?\d+$/, summary);
    await row.getByTestId('replay-link').click();
    await page.waitForURL(new RegExp(`/replay/${id}`));
    await page.locator('[data-testid="game"][data-step="0"]').waitFor();
    // The deal shows both hands face up, seven cards each.
    for (const s of [0, 1]) assert.equal(await page.getByTestId(`shown-hand-${s}`).locator('.card').count(), 7);
    await page.getByTestId('replay-next').click();
    await page.locator('[data-testid="game"][data-step="1"]').waitFor();
    assert.equal(await page.getByTestId('shown-hand-0').locator('.card').count() + await page.getByTestId('shown-hand-1').locator('.card').count(), 15,
      'one player drew an eighth card');
    await page.getByTestId('replay-last').click();
    const [, last, total] = /^step (\d+) \/ (\d+)/.exec(await page.getByTestId('replay-step').textContent());
    assert.equal(last, total);
    await page.locator(`[data-testid="game"][data-step="${total}"]`).waitFor();
    await page.getByTestId('counting').waitFor();
    assert.ok(Number(total) >= played.length, 'every action of the game is a step');
    await page.waitForFunction(() => /wins/.test(document.querySelector('[data-testid="replay-outcome"]')?.textContent || ''));
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
