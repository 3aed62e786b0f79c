// Screenshots of the pages for a look by eye (not a test): node e2e/shots.mjs OUTDIR
// with TAPETE_URL set. Plays a Mus table to the end of its first hand, a 4-seat Chinchón
// table to its first count and on (the score sheet after a reload), and a 4-seat tikki
// table through a trick being laid, a reveal, the retreat step and the end of the round, at
// two desktop sizes (1280×800, 1366×768) and a phone size.
import {
  openBrowser, register, createMusTable, createChinchonTable, createTikkiTable, playOne, playChinchon, playTikki,
  waitChinchon, waitOffer, waitTikki, state, BASE, closeBrowsers,
} from './lib.mjs';

const out = process.argv[2] || '/tmp/tapete-shots';
const sizes = [['desk', 1280, 800], ['wide', 1366, 768], ['phone', 390, 844]];

for (const [name, width, height] of sizes) {
  const b = await openBrowser({ width, height });
  const { page } = b;
  try {
    await register(page, 'Ane');
    await page.screenshot({ path: `${out}/${name}-lobby.png`, fullPage: true });
    await createMusTable(page, { pace: '0' });
    await page.screenshot({ path: `${out}/${name}-waiting.png` });
    await page.getByTestId('start').click();
    await page.getByTestId('my-card').first().waitFor();
    await page.screenshot({ path: `${out}/${name}-playing.png` });
    const memo = {};
    for (let i = 0; i < 200; i++) {
      const what = await waitOffer(page);
      if (what === 'next' || what === 'over') break;
      await playOne(page, memo);
    }
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/${name}-counting.png` });
    await page.screenshot({ path: `${out}/${name}-counting-full.png`, fullPage: true });
    await page.goto(`${BASE}/leyes?hand=RRCA&partner=RC7A&mode=8reyes&position=all`);
    await page.getByTestId('leyes-table').waitFor();
    await page.screenshot({ path: `${out}/${name}-leyes.png`, fullPage: true });
    await page.goto(`${BASE}/solitaire`);
    await page.getByTestId('solitaire-chart').waitFor();
    await page.screenshot({ path: `${out}/${name}-solitaire.png`, fullPage: true });
    await page.goto(`${BASE}/history`);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${out}/${name}-history.png`, fullPage: true });
    console.log(name, 'errors:', b.errors);
  } finally {
    await b.close();
  }
}

for (const [name, width, height] of sizes) {
  const b = await openBrowser({ width, height });
  const { page } = b;
  try {
    await register(page, 'Ane');
    await createChinchonTable(page, { seats: 4, target: 50 });
    await page.getByTestId('start').click();
    await page.getByTestId('my-card').first().waitFor();
    await page.screenshot({ path: `${out}/${name}-chinchon-playing.png` });
    const memo = {};
    let discard = false;
    for (let i = 0; i < 300; i++) {
      const what = await waitChinchon(page);
      if (what === 'discard' && !discard) { discard = true; await page.screenshot({ path: `${out}/${name}-chinchon-discard.png` }); }
      if (what === 'lay') await page.screenshot({ path: `${out}/${name}-chinchon-lay.png` });
      if (what === 'next' || what === 'over') break;
      await playChinchon(page, memo);
    }
    await page.screenshot({ path: `${out}/${name}-chinchon-count.png`, fullPage: true });
    // Two more hands, then the page reloaded: the score sheet comes back whole.
    for (let hands = 0, i = 0; hands < 2 && i < 600; i++) {
      const what = await waitChinchon(page);
      if (what === 'over') break;
      if (what === 'next') hands++;
      await playChinchon(page, memo);
    }
    await page.reload();
    await page.getByTestId('score-sheet').waitFor();
    await page.screenshot({ path: `${out}/${name}-chinchon-sheet.png`, fullPage: true });
    console.log(name, 'chinchón errors:', b.errors);
  } finally {
    await b.close();
  }
}

for (const [name, width, height] of sizes) {
  const b = await openBrowser({ width, height });
  const { page } = b;
  try {
    await register(page, 'Ane');
    await createTikkiTable(page, { seats: 4, top: 13, rounds: 1, retreat: true, pace: '250' });
    await page.getByTestId('start').click();
    await page.getByTestId('my-card').first().waitFor();
    const memo = {};
    const shot = (what, full = true) => page.screenshot({ path: `${out}/${name}-tikki-${what}.png`, fullPage: full });
    let laying = false;
    let revealed = false;
    let retreat = false;
    for (let i = 0; i < 300; i++) {
      const what = await waitTikki(page);
      const st = await state(page);
      if (!revealed && st.view.tricks.length > 0 && what === 'lay') {
        revealed = true;
        await page.waitForTimeout(1200); // the cards turned over, the winner marked
        await shot('reveal');
      }
      if (what === 'lay' && !laying && st.view.laid_counts.some((n) => n > 0)) {
        laying = true;
        const best = page.getByTestId('pick-best');
        if (await best.count()) {
          await best.click();
          await shot('lay');
          await page.getByTestId('clear').click();
        }
      }
      if (what === 'retreat' && !retreat) {
        retreat = true;
        const first = page.getByTestId('my-laid').first();
        await first.click();
        await shot('retreat');
        await first.click();
      }
      if (what === 'next' || what === 'over') { await page.waitForTimeout(300); await shot('end'); break; }
      await playTikki(page, memo);
    }
    console.log(name, 'tikki errors:', b.errors, 'page width:', await page.evaluate(() => document.documentElement.scrollWidth));
  } finally {
    await b.close();
  }
}

await closeBrowsers();
