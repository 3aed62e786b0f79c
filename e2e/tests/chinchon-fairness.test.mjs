// Chinchón fairness: at a 4-seat table two people (seats 0 and 2, bots between them) play
// through their pages, and each sees only their own hand. Every WebSocket frame each page
// receives is recorded: before the start no hand at all; once playing, a seat's own cards
// only, and none of the other person's cards that were not shown face up this hand — in the
// view, the narration of the hand, anywhere. The page shows no more than that. The end
// of a hand waits for both people to press next.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createChinchonTable, playChinchon, chinchonOfferNow, state } from '../lib.mjs';

const CARD = /^(1[0-2]|[1-9])[oceb]$|^J$/;

/** Every card code anywhere in `x` (a parsed frame or part of one). */
function cardsIn(x, out = []) {
  if (typeof x === 'string') { for (const w of x.split(/[\s,()]+/)) if (CARD.test(w)) out.push(w); } else if (Array.isArray(x)) x.forEach((y) => cardsIn(y, out));
  else if (x && typeof x === 'object') Object.values(x).forEach((y) => cardsIn(y, out));
  return out;
}

/** Whether a key of this name is anywhere in `x`. */
function hasKey(x, key) {
  if (Array.isArray(x)) return x.some((y) => hasKey(y, key));
  if (x && typeof x === 'object') return Object.keys(x).includes(key) || Object.values(x).some((y) => hasKey(y, key));
  return false;
}

/**
 * The cards `seat` holds that nobody else has seen this hand: its hand but the cards shown
 * face up — the muestra, every discard, every card taken from the pile (a discard shuffled
 * into a new stock and drawn again is known to have been played, not where it is now), and
 * a closer's cards, laid on the table.
 */
function privateCards(view, seat) {
  const seen = new Set([view.muestra, ...view.discarded.flat(), ...view.took.flat(), ...(view.close ? view.close.cards : [])]);
  return view.hand.filter((c) => !seen.has(c));
}

/** A frame as far as this hand goes: no previous hand's count nor score sheet, and only this hand's narration
 * (a state's `more` lines are always of its hand: a new hand's state carries the story whole). */
function thisHand(f) {
  const v = f.view;
  const start = (f.lines || []).map((l) => l.key === 'story.chinchon.hand_dealt' && l.args.hand.num === v.hand_number).lastIndexOf(true);
  return { ...f, view: { ...v, last_hand: null, sheet: [] }, lines: start >= 0 ? f.lines.slice(start) : f.lines };
}

