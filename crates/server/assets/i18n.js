// @ts-check
// The pages' words in the person's language. One catalog per language,
// `/assets/i18n/{lang}.json`: a flat object of dotted keys to text, with `{name}` placeholders
// and plural forms as `key.one` / `key.other` (chosen by the `count` argument). The language
// is the one the person chose with the switch (kept in localStorage), else the first of the
// browser's languages that tapete speaks, else English. The game's own terms (envido,
// órdago, chinchón, tikki) stay as players say them in every language.

/** The languages tapete's pages speak, each with its own name for the switch. */
export const LANGS = /** @type {const} */ ({ es: 'Español', en: 'English' });
const KEY = 'tapete.lang';

/** The language chosen with the switch, if any. */
function chosen() {
  try { return localStorage.getItem(KEY) || ''; } catch { return ''; }
}

/**
 * The language to speak: the switch's choice, else the browser's first language that tapete
 * has (`es-ES` → `es`), else English.
 * @param {string} stored
 * @param {readonly string[]} browser
 * @returns {string}
 */
export function pickLang(stored, browser) {
  if (stored && Object.hasOwn(LANGS, stored)) return stored;
  for (const l of browser) {
    const base = String(l).toLowerCase().split('-')[0];
    if (Object.hasOwn(LANGS, base)) return base;
  }
  return 'en';
}

/** The language of this page. */
export const lang = pickLang(chosen(), typeof navigator === 'undefined' ? [] : navigator.languages || [navigator.language]);

/** @type {Record<string, string>} */
let words = {};
/** @type {Record<string, string>} */
let english = {};

/** @param {string} l */
async function load(l) {
  const res = await fetch(`/assets/i18n/${l}.json`);
  if (!res.ok) throw new Error(`no catalog for ${l}`);
  return /** @type {Record<string, string>} */ (await res.json());
}

try {
  words = await load(lang);
} catch {
  words = {};
}
if (lang !== 'en') {
  try { english = await load('en'); } catch { english = {}; }
}
if (typeof document !== 'undefined') {
  document.documentElement.lang = lang;
  // The server's own pages follow the switch too: keep its cookie in step with the choice.
  const c = chosen();
  if (c && !document.cookie.split('; ').includes(`${KEY}=${c}`)) document.cookie = `${KEY}=${c}; path=/; max-age=31536000; samesite=lax`;
}

const plural = new Intl.PluralRules(lang);

/**
 * The text of `key` in this page's language, its `{name}` placeholders filled from `args`.
 * With a numeric `args.count`, the plural form `key.one` / `key.other` (…) is chosen. A key
 * missing from the catalog falls back to English, then to the key itself.
 * @param {string} key
 * @param {Record<string, string | number>} [args]
 * @returns {string}
 */
export function t(key, args = {}) {
  let k = key;
  if (typeof args.count === 'number') {
    const form = `${key}.${plural.select(args.count)}`;
    k = Object.hasOwn(words, form) || Object.hasOwn(english, form) ? form : `${key}.other`;
  }
  const text = Object.hasOwn(words, k) ? words[k] : Object.hasOwn(english, k) ? english[k] : key;
  return fill(text, args);
}

/**
 * Fills `{name}` placeholders of `text` from `args` (an unknown name stays as written).
 * @param {string} text
 * @param {Record<string, string | number>} args
 */
export function fill(text, args) {
  return text.replace(/\{(\w+)\}/g, (m, name) => (Object.hasOwn(args, name) ? String(args[name]) : m));
}

/**
 * Whether the catalogs have `key` (this language's or English).
 * @param {string} key
 */
export function has(key) {
  return Object.hasOwn(words, key) || Object.hasOwn(english, key);
}

const ordinals = new Intl.PluralRules(lang, { type: 'ordinal' });

/**
 * An ordinal number in this page's words, from the catalog's `ordinal.<form>` ("1.º",
 * "2nd"): the form is the language's ordinal category of `n`.
 * @param {number} n
 */
export function ordinal(n) {
  const form = `ordinal.${ordinals.select(n)}`;
  return t(has(form) ? form : 'ordinal.other', { n });
}

/** Numbers in this page's language (`1.234` in Spanish). */
export const num = new Intl.NumberFormat(lang);

/**
 * Switches the pages to `l` for good (this browser) and reloads this page in it. The
 * `tapete.lang` cookie tells the server too, for the pages it writes (rules, not found); a
 * `?lang=` of a rules page's link gives way to the new choice.
 * @param {string} l
 */
export function setLang(l) {
  if (!Object.hasOwn(LANGS, l)) return;
  try { localStorage.setItem(KEY, l); } catch { /* private mode: this page only */ }
  document.cookie = `${KEY}=${l}; path=/; max-age=31536000; samesite=lax`;
  const url = new URL(location.href);
  if (url.searchParams.has('lang')) {
    url.searchParams.delete('lang');
    location.replace(url.href);
  } else {
    location.reload();
  }
}
