// Tikki: a player creates a 3-seat table from the lobby (every option offered with the
// game's defaults), plays a whole short game (two rounds of a 28-card deck, the retreat
// round on) against two bots through the page — tapping cards and laying them, taking
// cards back in the retreat round, pressing next at the end of a round — then finds the
// game in the history and replays it. Along the way the page is checked against the
// engine: the lay button follows the legal actions, each reveal marks the engine's best
// combination and winner, each round's end shows the engine's piles and points.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createTikkiTable, playTikki, waitTikki, state } from '../lib.mjs';

const sorted = (xs) => [...xs].sort();

test('Tikki: a whole 3-player game against two bots, played through the page', { timeout: 240000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  try {
    const { page } = b;
    await register(page, 'Ane');

    // ---- the lobby: tikki with its players, every option at the game's default ----
    await page.getByTestId('game').selectOption('tikki');
    await page.getByTestId('rule-top').waitFor();
    const games = await page.evaluate(async () => (await fetch('/api/games')).json());
    const kind = games.find((g) => g.name === 'tikki');
    const offered = await page.getByTestId('game').locator('option').allTextContents();
    assert.ok(offered.includes('Tikki (2–5 players)'), `games offered: ${offered}`);
    assert.deepEqual(await page.getByTestId('seats').locator('option').evaluateAll((os) => os.map((o) => o.value)), ['2', '3', '4', '5']);
    assert.equal(await page.getByTestId('seats').inputValue(), String(kind.seats.default));
    assert.equal(await page.getByTestId('bot').inputValue(), kind.default_bot);
    assert.deepEqual(await page.getByTestId('bot').locator('option').evaluateAll((os) => os.map((o) => o.value)), kind.bots);
    for (const [name, want] of Object.entries(kind.rules)) {
      const input = page.getByTestId(`rule-${name}`);
      assert.equal(await input.count(), 1, `the form has the option ${name}`);
      const shown = (await input.evaluate((e) => e.type)) === 'checkbox' ? await input.isChecked() : await input.inputValue();
      assert.equal(shown, typeof want === 'boolean' ? want : String(want), `${name} starts at its default`);
    }

    await createTikkiTable(page, { seats: 3, top: 7, rounds: 2, retreat: true });
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]);
    let st = await state(page);
    assert.equal(st.table.seats.length, 3);
    assert.deepEqual(st.table.rules, { top: 7, rounds: 2, target: 0, retreat: true });
    assert.equal(await page.getByTestId('my-card').count(), 0, 'no cards before the start');
    await page.getByTestId('start').click();

    // ---- the deal: seven cards each, the others' as backs, the stock as the view says ----
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="my-card"]').length === 7);
    // The page and its state read at one moment: the bots may lay a card at any time.
    const dealt = await page.evaluate(() => {
      const v = window.tapete.state.view;
      const attr = (id, a) => { const e = document.querySelector(`[data-testid="${id}"]`); return e && e.getAttribute(a); };
      return {
        view: v,
        mine: [...document.querySelectorAll('[data-testid="my-card"]')].map((c) => c.dataset.card),
        stock: attr('stock', 'data-count'),
        backs: [1, 2].map((s) => attr(`backs-${s}`, 'data-count')),
        dealer: document.querySelectorAll(`[data-testid="dealer-${v.dealer}"]`).length,
      };
    });
    assert.deepEqual(sorted(dealt.mine), sorted(dealt.view.hand));
    assert.equal(dealt.stock, String(dealt.view.stock));
    assert.deepEqual(dealt.backs, [1, 2].map((s) => String(dealt.view.hand_sizes[s])));
    assert.equal(dealt.dealer, 1, 'the dealer is marked');

    const memo = {};
    const played = [];
    const seenTricks = new Map(); // "round.k" -> trick
    let lays = 0;
    let revealsChecked = 0;
    let roundEnds = 0;
    let stacksChecked = 0;
    const deadline = Date.now() + 200000;
    for (;;) {
      assert.ok(Date.now() < deadline, `the game did not end in time; played ${played.length}: ${played.slice(-8).join(', ')}`);
      const what = await waitTikki(page);
      st = await state(page);
      const v = st.view;

      // The face-down stacks of the others: their counts, never a card.
      for (const s of [1, 2]) {
        const stack = page.getByTestId(`stack-${s}`);
        if (v.laid_counts[s] > 0 && await stack.count()) {
          const shown = await stack.evaluate((e) => ({ count: e.dataset.count, faces: [...e.querySelectorAll('[data-card]')].map((c) => c.dataset.card) }));
          if ((await state(page)).n !== st.n) continue;
          assert.equal(shown.count, String(v.laid_counts[s]), `seat ${s} laid ${v.laid_counts[s]}`);
          assert.deepEqual(sorted(shown.faces), sorted(v.revealed[s]), 'only the cards shown in the retreat round are face up');
          stacksChecked++;
        }
      }

      // Each reveal on the felt: the engine's best combination marked for every seat, its winner taking the trick.
      if (v.tricks.length && what !== 'over' && what !== 'next') {
        const t = v.tricks[v.tricks.length - 1];
        seenTricks.set(`${v.round}.${v.tricks.length}`, t);
        const reveal = page.getByTestId('reveal');
        const dom = await reveal.evaluate((r) => ({
          winner: r.dataset.winner,
          rows: [...r.querySelectorAll('.tk-row')].map((row) => ({
            seat: row.dataset.testid.replace('reveal-seat-', ''), combo: row.dataset.combo,
            marked: [...row.querySelectorAll('.card.combo')].map((c) => c.dataset.card),
            all: [...row.querySelectorAll('.card')].map((c) => c.dataset.card),
          })),
          takes: r.querySelector('[data-testid="trick-winner"]')?.dataset.seat,
        }));
        if ((await state(page)).n === st.n) {
          assert.equal(dom.winner, String(t.winner));
          assert.equal(dom.takes, String(t.winner), 'the winner is marked as taking the trick');
          for (const row of dom.rows) {
            const s = Number(row.seat);
            assert.equal(row.combo, t.best[s].type, `seat ${s}'s combination`);
            assert.deepEqual(sorted(row.marked), sorted(t.best[s].cards), `seat ${s}'s combination cards are marked`);
            assert.deepEqual(sorted(row.all), sorted(t.laid[s]), `seat ${s}'s cards, face up`);
          }
          assert.equal(dom.rows.length, t.best.filter(Boolean).length);
          revealsChecked++;
        }
      }

      if (what === 'lay' && lays % 4 === 0) {
        // Nothing picked: the lay button is off; one card picked: on, with that card's lay.
        const none = await page.$$eval('[data-testid="my-card"].selected', (cs) => cs.length);
        if (none === 0) {
          assert.equal(await page.getByTestId('lay').isDisabled(), true, 'no lay without cards');
          const first = page.getByTestId('my-card').first();
          const code = await first.getAttribute('data-card');
          await first.click();
          assert.equal(await page.getByTestId('lay').getAttribute('data-action'), `lay ${code}`);
          assert.equal(await page.getByTestId('lay').isDisabled(), false);
          assert.equal(await page.getByTestId('selection').getAttribute('data-combo'), 'single');
          await page.getByTestId('clear').click();
          assert.equal(await page.getByTestId('lay').isDisabled(), true);
        }
      }

      if (what === 'next' || what === 'over') {
        // The end of a round: each seat's pile by rank and its points, as the engine scored them.
        const r = v.history[v.history.length - 1];
        await page.getByTestId('round-end').waitFor();
        for (let s = 0; s < 3; s++) {
          assert.equal(await page.getByTestId(`round-seat-${s}`).getAttribute('data-points'), String(r.points[s]));
          const groups = await page.getByTestId(`groups-${s}`).evaluate((g) => [...g.querySelectorAll('.tk-group')].map((x) => ({
            cards: [...x.querySelectorAll('[data-card]')].map((c) => c.dataset.card), points: Number(x.querySelector('small').textContent),
          })));
          assert.deepEqual(sorted(groups.flatMap((g) => g.cards)), sorted(r.piles[s]), `seat ${s}'s pile`);
          assert.equal(groups.reduce((n, g) => n + g.points, 0), r.points[s], `seat ${s}'s groups add up to its points`);
          for (const g of groups) assert.equal(new Set(g.cards.map((c) => parseInt(c, 10))).size, 1, 'a group is one rank');
        }
        if (r.last_trick) assert.equal(await page.getByTestId('last-trick').getAttribute('data-winner'), String(r.last_trick.winner));
        const rows = await page.getByTestId('sheet-row').count();
        assert.equal(rows, v.history.length, 'a row of the score sheet per round');
        roundEnds++;
      }
      if (what === 'over') break;

      const res = await playTikki(page, memo);
      if (res.action) {
        played.push(res.action);
        if (res.action.startsWith('lay ')) {
          lays++;
          assert.deepEqual(sorted(res.action.slice(4).split(' ')), sorted(res.picked), 'the lay is the cards picked');
        }
      }
    }
    console.log(`${played.length} actions: ${JSON.stringify(memo)}; reveals checked ${revealsChecked}, stacks ${stacksChecked}, round ends ${roundEnds}`);
    assert.ok(memo.lays > 3, 'laid cards');
    assert.ok(memo.bests > 0, 'laid a best combination');
    assert.ok(revealsChecked > 3, `reveals checked: ${revealsChecked}`);
    assert.ok(stacksChecked > 3, `stacks checked: ${stacksChecked}`);
    assert.ok(roundEnds >= 2, 'both rounds\' ends were shown');
    assert.ok((memo.retreatTurns || 0) > 0, 'the retreat round came to us');

    // The page's combinations are the engine's, for every lay of every trick seen.
    const tricks = [...seenTricks.values()];
    const mismatch = await page.evaluate(async (ts) => {
      const { best } = await import('/assets/tikki.js');
      const out = [];
      for (const t of ts) {
        t.laid.forEach((l, s) => {
          if (!t.best[s]) return;
          const b = best(l);
          if (b.type !== t.best[s].type || b.top !== t.best[s].top || [...b.cards].sort().join() !== [...t.best[s].cards].sort().join()) out.push({ laid: l, page: b, engine: t.best[s] });
        });
      }
      return out;
    }, tricks);
    assert.deepEqual(mismatch, [], 'the page ranks every lay as the engine does');

    // ---- the end: the banner and the final points ----
    const banner = page.getByTestId('game-over');
    await banner.waitFor();
    st = await state(page);
    assert.equal(st.table.status, 'finished');
    const won = st.outcome.winners.includes(0);
    assert.match(await banner.textContent(), won ? /You (won|share)/ : /You lost/);
    assert.equal(await page.getByTestId('final-score').textContent(), st.view.scores.map((p, s) => `${s === 0 ? 'Ane' : `bot ${s}`} ${p}`).join(' · '));
    assert.equal(await page.getByTestId('score').getAttribute('data-points'), st.view.scores.join(','));
    for (const s of st.view.winners) assert.ok(await page.getByTestId(`winner-${s}`).count() > 0, `seat ${s} marked as a winner`);

    // ---- the history and the replay ----
    await page.goto(`${BASE}/history`);
    const row = page.getByTestId('game-row').first();
    await row.waitFor();
    assert.match(await row.textContent(), won ? /won/ : /lost/);
    assert.match(await row.getByTestId('game-summary').textContent(), /^(Ane|bot 1|bot 2).* (wins|share the win)\. Ane -?\d+ · bot 1 -?\d+ · bot 2 -?\d+$/);
    await row.getByTestId('replay-link').click();
    await page.waitForURL(new RegExp(`/replay/${id}`));
    await page.locator('[data-testid="game"][data-step="0"]').waitFor();
    // The deal: every hand face up, seven cards each.
    for (const s of [0, 1, 2]) assert.equal(await page.getByTestId(`shown-hand-${s}`).locator('.card').count(), 7);
    await page.getByTestId('replay-next').click();
    await page.locator('[data-testid="game"][data-step="1"]').waitFor();
    const first = played.find((a) => a.startsWith('lay '));
    assert.ok(first);
    await page.getByTestId('replay-last').click();
    const [, last, total] = /^step (\d+) \/ (\d+)/.exec(await page.getByTestId('replay-step').textContent());
    assert.equal(last, total);
    await page.locator(`[data-testid="game"][data-step="${total}"]`).waitFor();
    await page.getByTestId('round-end').waitFor();
    assert.ok(Number(total) >= played.length, 'every action of the game is a step');
    await page.waitForFunction(() => /wins|share/.test(document.querySelector('[data-testid="replay-outcome"]')?.textContent || ''));
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
