// @ts-check
// Mus at the table: the view (cards, phases, bets, declarations, señas, scores, the
// counting) drawn on the felt, and buttons for exactly the legal actions.

import { registerGame } from './games.js';
import { el, clear, t } from './common.js';
import { cardEl } from './cards.js';
import { nameplate as plateOf, holdOpen, nextButton, option, check, Bubbles, onNextOf, feltAlone, fullViewHands } from './kit.js';
import { deal, rngFromSeed } from './chance.js';

/** @typedef {import('./kit.js').GameModule} GameModule */
/** @typedef {import('./kit.js').GameState} GameState */
/** @typedef {import('./kit.js').GameContext} GameContext */
/** @typedef {import('./kit.js').Utterance} Utterance */

/**
 * A Mus table's options.
 * @typedef {{mode: string, target: number, juegos: number, vacas: number, real31: boolean, punto_y_miedo: boolean,
 *   senas: boolean, boards?: number, juegos_given?: number[]}} MusRules
 */

/**
 * How a lance went (`LanceStatus`).
 * @typedef {{status: 'en_paso' | 'ordago_accepted' | 'void'} | {status: 'accepted', piedras: number}
 *   | {status: 'declined', pair: number, piedras: number} | {status: 'unbet', pair: number}} LanceStatus
 */

/**
 * Who won a lance at the showdown (nobody: it was not played) and why, in the engine's words.
 * @typedef {{lance: string, seat: number | null, reason: string}} LanceWinner
 */

/**
 * A public event of a hand (`Event`), by its type.
 * @typedef {{type: 'hand_started', hand: number, game: number, mano: number} | {type: 'said', seat: number, action: string}
 *   | {type: 'discarded', seat: number, count: number} | {type: 'served'} | {type: 'deck_rebuilt', cards: number}
 *   | {type: 'lance_started', lance: string} | {type: 'lance_settled', lance: string, status: LanceStatus}
 *   | {type: 'scored', pair: number, piedras: number, lance: string, reason: string, total: number}
 *   | {type: 'showdown', cards: string[][], mano: number, winners: LanceWinner[]}
 *   | {type: 'game_won', pair: number, ordago: boolean, piedras: [number, number]}
 *   | {type: 'vaca_won', pair: number} | {type: 'match_won', pair: number}
 *   | {type: 'board_ended', board: number, net: number, total: number} | {type: 'match_drawn'}} MusEvent
 */

/**
 * The previous hand, with its showdown (its four hands when they were shown).
 * @typedef {{hand: number, mano: number, cards?: string[][] | null, lances?: [string, LanceStatus][], log?: MusEvent[]}} HandSummary
 */

/**
 * Piedras, juegos and vacas by pair (pair 0: seats 0 and 2).
 * @typedef {{piedras: number[], games: number[], vacas: number[]}} MusScores
 */

/**
 * What a seat sees of Mus (`MusView`; a spectator: no cards). A replay's full view has the
 * four hands (`cards` by seat, or `hands`).
 * @typedef {{seat?: number | null, position?: number | null, rules?: Partial<MusRules>, hand_number: number,
 *   game_number: number, mano: number, cards?: string[] | string[][], scores?: MusScores,
 *   phase: {phase: 'mus' | 'discard' | 'senas' | 'declare' | 'bet' | 'over', lance?: string}, to_act?: number[],
 *   bet?: {pair: number, total: number, deje: number, ordago: boolean, answering?: boolean[]} | null,
 *   discarded?: boolean[], my_discard?: string[] | null, mus_rounds: number, deck_left: number,
 *   pares?: (boolean | null)[], juego?: (boolean | null)[], senas_sent?: boolean[], my_sena?: string | null,
 *   partner_sena?: string | null, lances?: [string, LanceStatus][], log?: MusEvent[], last_hand?: HandSummary | null,
 *   winner?: number | null, hands?: string[][], board?: number | null, board_nets?: number[]}} MusView
 */

/**
 * A finished match's score in pair order: the winning pair, piedras, juegos and vacas.
 * @typedef {{winner: number, piedras: number[], games: number[], vacas: number[]}} FinalScore
 */

/**
 * The page's state of a table kept across renders: the cards picked for a discard, the
 * envido amount on the picker, an órdago armed, the counting on the felt, the bubbles.
 * @typedef {{key: string, selected: Set<string>, betKey?: string, amount?: number | null, ordagoArmed?: number,
 *   counting?: import('./kit.js').HoldView, bubbles?: Bubbles}} MusUi
 */

// Why a lance was won at the showdown, as the engine words it (`LanceWinner::reason`: the
// hand in players' notation, perhaps "only one pair has it: not bet" and a tie won by
// position), told in the page's language with the narration's own phrases.
/** @type {Record<string, string>} */
const WHY_FIXED = {
  'nobody has pares': 'story.mus.why.no_pares',
  'nobody has juego: punto is played': 'story.mus.why.no_juego',
  'not played: somebody has juego': 'story.mus.why.punto_unplayed',
};
const WHY_UNBET = ', only one pair has it: not bet';
const WHY_TIES = ', ties with position ';
const WHY_CLOSER = ' and is closer to mano';
/** @param {string} reason */
function whyText(reason) {
  const r = String(reason || '');
  if (Object.hasOwn(WHY_FIXED, r)) return t(WHY_FIXED[r]);
  let rest = r;
  let positions = null;
  const at = r.indexOf(WHY_TIES);
  if (at >= 0 && r.endsWith(WHY_CLOSER)) {
    positions = r.slice(at + WHY_TIES.length, r.length - WHY_CLOSER.length);
    rest = r.slice(0, at);
  }
  const unbet = rest.endsWith(WHY_UNBET);
  const hand = unbet ? rest.slice(0, -WHY_UNBET.length) : rest;
  const key = unbet ? (positions ? 'story.mus.why.unbet_tie' : 'story.mus.why.unbet') : positions ? 'story.mus.why.tie' : 'story.mus.why.hand';
  return t(key, positions ? { hand, positions } : { hand });
}

/** @type {Record<string, string>} */
const LANCE_NAMES = { grande: 'Grande', chica: 'Chica', pares: 'Pares', juego: 'Juego', punto: 'Punto' };
// Why piedras were scored (`ScoreReason`), in the narration's own phrases.
const scoredWhy = (/** @type {{reason: string, lance: string}} */ e) => (e.reason === 'cuenta' && e.lance === 'punto'
  ? t('story.mus.reason.punto')
  : t(`story.mus.reason.${e.reason}`, { lance: String(e.lance).toLowerCase() }));
