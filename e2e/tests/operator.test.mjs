// The operator's page: a server of the test's own with an operator (`--operator jefa`, an
// account made before it started). The operator, and only she, has "Operator" in the top
// bar; on /operador she suspends Ane from rated games with a reason, which the log shows;
// Ane's pages then show her the notice with that reason, and /operador is not for her.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openBrowser, serve, kill } from '../lib.mjs';

/** Makes an account on the server at `url`; answers its token. */
async function account(url, nickname) {
  const r = await fetch(`${url}/api/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ nickname, password: 'caballo de bastos' }),
  });
  const body = await r.json();
  assert.equal(r.status, 200, JSON.stringify(body));
  return body.token;
}

/** Opens `path` of the server at `url` as the person of `token`. */
async function visit(page, url, token, path) {
  await page.goto(`${url}/assets/favicon.svg`);
  await page.evaluate((t) => localStorage.setItem('tapete.token', t), token);
  await page.goto(`${url}${path}`);
}

test('the operator suspends an account from rated games on /operador, and its pages show why', { timeout: 120000 }, async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tapete-operator-'));
  const db = join(dir, 'o.db');
  // The operator must be an account before the server that names her starts.
  let server = await serve('127.0.0.1:0', db);
  const jefa = await account(server.url, 'jefa');
  const ane = await account(server.url, 'ane');
  await kill(server.proc);
  server = await serve('127.0.0.1:0', db, ['--operator', 'jefa']);
  const a = await openBrowser();
  const b = await openBrowser();
  const reason = 'Regala partidas puntuables a su pareja habitual';
  try {
    const op = a.page;
    await visit(op, server.url, jefa, '/operador');
    await op.getByTestId('nav-operator').waitFor({ state: 'attached' });
    await op.getByTestId('op-flags').waitFor();
    await op.getByTestId('op-tab-suspensions').click();
    await op.getByTestId('op-account').fill('ane');
    await op.getByTestId('op-scope').selectOption('rated');
    await op.getByTestId('op-reason').fill(reason);
    await op.getByTestId('op-suspend').click();
    const row = op.getByTestId('op-suspension').filter({ hasText: reason });
    await row.waitFor();
    assert.match(await row.innerText(), /ane/);
    assert.equal(await row.getAttribute('data-lifted'), 'false');
    // The log says so.
    await op.getByTestId('op-tab-log').click();
    await op.locator('[data-testid="op-log-row"][data-action="suspend"]').waitFor();

    // Ane's pages show her suspension and its reason; the operator's page is not hers.
    const p = b.page;
    await visit(p, server.url, ane, '/');
    const notice = p.getByTestId('suspension-notice');
    await notice.waitFor();
    assert.ok((await notice.innerText()).includes(reason), await notice.innerText());
    assert.equal(await p.getByTestId('nav-operator').count(), 0, 'no operator link for Ane');
    await p.goto(`${server.url}/history`);
    assert.ok((await p.getByTestId('suspension-notice').innerText()).includes(reason));
    await p.goto(`${server.url}/operador`);
    await p.getByTestId('op-refused').waitFor();
    const asked = await p.evaluate(async () => {
      const r = await fetch('/api/operator/suspensions', { headers: { Authorization: `Bearer ${localStorage.getItem('tapete.token')}` } });
      return { status: r.status, body: await r.json() };
    });
    assert.deepEqual([asked.status, asked.body.code], [403, 'not_operator']);
  } finally {
    await a.close();
    await b.close();
    await kill(server.proc);
    await rm(dir, { recursive: true, force: true });
  }
});
