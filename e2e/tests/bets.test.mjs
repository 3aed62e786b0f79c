// The envido picker starts at the minimum at every new bet (a 4 chosen once does not stick to
// later envidos); an órdago sits apart from the + button on a phone and asks a second tap.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openBrowser, register, createMusTable, playOne, waitOffer, state } from '../lib.mjs';

/** Plays on until this page may open a bet (the envido picker is offered); answers the state. */
async function playToPicker(page, memo) {
  for (let i = 0; i < 600; i++) {
    const what = await waitOffer(page);
    if (what === 'over') throw new Error('the match ended before an envido');
    if (what === 'act' && await page.getByTestId('envido-picker').count()) return state(page);
    await playOne(page, memo);
  }
  throw new Error('no envido offered within 600 decisions');
}

const pickerAction = (page, kind) => page.locator(`[data-testid="${kind}-picker"] [data-testid="action"]`).getAttribute('data-action');
const minimum = (legal, kind) => Math.min(...legal.filter((a) => a.startsWith(`${kind} `)).map((a) => Number(a.split(' ')[1])));

test('the envido amount resets after each bet; órdago apart and confirmed', { timeout: 180000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  try {
    const { page } = b;
    const sent = [];
    page.on('websocket', (ws) => ws.on('framesent', (f) => { try { sent.push(JSON.parse(String(f.payload))); } catch { /* not JSON */ } }));
    await register(page, 'Ane');
    await createMusTable(page, { pace: '0', juegos: '3' });
    await page.getByTestId('start').click();
    const memo = { saidMus: true };

    // A first envido, raised with + to two steps above the minimum.
    let st = await playToPicker(page, memo);
    const min = minimum(st.legal, 'envido');
    assert.equal(await pickerAction(page, 'envido'), `envido ${min}`, 'the picker starts at the minimum');
    await page.getByTestId('amount-up').click();
    await page.getByTestId('amount-up').click();
    const raised = await pickerAction(page, 'envido');
    assert.equal(raised, `envido ${min + 2}`);
    await page.locator(`[data-testid="action"][data-action="${raised}"]`).click();
    await page.waitForFunction((n) => window.tapete.state.n > n, st.n);

    // The next bet of ours starts from the minimum again (a reenvido too, if one comes first).
    for (let i = 0; i < 600; i++) {
      const what = await waitOffer(page);
      assert.notEqual(what, 'over', 'the match ended before another envido');
      if (what === 'act' && await page.getByTestId('reenvido-picker').count()) {
        const now = await state(page);
        assert.equal(await pickerAction(page, 'reenvido'), `reenvido ${minimum(now.legal, 'reenvido')}`, 'a reenvido starts at the minimum');
      }
      if (what === 'act' && await page.getByTestId('envido-picker').count()) break;
      await playOne(page, memo);
    }
    st = await state(page);
    assert.equal(await pickerAction(page, 'envido'), `envido ${minimum(st.legal, 'envido')}`, 'the next envido starts at the minimum');

    // Órdago: on a phone, not next to +; one tap only arms it, the second plays it.
    const ordago = page.locator('[data-testid="action"][data-action="órdago"]');
    // Both boxes from one drawing of the page (a new frame may redraw the bar in between).
    const { plus, o } = await page.waitForFunction(() => {
      const p = document.querySelector('[data-testid="amount-up"]');
      const a = document.querySelector('[data-testid="action"][data-action="órdago"]');
      if (!p || !a) return null;
      const box = (e) => { const r = e.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
      return { plus: box(p), o: box(a) };
    }).then((h) => h.jsonValue());
    const apart = o.y >= plus.y + plus.height + 12 || o.x >= plus.x + plus.width + 24 || o.x + o.width <= plus.x - 24;
    assert.ok(apart, `órdago apart from +: ${JSON.stringify({ plus, o })}`);
    // The page's timers run on a clock the test moves: a first tap's whole arm (4 s) passes
    // in one step, and it runs out. Only then is the órdago armed again and confirmed: the
    // one act it sends must be the only órdago sent since the first tap (frames are seen in
    // the order they were sent), so nothing the first tap or its timer sent can pass late.
    await page.clock.install();
    const before = sent.length;
    await ordago.click();
    assert.match(await ordago.textContent(), /seguro/i, 'it asks to confirm');
    await page.clock.runFor(4200);
    await page.waitForFunction(() => document.querySelector('[data-testid="action"][data-action="órdago"]')?.getAttribute('aria-pressed') === 'false');
    await ordago.click();
    assert.match(await ordago.textContent(), /seguro/i, 'armed again');
    await ordago.click();
    await page.waitForFunction((n) => window.tapete.state.n > n, st.n);
    const ordagos = sent.slice(before).filter((m) => m.type === 'act' && m.action === 'órdago');
    assert.equal(ordagos.length, 1, 'one tap (nor its arm running out) sends nothing; the confirmed one plays it');
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