const POSITION = ['mano', '2º', '3º', 'postre'];
/** @type {Record<string, string>} */
const SENA_WORDS = {
  ninguna: 'ninguna', dos_reyes: 'dos reyes', tres_reyes: 'tres reyes', dos_pitos: 'dos pitos',
  tres_pitos: 'tres pitos', medias: 'medias', duples: 'duples', treinta_y_una: '31', ciego: 'ciego',
};
const senaWords = (/** @type {string | null | undefined} */ s) => (s == null ? '' : SENA_WORDS[s] || String(s).replace(/_/g, ' '));

// Local, per-table UI state that survives re-renders: the cards picked for a discard and
// the envido amount on the picker.
/** @type {WeakMap<HTMLElement, MusUi>} */
const uiState = new WeakMap();

/** @type {GameModule['rulesForm']} */
function rulesForm(defaults = {}) {
  /** @type {MusRules} */
  const d = { mode: '8reyes', target: 40, juegos: 3, vacas: 1, real31: false, punto_y_miedo: true, senas: false, ...defaults };
  const mode = el('select', { name: 'mode', 'data-testid': 'rule-mode' },
    option('8reyes', '8 reyes', d.mode), option('4reyes', '4 reyes', d.mode));
  const target = el('select', { name: 'target', 'data-testid': 'rule-target' },
    option(40, '40 piedras', d.target), option(30, '30 piedras', d.target));
  const juegos = el('select', { name: 'juegos', 'data-testid': 'rule-juegos' },
    [1, 3, 5].map((n) => option(n, n === 1 ? '1 juego' : t('mus.best_of_juegos', { n }), d.juegos)));
  const vacas = el('select', { name: 'vacas', 'data-testid': 'rule-vacas' },
    [1, 3, 5].map((n) => option(n, n === 1 ? '1 vaca' : t('mus.best_of_vacas', { n }), d.vacas)));
  const [real31, real31L] = check('real31', '31 real', d.real31);
  const [miedo, miedoL] = check('punto_y_miedo', 'punto y miedo', d.punto_y_miedo);
  const [senas, senasL] = check('senas', t('mus.senas_partners'), d.senas);
  // Boards (a duplicate's tables): one hand each from 0–0, so no juegos, vacas or señas.
  const boards = Number(d.boards || 0);
  const box = el('div', {},
    el('div', { class: 'fields' },
      el('label', { class: 'field' }, t('mus.f.deck'), mode),
      el('label', { class: 'field' }, t('mus.f.target'), target),
      boards ? null : el('label', { class: 'field' }, t('mus.f.juegos'), juegos),
      boards ? null : el('label', { class: 'field' }, t('mus.f.vacas'), vacas)),
    el('div', { class: 'row', style: { gap: '1.2rem', marginBottom: '.8rem' } }, real31L, miedoL, boards ? null : senasL));
  return {
    el: box,
    read: () => ({
      mode: mode.value, target: Number(target.value), juegos: Number(juegos.value), vacas: Number(vacas.value),
      real31: real31.checked, punto_y_miedo: miedo.checked, senas: boards ? false : senas.checked, boards,
    }),
  };
}

/** @type {GameModule['rulesSummary']} */
function rulesSummary(rules = {}) {
  const r = /** @type {Partial<MusRules>} */ (rules);
  const parts = [r.mode === '4reyes' ? '4 reyes' : '8 reyes', `${r.target ?? 40} piedras`];
  if (r.boards) {
    parts.push(t('mus.boards', { count: r.boards }));
    if (r.real31) parts.push('31 real');
    return parts.join(' · ');
  }
  const j = r.juegos ?? 3; const v = r.vacas ?? 1;
  parts.push(j === 1 ? '1 juego' : `${j} juegos`);
  if (v > 1) parts.push(`${v} vacas`);
  if (r.real31) parts.push('31 real');
  if (r.senas) parts.push('señas');
  const given = r.juegos_given || [];
  if (given.length) {
    parts.push(t('mus.juegos_given', { a: given.filter((p) => p === 0).length, b: given.filter((p) => p === 1).length }));
  }
  return parts.join(' · ');
}

/**
 * The four hands when every hand may be shown (replays, the end of the match), or null.
 * @param {MusView} v
 * @param {GameState} st
 * @returns {string[][] | null}
 */
function shownHands(v, st) {
  /** @param {unknown} h @returns {h is string[][]} */
  const four = (h) => Array.isArray(h) && h.length === 4 && h.every(Array.isArray);
  if (four(st.hands)) return st.hands;
  if (four(v.hands)) return v.hands;
  if (four(v.cards)) return v.cards;
  if (v.phase && v.phase.phase === 'over' && v.last_hand && four(v.last_hand.cards)) return v.last_hand.cards;
  return null;
}

/**
 * A pair by its players' names, "Ane y Bea" (seats 0 and 2, or 1 and 3).
 * @param {(seat: number) => string} seatName
 * @param {number} pair
 */
export function pairNames(seatName, pair) {
  return `${seatName(pair % 2)} ${t('words.and')} ${seatName((pair % 2) + 2)}`;
}

/**
 * How the page names the two sides while a match is played: a seated player's side is
 * "nosotros" and the other "ellos"; anyone else sees the players' names ("Ane y bot 2").
 * Results (a juego, the match) name both pairs by their players for everybody.
 * @param {(seat: number) => string} seatName
 * @param {number | null | undefined} mySeat
 */
export function sides(seatName, mySeat) {
  const seated = mySeat !== null && mySeat !== undefined;
  const myPair = seated ? mySeat % 2 : 0;
  const name = (/** @type {number} */ pair) => (seated ? (pair % 2 === myPair ? 'nosotros' : 'ellos') : pairNames(seatName, pair));
  return { seated, myPair, name };
}

/** @type {Record<string, string>} */
const PLURAL = { wins: 'win', scores: 'score', takes: 'take', has: 'have' };

/**
 * A narration line from the server ("seat 2 (3rd): envido 2", "pair 0–2 scores 1 piedra")
 * with the table's names on it: seats by who sits there, pairs as `sides` names them.
 * @type {NonNullable<GameModule['nameLine']>}
 */
