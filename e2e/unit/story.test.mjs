// The narration as the pages tell it (story.js): the same lines, sent
// by the server as {key, args, text}, rendered in Spanish and in English, names and cards
// filled in, everything escaped, and a key the catalog lacks told by its English text.
// Each language runs in its own node process, as each page loads one catalog.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after } from 'node:test';
import { catalogs, webPath } from '../web.mjs';

// The catalogs as the server serves them (the platform's and the games' words in one), in
// files the page's fetch reads.
const i18n = mkdtempSync(join(tmpdir(), 'tapete-i18n-'));
for (const [lang, c] of Object.entries(catalogs())) writeFileSync(join(i18n, `${lang}.json`), JSON.stringify(c));
after(() => rmSync(i18n, { recursive: true, force: true }));

const seat = (n) => ({ seat: n });
const lines = {
  said: {
    key: 'story.mus.said',
    args: { who: { phrase: { key: 'story.mus.seat_at', args: { seat: seat(1), position: { key: 'story.mus.position.postre' } } } }, action: { text: 'envido 2' } },
    text: 'seat 1 (postre): envido 2',
  },
  ordago: {
    key: 'story.mus.lance_settled',
    args: { lance: { key: 'story.mus.lance.grande' }, status: { phrase: { key: 'story.mus.status.declined', args: { pair: { pair: 1 }, piedras: { phrase: { key: 'story.mus.piedras', args: { count: { num: 1 } } } } } } } },
    text: 'grande: not accepted: pair 1–3 takes 1 piedra now',
  },
  discards: { key: 'story.mus.discarded', args: { who: seat(2), count: { num: 3 } }, text: 'seat 2 discards 3 cards' },
  discardsOne: { key: 'story.mus.discarded', args: { who: seat(2), count: { num: 1 } }, text: 'seat 2 discards 1 card' },
  chinchon: { key: 'story.chinchon.closed_chinchon', args: { who: seat(0) }, text: 'seat 0 closes: ¡chinchón! and wins the game' },
  took: { key: 'story.chinchon.took', args: { who: seat(3), card: { card: '7o' } }, text: 'seat 3 takes 7o from the pile' },
  melds: {
    key: 'story.chinchon.shows',
    args: { who: seat(0), melds: { list: [{ cards: ['1o', '2o', 'J'] }, { cards: ['7c', '7e', '7b'] }] }, down: { card: '5b' } },
    text: 'seat 0 shows 1o 2o J · 7c 7e 7b and puts 5b down',
  },
  shared: { key: 'story.chinchon.shared', args: { who: { list: [seat(0), seat(2)] } }, text: 'seat 0 and seat 2 share the win' },
  tikki: {
    key: 'story.tikki.showed_extra',
    args: { who: seat(1), laid: { cards: ['13S', '13H', '2D'] }, kind: { phrase: { key: 'story.tikki.kind.pair' } }, best: { cards: ['13S', '13H'] }, extra: { phrase: { key: 'story.tikki.other_cards', args: { count: { num: 1 } } } } },
    text: 'seat 1: 13S 13H 2D — pair 13S 13H (and 1 other card)',
  },
  unknown: { key: 'story.mus.from_the_future', args: { who: seat(2) }, text: 'seat 2 does <something> new' },
  bare: { key: 'story.nothing.here', args: { who: seat(2), n: { num: 4 } } },
  old: 'seat 2: paso',
};

/** Every line of `lines` rendered by story.js in `lang`, Ane at seat 0 … with a hostile name at seat 2. */
function rendered(lang) {
  const script = `
    import { readFileSync } from 'node:fs';
    globalThis.localStorage = { getItem: () => ${JSON.stringify(lang)}, setItem() {} };
    globalThis.fetch = async (url) => {
      const l = String(url).match(/i18n\\/(\\w+)\\.json$/)[1];
      return { ok: true, json: async () => JSON.parse(readFileSync(${JSON.stringify(i18n)} + '/' + l + '.json', 'utf8')) };
    };
    const { renderLine, lineText } = await import(${JSON.stringify(pathToFileURL(webPath('story.js')).href)});
    const names = ['Ane', 'Mikel', '<b>Iker & "Jon"</b>', 'bot 3'];
    const ctx = {
      seatName: (s) => names[s],
      pairName: (p) => (p === 0 ? 'nosotros' : 'ellos'),
      nameText: (t) => t.replace(/seat (\\d)/g, (m, d) => names[Number(d)]),
    };
    const lines = ${JSON.stringify(lines)};
    const out = {};
    for (const [k, l] of Object.entries(lines)) out[k] = renderLine(l, ctx);
    out.plain = lineText(lines.said);
    out.plainPair = lineText(lines.ordago);
    console.log(JSON.stringify(out));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

test('English: the lines read as the terminal tells them, with the names on them', () => {
  const en = rendered('en');
  assert.equal(en.said, 'Mikel (postre): envido 2');
  assert.equal(en.ordago, 'grande: not accepted: ellos take 1 piedra now');
  assert.equal(en.discards, '&lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt; discards 3 cards');
  assert.equal(en.discardsOne, '&lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt; discards 1 card');
  assert.equal(en.chinchon, 'Ane closes: ¡chinchón! and wins the game');
  assert.equal(en.took, 'bot 3 takes 7o from the pile');
  assert.equal(en.melds, 'Ane shows 1o 2o J · 7c 7e 7b and puts 5b down');
  assert.equal(en.shared, 'Ane and &lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt; share the win');
  assert.equal(en.tikki, 'Mikel: K♠ K♥ 2♦ — pair K♠ K♥ (and 1 other card)');
  // Without names: the seats and pairs as the catalog names them.
  assert.equal(en.plain, 'seat 1 (postre): envido 2');
  assert.equal(en.plainPair, 'grande: not accepted: pair 1–3 take 1 piedra now');
});

test('Spanish: the same lines in a Mus or Chinchón player\'s words', () => {
  const es = rendered('es');
  assert.equal(es.said, 'Mikel (postre): envido 2');
  assert.equal(es.ordago, 'grande: no querido: 1 piedra para ellos');
  assert.equal(es.discards, '&lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt; se descarta de 3 cartas');
  assert.equal(es.discardsOne, '&lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt; se descarta de 1 carta');
  assert.equal(es.chinchon, 'Ane cierra con ¡chinchón! y gana la partida');
  assert.equal(es.took, 'bot 3 coge 7o del montón');
  assert.equal(es.melds, 'Ane enseña 1o 2o comodín · 7c 7e 7b y deja 5b boca abajo');
  assert.equal(es.shared, 'Ane y &lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt; comparten la victoria');
  assert.equal(es.tikki, 'Mikel: K♠ K♥ 2♦ — pareja K♠ K♥ (y 1 carta más)');
  assert.equal(es.plain, 'asiento 1 (postre): envido 2');
});

test('a key the catalog lacks is told readably, never as raw data, and still escaped', () => {
  for (const lang of ['en', 'es']) {
    const r = rendered(lang);
    assert.equal(r.unknown, '&lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt; does &lt;something&gt; new');
    assert.equal(r.bare, '&lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt; 4');
    assert.equal(r.old, 'Iker: paso'.replace('Iker', '&lt;b&gt;Iker &amp; &quot;Jon&quot;&lt;/b&gt;'));
    for (const v of Object.values(r)) assert.doesNotMatch(v, /[{}<>]|story\./, v);
  }
});
