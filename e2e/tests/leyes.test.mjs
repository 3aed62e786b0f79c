// (4) The leyes page shows the same numbers as `tapete mus leyes`: the test runs the CLI
// (text and --json) and compares every cell of the page with it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { BASE, BIN, openBrowser } from '../lib.mjs';

function cli(args) {
  const text = execFileSync(BIN, ['mus', 'leyes', ...args], { encoding: 'utf8' });
  const json = JSON.parse(execFileSync(BIN, ['mus', 'leyes', ...args, '--json'], { encoding: 'utf8' }));
  return { text, json };
}

/** The "P(our pair)" table of the CLI's text: {`${lance} ${outcome}`: [cell per position]}. */
function textTable(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith('P(our pair)'));
  const rows = {};
  for (const l of lines.slice(start + 1)) {
    if (!l.trim()) break;
    const [lance, outcome, ...cells] = l.trim().split(/\s+/);
    rows[`${lance} ${outcome}`] = cells;
  }
  const players = {};
  const p0 = lines.findIndex((l) => l.startsWith('unknown player'));
  for (const l of lines.slice(p0 + 1)) {
    if (!l.trim()) break;
    const [who, pares, juego] = l.trim().split(/\s+/);
    players[who] = { pares, juego };
  }
  return { rows, players };
}

const CASES = [
  { name: 'a hand alone, every position', form: { hand: 'RRCA' }, args: ['RRCA'] },
  {
    name: 'with partner, declarations heard, one position',
    form: { hand: 'RC7A', partner: 'SS54', position: '1', decl: { 'pares-next': 'yes', 'pares-prev': 'no', 'juego-next': 'no' } },
    args: ['RC7A', '--partner', 'SS54', '--position', '1', '--pares', 'next=yes,prev=no', '--juego', 'next=no'],
  },
  {
    name: 'four cards in 4 reyes with 31 real',
    form: { hand: '12o 3c 7e 7b', mode: '4reyes', real31: true, decl: { 'juego-partner': 'yes' } },
    args: ['12o 3c 7e 7b', '--mode', '4reyes', '--real31', '--juego', 'partner=yes'],
  },
];

const ROWS = [['grande', 'win'], ['chica', 'win'], ['pares', 'win'], ['pares', 'lose'], ['pares', 'void'],
  ['juego', 'win'], ['juego', 'lose'], ['punto', 'win'], ['punto', 'lose']];
const value = (p, lance, outcome) => (typeof p[lance] === 'number' ? p[lance] : p[lance][outcome]);