export function nameLine(line, { seatName, mySeat }) {
  const side = sides(seatName, mySeat);
  /** @type {(m: string, pair?: string, verb?: string, you?: string, seat?: string) => string} */
  const named = (m, pair, verb, you, seat) => {
    if (pair !== undefined) return side.name(Number(pair)) + (verb ? ` ${PLURAL[verb]}` : '');
    return you ? m : seatName(Number(seat));
  };
  return String(line).replace(/\bpair (\d)[–-]\d(?: (wins|scores|takes|has)\b)?|(you \()?seat (\d)\b/g, named);
}

/**
 * The final score of a finished match: {winner, piedras, games, vacas}, each [pair 0–2's,
 * pair 1–3's] — pair order, as the server tells every score, whoever won. The engine keeps
 * the last juego's piedras in the view at the end; a view that reset them to 0–0 falls back
 * to the piedras of the last game's end.
 * @param {MusView | null | undefined} v
 * @param {import('./kit.js').Outcome | null | undefined} outcome
 * @returns {FinalScore | null}
 */
export function finalScore(v, outcome) {
  const w = outcome && outcome.winners && outcome.winners.length ? outcome.winners[0] % 2 : (v && v.winner != null ? v.winner % 2 : null);
  if (w === null || !v) return null;
  const sc = v.scores || { piedras: [0, 0], games: [0, 0], vacas: [0, 0] };
  let piedras = sc.piedras || [0, 0];
  if (piedras[0] === 0 && piedras[1] === 0) {
    const logs = [...((v.last_hand && v.last_hand.log) || []), ...(v.log || [])];
    const won = logs.filter(/** @returns {e is Extract<MusEvent, {type: 'game_won'}>} */ (e) => e.type === 'game_won').pop();
    if (won && Array.isArray(won.piedras)) piedras = won.piedras;
  }
  return { winner: w, piedras: [...piedras], games: [...(sc.games || [0, 0])], vacas: [...(sc.vacas || [0, 0])] };
}

/**
 * "Ane y Bea contra Iker y bot 3: vacas 1–0, juegos 1–0, piedras 30–27": a final score in
 * pair order (the side of seats 0 and 2 first), worded as the server's summary.
 * @param {FinalScore} f
 * @param {(pair: number) => string} name
 */
function finalScoreText(f, name) {
  const two = (/** @type {number[]} */ xs) => `${xs[0]}–${xs[1]}`;
  return t('mus.final_score', { a: name(0), b: name(1), vacas: two(f.vacas), juegos: two(f.games), piedras: two(f.piedras) });
}

/**
 * How a lance went, with the side that scored: "no quiero · ellos +1".
 * @param {LanceStatus | null | undefined} status
 * @param {(pair: number) => string} pairName
 */
function statusText(status, pairName) {
  if (!status) return '';
  switch (status.status) {
    case 'en_paso': return 'en paso';
    case 'accepted': return `${status.piedras} quiero`;
    case 'ordago_accepted': return 'órdago';
    case 'declined': return `no quiero · ${pairName(status.pair)} +${status.piedras}`;
    case 'unbet': return `${pairName(status.pair)}, sin envite`;
    case 'void': return t('mus.not_played');
    default: return '';
  }
}

/**
 * How a lance went, in two words: "en paso", "2 quiero", "no quiero", "órdago"…
 * @param {LanceStatus | null | undefined} status
 */
function shortStatus(status) {
  if (!status) return '';
  switch (status.status) {
    case 'accepted': return `${status.piedras} quiero`;
    case 'declined': return 'no quiero';
    case 'unbet': return 'sin envite';
    default: return statusText(status, () => '');
  }
}

/**
 * The words over the felt: the phase, the lance.
 * @param {MusView} v
 */
function phaseTitle(v) {
  const p = v.phase;
  switch (p.phase) {
    case 'mus': return v.mus_rounds > 0 ? `¿Mus? (${t('mus.rounds', { count: v.mus_rounds })})` : '¿Mus?';
    case 'discard': return t('mus.phase.discard');
    case 'senas': return 'Señas';
    case 'declare': return t('mus.declaring', { lance: LANCE_NAMES[p.lance || ''] });
    case 'bet': return LANCE_NAMES[p.lance || ''] || p.lance || '';
    case 'over': return t('mus.phase.over');
    default: return '';
  }
}

/**
 * Everything said this hand, in order, as bubbles: what was said before the current stage
 * (a lance, the deal) is `stale`.
 * @param {MusView} v
 */
function utterances(v) {
  const log = v.log || [];
  let since = 0;
  log.forEach((e, i) => { if (['hand_started', 'served', 'lance_started'].includes(e.type)) since = i + 1; });
  /** @type {(Utterance & {kind: string})[]} */
  const out = [];
  log.forEach((e, i) => {
    const id = `${v.game_number}.${v.hand_number}.${i}`;
    if (e.type === 'said') {
      const a = String(e.action);
      // A declaration (pares sí, juego no) stays on the seat as a chip: no bubble to repeat it.
      if (/^(pares|juego) (sí|no)$/.test(a)) return;
      out.push({ id, seat: e.seat, text: a, kind: a === 'órdago' ? 'ordago' : /^(envido|reenvido|quiero)/.test(a) ? 'strong' : '', stale: i < since });
    } else if (e.type === 'discarded') {
      out.push({ id, seat: e.seat, text: `descarta ${e.count}`, kind: '', stale: i < since });
    }
  });
  return out;
}

/**
 * Each seat's last words in the current stage of the hand, at once (replays): {seat: utterance}.
 * @param {MusView} v
 */
function lastWords(v) {
  /** @type {Map<number, Utterance & {kind: string}>} */
  const words = new Map();
  for (const u of utterances(v)) if (!u.stale) words.set(u.seat, u);
  return words;
}

/**
 * Which finished hand a view's `last_hand` is: changes exactly when another hand ends.
 * @param {MusView} v
 */
function handKey(v) {
  const h = v && v.last_hand;
  return h ? `${h.hand}|${h.mano}|${(h.log || []).length}|${JSON.stringify((h.log || [])[0] || null)}|${v.game_number}` : '';
}

// How long the counting stays on the felt when the server holds nothing (ms).
const COUNTING_MS = 8000;

/**
 * Whether the counting of the hand just finished is on the felt now (see kit.js
 * `holdOpen`): it comes up when a hand ends while the page watches (or on arrival during
 * the server's hold) and goes when the person presses "next hand", when the server's hold
 * ends, or after `COUNTING_MS` without a hold.
 * @param {MusUi} ui
 * @param {MusView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 */
function countingOpen(ui, v, st, ctx) {
  return holdOpen(ui, 'counting', handKey(v), st, ctx, { me: ctx.mySeat ?? null, ms: COUNTING_MS });
}

/**
 * Piedras each pair scored in a hand, by lance and in all: {byLance: {lance: [p0, p1]}, total: [p0, p1]}.
 * @param {MusEvent[] | undefined} log
 */
function handScores(log) {
  /** @type {Record<string, number[]>} */
  const byLance = {};
  const total = [0, 0];
  for (const e of log || []) {
    if (e.type !== 'scored') continue;
    (byLance[e.lance] = byLance[e.lance] || [0, 0])[e.pair % 2] += e.piedras;
    total[e.pair % 2] += e.piedras;
  }
  return { byLance, total };
}

/**
 * The counting of the hand just finished, drawn on the felt: the four hands face up at
 * their seats, who won each lance, the piedras each side got, and "next hand".
 * @param {MusView} v
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {{spots: [string, number][], side: ReturnType<typeof sides>, onNext: () => void}} how
 */
function countingEl(v, st, ctx, { spots, side, onNext }) {
  const h = /** @type {HandSummary} (drawn only with a last hand) */ (v.last_hand);
  const log = h.log || [];
  const showdown = log.find((e) => e.type === 'showdown');
  const cards = h.cards || (showdown && showdown.cards) || null;
  const winners = new Map(((showdown && showdown.winners) || []).map((w) => [w.lance, w]));
  const settled = new Map((h.lances || []).map(([l, s]) => [l, s]));
  const { byLance, total } = handScores(log);
  const gameWon = log.find((e) => e.type === 'game_won');
  const order = side.seated ? [side.myPair, 1 - side.myPair] : [0, 1];

  /** @type {(where: string, s: number) => HTMLElement} */
  const seatBox = (where, s) => {
    const pos = (s - h.mano + 4) % 4;
    const won = [...winners.values()].filter((w) => w.seat === s).map((w) => w.lance);
    const mine = side.seated && s % 2 === side.myPair;
    return el('div', { class: `ct-seat seat-${where}`, 'data-seat': s },
      el('div', { class: `nameplate ${mine ? 'us' : 'them'}` },
        el('span', { class: 'nm' }, ctx.seatName(s)), el('span', { class: `chip ${pos === 0 ? 'mano' : ''}` }, POSITION[pos])),
      el('div', { class: `ct-hand ${cards ? '' : 'hidden-hand'}`, 'data-testid': `counting-hand-${s}` },
        cards && cards[s] ? cards[s].map((c) => cardEl(c)) : Array.from({ length: 4 }, () => cardEl('back'))),
      won.length ? el('div', { class: 'row ct-won' }, won.map((l) => el('span', { class: 'chip yes' }, LANCE_NAMES[l]))) : null);
  };

  const rows = el('div', { class: 'ct-lances', 'data-testid': 'counting-lances' });
  const lances = ['grande', 'chica', 'pares', settled.has('punto') || winners.has('punto') ? 'punto' : 'juego'];
  for (const l of lances) {
    const s = settled.get(l);
    const w = winners.get(l);
    const pts = byLance[l] || [0, 0];
    const how = s ? shortStatus(s) : '';
    const who = w ? (w.seat === null || w.seat === undefined ? t('mus.not_played') : ctx.seatName(w.seat)) : '';
    const why = w && w.seat !== null && w.seat !== undefined ? String(w.reason || '') : '';
    // Who got the piedras: the side's name when it is short (nosotros, ellos), else its colour.
    const got = order.filter((p) => pts[p] > 0).map((p) => el('span', { class: `ct-got ${p === side.myPair ? 'us' : 'them'}`, title: `${side.name(p)} +${pts[p]}` },
      side.seated ? `${side.name(p)} +${pts[p]}` : `+${pts[p]}`));
    rows.append(el('div', { class: 'ct-row', 'data-testid': `counting-lance-${l}` },
      el('span', { class: 'ct-l' }, el('b', {}, LANCE_NAMES[l]), how ? el('small', {}, how) : null),
      el('span', { class: 'ct-who', title: why ? `${who}: ${whyText(why)}` : how }, who || '—', why ? el('span', { class: 'muted' }, ` ${why.split(/[:,]/)[0]}`) : null),
      el('span', { class: `ct-pts ${got.length ? '' : 'muted'}` }, got.length ? got : '–')));
  }
  const cuenta = el('div', { class: 'ct-cuenta', 'data-testid': 'counting-cuenta', 'data-piedras': total.join(',') },
    `${t('mus.cuenta_sum')} `, order.map((p, i) => [i ? ' · ' : '', el('b', { class: p === side.myPair ? 'us' : 'them' }, `${side.name(p)} +${total[p]}`)]));
  let after;
  // A juego won is a result: both pairs by their players' names, for everybody.
  const won = (/** @type {number} */ p) => pairNames(ctx.seatName, p);
  if (gameWon) {
    const p = gameWon.pair % 2;
    after = el('div', { class: 'ct-after game', 'data-testid': 'counting-game' },
      t(gameWon.ordago ? 'mus.juego_won_ordago' : 'mus.juego_won', { side: won(p), score: `${won(0)} ${gameWon.piedras[0]} – ${won(1)} ${gameWon.piedras[1]}` }));
  } else {
    const sc = (v.scores && v.scores.piedras) || [0, 0];
    after = el('div', { class: 'ct-after' }, t('mus.score_line', { score: order.map((p) => `${side.name(p)} ${sc[p]}`).join(' – ') }));
  }
  const next = nextButton(st, { over: !!(v.phase && v.phase.phase === 'over'), onNext, ctx });
  const center = el('div', { class: 'ct-center' },
    el('div', { class: 'phase-title' }, t('mus.cuenta_hand', { hand: h.hand })),
    cards ? null : el('div', { class: 'small muted-felt' }, t('mus.not_shown')),
    rows, cuenta, after);
  return el('div', { class: 'counting', 'data-testid': 'counting' },
    el('div', { class: 'ct-grid' }, spots.map(([w, s]) => seatBox(w, s)), center),
    el('div', { class: 'ct-next' }, next));
}

/** @type {GameModule['render']} */
function render({ main, side: sidePanel }, st, ctx) {
  const v = /** @type {MusView | null} */ (st.view);
  if (!v) { clear(main); return; }
  const youSeat = st.you && st.you.seat !== null && st.you.seat !== undefined ? st.you.seat : null;
  const mySeat = st.replay ? null : youSeat ?? (v.seat ?? null);
  const me = mySeat ?? ctx.mySeat ?? 0;
  const seated = mySeat !== null && !st.replay;
  const side = sides(ctx.seatName, seated ? mySeat : null);
  const myPair = side.myPair;
  const pairName = side.name;
  const legal = st.replay ? [] : st.legal || [];
  const phase = v.phase;
  const hands = shownHands(v, st);
  let ui = uiState.get(main);
  const key = `${v.game_number}-${v.hand_number}-${v.mus_rounds}-${phase.phase}`;
  if (!ui) { ui = { key, selected: new Set() }; uiState.set(main, ui); }
  if (ui.key !== key) { ui.key = key; ui.selected = new Set(); }
  // The envido amount starts at the minimum at every new bet.
  const betKey = `${key}-${phase.lance || ''}-${(v.log || []).length}`;
  if (ui.betKey !== betKey) { ui.betKey = betKey; ui.amount = null; ui.ordagoArmed = 0; }
  const outer = ctx;
  const rerender = () => (outer.rerender ? outer.rerender() : render({ main, side: sidePanel }, st, outer));
  ctx = { ...outer, rerender, mySeat: seated ? mySeat : null };

  // ---- seats around the felt: me at the bottom, the next to speak on my right ----
  /** @type {[string, number][]} */
  const spots = [['bottom', me], ['right', (me + 1) % 4], ['top', (me + 2) % 4], ['left', (me + 3) % 4]];
  const discarding = legal.some((a) => a.startsWith('descarto'));

  // ---- the counting of the hand just finished, when it is on ----
  const counting = v.last_hand && (st.replay ? !!st.counting : countingOpen(ui, v, st, ctx));
  if (counting) {
    const onNext = onNextOf(st, ctx, ui, 'counting');
    const felt = el('div', { class: 'felt counting-on' }, countingEl(v, st, ctx, { spots, side, onNext }));
    feltAlone({ main, side: sidePanel }, felt, st, ui.counting, () => sideOf(v, st, { seated, myPair, pairName, ctx, counting: true }));
    return;
  }

  // The bubbles stay up long enough to read, each seat's in turn (replays show them at
  // once); their time runs only while they are on the felt, not under a counting.
  if (!ui.bubbles) ui.bubbles = new Bubbles(() => (outer.rerender ? outer.rerender() : null));
  const words = st.replay ? lastWords(v) : ui.bubbles.update(utterances(v));

  /** @type {(where: string, s: number) => HTMLElement} */
  const plate = (where, s) => {
    const pos = (s - v.mano + 4) % 4;
    const toAct = (v.to_act || []).includes(s) && phase.phase !== 'over';
    const pair = s % 2;
    const away = ctx.away ? ctx.away(s) : false;
    const name = plateOf(ctx, s, {
      cls: seated && pair === myPair ? 'us' : seated ? 'them' : pair === 0 ? 'us' : 'them',
      chips: [el('span', { class: `chip ${pos === 0 ? 'mano' : ''}` }, POSITION[pos])],
    });
    const chips = el('div', { class: 'row', style: { justifyContent: 'center', gap: '3px' } });
    if (v.pares && v.pares[s] !== null && v.pares[s] !== undefined) chips.append(el('span', { class: `chip ${v.pares[s] ? 'yes' : 'no'}` }, v.pares[s] ? 'pares sí' : 'pares no'));
    if (v.juego && v.juego[s] !== null && v.juego[s] !== undefined) chips.append(el('span', { class: `chip ${v.juego[s] ? 'yes' : 'no'}` }, v.juego[s] ? 'juego sí' : 'juego no'));
    if (v.senas_sent && v.senas_sent[s] && s !== me && !(seated && s === (me + 2) % 4 && v.partner_sena)) chips.append(el('span', { class: 'chip sena' }, 'seña'));
    if (seated && s === (me + 2) % 4 && v.partner_sena) chips.append(el('span', { class: 'chip sena', 'data-testid': 'partner-sena', title: t('mus.only_you') }, `seña: ${senaWords(v.partner_sena)}`));
    if (seated && s === me && v.my_sena) chips.append(el('span', { class: 'chip sena', 'data-testid': 'my-sena' }, t('mus.your_sena', { sena: senaWords(v.my_sena) })));
    if (phase.phase === 'discard' && v.discarded && v.discarded[s]) chips.append(el('span', { class: 'chip' }, t('mus.discarded')));

    const w = words.get(s);
    const bubble = w ? el('div', { class: `bubble ${w.kind}`, 'data-testid': `said-${s}`, 'data-said': w.id, 'data-since': w.since }, w.text) : null;

    let cards;
    // The seat's own cards (a replay's four hands are drawn from `hands`).
    const mine = (v.cards || []).filter(/** @returns {c is string} */ (c) => typeof c === 'string');
    if (s === me && seated && mine.length) {
      cards = el('div', { class: 'myhand', 'data-testid': 'my-hand' });
      for (const c of mine) {
        const sel = ui.selected.has(c);
        const card = cardEl(c, { 'data-testid': 'my-card', class: `${discarding ? 'selectable' : ''} ${sel ? 'selected' : ''}` });
        if (discarding) {
          const toggle = () => {
            ui.selected.has(c) ? ui.selected.delete(c) : ui.selected.add(c);
            rerender();
            const again = /** @type {HTMLElement | null} */ (main.querySelector(`[data-testid="my-card"][data-card="${c}"]`));
            if (again && document.activeElement === document.body) again.focus();
          };
          card.setAttribute('role', 'button');
          card.setAttribute('tabindex', '0');
          card.setAttribute('aria-pressed', sel ? 'true' : 'false');
          card.addEventListener('click', toggle);
          card.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(); } });
        }
        cards.append(card);
      }
      for (const c of v.my_discard || []) cards.append(cardEl(c, { class: 'gone', title: t('mus.discarded') }));
    } else if (hands && hands[s] && hands[s].length) {
      cards = el('div', { class: 'hand shown', 'data-testid': `shown-hand-${s}` }, hands[s].map((c) => cardEl(c)));
    } else if (phase.phase !== 'over') {
      cards = el('div', { class: `hand ${s === me && seated ? 'mine' : ''}`, title: st.table && st.table.status === 'waiting' ? t('mus.dealt_at_start') : null },
        Array.from({ length: 4 }, () => cardEl('back')));
    }
    const controls = ctx.seatControls ? ctx.seatControls(s) : null;
    const parts = where === 'bottom' ? [bubble, chips, cards, name, controls] : [name, controls, cards, chips, bubble];
    return el('div', { class: `plate seat-${where} ${toAct ? 'to-act' : ''} ${away ? 'away' : ''}`, 'data-seat': s }, parts);
  };

  // ---- the middle of the felt: phase, bet, lances of this hand ----
  const center = el('div', { class: 'center' });
  const notStarted = st.table && st.table.status === 'waiting';
  const box = el('div', { class: 'centerbox', 'data-testid': 'phase' }, el('div', { class: 'phase-title' }, notStarted ? t('game.before_start') : phaseTitle(v)));
  if (v.bet) {
    const who = pairName(v.bet.pair);
    box.append(el('div', { class: 'betline', 'data-testid': 'bet' },
      v.bet.ordago ? [el('b', {}, '¡Órdago!'), ` (${who})`]
        : ['Envite ', el('b', {}, `${v.bet.total}`), ` piedras (${who}) · deje ${v.bet.deje}`]));
  }
  const settled = new Map((v.lances || []).map(([l, s]) => [l, s]));
  const current = phase.lance;
  const fourth = settled.has('punto') || current === 'punto' ? 'punto' : 'juego';
  const track = el('div', { class: 'lances' });
  for (const l of ['grande', 'chica', 'pares', fourth]) {
    const s = settled.get(l);
    const cls = s ? 'done' : l === current ? 'current' : '';
    track.append(el('span', { class: `lance ${cls}` }, LANCE_NAMES[l], s ? [' ', el('small', {}, statusText(s, pairName))] : null));
  }
  box.append(track);
  const outcome = st.outcome || (st.table && st.table.outcome);
  const fin = phase.phase === 'over' ? finalScore(v, outcome) : null;
  const sc = v.scores || { piedras: [0, 0] };
  // While playing, our side first; a finished match in pair order, as its final score.
  const [a, b] = fin ? [0, 1] : seated ? [myPair, 1 - myPair] : [0, 1];
  const piedras = fin ? fin.piedras : [sc.piedras[a], sc.piedras[b]];
  box.append(el('div', { class: 'miniscore', 'data-testid': 'miniscore', title: `${pairName(a)} – ${pairName(b)}` },
    el('span', { class: a === myPair ? 'us' : 'them' }, String(piedras[0])), ' – ', el('span', { class: b === myPair ? 'us' : 'them' }, String(piedras[1])),
    el('span', { class: 'muted' }, ` ${t('mus.piedras_of', { n: (v.rules && v.rules.target) || 40 })}`)));
  box.append(el('div', { class: 'deckinfo' },
    `${v.board ? t('mus.board_of', { n: v.board, of: (v.rules && v.rules.boards) || v.board }) : `mano ${v.hand_number} · juego ${v.game_number}`}${v.mus_rounds ? ` · ${v.mus_rounds} mus` : ''} · ${t('mus.deck', { n: v.deck_left })}`));
  center.append(box);

  const seats = el('div', { class: 'seats' }, spots.map(([w, s]) => plate(w, s)), center);
  const felt = el('div', { class: 'felt' }, seats);

  // ---- the legal actions ----
  const actions = el('div', { class: 'actions', 'data-testid': 'actions' });
  if (!st.replay) felt.append(actions);
  const sendAction = (/** @type {string} */ a) => {
    for (const x of actions.querySelectorAll('button')) x.disabled = true;
    ctx.send(a);
  };
  /** @type {(a: string, label: string, cls?: string) => HTMLButtonElement} */
  const button = (a, label, cls = '') => el('button', {
    class: `btn ${cls}`, 'data-testid': 'action', 'data-action': a, onclick: () => sendAction(a),
  }, label || a);

  if (legal.length === 0 && !st.replay) {
    const waiting = (v.to_act || []).map((s) => ctx.seatName(s));
    let hint = '';
    if (st.table && st.table.status === 'waiting') hint = t('hint.waiting_start');
    else if (phase.phase === 'over') hint = t('hint.match_over');
    else if (!seated) hint = waiting.length ? t('hint.watching_who', { names: waiting.join(', ') }) : t('hint.watching');
    else if (waiting.length) hint = t('hint.waiting_for', { names: waiting.join(', ') });
    actions.append(el('span', { class: 'hint', 'data-testid': 'waiting' }, hint));
  } else if (discarding) {
    const options = legal.filter((x) => x.startsWith('descarto')).map((x) => ({ a: x, set: x.split(/\s+/).slice(1).sort().join(' ') }));
    const want = [...ui.selected].sort().join(' ');
    const match = options.find((o) => o.set === want);
    actions.append(el('span', { class: 'hint' }, ui.selected.size ? t('mus.discard_n', { n: ui.selected.size }) : t('mus.tap_to_discard')));
    actions.append(el('button', {
      class: 'btn primary', 'data-testid': 'discard-confirm', 'data-action': match ? match.a : '', disabled: !match,
      onclick: () => match && sendAction(match.a),
    }, ui.selected.size ? t('mus.discard_button_n', { n: ui.selected.size }) : t('mus.discard_button')));
    if (ui.selected.size) actions.append(el('button', { class: 'btn small ghost', onclick: () => { ui.selected.clear(); rerender(); } }, t('game.clear')));
  } else {
    const simple = legal.filter((x) => !/^(envido|reenvido) \d+$/.test(x) && !x.startsWith('seña '));
    const order = ['mus', 'no hay mus', 'paso', 'quiero', 'no quiero', 'pares sí', 'pares no', 'juego sí', 'juego no'];
    simple.sort((x, y) => (order.indexOf(x) + 1 || 99) - (order.indexOf(y) + 1 || 99));
    /** @type {Record<string, string>} */
    const cls = { mus: 'primary', 'no hay mus': 'gold', quiero: 'primary' };
    for (const x of simple.filter((y) => y !== 'órdago')) actions.append(button(x, x, cls[x] || ''));
    for (const kind of ['envido', 'reenvido']) {
      const amounts = legal.filter((x) => x.startsWith(`${kind} `)).map((x) => Number(x.split(' ')[1])).sort((x, y) => x - y);
      if (!amounts.length) continue;
      const amount = ui.amount !== null && ui.amount !== undefined && amounts.includes(ui.amount) ? ui.amount : amounts[0];
      ui.amount = amount;
      const i = amounts.indexOf(amount);
      const act = `${kind} ${amount}`;
      const label = kind === 'envido' ? (amount === 2 ? 'envido' : `envido ${amount}`) : `${amount} más`;
      actions.append(el('span', { class: 'picker', 'data-testid': `${kind}-picker` },
        el('button', { class: 'btn gold step', 'data-testid': 'amount-down', disabled: i <= 0, 'aria-label': t('mus.less'), onclick: () => { ui.amount = amounts[i - 1]; rerender(); } }, '−'),
        button(act, label, 'gold main'),
        el('button', { class: 'btn gold step', 'data-testid': 'amount-up', disabled: i >= amounts.length - 1, 'aria-label': t('mus.more'), onclick: () => { ui.amount = amounts[i + 1]; rerender(); } }, '+')));
    }
    if (simple.includes('órdago')) {
      // An órdago stakes the whole game: it sits apart and asks a second tap to confirm.
      const armed = ui.ordagoArmed && Date.now() - ui.ordagoArmed < 4000;
      const ord = el('button', {
        class: `btn danger ordago ${armed ? 'armed' : ''}`, 'data-testid': 'action', 'data-action': 'órdago', 'aria-pressed': armed ? 'true' : 'false',
        onclick: () => {
          if (ui.ordagoArmed && Date.now() - ui.ordagoArmed < 4000) { ui.ordagoArmed = 0; sendAction('órdago'); return; }
          ui.ordagoArmed = Date.now();
          rerender();
          setTimeout(() => { if (ui.ordagoArmed && Date.now() - ui.ordagoArmed >= 4000) { ui.ordagoArmed = 0; rerender(); } }, 4100);
        },
      }, armed ? '¿Seguro? ¡órdago!' : '¡órdago!');
      actions.append(el('span', { class: 'ordago-slot' }, ord));
    }
    const senas = legal.filter((x) => x.startsWith('seña '));
    if (senas.length) {
      actions.append(el('span', { class: 'hint' }, t('mus.sena_to_partner')));
      for (const x of senas) actions.append(button(x, x.slice(5), x === 'seña ninguna' ? '' : 'primary'));
    }
  }

  clear(main).append(felt);
  if (sidePanel) clear(sidePanel).append(sideOf(v, st, { seated, myPair, pairName, ctx }));
}

