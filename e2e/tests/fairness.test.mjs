// No card of another seat ever reaches a player's page. A second player walks through every
// free seat before the start, and once playing asks to move at a hand boundary; every
// WebSocket frame their page receives is recorded and checked: before the start no cards at
// all; within a hand one hand of cards at most, the cards of the seat they play that hand
// (the hands shown at the counting, in `last_hand`, are public).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createMusTable, playOne, offersNow, state } from '../lib.mjs';

const CARD = /^(1[0-2]|[1-7])[oceb]$/;

/** Every card code anywhere in `x` (a parsed frame or part of one). */
function cardsIn(x, out = []) {
  if (typeof x === 'string') { if (CARD.test(x)) out.push(x); } else if (Array.isArray(x)) x.forEach((y) => cardsIn(y, out));
  else if (x && typeof x === 'object') Object.values(x).forEach((y) => cardsIn(y, out));
  return out;
}

/** Plays whichever page has something to do, until `done()`; both say "no hay mus", so no hand changes by a discard. */
async function playOn(pages, memos, done, what) {
  const deadline = Date.now() + 90000;
  while (!(await done())) {
    assert.ok(Date.now() < deadline, `not in time: ${what}`);
    let acted = false;
    for (const [i, page] of pages.entries()) {
      const offer = await offersNow(page);
      assert.notEqual(offer, 'over', `the match ended before ${what}`);
      if (offer) { await playOne(page, memos[i]); acted = true; }
    }
    if (!acted) await new Promise((r) => setTimeout(r, 50));
  }
}

test('fairness: no card of another seat reaches a player, seat moves included', { timeout: 180000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    await register(a.page, 'Ane');
    const id = await createMusTable(a.page, { pace: '0', juegos: '3' });

    const frames = [];
    b.page.on('websocket', (ws) => ws.on('framereceived', (f) => { try { frames.push(JSON.parse(String(f.payload))); } catch { /* not JSON */ } }));
    await b.page.goto(`${BASE}/t/${id}`);
    await b.page.getByTestId('nickname').fill('Mikel');
    await b.page.getByTestId('nickname-save').click();
    for (const s of [1, 2, 3]) {
      await b.page.getByTestId(`sit-${s}`).click();
      await b.page.waitForFunction((x) => window.tapete?.state?.you?.seat === x, s);
    }
    const beforeStart = frames.length;
    await a.page.getByTestId('start').click();
    await b.page.waitForFunction(() => window.tapete.state.table.status === 'playing' && window.tapete.state.view.cards.length === 4);

    // Play the first hand out; early in the second, Mikel asks for seat 1 (a bot's).
    const memos = [{ saidMus: true }, { saidMus: true }];
    const hand = async () => (await state(b.page)).view.hand_number;
    await playOn([a.page, b.page], memos, async () => (await hand()) >= 2, 'the second hand');
    await b.page.getByTestId('sit-1').click();
    await playOn([a.page, b.page], memos, async () => {
      const st = await state(b.page);
      return st.you.seat === 1 || st.you.pending_seat === 1;
    }, 'the seat request');
    // He plays seat 1 from the next hand; play on until that hand is over too.
    await playOn([a.page, b.page], memos, async () => (await state(b.page)).you.seat === 1, 'the move');
    const movedAt = await hand();
    await playOn([a.page, b.page], memos, async () => (await hand()) > movedAt, 'the hand after the move');

    // ---- the frames ----
    const states = frames.filter((f) => f.type === 'state');
    assert.ok(states.length > 10, `states recorded: ${states.length}`);
    const early = frames.slice(0, beforeStart).filter((f) => f.type === 'state');
    assert.ok(early.length >= 3, 'states before the start');
    for (const f of frames.filter((x) => x.type === 'state' && x.table.status === 'waiting')) {
      assert.deepEqual(f.view.cards, [], 'no cards before the start');
      assert.deepEqual(cardsIn(f), [], 'no card anywhere before the start');
    }
    const seen = new Map(); // "game/hand" -> {cards: Set of hands as text, seats: Set}
    for (const f of states.filter((x) => x.table.status === 'playing')) {
      const v = f.view;
      const k = `${v.game_number}/${v.hand_number}`;
      const e = seen.get(k) || { cards: new Set(), seats: new Set() };
      seen.set(k, e);
      if (v.cards.length) {
        assert.equal(v.seat, f.you.seat, 'cards only for the seat held');
        e.cards.add([...v.cards].sort().join(' '));
        e.seats.add(f.you.seat);
      }
      // Beyond the public counting, no card but our own appears anywhere in the frame.
      const rest = { ...f, lines: [], more: [], view: { ...v, last_hand: null, log: (v.log || []).filter((x) => x.type !== 'showdown') } };
      const mine = new Set([...v.cards, ...(v.my_discard || [])]);
      for (const c of cardsIn(rest)) assert.ok(mine.has(c), `hand ${k}: ${c} is not ours (${[...mine]})`);
    }
    for (const [k, e] of seen) {
      assert.ok(e.cards.size <= 1, `hand ${k}: one hand of cards at most, saw ${[...e.cards].join(' | ')}`);
      assert.ok(e.seats.size <= 1, `hand ${k}: one seat at most, saw ${[...e.seats]}`);
    }
    // And those cards were that seat's: the counting of each hand shows whose they were.
    let checked = 0;
    for (const f of states) {
      const h = f.view && f.view.last_hand;
      if (!h || !h.cards) continue;
      const started = (h.log || []).find((x) => x.type === 'hand_started');
      const k = `${started ? started.game : f.view.game_number}/${h.hand}`;
      const e = seen.get(k);
      if (!e || !e.cards.size) continue;
      const [seat] = [...e.seats];
      assert.equal([...h.cards[seat]].sort().join(' '), [...e.cards][0], `hand ${k}: the cards of seat ${seat}`);
      checked++;
    }
    assert.ok(checked > 0, 'at least one hand checked against its counting');
    const seatsPlayed = new Set([...seen.values()].flatMap((e) => [...e.seats]));
    assert.deepEqual([...seatsPlayed].sort(), [1, 3], 'he played seat 3, then seat 1');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
