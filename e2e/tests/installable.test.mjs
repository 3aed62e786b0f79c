// An installable web app: every page links the manifest, its icons are served, a service
// worker takes the site, and with the server down a page shows the offline page, in the
// person's language, with a way back.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BASE, openBrowser, serve, kill } from '../lib.mjs';

test('installable: a manifest with its icons, a service worker, an offline page', { timeout: 60000 }, async () => {
  const b = await openBrowser({ locale: 'es-ES', serviceWorkers: 'allow' });
  try {
    const { page } = b;
    for (const path of ['/', '/history', '/solitaire', '/account']) {
      await page.goto(`${BASE}${path}`);
      assert.equal(await page.$eval('link[rel="manifest"]', (l) => l.getAttribute('href')), '/assets/manifest.webmanifest', `${path} links the manifest`);
    }
    const res = await fetch(`${BASE}/assets/manifest.webmanifest`);
    assert.equal(res.headers.get('content-type'), 'application/manifest+json');
    const m = await res.json();
    assert.equal(m.start_url, '/');
    assert.equal(m.display, 'standalone');
    assert.ok(m.name && m.short_name);
    const sizes = m.icons.filter((i) => i.type === 'image/png').map((i) => i.sizes);
    assert.ok(sizes.includes('192x192') && sizes.includes('512x512'), JSON.stringify(sizes));
    for (const icon of m.icons) {
      const r = await fetch(`${BASE}${icon.src}`);
      assert.equal(r.status, 200, icon.src);
      assert.equal(r.headers.get('content-type'), icon.type, icon.src);
      if (icon.type === 'image/png') {
        const png = Buffer.from(await r.arrayBuffer());
        const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
        assert.equal(`${w}x${h}`, icon.sizes, `${icon.src} is as big as it says`);
      }
    }

    // The service worker takes the site; with the server down, a page is the offline page,
    // in Spanish; once the server is back, "Reintentar" gets there. (A server of this test's
    // own, on its own port, so that stopping it stops nobody else's.)
    const dir = await mkdtemp(join(tmpdir(), 'tapete-offline-'));
    const db = join(dir, 'tapete.db');
    let server = await serve('127.0.0.1:0', db);
    const port = new URL(server.url).port;
    try {
      await page.goto(`${server.url}/`);
      const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
      assert.equal(scope, `${server.url}/`);
      await page.reload();
      assert.ok(await page.evaluate(() => !!navigator.serviceWorker.controller), 'the page is the worker\'s');
      await kill(server.proc);
      await page.goto(`${server.url}/history`);
      await page.getByTestId('offline').waitFor();
      await page.waitForFunction(() => document.title.startsWith('Sin conexión'));
      assert.equal(await page.getByTestId('offline-retry').textContent(), 'Reintentar');
      server = await serve(`127.0.0.1:${port}`, db);
      await page.getByTestId('offline-retry').click();
      await page.getByTestId('nav').waitFor();
      assert.equal(new URL(page.url()).pathname, '/history');
      assert.equal(await page.getByTestId('offline').count(), 0);
    } finally {
      await kill(server.proc);
      await rm(dir, { recursive: true, force: true });
    }
    assert.deepEqual(b.errors, []);
  } finally {
    await b.close();
  }
});