// ---- side: the score and the counting of the last hand ----
/**
 * The side column: the score, and the counting of the last hand unless it is on the felt.
 * @param {MusView} v
 * @param {GameState} st
 * @param {{seated: boolean, myPair: number, pairName: (pair: number) => string, ctx: GameContext, counting?: boolean}} how
 */
function sideOf(v, st, { seated, myPair, pairName, ctx, counting = false }) {
  const out = document.createDocumentFragment();
  const outcome = st.outcome || (st.table && st.table.outcome);
  out.append(scoreboard(v, { seated, myPair, pairName, ctx, fin: v.phase && v.phase.phase === 'over' ? finalScore(v, outcome) : null }));
  const cuenta = counting ? null : cuentaPanel(v, { pairName, ctx });
  if (cuenta) out.append(cuenta);
  return out;
}

/**
 * The score: piedras (as amarracos and piedras), juegos and vacas, our side first.
 * @param {MusView} v
 * @param {{seated: boolean, myPair: number, pairName: (pair: number) => string, ctx: GameContext, fin: FinalScore | null}} how
 */
function scoreboard(v, { seated, myPair, pairName, ctx, fin }) {
  const r = v.rules || {};
  const target = r.target || 40;
  const sc = v.scores || { piedras: [0, 0], games: [0, 0], vacas: [0, 0] };
  // While playing, our side first; a finished match in pair order, with its final piedras.
  const order = fin ? [0, 1] : seated ? [myPair, 1 - myPair] : [0, 1];
  const piedras = fin ? fin.piedras : sc.piedras;
  const panel = el('div', { class: 'panel', 'data-testid': 'score', 'data-piedras': [piedras[0], piedras[1]].join(','), 'data-games': sc.games.join(','), 'data-vacas': sc.vacas.join(',') });
  panel.append(el('h3', {}, fin ? t('game.final') : t('mus.score'), ' ', el('span', { class: 'muted small' }, `· ${t('mus.game_to', { n: target })}`)));
  const grid = el('div', { class: 'score' },
    el('span', { class: 'hdr' }, ''), el('span', { class: 'hdr' }, 'piedras'), el('span', { class: 'hdr' }, 'juegos'), el('span', { class: 'hdr' }, 'vacas'));
  for (const pair of order) {
    const mine = seated ? pair === myPair : pair === 0;
    const names = pairNames(ctx.seatName, pair);
    const p = piedras[pair];
    const label = pairName(pair);
    grid.append(
      el('span', { class: 'team', title: names }, el('i', { class: 'sw', style: { background: mine ? 'var(--us)' : 'var(--them)' } }),
        el('span', {}, seated ? label.charAt(0).toUpperCase() + label.slice(1) : label)),
      el('span', { class: 'pts', 'data-testid': `piedras-${seated ? (pair === myPair ? 'us' : 'them') : pair}` }, String(p)),
      el('span', { class: 'gv' }, `${sc.games[pair]}`),
      el('span', { class: 'gv' }, `${sc.vacas[pair]}`),
      el('div', { class: 'amarracos', title: `${t('mus.amarracos', { a: Math.floor(p / 5), p: p % 5 })} · ${names}` },
        seated ? el('span', { class: 'muted small', style: { marginRight: '4px' } }, names) : null,
        Array.from({ length: Math.floor(p / 5) }, () => el('i', { class: 'amarraco' })),
        Array.from({ length: p % 5 }, () => el('i', { class: 'piedra' }))),
      el('div', { class: 'bar' }, el('div', { style: { width: `${Math.min(100, (100 * p) / target)}%`, background: mine ? 'var(--us)' : 'var(--them)' } })));
  }
  panel.append(grid);
  // A match of boards is won on the net piedras over its boards.
  if (v.board) {
    const nets = v.board_nets || [];
    const total = nets.reduce((a, b) => a + b, 0);
    const ours = seated && myPair === 1 ? -total : total;
    const signed = (/** @type {number} */ n) => (n > 0 ? `+${n}` : String(n));
    panel.append(el('div', { class: 'boards muted small', 'data-testid': 'board-net', 'data-net': String(total) },
      t(seated ? 'mus.boards_net_us' : 'mus.boards_net', { net: signed(ours), n: nets.length, of: (r.boards || nets.length) }),
      nets.length ? ` (${nets.map((n) => signed(seated && myPair === 1 ? -n : n)).join(' ')})` : ''));
  }
  return panel;
}

