// @ts-check
// The check of a table's deals (commit and reveal, docs/server.md), as the lines the page
// /verify/{id} shows: the revealed secret against the commitment shown before the deal, the
// seed made here from the secret and the players' contributions against the seed the game
// was dealt from, and the first deal dealt again here (the game module's `firstDeal`, by
// chance.js) against the replay's first step, seat by seat. Every value is computed in the
// browser from what the server revealed; nothing is taken on its word. No DOM: it runs in
// Node too (e2e/unit/chance.test.mjs checks a matching and a tampered table).

import { t } from './i18n.js';
import { commitmentOf, seedOf, parseSeed, hasSha256 } from './chance.js';

/** @typedef {import('./common.js').TableInfo} TableInfo */
/** @typedef {import('./kit.js').GameModule} GameModule */

/**
 * What a table's deals are checked with (`fairness` of `GET /api/tables/{id}`, and `GET
 * /api/tables/{id}/fairness` once revealed): the commitment shown before the deal, each
 * seat's contribution once the game started ('' for a bot or an empty seat), and after the
 * game's end the secret and the seed the game was dealt from (a decimal string: a u64 does
 * not fit a JavaScript number).
 * @typedef {{commitment: string, contributions?: string[] | null, secret?: string | null,
 *   seed?: string | number | null}} Fairness
 */

/**
 * The replay's first step as the page got it: its full view, or why it could not be had.
 * @typedef {{view: unknown} | {error: string}} Step0
 */

/**
 * One line of the check: `ok` true (✓), false (✗) or null (nothing to judge: information,
 * or a check that cannot be made yet); `id` says which check (`commitment`, `contributions`,
 * `contribution`, `seed`, `deal`, `deal_seat`, `not_revealed`, `not_committed`, `no_sha256`,
 * `verdict`); `detail`
 * the values behind it, label and value; `seat` for a seat's line.
 * @typedef {{id: string, ok: boolean | null, text: string, detail: [string, string][], seat?: number}} CheckLine
 */

/**
 * The whole check: `ok` true when the commitment, the seed and the first deal all match,
 * false when any does not, null when something could not be checked (the secret not
 * revealed yet, deals never committed, a deal that cannot be compared); its lines in order,
 * the verdict first once the secret is revealed (`verdict`).
 * @typedef {{ok: boolean | null, lines: CheckLine[]}} Checked
 */

/**
 * A seat's name: its person's nickname, else "seat 2".
 * @param {TableInfo | null | undefined} table
 * @param {number} seat
 */
export function seatLabel(table, seat) {
  const s = table && Array.isArray(table.seats) ? table.seats.find((x) => x.seat === seat) : null;
  return s && s.player ? s.player.nickname : t('seat.n', { n: seat });
}

/**
 * The seats' contributions, one line each.
 * @param {string[]} contributions
 * @param {TableInfo | null | undefined} table
 * @returns {CheckLine[]}
 */
function contributionLines(contributions, table) {
  return contributions.map((c, seat) => ({
    id: 'contribution', ok: null, seat,
    text: `${seatLabel(table, seat)}: ${c === '' ? t('verify.contribution_none') : c}`,
    detail: [],
  }));
}

/**
 * Cards as one text, in the order given.
 * @param {string[]} cards
 */
const cardsText = (cards) => cards.join(' ');

/**
 * The same cards, in whatever order (each copy counted).
 * @param {string[]} a
 * @param {string[]} b
 */
function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const x = a.slice().sort();
  const y = b.slice().sort();
  return x.every((c, i) => c === y[i]);
}

/**
 * Checks a table's deals: see the module's words. `fairness` is the table's (null or
 * undefined: a table made before deals were committed); `step0` the replay's first step
 * (null: not asked for); `mod` the game's page module.
 * @param {Fairness | null | undefined} fairness
 * @param {TableInfo} table
 * @param {Step0 | null} step0
 * @param {GameModule} mod
 * @returns {Promise<Checked>}
 */
