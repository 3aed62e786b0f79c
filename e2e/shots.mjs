// Screenshots of the pages for a look by eye (not a test): node e2e/shots.mjs OUTDIR
// with TAPETE_URL set. Plays a Mus table to the end of its first hand, and a 4-seat Chinchón
// table to its first count and on (the score sheet after a reload), at a desktop and a
// phone size.
import { openBrowser, register, createMusTable, createChinchonTable, playOne, playChinchon, waitChinchon, waitOffer, BASE } from './lib.mjs';

const out = process.argv[2] || '/tmp/tapete-shots';
const sizes = [['desk', 1280, 800], ['phone', 390, 844]];

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