/**
 * The counting of the last hand in the side column: the hands shown, who won each lance, the piedras.
 * @param {MusView} v
 * @param {{pairName: (pair: number) => string, ctx: GameContext}} how
 */
function cuentaPanel(v, { pairName, ctx }) {
  const h = v.last_hand;
  if (!h) return null;
  const panel = el('div', { class: 'panel cuenta', 'data-testid': 'cuenta' });
  panel.append(el('h3', {}, t('mus.cuenta_hand', { hand: h.hand })));
  const showdown = (h.log || []).find((e) => e.type === 'showdown');
  const cards = h.cards || (showdown && showdown.cards);
  if (cards) {
    for (let i = 0; i < 4; i++) {
      const s = (h.mano + i) % 4;
      panel.append(el('div', { class: 'who' },
        el('span', { class: 'nm', title: ctx.seatName(s) }, ctx.seatName(s)),
        el('span', { class: 'chip', style: { background: '#e8e1cf', color: '#5b4b22' } }, POSITION[i]),
        el('span', { class: 'cards' }, cards[s].map((c) => cardEl(c)))));
    }
  } else {
    panel.append(el('div', { class: 'muted small' }, t('mus.not_shown')));
  }
  const ul = el('ul');
  if (showdown) {
    for (const w of showdown.winners || []) {
      ul.append(el('li', {}, el('b', {}, LANCE_NAMES[w.lance]), ': ',
        w.seat === null || w.seat === undefined ? t('mus.not_played') : `${ctx.seatName(w.seat)} (${whyText(w.reason)})`));
    }
  }
  for (const e of h.log || []) {
    if (e.type === 'scored') {
      ul.append(el('li', { class: 'muted' }, `${pairName(e.pair)} +${e.piedras} ${e.piedras === 1 ? 'piedra' : 'piedras'} · ${scoredWhy(e)}`));
    } else if (e.type === 'game_won') {
      const won = (/** @type {number} */ p) => pairNames(ctx.seatName, p);
      ul.append(el('li', {}, el('b', {}, `${t('mus.juego_for', { side: won(e.pair) })}${e.ordago ? ' (órdago)' : ''}: ${won(0)} ${e.piedras[0]} – ${won(1)} ${e.piedras[1]}`)));
    }
  }
  if (ul.childNodes.length) panel.append(ul);
  return panel;
}

