// The review page (crates/server/assets/review.js): a rated game ends, and its review opens
// from the game's end in one click, with its marked decisions, the graph, the filter, the
// keyboard and the other seats' reviews on request; from the history too. A stranger gets
// no review of a private table (the API refuses, the page says so in Spanish). "Learn from
// your mistakes" shows each position only as the seat saw it: every card on the page is in
// that seat's view at that action, as the server gives it. Spanish and English words, no
// raw keys.
//
// A casual Mus game and a Chinchón one are reviewed on request, their positions checked
// the same way. The other games are rated tikki games of two seats (they end in a second), where the person
// lays every card in hand each time: a play that gives the rival whole tricks, which the
// review marks as mistakes and blunders. A game is only a deal of the cards, though, so one
// may mark nothing: the tests then play another, up to three.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, openBrowser, guest, makeAccount, apiAs } from '../lib.mjs';

/**
 * A rated tikki game of two seats (the bot at seat 1) played out by the page's person,
 * laying every card in hand each turn; answers the table's id.
 */
async function playRated(page) {
  const made = await apiAs(page, 'POST', '/api/tables', { game: 'tikki', seats: 2, rated: true, start: true, pace_ms: 0, hold_s: 0 });
  assert.equal(made.status, 200, JSON.stringify(made.body));
  await playOut(page, made.body.id);
  return made.body.id;
}

/**
 * Plays table `id` out from its page (the person's seat), every card laid each turn, over
 * a socket of the test's own beside the page's.
 */
async function playOut(page, id, invite = '', varied = false) {
  await page.goto(`${BASE}/t/${id}${invite ? `?invite=${invite}` : ''}`);
  await page.evaluate(async ([id, invite, varied]) => {
    const token = localStorage.getItem('tapete.token');
    const ws = new WebSocket(`ws://${location.host}/ws/${id}?token=${token}${invite ? `&invite=${invite}` : ''}`);
    const heard = [];
    await new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`the game did not end: ${heard.slice(-5).join(' | ')}`)), 60000);
      ws.onmessage = (m) => {
        const s = JSON.parse(m.data);
        heard.push(m.data.slice(0, 300));
        if (s.type !== 'state') return;
        if (s.outcome) { clearTimeout(timer); ws.close(); done(); return; }
        const legal = s.legal || [];
        if (!legal.length) return;
        const most = legal.reduce((a, b) => (b.split(' ').length > a.split(' ').length ? b : a));
        // `varied`: a different legal action from one turn to the next (Mus, Chinchón).
        ws.send(JSON.stringify({ type: 'act', action: varied ? legal[s.n % legal.length] : most, id: s.n }));
      };
    });
  }, [id, invite, varied]);
}

/** The review of seat `seat` of table `id`, asked for until it is made (on a busy machine,
 * behind other tests' reviews in the queue, that can take a few minutes). */
async function reviewOf(page, id, seat) {
  const deadline = Date.now() + 180000;
  for (;;) {
    const r = await apiAs(page, 'GET', `/api/tables/${id}/review?seat=${seat}`);
    if (r.status === 200) return r.body;
    // 409: the game's end is being stored as the last state comes.
    assert.ok([202, 409, 429].includes(r.status), JSON.stringify(r));
    assert.ok(Date.now() < deadline, 'the review was made');
    await page.waitForTimeout(1000);
  }
}

/**
 * An account that played a rated game whose review marks some decisions (up to three
 * games); answers the page's person, the table and its review.
 */
async function reviewedGame(b, nick) {
  const { page } = b;
  await guest(page, nick);
  await makeAccount(page, nick);
  let id = '';
  let review = null;
  for (let k = 0; k < 3; k++) {
    id = await playRated(page);
    review = await reviewOf(page, id, 0);
    if (review.decisions.some((d) => d.label !== 'good')) break;
  }
  return { id, review };
}

/** Every card code in a JSON value: its strings and each word of its texts ("lay 3D 6D"). */
function cardsIn(v, out = new Set()) {
  if (typeof v === 'string') {
    for (const w of v.split(/\s+/)) if (/^(?:(?:1[0-3]|[1-9])[SHDC]|(?:1[0-2]|[1-9])[oceb]|J)$/.test(w)) out.add(w);
  } else if (Array.isArray(v)) {
    for (const x of v) cardsIn(x, out);
  } else if (v && typeof v === 'object') {
    for (const x of Object.values(v)) cardsIn(x, out);
  }
  return out;
}

/**
 * Checks that every card `part` of the page shows is one seat `seat` could see after `at`
 * actions (its view then, from the API): its own cards and the public ones.
 */