export async function checks(fairness, table, step0, mod) {
  /** @type {CheckLine[]} */
  const lines = [];
  if (!fairness || typeof fairness.commitment !== 'string') {
    lines.push({ id: 'not_committed', ok: null, text: t('verify.not_committed'), detail: [] });
    return { ok: null, lines };
  }
  const shown = fairness.commitment.trim().toLowerCase();
  const contributions = Array.isArray(fairness.contributions) ? fairness.contributions : null;
  if (typeof fairness.secret !== 'string' || fairness.secret === '') {
    lines.push({ id: 'not_revealed', ok: null, text: t('verify.not_revealed'), detail: [[t('verify.shown'), shown]] });
    if (contributions) {
      lines.push({ id: 'contributions', ok: null, text: t('verify.contributions'), detail: [] }, ...contributionLines(contributions, table));
    }
    return { ok: null, lines };
  }
  const secret = fairness.secret;
  if (!hasSha256()) {
    // Plain http on another machine than this one: the browser keeps WebCrypto from the page.
    lines.push({ id: 'no_sha256', ok: null, text: t('verify.no_sha256'), detail: [[t('verify.shown'), shown], [t('verify.secret'), secret.slice(0, 200)]] });
    return { ok: null, lines };
  }
  const readable = /^[0-9a-fA-F]{64}$/.test(secret);
  const given = contributions || [];
  const wellFormed = given.every((c) => typeof c === 'string' && /^([0-9a-f]{32})?$/.test(c));

  // The commitment: the secret's SHA-256, computed here, against the one shown before the deal.
  let commitmentOk = false;
  if (readable) {
    const actual = await commitmentOf(secret);
    commitmentOk = actual === shown;
    lines.push({
      id: 'commitment', ok: commitmentOk, text: t(commitmentOk ? 'verify.commitment_ok' : 'verify.commitment_bad'),
      detail: [[t('verify.shown'), shown], [t('verify.computed'), actual], [t('verify.secret'), secret]],
    });
  } else {
    lines.push({ id: 'commitment', ok: false, text: t('verify.bad_secret'), detail: [[t('verify.secret'), secret.slice(0, 200)]] });
  }

  // The contributions, then the seed they make with the secret against the one dealt from.
  lines.push({ id: 'contributions', ok: null, text: t('verify.contributions'), detail: [] }, ...contributionLines(given, table));
  const used = parseSeed(fairness.seed);
  const made = readable && wellFormed ? await seedOf(secret, given) : null;
  const seedOk = made !== null && used !== null && made === used;
  if (made === null) {
    lines.push({ id: 'seed', ok: false, text: t(readable ? 'verify.bad_contribution' : 'verify.no_seed'), detail: [] });
  } else {
    lines.push({
      id: 'seed', ok: seedOk, text: t(seedOk ? 'verify.seed_ok' : 'verify.seed_bad'),
      detail: [[t('verify.computed'), String(made)], [t('verify.seed_dealt'), used === null ? t('verify.seed_missing') : String(used)]],
    });
  }

  // The first deal, dealt again here from the seed made here, against the replay's.
  /** @type {boolean | null} */
  let dealOk = null;
  if (made === null) {
    lines.push({ id: 'deal', ok: null, text: t('verify.deal_no_seed'), detail: [] });
  } else if (!mod.firstDeal || !mod.dealtHands) {
    lines.push({ id: 'deal', ok: null, text: t('verify.deal_unknown_game'), detail: [] });
  } else if (!step0 || !('view' in step0)) {
    lines.push({ id: 'deal', ok: null, text: t('verify.deal_no_replay'), detail: step0 && 'error' in step0 ? [[t('verify.why'), step0.error]] : [] });
  } else {
    const seats = Array.isArray(table.seats) ? table.seats.length : 0;
    /** @type {string[][] | null} */
    let mine = null;
    try {
      mine = mod.firstDeal(made, table.rules || {}, seats);
    } catch {
      mine = null;
    }
    const theirs = mod.dealtHands(step0.view);
    if (!mine || !theirs) {
      dealOk = false;
      lines.push({ id: 'deal', ok: false, text: t(mine ? 'verify.deal_no_hands' : 'verify.deal_failed'), detail: [] });
    } else {
      const n = Math.max(mine.length, theirs.length);
      /** @type {CheckLine[]} */
      const bySeat = [];
      for (let seat = 0; seat < n; seat++) {
        const a = mine[seat] || [];
        const b = theirs[seat] || [];
        const ok = seat < mine.length && seat < theirs.length && sameCards(a, b);
        bySeat.push({
          id: 'deal_seat', ok, seat, text: `${seatLabel(table, seat)}: ${t(ok ? 'verify.match' : 'verify.no_match')}`,
          detail: ok ? [[t('verify.cards'), cardsText(a)]] : [[t('verify.dealt_here'), cardsText(a)], [t('verify.replay_hand'), cardsText(b)]],
        });
      }
      dealOk = bySeat.every((l) => l.ok);
      lines.push({ id: 'deal', ok: dealOk, text: t(dealOk ? 'verify.deal_ok' : 'verify.deal_bad'), detail: [] }, ...bySeat);
    }
  }
  /** @type {boolean | null} */
  const ok = !commitmentOk || !seedOk || dealOk === false ? false : dealOk;
  const verdict = ok === true ? 'verify.all_ok' : ok === false ? 'verify.some_bad' : 'verify.partly_ok';
  lines.unshift({ id: 'verdict', ok, text: t(verdict), detail: [] });
  return { ok, lines };
}

/**
 * The shell lines that check the same by hand (`sha256sum`; the seed's line is bash's), with
 * the table's values filled in only when each is plain hexadecimal (nothing else can reach
 * a terminal from here), else with placeholders.
 * @param {Fairness | null | undefined} fairness
 * @returns {string[]}
 */
export function shellLines(fairness) {
  const secret = fairness && typeof fairness.secret === 'string' && /^[0-9a-fA-F]{64}$/.test(fairness.secret) ? fairness.secret.toLowerCase() : 'SECRET';
  const given = fairness && Array.isArray(fairness.contributions) ? fairness.contributions : [];
  const plain = given.every((c) => typeof c === 'string' && /^[0-9a-f]{0,32}$/.test(c));
  const text = [secret, ...(plain && given.length ? given : ['C0', 'C1', '…'])].join(':');
  return [
    `printf %s ${secret} | xxd -r -p | sha256sum`,
    `printf %s '${text}' | sha256sum`,
    `h=$(printf %s '${text}' | sha256sum | cut -c1-16); printf '%u\\n' "$((16#$(echo $h | fold -w2 | tac | tr -d '\\n')))"`,
  ];
}