/**
 * The game-over banner's words: the winning pair by its players' names ("Ane y Bea ganan
 * la partida."), for a player of the match with whether they won.
 * @type {NonNullable<GameModule['outcomeText']>}
 */
function outcomeText(outcome, table, you, ctx = {}) {
  const winners = outcome.winners || [];
  const seatName = ctx.seatName || ((s) => t('seat.n', { n: s }));
  const side = pairNames(seatName, winners[0] ?? 0);
  if (you && you.seat !== null && you.seat !== undefined) {
    return t(winners.includes(you.seat) ? 'mus.side_won_you' : 'mus.side_won_not_you', { side });
  }
  return t('mus.side_won', { side });
}

/**
 * The final score under the banner, in pair order, the pairs by their players' names for
 * everybody: "Ane y Bea contra Iker y bot 3: vacas 1–0, juegos 1–0, piedras 30–27".
 * @type {NonNullable<GameModule['outcomeDetail']>}
 */
function outcomeDetail(st, ctx = {}) {
  const f = finalScore(/** @type {MusView | null} */ (st.view), st.outcome || (st.table && st.table.outcome));
  if (!f) return '';
  const seatName = ctx.seatName || ((s) => t('seat.n', { n: s }));
  return finalScoreText(f, (p) => pairNames(seatName, p));
}