async function onlySeen(page, part, id, seat, at, what) {
  const view = await apiAs(page, 'GET', `/api/tables/${id}/view?seat=${seat}&at=${at}`);
  assert.equal(view.status, 200, JSON.stringify(view.body));
  const seen = cardsIn(view.body);
  const shown = await part.locator('[data-card]').evaluateAll((xs) => xs.map((x) => x.getAttribute('data-card')));
  assert.ok(shown.length > 0, `${what}: cards are shown`);
  const hidden = shown.filter((c) => !seen.has(c));
  assert.deepEqual(hidden, [], `${what}: cards seat ${seat} could not see at ${at}`);
  return shown.length;
}

/** Text the page shows that looks like a catalog key or an unfilled placeholder. */
async function rawWords(page) {
  const text = await page.locator('main').textContent();
  return (text.match(/\breview\.[a-z_.]+|\{[a-z_]+\}|\b(?:story|error|tk|cf)\.[a-z_.]+/g) || []);
}

test('a rated game\'s review opens from its end in one click, with its marked decisions, the graph, the filter and the others', { timeout: 300000 }, async () => {
  const b = await openBrowser({ width: 1280, height: 800 });
  const { page, errors } = b;
  try {
    const nick = `Rev${Date.now() % 1000000}`;
    const { id, review } = await reviewedGame(b, nick);
    const marked = review.decisions.filter((d) => d.label !== 'good');

    // The game's end: its banner offers the review of the person's seat.
    await page.goto(`${BASE}/t/${id}`);
    await page.getByTestId('game-over').waitFor();
    const link = page.getByTestId('to-review');
    assert.equal(await link.getAttribute('href'), `/t/${id}/review?seat=0`);
    await link.click(); // 1
    await page.waitForURL(new RegExp(`/t/${id}/review\\?`));
    await page.getByTestId('summary').getByTestId('accuracy').waitFor();
    assert.match(await page.getByTestId('accuracy').innerText(), new RegExp(String(review.accuracy).replace('.', '[.,]')));

    // The list has every decision with its label; the first marked one is shown.
    const rows = page.getByTestId('decision');
    assert.equal(await rows.count(), review.decisions.length);
    const labels = await rows.evaluateAll((xs) => xs.map((x) => x.getAttribute('data-label')));
    assert.deepEqual(labels, review.decisions.map((d) => d.label));
    const detail = page.getByTestId('detail');
    if (marked.length) {
      assert.equal(await detail.getAttribute('data-at'), String(marked[0].at), 'the first marked decision, no more clicks');
      assert.notEqual(await detail.getAttribute('data-label'), 'good');
      // Its options with their values, the best marked, and the reason in words.
      await detail.getByTestId('best-mark').waitFor();
      assert.ok((await detail.getByTestId('option').count()) >= 2);
      assert.ok((await detail.getByTestId('reason').innerText()).length > 10);
      // The graph marks them as dots of their label; a dot clicked selects its decision.
      const dots = page.locator('[data-testid="graph-dot"]:not([data-label="good"])');
      assert.equal(await dots.count(), marked.length);
      const last = marked[marked.length - 1];
      await page.locator(`[data-testid="graph-dot"][data-at="${last.at}"]`).dispatchEvent('click');
      await page.waitForFunction((at) => document.querySelector('[data-testid="detail"]')?.getAttribute('data-at') === String(at), last.at);
      // The filter keeps the marked ones.
      await page.getByTestId('filter-marked').click();
      assert.deepEqual(await rows.evaluateAll((xs) => xs.map((x) => x.getAttribute('data-label'))), marked.map((d) => d.label));
      await page.getByTestId('filter-all').click();
    } else {
      // No game of three marked anything: the list and its labels are still there.
      assert.ok(review.decisions.length > 0);
      assert.equal(await page.locator('[data-testid="graph-dot"]').count(), review.decisions.length);
    }

    // The keyboard: j and k (or the arrows) move from one decision to the next.
    if (review.decisions.length > 1) {
      /** Waits until the decision shown is the `k`-th. */
      const shown = (k) => page.waitForFunction((at) => document.querySelector('[data-testid="detail"]')?.getAttribute('data-at') === String(at),
        review.decisions[k].at);
      await page.locator(`[data-testid="decision"][data-at="${review.decisions[0].at}"]`).click();
      await shown(0);
      await page.keyboard.press('j');
      await shown(1);
      await page.keyboard.press('k');
      await shown(0);
      await page.keyboard.press('ArrowDown');
      await shown(1);
    }

    // The other seat's review, on request.
    await page.getByTestId('others-switch').check();
    const other = page.getByTestId('seat-review-1');
    await page.waitForFunction(() => { const b = document.querySelector('[data-testid="seat-review-1"]'); return b && !b.disabled; }, null, { timeout: 90000 });
    await other.click();
    const bot = await reviewOf(page, id, 1);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid="decision"]').length === n, bot.decisions.length);
    assert.match(await page.getByTestId('summary').locator('h2').innerText(), /bot 1/);

    // The history's row of the game opens its review too.
    await page.goto(`${BASE}/history`);
    const row = page.getByTestId('game-row').filter({ has: page.locator(`a[href="/t/${id}/review?seat=0"]`) });
    await row.getByTestId('review-link').click();
    await page.getByTestId('detail').waitFor();
    assert.deepEqual(await rawWords(page), []);
    // And the profile's recent game, by the player it names.
    const me = await apiAs(page, 'GET', '/api/me');
    await page.goto(`${BASE}/@/${nick}`);
    const recent = page.locator(`[data-testid="recent-game"][data-table="${id}"]`);
    assert.equal(await recent.getByTestId('review-link').getAttribute('href'), `/t/${id}/review?player=${me.body.id}`);
    await recent.getByTestId('review-link').click();
    await page.getByTestId('detail').waitFor();
    assert.match(page.url(), new RegExp(`/t/${id}/review\\?seat=0`));
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('a stranger gets no review of a private table: the API refuses and the page says so in Spanish', { timeout: 120000 }, async () => {
  const owner = await openBrowser();
  const stranger = await openBrowser({ locale: 'es-ES' });
  try {
    await guest(owner.page, `Priv${Date.now() % 1000000}`);
    const made = await apiAs(owner.page, 'POST', '/api/tables', { game: 'tikki', seats: 2, private: true, start: true, pace_ms: 0, hold_s: 0 });
    assert.equal(made.status, 200, JSON.stringify(made.body));
    const { id, invite } = made.body;
    await playOut(owner.page, id, invite);
    // The person who sat there has it.
    const mine = await reviewOf(owner.page, id, 0);
    assert.equal(mine.seat, 0);

    await guest(stranger.page, `Otro${Date.now() % 1000000}`);
    for (const path of [`/api/tables/${id}/review?seat=0`, `/api/tables/${id}/view?seat=0&at=0`]) {
      const without = await apiAs(stranger.page, 'GET', path);
      assert.deepEqual([without.status, without.body.code], [404, 'table_not_found'], path);
      const withLink = await apiAs(stranger.page, 'GET', `${path}&invite=${invite}`);
      assert.deepEqual([withLink.status, withLink.body.code], [403, 'review_players_only'], path);
    }
    // The page, with the table's link: the refusal in Spanish words, nothing of the game.
    const { page } = stranger;
    await page.goto(`${BASE}/t/${id}/review?seat=0&invite=${invite}`);
    const refusal = page.getByTestId('review-error');
    await refusal.waitFor();
    assert.equal(await refusal.getAttribute('data-code'), 'review_players_only');
    assert.match(await refusal.innerText(), /solo para quienes jugaron/);
    assert.equal(await page.locator('[data-card]').count(), 0);
    assert.equal(await page.getByTestId('decision').count(), 0);
    // Without it, there is no such table.
    await page.evaluate((id) => localStorage.removeItem(`tapete.invite.${id}`), id);
    await page.goto(`${BASE}/t/${id}/review?seat=0`);
    await page.getByTestId('no-such-table').waitFor();
    assert.match(await page.getByTestId('no-such-table').innerText(), /Esa mesa no existe/);
    assert.deepEqual(stranger.errors, []);
  } finally {
    await owner.close();
    await stranger.close();
  }
});

test('"learn from your mistakes" shows each position as the seat saw it: every card on the page is in its view', { timeout: 300000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  const { page, errors } = b;
  try {
    const { id, review } = await reviewedGame(b, `Lrn${Date.now() % 1000000}`);
    const mistakes = review.decisions.filter((d) => d.label === 'mistake' || d.label === 'blunder');
    // Every decision of the review, as the review shows it: the table then and the options.
    await page.goto(`${BASE}/t/${id}/review?seat=0`);
    let checked = 0;
    for (const d of review.decisions) {
      await page.locator(`[data-testid="decision"][data-at="${d.at}"]`).click();
      const detail = page.locator(`[data-testid="detail"][data-at="${d.at}"]`);
      await detail.locator('[data-testid="position"][data-loaded="true"]').waitFor();
      checked += await onlySeen(page, detail, id, 0, d.at, `decision at ${d.at}`);
    }
    assert.ok(checked > review.decisions.length, `${checked} cards checked`);

    await page.getByTestId('tab-learn').click();
    const learn = page.getByTestId('learn');
    if (!mistakes.length) {
      await learn.getByTestId('learn-none').waitFor();
      return;
    }
    for (const [k, d] of mistakes.entries()) {
      const pos = learn.locator(`[data-testid="position"][data-at="${d.at}"][data-loaded="true"]`);
      await pos.waitFor();
      // The question: the table and the options, nothing told of their values yet.
      assert.equal(await learn.getByTestId('verdict').count(), 0);
      assert.ok((await learn.getByTestId('choice').count()) >= 2);
      await onlySeen(page, learn, id, 0, d.at, `mistake ${k + 1}, asked`);
      // Chosen (with the keyboard: the first option's number), the numbers come.
      await page.keyboard.press('1');
      await learn.getByTestId('verdict').waitFor();
      await learn.getByTestId('options').waitFor();
      await learn.locator(`[data-testid="position"][data-at="${d.at}"][data-loaded="true"]`).waitFor();
      await onlySeen(page, learn, id, 0, d.at, `mistake ${k + 1}, answered`);
      await learn.getByTestId('learn-next').click();
    }
    await learn.getByTestId('learn-summary').waitFor();
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('a Mus and a Chinchón review show each position only as the seat saw it', { timeout: 300000 }, async () => {
  const b = await openBrowser({ width: 390, height: 844 });
  const { page, errors } = b;
  try {
    await guest(page, `Vis${Date.now() % 1000000}`);
    for (const options of [
      { game: 'mus', rules: { target: 30, juegos: 1, vacas: 1 }, bot: 'basico' },
      { game: 'chinchon', seats: 2, rules: { target: 20 }, bot: 'basico' },
    ]) {
      const made = await apiAs(page, 'POST', '/api/tables', { ...options, start: true, pace_ms: 0, hold_s: 0 });
      assert.equal(made.status, 200, JSON.stringify(made.body));
      const { id } = made.body;
      await playOut(page, id, '', true);
      const review = await reviewOf(page, id, 0);
      assert.ok(review.decisions.length >= 3, `${options.game}: ${review.decisions.length} decisions`);
      await page.goto(`${BASE}/t/${id}/review?seat=0`);
      let checked = 0;
      // The first decisions and the last ones: the deal, the middle of a hand, the end.
      const some = [...review.decisions.slice(0, 4), ...review.decisions.slice(-4)];
      for (const d of new Set(some)) {
        await page.locator(`[data-testid="decision"][data-at="${d.at}"]`).click();
        const detail = page.locator(`[data-testid="detail"][data-at="${d.at}"]`);
        await detail.locator('[data-testid="position"][data-loaded="true"]').waitFor();
        checked += await onlySeen(page, detail, id, 0, d.at, `${options.game}: decision at ${d.at}`);
      }
      assert.ok(checked >= 8, `${options.game}: ${checked} cards checked`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test('the review speaks Spanish and English from the catalogs, no raw keys', { timeout: 300000 }, async () => {
  const es = await openBrowser({ locale: 'es-ES' });
  const en = await openBrowser({ locale: 'en-US' });
  try {
    const { id } = await reviewedGame(es, `Esp${Date.now() % 1000000}`);
    /** Words the page must show in each language. */
    const words = {
      es: ['Revisión', 'Precisión', 'Suerte', 'Resultado sin suerte', 'Probabilidad de ganar', 'Decisiones', 'Aprende de tus errores', 'Prob. de ganar'],
      // A visitor of the game: the seat is another's, its mistakes are "the" mistakes.
      en: ['Review', 'Accuracy', 'Luck', 'Luck-adjusted result', 'Chance of winning', 'Decisions', 'Learn from the mistakes', 'Chance to win'],
    };
    for (const [lang, b] of [['es', es], ['en', en]]) {
      const { page } = b;
      await page.goto(`${BASE}/t/${id}/review?seat=0`);
      await page.getByTestId('detail').locator('[data-testid="position"][data-loaded="true"]').waitFor();
      const text = await page.locator('main').textContent();
      for (const w of words[lang]) assert.ok(text.includes(w), `${lang}: "${w}"`);
      assert.deepEqual(await rawWords(page), [], lang);
      const reason = page.getByTestId('detail').getByTestId('reason');
      if (await reason.count()) assert.doesNotMatch(await reason.innerText(), /review\./);
      await page.getByTestId('tab-learn').click();
      await page.getByTestId('learn').waitFor();
      assert.deepEqual(await rawWords(page), [], `${lang}, learn`);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      assert.deepEqual(b.errors, [], lang);
    }
  } finally {
    await es.close();
    await en.close();
  }
});
