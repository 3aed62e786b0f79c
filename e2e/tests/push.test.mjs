// Notices by Web Push and in the page, on a server of the test's own that takes a push
// service on 127.0.0.1 (`--push-loopback`), the push service being this file's.
//
// Headless Chromium has no push service of its own, so the browser's
// `PushManager.subscribe` is stood in for by one that answers a subscription whose keys
// this test holds (made here with Node's crypto) at its own push service. The rest is the
// real thing: the account page's switch asks for permission, registers the service worker,
// fetches the server's key and hands the subscription over; an invitation makes the server
// push an encrypted message there, which this test decrypts (RFC 8291, with Node's crypto)
// and whose VAPID signature it checks (RFC 8292) against the key of /api/push/key; the
// decrypted message is delivered to the service worker (DevTools' ServiceWorker domain),
// which shows it worded in Spanish; the open page, told by the worker, shows the notice in
// its title and a toast whose link opens the table. Turned off, the subscription is gone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import crypto from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, serve, kill, apiAs, makeAccount, befriend } from '../lib.mjs';

const b64url = (buf) => Buffer.from(buf).toString('base64url');

/** A push service on 127.0.0.1 that keeps what it is sent. */
async function pushService() {
  const got = [];
  const waiting = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201).end();
      for (const w of waiting.splice(0)) w();
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = server.address().port;
  return {
    port, got,
    endpoint: (name) => `http://127.0.0.1:${port}/push/${name}`,
    /** The next message at `/push/{name}` after the `n` already there. */
    async next(name, n = 0, timeout = 15000) {
      const end = Date.now() + timeout;
      for (;;) {
        const at = got.filter((g) => g.path === `/push/${name}`);
        if (at.length > n) return at[n];
        if (Date.now() > end) throw new Error(`no push at /push/${name}`);
        await new Promise((r) => { waiting.push(r); setTimeout(r, 200); });
      }
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Decrypts an aes128gcm body (RFC 8188) with the browser's key pair and auth secret (RFC 8291). */
function decrypt(body, ecdh, auth) {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const serverKey = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  assert.equal(idlen, 65, 'the key id is the server\'s ephemeral P-256 key');
  assert.ok(record.length <= rs, 'one record');
  const shared = ecdh.computeSecret(serverKey);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', shared, auth, info, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const d = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  d.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([d.update(record.subarray(0, record.length - 16)), d.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  assert.equal(plain[end], 2, 'the last record\'s delimiter');
  return plain.subarray(0, end).toString('utf8');
}

/** Checks `Authorization: vapid t=JWT, k=KEY` against the server's key and the endpoint's origin. */
function checkVapid(header, key, origin) {
  const m = /^vapid t=([^,\s]+),\s*k=([^,\s]+)$/.exec(header || '');
  assert.ok(m, `a VAPID header: ${header}`);
  const [, jwt, k] = m;
  assert.equal(k, key, 'k is the key of /api/push/key');
  const [h, c, s] = jwt.split('.');
  assert.equal(JSON.parse(Buffer.from(h, 'base64url')).alg, 'ES256');
  const claims = JSON.parse(Buffer.from(c, 'base64url'));
  const point = Buffer.from(k, 'base64url');
  const pub = crypto.createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) }, format: 'jwk' });
  assert.ok(crypto.verify('sha256', Buffer.from(`${h}.${c}`), { key: pub, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')), 'signed by the server\'s key');
  assert.equal(claims.aud, origin);
  const now = Date.now() / 1000;
  assert.ok(claims.exp > now && claims.exp <= now + 24 * 3600, `exp within 24 h: ${claims.exp}`);
}

/** An account of `nickname` for `page`, on the server at `url`. */
async function accountOn(page, url, nickname) {
  await page.goto(`${url}/assets/favicon.svg`);
  const token = await page.evaluate(async (n) => {
    const r = await fetch('/api/players', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ nickname: n }) });
    const p = await r.json();
    localStorage.setItem('tapete.token', p.token);
    return p.token;
  }, nickname);
  assert.ok(token);
  await makeAccount(page, nickname);
}