/**
 * The lobby's words for a seat, as players think of it: its place in the first hand (seat
 * 0 is mano, seat 3 postre); `seatHelp` says who partners whom.
 * @type {NonNullable<GameModule['seatLabel']>}
 */
function seatLabel(i) {
  return t(`mus.seat.${i % 4}`);
}

/** The lobby's explanation under the seat: the places of the first hand and the partners. */
function seatHelp() {
  return t('mus.seat_help');
}

/**
 * The sides of a finished match, for the history: "Ane y bot 2 vs bot 1 y bot 3".
 * @param {(seat: number) => string} seatName
 */
function sidesText(seatName) {
  return `${pairNames(seatName, 0)} vs ${pairNames(seatName, 1)}`;
}

/**
 * The final score for the history, from the outcome alone: "vacas 1–0" in pair order (the
 * side of seats 0 and 2 first, as `sidesText` lists them).
 * @param {import('./kit.js').Outcome} outcome
 */
function resultDetail(outcome) {
  const s = outcome && Array.isArray(outcome.scores) ? outcome.scores : [];
  return s.length >= 2 ? `(vacas ${s[0]}–${s[1]})` : '';
}

/**
 * A pair as the narration names it: as `sides` does.
 * @type {NonNullable<GameModule['pairName']>}
 */
