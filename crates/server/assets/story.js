// @ts-check
// The table's narration in the person's language. The server sends each line as data,
// `{key, args, kind}`: a catalog key (`story.<game>.<what>`), its arguments by placeholder
// name, each typed — {seat: n}, {pair: p}, {num: n}, {card: "7o"}, {cards: […]},
// {text: "envido 2"} (told as it is), {key: "story.mus.lance.grande"}, {phrase: {key, args}},
// {list: […]} — and its kind when not plain ("hand", "indent", "score": how the log sets it
// apart). `renderLine` fills the key's text from the page's catalog, naming seats by who
// sits there and cards by the catalog's names, and returns it escaped for HTML (names come
// from people). A line whose key the catalog lacks is told by its arguments in a row (or
// by an English `text`, where one is given), never as raw data.

import { t } from './i18n.js';

/**
 * One argument of a line, typed by its one field (see above).
 * @typedef {{seat: number} | {pair: number} | {num: number} | {card: string} | {cards: string[]}
 *   | {text: string} | {key: string} | {phrase: Phrase} | {list: StoryArg[]}} StoryArg
 * @typedef {{key: string, args?: Record<string, StoryArg>}} Phrase
 * @typedef {Phrase & {text?: string, kind?: string}} StoryLine
 * @typedef {{
 *   seatName?: (seat: number) => string,
 *   pairName?: (pair: number) => string,
 *   resultPairName?: (pair: number) => string,
 *   nameText?: (text: string) => string,
 * }} StoryContext
 *   seatName: a seat's name (default "seat 2"); pairName: a Mus pair's name (default
 *   "pair 0–2"); resultPairName: a pair's name in a result (a juego, a vaca or the match
 *   won: `…_won`, `…_won_ordago`), where the reader's side is named by its players too
 *   (default pairName); nameText: puts the names on an English text (for lines the catalog
 *   lacks).
 */

/** The keys of results: who won a juego, a vaca, the match. */
const RESULT = /_won(_ordago)?$/;

/** @param {string} s */
export function escapeHTML(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] || c);
}

/**
 * A card's name in the page's language, from its code: Spanish ("7o"), French ("10H") or
 * the joker ("J"); any other code as it is.
 * @param {string} code
 */
export function cardText(code) {
  const c = String(code);
  let m = /^(1[0-2]|[1-9])([oceb])$/.exec(c);
  if (m) return t('cards.spanish', { rank: m[1], suit: t(`cards.spanish.suit.${m[2]}`) });
  m = /^(1[0-3]|[1-9])([SHDC])$/.exec(c);
  if (m) {
    const rank = ['1', '11', '12', '13'].includes(m[1]) ? t(`cards.french.rank.${m[1]}`) : m[1];
    return t('cards.french', { rank, suit: t(`cards.french.suit.${m[2]}`) });
  }
  if (c === 'J') return t('cards.joker');
  return c;
}

/**
 * Whether `x` is an object (the server's data is checked before it is read).
 * @param {unknown} x
 * @returns {x is Record<string, any>}
 */
function isObj(x) {
  return x !== null && typeof x === 'object';
}

/**
 * Whether the catalog has `key` (with `args`, whose `count` may pick a plural form).
 * @param {unknown} key
 * @param {Record<string, string | number>} args
 * @returns {key is string}
 */
function known(key, args) {
  return typeof key === 'string' && t(key, args) !== key;
}

/**
 * A name among the arguments: a seat, a pair or "you".
 * @param {StoryArg} a
 */
function isName(a) {
  return isObj(a) && ('seat' in a || 'pair' in a || ('key' in a && a.key === 'story.you'));
}

/**
 * The count among a phrase's arguments, which picks a plural form.
 * @param {Record<string, StoryArg>} args
 * @returns {{count: number} | {}}
 */
function countOf(args) {
  const c = args.count;
  return isObj(c) && 'num' in c ? { count: Number(c.num) } : {};
}

/**
 * One argument as plain text.
 * @param {StoryArg | null | undefined} a
 * @param {StoryContext} ctx
 * @returns {string}
 */
function argText(a, ctx) {
  if (a === null || a === undefined) return '';
  if (typeof a !== 'object') return String(a);
  if ('seat' in a) return ctx.seatName ? ctx.seatName(Number(a.seat)) : t('story.seat', { n: Number(a.seat) });
  if ('pair' in a) {
    const p = Number(a.pair) % 2;
    return ctx.pairName ? ctx.pairName(p) : t('story.pair', { a: p, b: p + 2 });
  }
  if ('num' in a) return String(a.num);
  if ('card' in a) return cardText(a.card);
  if ('cards' in a) return (Array.isArray(a.cards) ? a.cards : []).map(cardText).join(' ');
  if ('text' in a) return String(a.text);
  if ('key' in a) return known(a.key, {}) ? t(a.key) : String(a.key).split('.').pop() || '';
  if ('phrase' in a) return phraseText(a.phrase, ctx);
  if ('list' in a) {
    const xs = Array.isArray(a.list) ? a.list : [];
    const told = xs.map((x) => argText(x, ctx));
    if (xs.length && xs.every((x) => isObj(x) && 'cards' in x)) return told.join(' · ');
    if (xs.length && xs.every(isName)) return told.reduce((acc, x) => t('story.and', { a: acc, b: x }));
    return told.join(', ');
  }
  return '';
}

/**
 * A phrase as plain text: its key's text with its arguments filled, or — when the catalog
 * lacks the key — its arguments in a row.
 * @param {Phrase} p
 * @param {StoryContext} ctx
 * @returns {string}
 */
function phraseText(p, ctx) {
  if (!p || typeof p !== 'object') return '';
  if (ctx.resultPairName && typeof p.key === 'string' && RESULT.test(p.key)) ctx = { ...ctx, pairName: ctx.resultPairName };
  const args = p.args && typeof p.args === 'object' ? p.args : {};
  /** @type {Record<string, string | number>} */
  const filled = {};
  for (const [name, a] of Object.entries(args)) filled[name] = argText(a, ctx);
  Object.assign(filled, countOf(args));
  if (known(p.key, filled)) return t(p.key, filled);
  return Object.values(filled).join(' ');
}

/**
 * A narration line as plain text in the page's language.
 * @param {StoryLine | string} line
 * @param {StoryContext} [ctx]
 * @returns {string}
 */
export function lineText(line, ctx = {}) {
  if (typeof line === 'string') return (ctx.nameText ? ctx.nameText(line) : line).trim();
  if (!isObj(line)) return '';
  const count = countOf(isObj(line.args) ? line.args : {});
  if (!known(line.key, count) && typeof line.text === 'string') {
    return (ctx.nameText ? ctx.nameText(line.text) : line.text).trim();
  }
  return phraseText(line, ctx).trim();
}

/**
 * A narration line in the page's language, escaped for HTML.
 * @param {StoryLine | string} line
 * @param {StoryContext} [ctx]
 * @returns {string}
 */
export function renderLine(line, ctx = {}) {
  return escapeHTML(lineText(line, ctx));
}

/**
 * The log's class for a line, from its kind: a hand's first line, an indented one (a
 * showdown's hands, a count's seats), a score.
 * @param {StoryLine | string} line
 */
export function lineClass(line) {
  const kind = isObj(line) ? line.kind : '';
  return kind === 'hand' ? 'hand-sep' : kind === 'indent' ? 'indent' : kind === 'score' ? 'score-line' : '';
}
