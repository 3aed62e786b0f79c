// The prisoner's solitaire page shows what `tapete odds solitaire` computes: the fraction,
// the types and the distribution as bars, updated when a parameter changes; bad values
// are said in words; the page fits a phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BASE, BIN, openBrowser } from '../lib.mjs';

/** `tapete odds solitaire ARGS --types --distribution --json`. */
function cli(args) {
  return JSON.parse(execFileSync(BIN, ['odds', 'solitaire', ...args, '--types', '--distribution', '--json'], { encoding: 'utf8' }));
}

/** Waits until the page shows this fraction. */
async function showsFraction(page, fraction) {
  await page.waitForFunction((f) => document.querySelector('[data-testid="fraction"]')?.dataset.value === f, fraction);
}

/** The chart's bars: [{left, value}]. */
async function bars(page) {
  return page.getByTestId('solitaire-chart').locator('rect').evaluateAll((rs) => rs.map((r) => ({
    left: Number(r.dataset.testid.replace('bar-', '')), value: Number(r.dataset.value),
  })));
}

async function checkAgainst(page, want, what = 'stacks') {
  await showsFraction(page, want.fraction);
  assert.equal(await page.getByTestId('fraction').locator('.num').textContent(), want.fraction.split('/')[0]);
  assert.equal(await page.getByTestId('fraction').locator('.den').textContent(), want.fraction.split('/')[1]);
  assert.equal(Number(await page.getByTestId('decimal').getAttribute('data-value')), want.probability);
  assert.equal(await page.getByTestId('types-table').locator('tbody tr').count(), want.types.length);
  const shown = await bars(page);
  assert.deepEqual(shown, want.distribution[what].map((b) => ({ left: b.left, value: b.probability })), `the ${what} bars`);
  assert.equal(await page.getByTestId('win-mark').count(), 1, 'the win bar is marked');
  assert.equal(shown[0].value, want.distribution[what][0].probability);
}

test('the solitaire page shows the odds of `tapete odds solitaire` and follows its parameters', { timeout: 120000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  const { page } = b;
  try {
    await page.goto(`${BASE}/`);
    await page.locator('.topbar nav a[href="/solitaire"]').click();
    await page.waitForURL(/\/solitaire/);
    // The defaults: 4 × 13, 13 on the table, 13 that count.
    for (const [k, v] of [['suits', '4'], ['values', '13'], ['board', '13'], ['pick', '13']]) {
      assert.equal(await page.getByTestId(`${k}-input`).inputValue(), v, k);
    }
    const classic = cli([]);
    assert.equal(classic.fraction, '964444044208/262190765217675');
    await checkAgainst(page, classic);
    assert.equal(await page.getByTestId('solitaire-chart').getAttribute('data-bars'), '14');

    // A bigger table: the fraction, the types and the bars follow, with no button pressed.
    await page.getByTestId('board-input').fill('20');
    const twenty = cli(['--board', '20', '--pick', '13']);
    await checkAgainst(page, twenty);
    assert.equal(new URL(page.url()).search, '?suits=4&values=13&board=20&pick=13', 'the address keeps the question');
    await page.getByTestId('show-cards').click();
    await checkAgainst(page, twenty, 'cards');
    assert.equal((await bars(page)).length, 21, 'no card to 20 cards left');
    // The real game's count is offered, and taken.
    await page.getByTestId('use-real-pick').click();
    await checkAgainst(page, cli(['--board', '20']), 'cards');
    assert.equal(await page.getByTestId('pick-input').inputValue(), '10');

    // Bad values are said in words; the last answer stays, faded.
    for (const [field, value, want] of [
      ['board', '60', 'the table cannot take 60 cards from a deck of 52'],
      ['suits', 'x', 'not a whole number'],
      ['values', '', 'give a whole number'],
    ]) {
      await page.goto(`${BASE}/solitaire`);
      await showsFraction(page, classic.fraction);
      await page.getByTestId(`${field}-input`).fill(value);
      await page.getByTestId('compute').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="solitaire-error"]').textContent !== '');
      const error = await page.getByTestId('solitaire-error').textContent();
      assert.ok(error.includes(want), `${field}=${value}: "${error}" says "${want}"`);
      assert.ok(await page.getByTestId('solitaire-result').evaluate((r) => r.classList.contains('stale')));
    }
    await page.getByTestId('values-input').fill('100');
    await page.getByTestId('compute').click();
    await page.waitForFunction(() => document.querySelector('[data-testid="solitaire-error"]').textContent.includes('400 cards'));
    assert.match(await page.getByTestId('solitaire-error').textContent(), /at most 208 cards/);
    // Fixed, the error goes and the answer is fresh again.
    await page.getByTestId('values-input').fill('13');
    await page.waitForFunction(() => document.querySelector('[data-testid="solitaire-error"]').textContent === ''
      && !document.querySelector('[data-testid="solitaire-result"]').classList.contains('stale'));
    await checkAgainst(page, classic);
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});

test('the solitaire page fits a phone, long fractions wrapping', { timeout: 60000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  const { page } = b;
  try {
    for (const q of ['', '?suits=4&values=52&board=26&pick=60']) {
      await page.goto(`${BASE}/solitaire${q}`);
      const want = q ? cli(['--suits', '4', '--values', '52', '--board', '26', '--pick', '60']) : cli([]);
      await showsFraction(page, want.fraction);
      const fit = await page.evaluate(() => {
        const f = document.querySelector('[data-testid="fraction"]').getBoundingClientRect();
        const c = document.querySelector('[data-testid="solitaire-chart"]').getBoundingClientRect();
        return { page: document.scrollingElement.scrollWidth, fraction: f.right, chart: c.right, width: innerWidth };
      });
      assert.ok(fit.page <= 390, `${q}: the page does not scroll sideways (${fit.page})`);
      assert.ok(fit.fraction <= fit.width && fit.chart <= fit.width, `${q}: ${JSON.stringify(fit)}`);
    }
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
