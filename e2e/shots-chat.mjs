// Screenshots of the table's chat while people play, for a look by eye (not a test):
// node e2e/shots-chat.mjs OUTDIR with TAPETE_URL set. Two people in Spanish at a private
// table of each game (Mus for four, Chinchón for two, tikki for three, the other seats
// bots): Bea writes, says a quick phrase and a reaction; Ane's page is taken during the
// hand (on narrow screens also with the quick words' tray and the chat's sheet open) and at
// the game's end, at 390×844, 768×1024, 1280×800 and 1920×1080. SIZES and GAMES (comma
// lists) narrow it down.
import {
  openBrowser, guest, apiAs, BASE, closeBrowsers, playOne, playChinchon, playTikki,
} from './lib.mjs';

const out = process.argv[2] || '/tmp/tapete-shots';
const ALL = { phone: [390, 844], tablet: [768, 1024], laptop: [1280, 800], wide: [1920, 1080] };
const sizes = (process.env.SIZES || Object.keys(ALL).join(',')).split(',');
const games = (process.env.GAMES || 'mus,chinchon,tikki').split(',');
const TABLES = {
  mus: { seats: 4, rules: { target: 30, juegos: 1, vacas: 1 } },
  chinchon: { seats: 2, rules: { target: 30 } },
  tikki: { seats: 3, rules: { top: 7, rounds: 1 } },
};
const PLAY = { mus: playOne, chinchon: playChinchon, tikki: playTikki };

for (const game of games) {
  for (const size of sizes) {
    const [width, height] = ALL[size];
    const a = await openBrowser({ width, height, locale: 'es-ES' });
    const b = await openBrowser({ width: 1280, height: 800, locale: 'es-ES' });
    const shot = (what) => a.page.screenshot({ path: `${out}/${game}-${size}-${what}.png` });
    try {
      await guest(a.page, 'Ane');
      await guest(b.page, 'Bea');
      const { body: made } = await apiAs(a.page, 'POST', '/api/tables', { game, ...TABLES[game], pace_ms: 0, turn_s: 0, private: true });
      await b.page.goto(`${BASE}/t/${made.id}?invite=${made.invite}`);
      await b.page.getByTestId('sit-1').click();
      await b.page.waitForFunction(() => window.tapete?.state?.you?.seat === 1);
      await a.page.goto(`${BASE}/t/${made.id}?invite=${made.invite}`);
      await a.page.getByTestId('status').waitFor();
      if (await a.page.getByTestId('start').count()) await a.page.getByTestId('start').click();
      await a.page.getByTestId('my-card').first().waitFor();
      for (const text of ['¡Buenas! ¿Echamos una?', 'Vaya mano me ha tocado', 'envido a la chica, que llevo dos reyes y un caballo']) {
        await b.page.getByTestId('chat-input').fill(text);
        await b.page.getByTestId('chat-send').click();
        await b.page.waitForTimeout(200);
      }
      await b.page.locator('[data-testid="chat-phrase"][data-key="vaya"]').click();
      await a.page.waitForTimeout(300);
      await shot('phrase');
      await b.page.locator('[data-testid="chat-react"][data-text="😂"]').click();
      await a.page.waitForTimeout(300);
      await shot('hand');
      if (width <= 900) {
        await a.page.getByTestId('chat-quick-toggle').click();
        await shot('tray');
        await a.page.getByTestId('chat-quick-toggle').click();
        await a.page.getByTestId('chat-toggle').click();
        await shot('sheet');
        await a.page.getByTestId('chat-close').click();
      }
      // Bea leaves (the bot plays for her); Ane plays to the end.
      await b.close();
      const memo = {};
      for (let i = 0; i < 2000; i++) if ((await PLAY[game](a.page, memo)).over) break;
      await a.page.waitForTimeout(500);
      await shot('end');
      console.log(game, size, 'errors:', a.errors);
    } finally {
      await a.close();
      await b.close();
    }
  }
}
await closeBrowsers();