test('Web Push against the local endpoint', { timeout: 90000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tapete-push-'));
  const server = await serve('127.0.0.1:0', join(dir, 'p.db'), ['--push-loopback']);
  const service = await pushService();
  // The browser's side of the subscription: its P-256 key pair and auth secret.
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  const a = await openBrowser({ locale: 'es-ES' });
  const b = await openBrowser({ locale: 'es-ES', serviceWorkers: 'allow' });
  try {
    const suffix = String(Date.now() % 100000);
    const [ane, bea] = [`Zorro${suffix}`, `Lince${suffix}`];
    await accountOn(a.page, server.url, ane);
    await accountOn(b.page, server.url, bea);
    await befriend(a.page, ane, b.page, bea);

    // The stand-in for the browser's push service, kept across Bea's pages.
    await b.context.grantPermissions(['notifications'], { origin: server.url });
    await b.context.addInitScript(({ endpoint, p256dh, auth }) => {
      if (!('PushManager' in self)) return;
      const KEY = 'test.push.subscription';
      const make = (key) => ({
        endpoint, expirationTime: null, options: { userVisibleOnly: true, applicationServerKey: Uint8Array.from(key).buffer },
        toJSON() { return { endpoint, expirationTime: null, keys: { p256dh, auth } }; },
        async unsubscribe() { localStorage.removeItem(KEY); return true; },
      });
      PushManager.prototype.subscribe = async function (o) {
        const key = [...new Uint8Array(o.applicationServerKey)];
        localStorage.setItem(KEY, JSON.stringify(key));
        return make(key);
      };
      PushManager.prototype.getSubscription = async function () {
        const key = localStorage.getItem(KEY);
        return key ? make(JSON.parse(key)) : null;
      };
    }, { endpoint: service.endpoint('bea'), p256dh: b64url(ecdh.getPublicKey()), auth: b64url(auth) });

    // The account page's switch: off, then on; the subscription is handed to the server.
    await b.page.evaluate(() => localStorage.setItem('tapete.sound', 'on'));
    const baseline = b.page.waitForResponse((r) => r.url().includes('/api/notices'));
    await b.page.goto(`${server.url}/account`);
    await baseline;
    const sw = b.page.getByTestId('push-switch');
    await sw.waitFor();
    assert.equal(await sw.isChecked(), false);
    assert.equal((await b.page.getByTestId('push-state').textContent()).trim(), 'Desactivados en este navegador');
    const handed = b.page.waitForResponse((r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST');
    await sw.click();
    const res = await handed;
    assert.equal(res.status(), 200);
    assert.equal(JSON.parse(res.request().postData()).lang, 'es');
    await b.page.waitForFunction(() => document.querySelector('[data-testid="push-state"]')?.textContent === 'Activados en este navegador');
    assert.equal(await sw.isChecked(), true);
    const { key } = (await apiAs(b.page, 'GET', '/api/push/key')).body;
    assert.equal(b64url(Buffer.from(JSON.parse(await b.page.evaluate(() => localStorage.getItem('test.push.subscription'))))), key,
      'subscribed with the server\'s key');

    // Ane invites Bea: the server pushes it, encrypted for Bea's browser and signed.
    const made = await apiAs(a.page, 'POST', '/api/tables', { game: 'mus', private: true });
    assert.equal(made.status, 200);
    const table = made.body.id;
    assert.equal((await apiAs(a.page, 'POST', `/api/tables/${table}/invitations`, { nickname: bea })).status, 200);
    const pushed = await service.next('bea');
    assert.equal(pushed.headers['content-encoding'], 'aes128gcm');
    checkVapid(pushed.headers.authorization, key, `http://127.0.0.1:${service.port}`);
    const message = JSON.parse(decrypt(pushed.body, ecdh, auth));
    assert.equal(message.kind, 'invitation');
    assert.equal(message.url, `/t/${table}`);
    assert.equal(message.args.from, ane);
    assert.equal(message.lang, 'es');

    // Delivered to Bea's service worker, it is shown, worded in her language.
    const cdp = await b.context.newCDPSession(b.page);
    const registration = new Promise((resolve) => cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const r = registrations.find((x) => x.scopeURL === `${server.url}/` && !x.isDeleted);
      if (r) resolve(r.registrationId);
    }));
    await cdp.send('ServiceWorker.enable');
    const registrationId = await registration;
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data: JSON.stringify(message) });
    const shownNotices = () => b.page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url }));
    });
    let shown = [];
    for (let i = 0; i < 75 && shown.length === 0; i++) {
      shown = await shownNotices();
      if (shown.length === 0) await new Promise((r) => setTimeout(r, 200));
    }
    const [notification] = shown;
    assert.deepEqual(notification, {
      title: 'tapete', body: `${ane} te invita a su mesa de Mus`, tag: `notice-${message.id}`, url: `/t/${table}`,
    });

    // The open page, told by the worker, shows it: a count in its title, a chime, a toast.
    const toast = b.page.getByTestId('notice-toast');
    await toast.waitFor({ timeout: 15000 });
    assert.match(await toast.textContent(), new RegExp(`${ane} te invita a su mesa de Mus`));
    assert.match(await b.page.title(), /^\(1\) /);
    assert.equal(await b.page.evaluate(() => window.tapeteNotices.chimes), 1);
    assert.equal(await b.page.getByTestId('notice-open').getAttribute('href'), `/t/${table}`);
    await b.page.getByTestId('notice-open').click();
    await b.page.waitForURL(new RegExp(`/t/${table}$`));
    assert.doesNotMatch(await b.page.title(), /^\(\d+\) /);

    // Turned off: the server forgets the subscription, the browser drops it.
    await b.page.goto(`${server.url}/account`);
    await sw.waitFor();
    await b.page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('[data-testid="push-switch"]'))?.checked);
    const dropped = b.page.waitForResponse((r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'DELETE');
    await sw.click();
    const d = await dropped;
    assert.deepEqual(await d.json(), { removed: true });
    await b.page.waitForFunction(() => document.querySelector('[data-testid="push-state"]')?.textContent === 'Desactivados en este navegador');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
  } finally {
    await a.close();
    await b.close();
    await service.close();
    await kill(server.proc);
    await rm(dir, { recursive: true, force: true });
  }
});