test('the leyes page shows the numbers of `tapete mus leyes`', { timeout: 120000 }, async (t) => {
  const b = await openBrowser({ width: 1200, height: 1000 });
  const { page } = b;
  try {
    for (const c of CASES) {
      await t.test(c.name, async () => {
        const { text, json } = cli(c.args);
        const want = textTable(text);
        await page.goto(`${BASE}/leyes`);
        await page.getByTestId('hand-input').fill(c.form.hand);
        if (c.form.partner) await page.getByTestId('partner-input').fill(c.form.partner);
        if (c.form.mode) await page.getByTestId('mode').selectOption(c.form.mode);
        if (c.form.real31) await page.getByTestId('real31').check();
        if (c.form.position) await page.getByTestId('position').selectOption(c.form.position);
        for (const [k, v] of Object.entries(c.form.decl || {})) {
          const [what, who] = k.split('-');
          await page.getByTestId(`decl-${what}-${who}`).selectOption(v);
        }
        await page.getByTestId('compute').click();
        await page.waitForFunction((h) => document.querySelector('[data-testid="leyes-hand"]')?.textContent.startsWith(h), json.hand);

        assert.equal(json.positions.length, c.form.position ? 1 : 4);
        for (const [pi, p] of json.positions.entries()) {
          for (const [lance, outcome] of ROWS) {
            const cell = page.getByTestId(`ley-${p.position}-${lance}-${outcome}`);
            const shown = await cell.evaluate((e) => ({ value: e.dataset.value, text: e.firstChild.textContent }));
            assert.equal(Number(shown.value), value(p, lance, outcome), `${lance} ${outcome} at ${p.position}: value`);
            assert.equal(shown.text, want.rows[`${lance} ${outcome}`][pi], `${lance} ${outcome} at ${p.position}: as the CLI prints it`);
          }
          for (const side of ['us', 'them']) {
            for (const lance of ['grande', 'chica', 'pares', 'juego', 'punto']) {
              const v = await page.getByTestId(`piedras-${p.position}-${side}-${lance}`).getAttribute('data-value');
              assert.equal(Number(v), p.piedras[side][lance], `piedras ${side} ${lance} at ${p.position}`);
            }
          }
        }
        for (const pl of json.positions[0].players) {
          for (const what of ['pares', 'juego']) {
            const cell = page.getByTestId(`player-${pl.relation}-${what}`);
            assert.equal(Number(await cell.getAttribute('data-value')), pl[what]);
            assert.equal(await cell.textContent(), want.players[pl.relation][what], `${pl.relation} ${what}`);
          }
        }
        assert.equal(await page.getByTestId('leyes-chart').count(), 1, 'the chart is drawn');
      });
    }
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});

test('the leyes previews never show a card twice; the tables fit or scroll in their box', { timeout: 60000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  const { page } = b;
  try {
    await page.goto(`${BASE}/leyes`);
    for (const [hand, partner] of [['RRCA', 'RC7A'], ['RRRR', 'RRAA'], ['12o 3c 11e 1b', 'RCAA']]) {
      await page.getByTestId('hand-input').fill(hand);
      await page.getByTestId('partner-input').fill(partner);
      const ours = await page.getByTestId('hand-preview').locator('[data-card]').evaluateAll((cs) => cs.map((c) => c.dataset.card));
      const theirs = await page.getByTestId('partner-preview').locator('[data-card]').evaluateAll((cs) => cs.map((c) => c.dataset.card));
      assert.equal(ours.length, 4, `${hand}: ${ours}`);
      assert.equal(theirs.length, 4, `${partner}: ${theirs}`);
      assert.equal(new Set([...ours, ...theirs]).size, 8, `${hand} + ${partner}: no card twice (${ours} / ${theirs})`);
    }
    assert.deepEqual(
      await page.getByTestId('hand-preview').locator('[data-card]').evaluateAll((cs) => cs.map((c) => c.dataset.card)),
      ['12o', '3c', '11e', '1b'], 'cards written out are kept');

    for (const [width, height] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await page.goto(`${BASE}/leyes?hand=RRCA&partner=RC7A&position=all`);
      await page.getByTestId('piedras-table').waitFor();
      await page.waitForTimeout(100);
      const fit = await page.evaluate(() => ({
        page: document.scrollingElement.scrollWidth,
        boxes: [...document.querySelectorAll('.tablewrap')].map((w) => {
          const hint = w.nextElementSibling && w.nextElementSibling.matches('[data-testid="scroll-hint"]') ? w.nextElementSibling : null;
          return {
            table: w.querySelector('table').dataset.testid,
            overflows: w.scrollWidth > w.clientWidth + 1,
            hinted: !!hint && !hint.classList.contains('hidden') && w.classList.contains('scrolls'),
          };
        }),
      }));
      assert.ok(fit.page <= width, `${width}px: the page does not scroll sideways (${fit.page})`);
      for (const x of fit.boxes) assert.ok(!x.overflows || x.hinted, `${width}px: ${x.table} fits or shows it scrolls`);
      const main = fit.boxes.find((x) => x.table === 'leyes-table');
      assert.ok(!main.overflows, `${width}px: the odds table fits`);
      if (width === 1280) assert.ok(fit.boxes.every((x) => !x.overflows), '1280px: every table fits');
    }
    assert.deepEqual(b.errors, [], 'no script errors');
  } finally {
    await b.close();
  }
});