function pairName(pair, { seatName, mySeat }) {
  return sides(seatName, mySeat).name(pair);
}

/**
 * A pair as a result names it (a juego, a vaca, the match won): by its players.
 * @type {NonNullable<GameModule['resultName']>}
 */
function resultName(pair, { seatName }) {
  return pairNames(seatName, pair);
}

// ---- the first deal, dealt again (the check of a table's deals) ----

/** The numbers of the 40-card deck in card-index order (the engine's `NUMBERS`). */
const NUMBERS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];
const MASK64 = (1n << 64n) - 1n;

/**
 * The seed board `board` (from 0) of a table of seed `seed` is dealt from: the engine's
 * `board_seed` (crates/mus/src/game.rs), splitmix64 of the seed moved on by the board.
 * @param {bigint} seed
 * @param {number} board
 * @returns {bigint}
 */
export function boardSeed(seed, board) {
  let x = (seed + (BigInt(board) + 1n) * 0x9e3779b97f4a7c15n) & MASK64;
  x = ((x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  x = ((x ^ (x >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return x ^ (x >> 31n);
}

/**
 * The four hands of a match's first deal from its seed, by seat, as the replay's full view
 * names them (`12o`, in card-index order): the 40 cards in index order (oros, copas,
 * espadas, bastos; 1–7, sota, caballo, rey) dealt four a seat from the mano, seat 0, by the
 * pinned shuffle (chance.js) — from `boardSeed(seed, 0)` for a match of boards.
 * @type {NonNullable<GameModule['firstDeal']>}
 */
function firstDeal(seed, rules) {
  const boards = Number((rules || {}).boards) || 0;
  const from = boards > 0 ? boardSeed(seed, 0) : seed;
  const { hands } = deal(Array.from({ length: 40 }, (_, i) => i), rngFromSeed(from), 4, 4);
  return hands.map((h) => h.sort((a, b) => a - b).map((i) => `${NUMBERS[i % 10]}${'oceb'[Math.floor(i / 10)]}`));
}

registerGame({
  name: 'mus', title: 'Mus', rulesForm, rulesSummary, render, outcomeText, outcomeDetail, resultDetail, nameLine, pairName, resultName,
  seatLabel, seatHelp, sidesText, firstDeal, dealtHands: fullViewHands,
});
