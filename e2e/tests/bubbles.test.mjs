// Readable pace: at the bots' normal pace a Mus hand goes by in seconds, and every speech
// bubble still stays up long enough to read (at least 1.5 s, more for more words), each
// seat's words in turn; a declaration (pares sí) shows once at its seat, as a chip.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createMusTable, playOne } from '../lib.mjs';

const MIN_MS = 1500;
const WORD_MS = 300;

/**
 * The bubbles of the log that came and went while their hand went on, each with how long it
 * was up (from when the page says it came up, or was first seen, to the first look that no
 * longer sees it); a bubble that went with its hand (the counting took the felt, or a new
 * hand began) or is still up is not judged.
 */
function judge(log) {
  const seen = new Map();
  log.forEach((s, i) => {
    for (const x of s.said) {
      const k = seen.get(x.id) || { text: x.text, first: x.since || s.t, last: s.t, lastIndex: i };
      k.last = s.t; k.lastIndex = i;
      seen.set(x.id, k);
    }
  });
  const out = [];
  for (const [id, k] of seen) {
    const next = log[k.lastIndex + 1];
    if (!next || next.counting || next.hand !== log[k.lastIndex].hand) continue;
    out.push({ id, text: k.text, shown: next.t - k.first, words: k.text.trim().split(/\s+/).length });
  }
  return out;
}

test('Mus at the normal pace: every bubble stays up long enough to read, declarations once', { timeout: 120000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  try {
    const { page } = b;
    await register(page, 'Ane');
    await createMusTable(page, { pace: '700', juegos: '3' });
    // Every 25 ms: each bubble on the felt (by its utterance), whether a counting is up, the hand.
    await page.evaluate(() => {
      window.bubbleLog = [];
      setInterval(() => {
        const v = window.tapete && window.tapete.state && window.tapete.state.view;
        window.bubbleLog.push({
          t: Date.now(),
          hand: v ? `${v.game_number}.${v.hand_number}` : '',
          counting: !!document.querySelector('[data-testid="counting"]'),
          // A seat's bubble and its chips (pares sí, juego no…): what a bubble repeats of its chips.
          twice: [...document.querySelectorAll('.plate')].flatMap((p) => {
            const bubble = p.querySelector('.bubble');
            const chips = [...p.querySelectorAll('.chip')].map((c) => c.textContent);
            return bubble && chips.includes(bubble.textContent) ? [bubble.textContent] : [];
          }),
          declared: document.querySelectorAll('.plate .chip.yes, .plate .chip.no').length,
          said: [...document.querySelectorAll('[data-testid^="said-"]')].map((e) => ({ id: e.dataset.said || `${e.dataset.testid}:${e.textContent}`, text: e.textContent, since: Number(e.dataset.since) || 0 })),
        });
      }, 25);
    });
    await page.getByTestId('start').click();
    // Played at the bots' pace, real time, until a counting has shown enough bubbles come and
    // go (and declarations) to judge, or two countings.
    const memo = {};
    const until = Date.now() + 45000;
    let seenCountings = 0;
    while (Date.now() < until && (memo.countings || 0) < 2) {
      const r = await playOne(page, memo);
      if (r.over) break;
      if ((memo.countings || 0) > seenCountings) {
        seenCountings = memo.countings;
        const log = await page.evaluate(() => window.bubbleLog);
        if (judge(log).length >= 6 && log.some((x) => x.declared > 0)) break;
      }
    }
    const log = await page.evaluate(() => window.bubbleLog);
    const judged = judge(log);
    for (const j of judged) {
      assert.ok(j.shown >= MIN_MS + WORD_MS * j.words - 30, `bubble ${j.id} "${j.text}" was up ${Math.round(j.shown)} ms, under ${MIN_MS + WORD_MS * j.words} ms`);
    }
    assert.ok(judged.length >= 6, `bubbles replaced while the hand went on: ${judged.length}`);
    // A declaration is said once at its seat: its chip, no bubble repeating it.
    assert.ok(log.some((s) => s.declared > 0), 'declarations were seen');
    const twice = log.filter((s) => s.twice.length);
    assert.equal(twice.length, 0, `shown twice at a seat: ${twice.slice(0, 3).map((s) => s.twice.join(', ')).join(' / ')}`);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
