// The pages' catalogs (the platform's crates/server/assets/i18n/{lang}.json merged with
// every game's own, crates/*/web/i18n/{lang}.json, as the server serves them): every
// language has every key, with the same placeholders, no key is given twice, and every key
// a page asks for by name (`t('…')`) exists. A missing translation fails here, not in front
// of a player.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root, catalogs as merged, webFiles, faces, ownCatalogs } from '../web.mjs';

const catalogs = merged();
const langs = Object.keys(catalogs);

/** The `{name}` placeholders of a text, sorted. */
const holes = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('Spanish and English catalogs exist', () => {
  assert.ok(langs.includes('es') && langs.includes('en'), `catalogs: ${langs.join(', ')}`);
});

test('every catalog has the same keys, each a non-empty text with the same placeholders', () => {
  const en = catalogs.en;
  for (const l of langs) {
    const c = catalogs[l];
    const missing = Object.keys(en).filter((k) => !Object.hasOwn(c, k));
    const extra = Object.keys(c).filter((k) => !Object.hasOwn(en, k));
    assert.deepEqual(missing, [], `${l}.json lacks keys of en.json`);
    assert.deepEqual(extra, [], `${l}.json has keys en.json lacks`);
    for (const [k, v] of Object.entries(c)) {
      assert.equal(typeof v, 'string', `${l}.json: ${k} is not a text`);
      assert.ok(v.trim() !== '', `${l}.json: ${k} is empty`);
      assert.deepEqual(holes(v), holes(en[k]), `${l}.json: ${k} has other placeholders than in English`);
    }
  }
});

test('every key the pages ask for by name is in the catalogs', () => {
  const files = [...webFiles()].filter(([f]) => f.endsWith('.js') || f.endsWith('.html'));
  assert.ok(files.some(([f]) => f === 'mus.js') && files.some(([f]) => f === 'lobby.js'), 'the pages of the platform and the games');
  const wanted = new Map();
  for (const [f, { path }] of files) {
    const src = readFileSync(path, 'utf8');
    // `t('…')`, or `tr('…')` where a page's `t` names a table.
    for (const m of src.matchAll(/\btr?\(\s*'([a-z0-9_.-]+)'/gi)) wanted.set(m[1], f);
    for (const m of src.matchAll(/data-i18n(?:-[a-z]+)?="([a-z0-9_.-]+)"/gi)) wanted.set(m[1], f);
  }
  const en = catalogs.en;
  const absent = [...wanted]
    .filter(([k]) => !Object.hasOwn(en, k) && !Object.hasOwn(en, `${k}.other`))
    .map(([k, f]) => `${k} (${f})`);
  assert.deepEqual(absent, [], 'keys used by the pages but missing from en.json');
});

/** The keys a page's source asks for by name: `t('…')`, `tr('…')`, `data-i18n="…"`. */
function asked(src) {
  const out = new Set();
  for (const m of src.matchAll(/\btr?\(\s*'([a-z0-9_.-]+)'/gi)) out.add(m[1]);
  for (const m of src.matchAll(/data-i18n(?:-[a-z]+)?="([a-z0-9_.-]+)"/gi)) out.add(m[1]);
  return out;
}

test("each page asks only for the platform's words and its own game's", () => {
  // A game's words come and go with the game: the platform's pages never name them, and
  // a game's page never borrows another game's (the words games share are the platform's
  // `game.*`), so each game's catalogs hold every key its pages name.
  const [platform, ...rest] = faces();
  const base = ownCatalogs(platform.dir).en;
  const has = (c, k) => Object.hasOwn(c, k) || Object.hasOwn(c, `${k}.other`);
  assert.ok(rest.length >= 4, `web faces: ${rest.map((f) => f.who).join(', ')}`);
  for (const { who, dir } of faces()) {
    const own = who === 'platform' ? {} : ownCatalogs(dir).en || {};
    const borrowed = [];
    for (const [f, { path, who: whose }] of webFiles()) {
      if (whose !== who || !(f.endsWith('.js') || f.endsWith('.html'))) continue;
      for (const k of asked(readFileSync(path, 'utf8'))) if (!has(base, k) && !has(own, k)) borrowed.push(`${k} (${f})`);
    }
    assert.deepEqual(borrowed, [], `${who}'s pages ask for words that are neither the platform's nor its own`);
  }
});

test('every code the server can send has its words in every catalog', () => {
  // The codes are the variants of `Code` in crates/server/src/code.rs (`Name = "name",`);
  // the pages word every one as `error.<code>` (common.js's errorText).
  const src = readFileSync(join(root, 'crates/server/src/code.rs'), 'utf8');
  const codes = [...src.matchAll(/^\s+[A-Z]\w* = "(\w+)",$/gm)].map((m) => m[1]);
  assert.ok(codes.includes('nickname_taken') && codes.length > 50, `codes found: ${codes.join(', ')}`);
  for (const l of langs) {
    const missing = codes.filter((c) => !Object.hasOwn(catalogs[l], `error.${c}`));
    assert.deepEqual(missing, [], `${l}.json has no words for these codes`);
  }
});