test('Chinchón fairness: two people at a 4-seat table each see only their own hand', { timeout: 180000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 390, height: 844 });
  const frames = [[], []];
  for (const [i, x] of [a, b].entries()) {
    x.page.on('websocket', (ws) => ws.on('framereceived', (f) => { try { frames[i].push(JSON.parse(String(f.payload))); } catch { /* not JSON */ } }));
  }
  try {
    await register(a.page, 'Ane');
    const pages = [a.page, b.page];
    const seats = [0, 2];
    let heldChecked = false;
    let domChecks = 0;
    const deadline = Date.now() + 150000;
    // A chinchón wins the game at once: a table that one ends before any count was held is
    // replaced by a new one (the deal is random), at most twice.
    for (let table = 1; !heldChecked; table++) {
      assert.ok(table <= 3, 'three tables ended by a chinchón before any count');
      if (table > 1) await a.page.goto(`${BASE}/`);
      const id = await createChinchonTable(a.page, { seats: 4, target: 60 });
      await b.page.goto(`${BASE}/t/${id}`);
      if (table === 1) {
        await b.page.getByTestId('nickname').fill('Mikel');
        await b.page.getByTestId('nickname-save').click();
      }
      await b.page.getByTestId('sit-2').click();
      await b.page.waitForFunction(() => window.tapete?.state?.you?.seat === 2);
      await a.page.waitForFunction(() => window.tapete?.state?.table?.seats[2]?.player?.nickname === 'Mikel');
      // Before the start nothing is dealt: no card face on either page.
      for (const x of [a, b]) assert.equal(await x.page.locator('[data-testid="game"] [data-card]').count(), 0, 'no card shown before the start');
      await a.page.getByTestId('start').click();
      for (const x of [a, b]) await x.page.waitForFunction(() => window.tapete.state.view.hand.length >= 7);

      // Play until the second hand is well under way, both people at their pages; at the first
      // count, check that it waits for both of them.
      const memos = [{}, {}];
      let last = '';
      for (;;) {
        let sts = await Promise.all(pages.map(state));
        // The two pages hear each state at their own moment: give the later one a moment to
        // catch up, so that most turns are compared (a busy machine lags more).
        for (let k = 0; k < 20 && sts[0].n !== sts[1].n; k++) {
          await new Promise((r) => setTimeout(r, 50));
          sts = await Promise.all(pages.map(state));
        }
        // When it runs out of time, say where the game stood and what each page offered.
        assert.ok(Date.now() < deadline, `not in time: ${last}`);
        last = JSON.stringify(sts.map((st) => ({ n: st.n, status: st.table.status, hand: st.view.hand_number, phase: st.view.phase, turn: st.view.turn, turns: st.view.turns, hold: st.hold })));
        if (sts.some((st) => st.table.status === 'finished')) break;
        if (sts[0].view.hand_number >= 2 && sts[0].view.turns >= 6) break;

        // What Ane's page shows holds none of Mikel's cards, and the other way round.
        if (sts[0].n === sts[1].n) {
          for (const [i, j] of [[0, 1], [1, 0]]) {
            const theirs = new Set(privateCards(sts[j].view, seats[j]));
            const shown = await pages[i].$$eval('[data-testid="game"] [data-card]', (cs) => cs.filter((c) => !c.closest('[data-testid="counting"]')).map((c) => c.dataset.card));
            const now = await state(pages[i]);
            if (now.n !== sts[i].n) continue;
            for (const c of shown) assert.ok(!theirs.has(c), `page ${i} shows ${c}, a card of the other person's hand`);
            domChecks++;
          }
        }

        const offers = await Promise.all(pages.map(chinchonOfferNow));
        last += ` offers ${JSON.stringify(offers)}`;
        if (!heldChecked && offers.includes('next')) {
          // Both see the count; Ane presses next: the hold now waits for Mikel alone, and the
          // bots do not play on meanwhile.
          await Promise.all(pages.map((p) => p.getByTestId('next-hand').waitFor({ timeout: 5000 })));
          heldChecked = true;
          await playChinchon(a.page, memos[0]);
          const held = await a.page.waitForFunction(() => {
            const st = window.tapete.state;
            return st.hold && st.hold.waiting.length === 1 && st.hold.waiting[0] === 2 && st;
          }).then((h) => h.jsonValue());
          if (held.view.turn === 1 || held.view.turn === 3) {
            await a.page.waitForTimeout(1000);
            assert.equal((await state(a.page)).n, held.n, 'the bots wait while Mikel reads the count');
          }
          await playChinchon(b.page, memos[1]);
          await a.page.waitForFunction(() => !window.tapete.state.hold);
          continue;
        }
        let acted = false;
        for (const [i, page] of pages.entries()) {
          if (offers[i] && offers[i] !== 'over') { await playChinchon(page, memos[i]); acted = true; }
        }
        if (!acted) await new Promise((r) => setTimeout(r, 50));
      }
    }
    assert.ok(heldChecked, 'a count was seen by both and held for both');
    assert.ok(domChecks > 5, `pages checked: ${domChecks}`);

    // ---- the frames ----
    for (const [i, seat] of seats.entries()) {
      const states = frames[i].filter((f) => f.type === 'state');
      assert.ok(states.length > 20, `states recorded: ${states.length}`);
      for (const f of states) {
        assert.ok(!hasKey(f, 'hands') && !hasKey(f, 'stock_cards'), 'no hidden part of the game in a frame');
        if (f.table.status === 'waiting') {
          assert.deepEqual(f.view.hand, [], 'no hand before the start');
          continue;
        }
        assert.equal(f.view.seat, seat, 'a person gets their own seat\'s view');
        assert.equal(f.view.hand.length, f.view.hand_sizes[seat], 'their whole hand, as many cards as the seat holds');
      }
    }
    // Frame by frame at the same point of the same game: none of the other's private cards.
    const byN = frames.map((fs) => new Map(fs.filter((f) => f.type === 'state' && f.table.status === 'playing').map((f) => [`${f.table.id} ${f.n}`, f])));
    let compared = 0;
    for (const [i, j] of [[0, 1], [1, 0]]) {
      for (const [n, f] of byN[i]) {
        const other = byN[j].get(n);
        if (!other) continue;
        assert.equal(other.view.hand_number, f.view.hand_number);
        const theirs = new Set(privateCards(other.view, seats[j]));
        const mine = new Set(f.view.hand);
        for (const c of cardsIn(thisHand(f))) {
          assert.ok(!theirs.has(c) || mine.has(c), `frame ${n} to seat ${seats[i]} names ${c}, which only seat ${seats[j]} holds`);
        }
        compared++;
      }
    }
    assert.ok(compared > 20, `frames compared: ${compared}`);
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
