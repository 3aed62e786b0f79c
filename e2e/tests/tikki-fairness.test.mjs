// Tikki fairness: at a 3-seat table two people (seats 0 and 1, a bot in seat 2) play a
// round through their pages, the retreat round on, and each sees only their own hand. Every
// WebSocket frame each page receives is recorded: once playing, a seat's own cards only,
// and none of the other person's hidden cards — their hand, and the cards they laid face
// down this trick — in the view, the narration of the round, anywhere; the retreat
// round's shown cards and the revealed tricks are public. The page shows no more than that,
// and asks the server for nothing but its own moves (no replay, no other seat).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, register, createTikkiTable, playTikki, tikkiOfferNow, state } from '../lib.mjs';

const CARD = /^(1[0-3]|[1-9])[SHDC]$/;

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

/** The cards of `view`'s seat nobody else has seen: its hand and its laid cards still face down. */
function privateCards(view) {
  const shown = new Set((view.revealed || [])[view.seat] || []);
  return [...view.hand, ...view.laid.filter((c) => !shown.has(c))];
}

/** A frame as far as this round goes: no earlier round's results, and only this round's narration. */
function thisRound(f) {
  const v = f.view;
  const start = (f.lines || []).map((l) => l.key === 'story.tikki.round_dealt' && l.args.round.num === v.round).lastIndexOf(true);
  return { ...f, view: { ...v, history: [] }, lines: start >= 0 ? f.lines.slice(start) : f.lines };
}

test('Tikki fairness: two people at a 3-seat table each see only their own hand', { timeout: 180000 }, async () => {
  const a = await openBrowser();
  const b = await openBrowser({ width: 390, height: 844 });
  const frames = [[], []];
  const sent = [[], []];
  const asked = [[], []];
  for (const [i, x] of [a, b].entries()) {
    x.page.on('websocket', (ws) => {
      ws.on('framereceived', (f) => { try { frames[i].push(JSON.parse(String(f.payload))); } catch { /* not JSON */ } });
      ws.on('framesent', (f) => { try { sent[i].push(JSON.parse(String(f.payload))); } catch { sent[i].push({ type: 'not json' }); } });
    });
    x.page.on('request', (r) => asked[i].push(new URL(r.url()).pathname));
  }
  try {
    await register(a.page, 'Ane');
    const id = await createTikkiTable(a.page, { seats: 3, top: 7, rounds: 1, retreat: true });
    await b.page.goto(`${BASE}/t/${id}`);
    await b.page.getByTestId('nickname').fill('Mikel');
    await b.page.getByTestId('nickname-save').click();
    await b.page.getByTestId('sit-1').click();
    await b.page.waitForFunction(() => window.tapete?.state?.you?.seat === 1);
    await a.page.waitForFunction(() => window.tapete?.state?.table?.seats[1]?.player?.nickname === 'Mikel');
    for (const x of [a, b]) assert.equal(await x.page.locator('[data-testid="game"] [data-card]').count(), 0, 'no card shown before the start');
    await a.page.getByTestId('start').click();
    for (const x of [a, b]) await x.page.waitForFunction(() => window.tapete.state.view.hand.length === 7);

    const pages = [a.page, b.page];
    const seats = [0, 1];
    const memos = [{}, {}];
    let domChecks = 0;
    const deadline = Date.now() + 150000;
    let last = '';
    for (;;) {
      const sts = await Promise.all(pages.map(state));
      assert.ok(Date.now() < deadline, `not in time: ${last}`);
      last = JSON.stringify(sts.map((st) => ({ n: st.n, status: st.table.status, phase: st.view.phase, turn: st.view.turn, hold: st.hold })));
      if (sts.some((st) => st.table.status === 'finished')) break;

      // What Ane's page shows holds none of Mikel's hidden cards, and the other way round.
      if (sts[0].n === sts[1].n) {
        for (const [i, j] of [[0, 1], [1, 0]]) {
          const theirs = new Set(privateCards(sts[j].view));
          const shown = await pages[i].$$eval('[data-testid="game"] [data-card]', (cs) => cs.map((c) => c.dataset.card));
          if ((await state(pages[i])).n !== sts[i].n) continue;
          for (const c of shown) assert.ok(!theirs.has(c), `page ${i} shows ${c}, a hidden card of the other person`);
          domChecks++;
        }
      }

      const offers = await Promise.all(pages.map(tikkiOfferNow));
      last += ` offers ${JSON.stringify(offers)}`;
      let acted = false;
      for (const [i, page] of pages.entries()) {
        if (offers[i] && offers[i] !== 'over') { await playTikki(page, memos[i]); acted = true; }
      }
      if (!acted) await new Promise((r) => setTimeout(r, 50));
    }
    assert.ok(domChecks > 5, `pages checked: ${domChecks}`);
    assert.ok(memos.every((m) => m.lays > 0), 'both people laid cards');

    // ---- the frames ----
    let laidHidden = 0;
    for (const [i, seat] of seats.entries()) {
      const states = frames[i].filter((f) => f.type === 'state');
      assert.ok(states.length > 10, `states recorded: ${states.length}`);
      for (const f of states) {
        assert.ok(!hasKey(f, 'hands') && !hasKey(f, 'stock_cards'), 'no hidden part of the game in a frame');
        if (f.table.status === 'waiting') {
          assert.deepEqual(f.view.hand, [], 'no hand before the start');
          continue;
        }
        assert.equal(f.view.seat, seat, 'a person gets their own seat\'s view');
        assert.equal(f.view.hand.length, f.view.hand_sizes[seat], 'their whole hand, as many cards as the seat holds');
        assert.ok(f.view.laid.every((c) => typeof c === 'string'), 'their own laid cards, not every seat\'s');
        assert.equal(f.view.laid.length, f.view.laid_counts[seat], 'all their own laid cards');
      }
    }
    // Frame by frame at the same point of the game: none of the other's hidden cards.
    const byN = frames.map((fs) => new Map(fs.filter((f) => f.type === 'state' && f.table.status === 'playing').map((f) => [f.n, f])));
    let compared = 0;
    for (const [i, j] of [[0, 1], [1, 0]]) {
      for (const [n, f] of byN[i]) {
        const other = byN[j].get(n);
        if (!other) continue;
        const theirs = new Set(privateCards(other.view));
        if (other.view.laid.length > other.view.revealed[seats[j]].length) laidHidden++;
        for (const c of cardsIn(thisRound(f))) {
          assert.ok(!theirs.has(c), `frame ${n} to seat ${seats[i]} names ${c}, which only seat ${seats[j]} knows`);
        }
        compared++;
      }
    }
    assert.ok(compared > 10, `frames compared: ${compared}`);
    assert.ok(laidHidden > 0, 'frames were compared while a person had cards face down on the table');

    // The pages asked for nothing but their own moves (and gave their contribution to the
    // deal): no replay, no other seat's view.
    const allowed = new Set(['ping', 'act', 'next', 'sit', 'start', 'stand', 'contribute']);
    for (const [i, msgs] of sent.entries()) {
      for (const m of msgs) assert.ok(allowed.has(m.type), `page ${i} sent ${JSON.stringify(m)}`);
      assert.ok(!msgs.some((m) => m.type === 'sit' && m.seat !== seats[i]), 'each sat in its own seat only');
    }
    for (const [i, paths] of asked.entries()) {
      assert.deepEqual(paths.filter((p) => /replay|\/api\/tools/.test(p)), [], `page ${i} asked for no replay or tool`);
    }
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});
