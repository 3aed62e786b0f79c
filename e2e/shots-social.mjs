// Screenshots of the chat panel and the friends panel for a look by eye (not a test):
// node e2e/shots-social.mjs OUTDIR with TAPETE_URL set, at 1280×800 and 390×844.
import { openBrowser, register, createMusTable, BASE, closeBrowsers } from './lib.mjs';

const out = process.argv[2] || '/tmp/tapete-shots';
const sizes = [['desk', 1280, 800], ['phone', 390, 844]];

async function account(page, nickname) {
  await register(page, nickname);
  await page.evaluate(async (nickname) => {
    await fetch('/api/accounts', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('tapete.token')}` },
      body: JSON.stringify({ nickname, password: 'caballo de espadas' }),
    });
  }, nickname);
}

const api = (page, method, path, body) => page.evaluate(async ([method, path, body]) => {
  const r = await fetch(path, { method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('tapete.token')}` }, body: body ? JSON.stringify(body) : undefined });
  return r.json();
}, [method, path, body]);

for (const [name, width, height] of sizes) {
  const s = String(Date.now() % 100000);
  const a = await openBrowser({ width, height, locale: 'es-ES' });
  const b = await openBrowser({ width, height, locale: 'es-ES' });
  const c = await openBrowser({ width, height, locale: 'es-ES' });
  try {
    await account(a.page, `Ane${s}`);
    await account(b.page, `Bea${s}`);
    await account(c.page, `Cid${s}`);
    await api(a.page, 'POST', '/api/friends', { nickname: `Bea${s}` });
    await api(b.page, 'POST', '/api/friends', { nickname: `Ane${s}` });
    await api(c.page, 'POST', '/api/friends', { nickname: `Ane${s}` });
    await a.page.goto(`${BASE}/`);
    const id = await createMusTable(a.page);
    await a.page.getByTestId('start').click();
    await a.page.getByTestId('my-card').first().waitFor();
    await api(a.page, 'POST', `/api/tables/${id}/invitations`, { nickname: `Bea${s}` });
    await b.page.goto(`${BASE}/t/${id}`);
    await b.page.getByTestId('status').waitFor();
    if (!(await a.page.getByTestId('chat-lines').isVisible())) await a.page.getByTestId('chat-toggle').click();
    for (const text of ['buenas, ¿echamos un mus?', 'envido a la chica, que llevo dos reyes y un caballo y no me fío nada']) {
      await a.page.getByTestId('chat-input').fill(text);
      await a.page.getByTestId('chat-send').click();
      await a.page.waitForTimeout(300);
    }
    if (!(await b.page.getByTestId('chat-lines').isVisible())) await b.page.getByTestId('chat-toggle').click();
    await b.page.getByTestId('chat-tab-spectators').click();
    await b.page.getByTestId('chat-input').fill('<b>no</b> va a ganar');
    await b.page.getByTestId('chat-send').click();
    await a.page.waitForTimeout(500);
    await a.page.screenshot({ path: `${out}/${name}-chat-player.png`, fullPage: true });
    await a.page.getByTestId('chat').screenshot({ path: `${out}/${name}-chat-panel-player.png` });
    await b.page.screenshot({ path: `${out}/${name}-chat-spectator.png`, fullPage: true });
    await b.page.getByTestId('chat').screenshot({ path: `${out}/${name}-chat-panel-spectator.png` });
    await b.page.goto(`${BASE}/`);
    await b.page.getByTestId('invitation').waitFor();
    await b.page.screenshot({ path: `${out}/${name}-friends-lobby.png`, fullPage: true });
    await b.page.getByTestId('friends').screenshot({ path: `${out}/${name}-friends-panel.png` });
    console.log(name, 'errors:', a.errors, b.errors, c.errors);
  } finally {
    await a.close();
    await b.close();
    await c.close();
  }
}
await closeBrowsers();
