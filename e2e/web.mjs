// The pages' files and words as the server serves them, read from the source tree: the
// platform's (crates/server/assets) and every web face's (the `web/` folder of a game's
// front-end crate, or of the solitaire's odds: crates/*/web), each file served at
// /assets/<name>, and each language's catalog merged from the platform's and every face's
// (crates/server/src/web.rs does the same at start; a key given twice is an error there
// and here).

import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The platform's folder. */
export const platformDir = join(root, 'crates/server/assets');

/**
 * Whose files are where: the platform first, then every crate with a `web/` folder (by
 * the crate's folder name: `mus-front`, `solitaire-odds`…).
 * @returns {{who: string, dir: string}[]}
 */
export function faces() {
  const crates = join(root, 'crates');
  const out = [{ who: 'platform', dir: platformDir }];
  for (const c of readdirSync(crates).sort()) {
    const dir = join(crates, c, 'web');
    if (existsSync(dir) && statSync(dir).isDirectory()) out.push({ who: c, dir });
  }
  return out;
}

/** The files of a folder (not its subfolders), hidden ones left out. */
const filesOf = (dir) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name).sort();

/**
 * Every file the pages may load, by the name it is served under, with where it is and whose
 * it is; a name given twice throws.
 * @returns {Map<string, {path: string, who: string}>}
 */
export function webFiles() {
  const out = new Map();
  for (const { who, dir } of faces()) {
    for (const name of filesOf(dir)) {
      const had = out.get(name);
      if (had) throw new Error(`${who} and ${had.who} both give the web file ${name}`);
      out.set(name, { path: join(dir, name), who });
    }
  }
  return out;
}

/** Where the file served as /assets/<name> is in the source tree. */
export function webPath(name) {
  const f = webFiles().get(name);
  if (!f) throw new Error(`no web file ${name}`);
  return f.path;
}

/**
 * One face's own catalogs: language → keys → texts (none where it has no words).
 * @param {string} dir
 * @returns {Record<string, Record<string, string>>}
 */
export function ownCatalogs(dir) {
  const i18n = join(dir, 'i18n');
  if (!existsSync(i18n)) return {};
  return Object.fromEntries(filesOf(i18n).filter((f) => f.endsWith('.json'))
    .map((f) => [f.slice(0, -5), JSON.parse(readFileSync(join(i18n, f), 'utf8'))]));
}

/**
 * The catalogs as the server serves them: language → keys → texts, the platform's and every
 * face's keys in one; a key given twice, or words in a language the platform lacks, throw.
 * @returns {Record<string, Record<string, string>>}
 */
export function catalogs() {
  const [platform, ...rest] = faces();
  const merged = ownCatalogs(platform.dir);
  /** @type {Record<string, Record<string, string>>} language → key → whose */
  const owner = Object.fromEntries(Object.entries(merged).map(([l, c]) => [l, Object.fromEntries(Object.keys(c).map((k) => [k, 'platform']))]));
  for (const { who, dir } of rest) {
    for (const [lang, c] of Object.entries(ownCatalogs(dir))) {
      if (!merged[lang]) throw new Error(`${who} has words in ${lang}, a language the platform lacks`);
      for (const [k, v] of Object.entries(c)) {
        if (Object.hasOwn(merged[lang], k)) throw new Error(`${who} and ${owner[lang][k]} both give the key ${k} in ${lang}`);
        merged[lang][k] = v;
        owner[lang][k] = who;
      }
    }
  }
  return merged;
}
