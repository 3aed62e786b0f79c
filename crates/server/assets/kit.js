// @ts-check
// What the game pages (mus.js, chinchon.js, tikki.js) share around the felt: who sits where
// in the ring, the nameplates, the end-of-hand hold (how long the counting of a hand stays
// on the felt), the speech bubbles' pace, and the little pieces of the lobby's rules forms.
// The game-module contract that games.js registers and table.js calls is typed here too.

import { el, clear, t } from './common.js';
import { backWords } from './cards.js';

backWords.label = t('card.back');

/** @typedef {import('./common.js').SeatInfo} SeatInfo */
/** @typedef {import('./common.js').TableInfo} TableInfo */
/** @typedef {import('./story.js').StoryLine} StoryLine */
/** @typedef {import('./common.js').Outcome} Outcome */

/**
 * The server's hold at the end of a hand: the seats it waits for and for how long (ms).
 * @typedef {{waiting?: number[], ms?: number}} Hold
 */

/**
 * The person's seat at a table as the server tells it: where they sit (null: watching) and
 * the seat they asked for, if any.
 * @typedef {{seat?: number | null, pending_seat?: number | null}} You
 */

/**
 * What a game module draws: the last state the page received (or a replay's step). `view`
 * is the game's own (each module says what it holds: `MusView`, `ChinchonView`,
 * `TikkiView`); `hands`, in replays, every seat's hand.
 * @typedef {{view: unknown, legal?: string[], lines?: (StoryLine | string)[], table?: TableInfo | null,
 *   you?: You | null, outcome?: Outcome | null, replay?: boolean, hold?: Hold | null,
 *   hands?: string[][] | null, counting?: boolean, lastStep?: boolean, n?: number}} GameState
 */

/**
 * What the page gives a game module to draw with.
 * @typedef {{send: (action: string) => void, next?: () => void, seatName: (seat: number) => string,
 *   connected?: (seat: number) => boolean | null, away?: (seat: number) => boolean,
 *   seatControls?: (seat: number) => Node | null, rerender?: () => void, mySeat: number | null,
 *   otra?: () => HTMLElement | null}} GameContext
 */

/**
 * The two columns of the table page a game draws in: the felt, and beside it (or under it on
 * a narrow screen) the score; replays and tests may give no side.
 * @typedef {{main: HTMLElement, side: HTMLElement | null}} Columns
 */

/**
 * How the history, the replays and the banner name the seats: a seat's name, and the
 * reader's seat (null: not a player of the game).
 * @typedef {{seatName: (seat: number) => string, mySeat: number | null}} Naming
 */

/**
 * A game's table options as the lobby's form and the API carry them (each game reads its own).
 * @typedef {Record<string, unknown>} Rules
 */

/**
 * A game's page, the one contract of a game module: what games.js registers and the lobby
 * (the options' form, a table's summary, the seats' words), the table page (the felt, the
 * banner, the narration's names), the history, the replays and the reviews call. Only `name`,
 * `rulesForm`, `rulesSummary` and `render` are required; without the others the pages use
 * plain words (seat numbers, the engine's summary). `actionParts` words an action's text for
 * the review page, its cards apart (`{card}`: drawn as the page draws cards); without it the
 * action's text is shown as it is, its card codes as cards. `firstDeal` deals a game's first
 * hand again from its seed by tapete's pinned shuffle (chance.js), and `dealtHands` reads
 * the same hands from a replay's first step (its full view): the page that checks a table's
 * deals (verify.js) compares the two, each seat's cards named as the full view names them;
 * without them it checks the commitment and the seed only.
 * @typedef {{
 *   name: string,
 *   title?: string,
 *   rulesForm: (defaults: Rules, opts?: {seats?: {min: number, max: number, default: number}}) => {el: HTMLElement, read: () => Rules},
 *   rulesSummary: (rules: Rules) => string,
 *   render: (cols: Columns, st: GameState, ctx: GameContext) => void,
 *   outcomeText?: (outcome: Outcome, table: TableInfo | null, you: You | null, ctx?: Partial<Naming>) => string,
 *   outcomeDetail?: (st: GameState, ctx?: Partial<Naming>) => string,
 *   nameLine?: (line: string, ctx: Naming) => string,
 *   pairName?: (pair: number, ctx: Naming) => string,
 *   resultName?: (pair: number, ctx: Naming) => string,
 *   seatLabel?: (seat: number, seats?: number) => string,
 *   seatHelp?: () => string,
 *   sidesText?: (seatName: (seat: number) => string, seats: number) => string,
 *   resultDetail?: (outcome: Outcome, ctx: Naming) => string,
 *   actionParts?: (action: string) => (string | {card: string})[],
 *   firstDeal?: (seed: bigint, rules: Rules, seats: number) => string[][],
 *   dealtHands?: (fullView: unknown) => string[][] | null,
 * }} GameModule
 */

// ---- the deal, for the check of a table's deals ----

/**
 * Every seat's cards in a replay's full view (its `hands`, by seat), or null for a view
 * without them: what each game's `dealtHands` reads at a replay's first step.
 * @param {unknown} view
 * @returns {string[][] | null}
 */
export function fullViewHands(view) {
  const hands = view && typeof view === 'object' ? /** @type {{hands?: unknown}} */ (view).hands : null;
  if (!Array.isArray(hands) || !hands.every((h) => Array.isArray(h) && h.every((c) => typeof c === 'string'))) return null;
  return hands.map((h) => h.slice());
}

// ---- the seat ring ----

/**
 * The seat of the person at this table, or null for a spectator and in replays.
 * @param {GameState} st
 * @returns {number | null}
 */
export function seatedOf(st) {
  return st.replay ? null : st.you && st.you.seat !== null && st.you.seat !== undefined ? st.you.seat : null;
}

/**
 * The other seats in turn order starting after `from`: who plays next comes first.
 * @param {number} from
 * @param {number} seats
 * @returns {number[]}
 */
export function after(from, seats) {
  return Array.from({ length: seats - 1 }, (_, k) => (from + 1 + k) % seats);
}

/**
 * The seats around the felt: a seated person's others in turn order after them, everyone
 * (seat 0 first) for a spectator.
 * @param {number | null} seated
 * @param {number} seats
 * @returns {number[]}
 */
export function ringSeats(seated, seats) {
  return seated !== null ? after(seated, seats) : Array.from({ length: seats }, (_, k) => k);
}

/**
 * Where `count` others sit around the felt, as a share (0–100) of the ring's width and
 * height: turn order goes counter-clockwise from the bottom (the next to play on your right).
 * @param {number} count
 * @returns {[number, number][]}
 */
export function ringSpots(count) {
  if (count <= 0) return [];
  if (count === 1) return [[50, 0]];
  const spread = Math.min(240, 90 * (count - 1));
  const start = 180 - spread / 2;
  return Array.from({ length: count }, (_, k) => {
    const a = ((start + (spread * k) / (count - 1)) * Math.PI) / 180;
    return /** @type {[number, number]} */ ([50 + 50 * Math.sin(a), 50 + 50 * Math.cos(a)]);
  });
}

/**
 * Every seat on a full circle, seat 0 at the bottom (spectators, replays).
 * @param {number} seats
 * @returns {[number, number][]}
 */
export function circleSpots(seats) {
  return Array.from({ length: seats }, (_, k) => {
    const a = (k * 2 * Math.PI) / seats;
    return /** @type {[number, number]} */ ([50 + 50 * Math.sin(a), 50 + 50 * Math.cos(a)]);
  });
}

// ---- nameplates ----

/**
 * A seat's nameplate: the connection dot (people only), the name the table gives the seat
 * (a guest's display name as the server sends it, so two guests of one nickname differ),
 * "away" while a bot stands in, then the game's own chips.
 * @param {GameContext} ctx
 * @param {number} s
 * @param {{cls?: string, suffix?: string, chips?: any[]}} [opts]
 * @returns {HTMLElement}
 */
export function nameplate(ctx, s, { cls = '', suffix = '', chips = [] } = {}) {
  const connected = ctx.connected ? ctx.connected(s) : null;
  const away = ctx.away ? ctx.away(s) : false;
  const name = ctx.seatName(s);
  return el('div', { class: `nameplate ${cls}`.trim() },
    connected === null ? null : el('span', { class: `dot ${connected ? 'on' : ''}`, title: connected ? t('seat.connected') : t('seat.not_connected') }),
    el('span', { class: 'nm', 'data-testid': `seat-name-${s}`, title: name }, `${name}${suffix}`),
    away ? el('span', { class: 'chip away', 'data-testid': `away-${s}`, title: t('seat.away_title') }, t('seat.away')) : null,
    chips);
}

// ---- the end-of-hand hold ----

/**
 * The state of one end-of-hand view kept across renders.
 * @typedef {{key: string | number, open: boolean, sawHold: boolean, at: number, holdAt?: number,
 *   timer?: ReturnType<typeof setTimeout>, scrolled?: boolean}} HoldView
 */

/**
 * Whether the end of the hand just finished (its counting) is on the felt now, kept in
 * `ui[slot]`. `key` names the finished hand ('' or 0: none): a new key brings the view up
 * while the page watches; on the page's first look only a hold in progress does (and, with
 * `spectatorsOnArrival`, a spectator's arrival). It goes when the person presses next (the
 * caller closes it), when the server's hold ends, or after `ms` without a hold. A timer
 * redraws the page when the time is up; a new hand clears the old hand's timer.
 * @param {Record<string, any>} ui
 * @param {string} slot
 * @param {string | number} key
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {{me: number | null, ms?: number, spectatorsOnArrival?: boolean}} opts
 * @returns {boolean}
 */
export function holdOpen(ui, slot, key, st, ctx, { me, ms = 8000, spectatorsOnArrival = false }) {
  const hold = st.hold || null;
  const seated = me !== null && me !== undefined;
  const waitingForMe = !!(hold && Array.isArray(hold.waiting) && seated && hold.waiting.includes(/** @type {number} */ (me)));
  /** @type {HoldView | undefined} */
  const c = ui[slot];
  if (!c || key !== c.key) {
    if (c) clearTimeout(c.timer);
    const open = c ? !!key : !!(key && ((hold && (waitingForMe || !seated)) || (spectatorsOnArrival && !hold && !seated)));
    ui[slot] = { key, open, sawHold: !!hold, at: Date.now() };
  } else if (c.open) {
    if (hold) c.sawHold = true;
    else if (c.sawHold) c.open = false; // the server's hold is over: play goes on
  }
  /** @type {HoldView} */
  const cur = ui[slot];
  if (hold && !cur.holdAt) cur.holdAt = Date.now();
  if (cur.open) {
    clearTimeout(cur.timer);
    const left = hold && Number(hold.ms) > 0 ? (cur.holdAt || Date.now()) + Number(hold.ms) + 500 - Date.now()
      : cur.sawHold ? 0 : ms - (Date.now() - cur.at);
    if (left > 0) {
      cur.timer = setTimeout(() => {
        if (ui[slot] === cur && cur.open) { cur.open = false; if (ctx.rerender) ctx.rerender(); }
      }, left);
    } else {
      cur.open = false;
    }
  }
  return cur.open;
}

/**
 * Closes an end-of-hand view now (the person pressed next).
 * @param {Record<string, any>} ui
 * @param {string} slot
 */
export function holdClose(ui, slot) {
  const c = ui[slot];
  if (c) { c.open = false; clearTimeout(c.timer); }
}

/**
 * Brings the end-of-hand felt into view once, when it came up off screen.
 * @param {HTMLElement} felt
 * @param {HoldView | undefined} view
 */
export function scrollOnce(felt, view) {
  if (!view || view.scrolled) return;
  view.scrolled = true;
  const r = felt.getBoundingClientRect();
  if (r.top < 0 || r.bottom > window.innerHeight) felt.scrollIntoView({ block: 'nearest' });
}

// ---- the frame of a game's render ----

/**
 * What a game's `render` draws with, from `frame`: `ui`, the page's state of this table kept
 * across renders; `ctx`, the page's context with a `rerender` that draws the last state
 * again; the person's seat (null for a spectator and in replays); the actions they may take
 * now (none in replays); whether the game has started; and `send`, which sends one action
 * and disables the felt's buttons until the answer comes (a second press sends nothing).
 * @template U
 * @typedef {{ui: U, ctx: GameContext & {rerender: () => void}, seated: number | null,
 *   legal: string[], started: boolean, send: (action: string) => void}} Frame
 */

/**
 * The frame of a game's render (see `Frame`): `store` keeps each felt's page state, made
 * afresh by `fresh(table)` for a new table; `draw` is the game's own render, which
 * `rerender` calls when the page gives none; `onSend(ui)` forgets what was picked when an
 * action goes.
 * @template {{table: string}} U
 * @param {WeakMap<HTMLElement, U>} store
 * @param {Columns} cols
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {{fresh: (table: string) => U, draw: GameModule['render'], onSend?: (ui: U) => void}} how
 * @returns {Frame<U>}
 */
export function frame(store, cols, st, ctx, { fresh, draw, onSend }) {
  const table = st.table ? st.table.id : '';
  let ui = store.get(cols.main);
  if (!ui || ui.table !== table) {
    ui = fresh(table);
    store.set(cols.main, ui);
  }
  const kept = ui;
  const rerender = () => (ctx.rerender ? ctx.rerender() : draw(cols, st, ctx));
  let sent = false;
  /** @param {string} action */
  const send = (action) => {
    if (sent) return;
    sent = true;
    for (const b of cols.main.querySelectorAll('button')) b.disabled = true;
    if (onSend) onSend(kept);
    ctx.send(action);
  };
  return {
    ui, ctx: { ...ctx, rerender }, seated: seatedOf(st), legal: st.replay ? [] : st.legal || [],
    started: !(st.table && st.table.status === 'waiting'), send,
  };
}

/**
 * Puts a game's stylesheet (`/assets/<name>.css`) in the page, once.
 * @param {string} name
 */
export function gameStyle(name) {
  if (typeof document === 'undefined' || document.querySelector(`link[data-game-css="${name}"]`)) return;
  document.head.append(el('link', { rel: 'stylesheet', href: `/assets/${name}.css`, 'data-game-css': name }));
}

/**
 * What "next" does under the end of a hand: the next step of a replay; at a table, closes
 * the end-of-hand view kept in `ui[slot]`, tells the server and draws again.
 * @param {GameState} st
 * @param {GameContext} ctx
 * @param {Record<string, any>} ui
 * @param {string} slot
 * @returns {() => void}
 */
export function onNextOf(st, ctx, ui, slot) {
  return () => {
    if (st.replay) { if (ctx.next) ctx.next(); return; }
    holdClose(ui, slot);
    if (ctx.next) ctx.next();
    if (ctx.rerender) ctx.rerender();
  };
}

/**
 * The end of a hand alone on the felt: `felt` in the main column, brought into view once
 * at a table (see `scrollOnce`), and `panel()` (the game's score) in the side column.
 * @param {Columns} cols
 * @param {HTMLElement} felt
 * @param {GameState} st
 * @param {HoldView | undefined} view
 * @param {() => Node} panel
 */
export function feltAlone({ main, side }, felt, st, view, panel) {
  clear(main).append(felt);
  if (!st.replay) scrollOnce(felt, view);
  if (side) clear(side).append(panel());
}

/**
 * The seats the server's end-of-hand hold still waits for, but the person's own: none in
 * replays.
 * @param {GameState} st
 * @param {number | null} seated
 * @returns {number[]}
 */
export function othersAwaited(st, seated) {
  return !st.replay && st.hold && Array.isArray(st.hold.waiting) ? st.hold.waiting.filter((s) => s !== seated) : [];
}

/**
 * The words over the felt: before the start, at the game's end, else whose turn it is and
 * what is done now (`doing`).
 * @param {{phase?: string, turn?: number | null}} v
 * @param {{started: boolean, seated: number | null, ctx: GameContext, doing: string}} how
 */
export function phaseTitle(v, { started, seated, ctx, doing }) {
  if (!started) return t('game.before_start');
  if (v.phase === 'over') return t('game.over');
  const turn = v.turn === null || v.turn === undefined ? '' : v.turn === seated ? t('game.your_turn') : t('game.turn_of', { name: ctx.seatName(v.turn) });
  return `${turn} · ${doing}`;
}

/**
 * The hint in place of a seat's actions before the game starts and after it ends; null while
 * it is played.
 * @param {{started: boolean, over: boolean}} when
 * @returns {HTMLElement | null}
 */
export function idleHint({ started, over }) {
  if (!started) return el('span', { class: 'hint', 'data-testid': 'waiting' }, t('hint.waiting_start'));
  if (over) return el('span', { class: 'hint' }, t('hint.game_over'));
  return null;
}

/**
 * The score panel's title: the points while playing, the final score at the end, and the
 * game's goal (`goal`: "out past 100", "3 rounds").
 * @param {boolean} over
 * @param {string} goal
 */
export function scoreTitle(over, goal) {
  return el('h3', {}, over ? t('game.final') : t('game.points_h'), ' ', el('span', { class: 'muted small' }, `· ${goal}`));
}

/**
 * A score sheet's last row: every seat's total.
 * @param {number[]} scores
 */
export function totalRow(scores) {
  return el('tr', { class: 'total' }, el('td', {}, t('game.total_h')), scores.map((p) => el('td', {}, String(p))));
}

// ---- the docked seat ----

/** What docks at the screen's bottom while the felt runs on under it (see style.css). */
const DOCK = '.felt > .actions, .felt > .cf-mine, .felt > .tk-mine';

/**
 * Keeps what is scrolled into view (by the page, the keyboard, a search) clear of the
 * sticky top bar, of the chat's strip fixed along the bottom of narrow screens, and of the
 * seat or bar docked above it: the page's scroll padding and the dock's place (style.css)
 * follow their heights, kept in `--top-pad`, `--chat-strip` and `--dock-pad`. Called after
 * each render (the dock changes height with the hand) and on a resize.
 */
export function dockPadding() {
  const root = document.documentElement.style;
  const dock = /** @type {HTMLElement | null} */ (document.querySelector(DOCK));
  const top = /** @type {HTMLElement | null} */ (document.querySelector('.topbar'));
  const strip = /** @type {HTMLElement | null} */ (document.querySelector('.chat-strip'));
  const topH = top ? Math.ceil(top.getBoundingClientRect().height) + 6 : 0;
  const stripH = strip ? Math.ceil(strip.getBoundingClientRect().height) : 0;
  // A dock taller than most of the screen is not docked in practice: no padding that big.
  const dockH = dock ? Math.ceil(dock.getBoundingClientRect().height) + 12 : 0;
  root.setProperty('--top-pad', `${topH}px`);
  root.setProperty('--chat-strip', `${stripH}px`);
  root.setProperty('--dock-pad', `${dockH && dockH + topH + stripH < window.innerHeight * 0.8 ? dockH : 0}px`);
}

/**
 * Brings a part of the felt into view once per `key` (a new reveal, a close to lay on),
 * clear of the docked seat, when the docked seat or the screen's edge hides part of it.
 * @param {HTMLElement | null} part
 * @param {Record<string, any>} ui
 * @param {string} slot
 * @param {string | number | null} key
 */
export function revealOnce(part, ui, slot, key) {
  if (!part || key === null || key === undefined || ui[slot] === key) return;
  ui[slot] = key;
  dockPadding();
  part.scrollIntoView({ block: 'nearest' });
}

/**
 * What to press under a counting: "Next hand" while the match goes on; once it is over, no
 * next hand but "otra" (the same people again, from the table page's `ctx.otra`), a new
 * table (the lobby) and the replay, on one row that stays docked at the screen's bottom;
 * in a replay "next ▶" (nothing at its last step).
 * @param {GameState} st
 * @param {{over: boolean, onNext: () => void, testid?: string, label?: string, yourTurnLabel?: string, ctx?: GameContext}} opts
 * @returns {HTMLElement | null}
 */
export function nextButton(st, { over, onNext, testid = 'next-hand', label = t('next.hand'), yourTurnLabel = t('next.hand_your_turn'), ctx }) {
  if (st.replay) return st.lastStep ? null : el('button', { class: 'btn primary', 'data-testid': testid, onclick: onNext }, t('next.step'));
  if (over) {
    const id = st.table && st.table.id;
    const otra = ctx && ctx.otra ? ctx.otra() : null;
    // As big as the buttons beside it.
    if (otra) for (const b of [otra, ...otra.querySelectorAll('.btn')]) b.classList.remove('small');
    return el('span', { class: 'row over-links', 'data-testid': 'match-over' },
      otra,
      el('a', { class: 'btn primary', href: '/', 'data-testid': 'new-match' }, t('lobby.new_table')),
      id ? el('a', { class: 'btn', href: `/replay/${encodeURIComponent(id)}`, 'data-testid': 'to-replay' }, t('table.replay')) : null);
  }
  const yourTurn = (st.legal || []).length > 0;
  return el('button', { class: 'btn primary', 'data-testid': testid, onclick: onNext }, yourTurn ? yourTurnLabel : label);
}

// ---- the lobby's rules forms ----

/**
 * An <option> of a rules form, selected when it is the current value.
 * @param {string | number} value
 * @param {string} text
 * @param {unknown} selected
 */
export function option(value, text, selected) {
  return el('option', { value, selected: String(value) === String(selected) }, text);
}

/**
 * A <select> of a rules form with its test id (rule-NAME).
 * @param {string} name
 * @param {[string | number, string][]} choices
 * @param {unknown} value
 * @returns {HTMLSelectElement}
 */
export function select(name, choices, value) {
  return /** @type {HTMLSelectElement} */ (el('select', { name, 'data-testid': `rule-${name}` }, choices.map(([v, t]) => option(v, t, value))));
}

/**
 * A checkbox of a rules form and its label.
 * @param {string} name
 * @param {string} text
 * @param {unknown} on
 * @returns {[HTMLInputElement, HTMLElement]}
 */
export function check(name, text, on) {
  const input = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', name, checked: !!on, 'data-testid': `rule-${name}` }));
  return [input, el('label', { class: 'check' }, input, text)];
}

/**
 * A labelled field of a rules form.
 * @param {string} label
 * @param {Node} input
 * @param {string} [title]
 */
export function field(label, input, title) {
  return el('label', { class: 'field', title }, label, input);
}

// ---- words ----

/**
 * The game-over banner's words where seats win on their own (not by pairs): who won
 * (`whoKey`, by default "Ane wins", "Ane and Bea share the win"), and for a player of the
 * game whether they did (`youWon` words a win of yours).
 * @param {Outcome} outcome
 * @param {{seat?: number | null} | null} you
 * @param {{seatName?: (seat: number) => string}} ctx
 * @param {{whoKey?: string, youWon?: (names: string, winners: number[]) => string}} [words]
 */
export function seatsOutcome(outcome, you, ctx, { whoKey = 'game.win', youWon = () => t('game.you_won') } = {}) {
  const winners = outcome.winners || [];
  const seatName = ctx.seatName || ((/** @type {number} */ s) => t('seat.n', { n: s }));
  const names = winners.map(seatName).join(` ${t('words.and')} `);
  const who = t(whoKey, { names, count: winners.length });
  if (you && you.seat !== null && you.seat !== undefined) {
    return winners.includes(you.seat) ? youWon(names, winners) : t('game.you_lost', { who });
  }
  return `${who}.`;
}

/**
 * Every seat's final points for the history, from the outcome alone: "Ane 12 · bot 1 104".
 * @param {Outcome} outcome
 * @param {{seatName?: (seat: number) => string}} ctx
 */
export function pointsResult(outcome, ctx) {
  return pointsDetail({ view: { scores: outcome.scores } }, ctx);
}

/**
 * A narration line with the players' names on its seats ("seat 2 discards 7o" → "Ane discards 7o").
 * @param {string} line
 * @param {(seat: number) => string} seatName
 */
export function nameSeatsIn(line, seatName) {
  return String(line).replace(/(you \()?seat (\d+)\b/g, (m, you, d) => (you ? m : seatName(Number(d))));
}

/**
 * Every seat's final points: "Ane 12 · bot 1 104 (out)".
 * @param {GameState} st
 * @param {{seatName?: (seat: number) => string}} ctx
 */
export function pointsDetail(st, ctx = {}) {
  const v = /** @type {{scores?: unknown, out?: boolean[]} | null} */ (st.view);
  if (!v || !Array.isArray(v.scores)) return '';
  const seatName = ctx.seatName || ((s) => t('seat.n', { n: s }));
  return v.scores.map((/** @type {number} */ p, /** @type {number} */ s) => `${seatName(s)} ${p}${v.out && v.out[s] ? ` ${t('score.out')}` : ''}`).join(' · ');
}

/**
 * Who played, for the history: "Ane, bot 1, bot 2".
 * @param {(seat: number) => string} seatName
 * @param {number} n
 */
export function seatsText(seatName, n) {
  return Array.from({ length: n }, (_, s) => seatName(s)).join(', ');
}

// ---- speech bubbles at a readable pace ----

/**
 * What a seat said, as a bubble: `id` names the utterance (the same on every render);
 * `since`, in the answer of `Bubbles.update`, is when its bubble came up (ms, Date.now).
 * @typedef {{id: string, seat: number, text: string, kind?: string, stale?: boolean, since?: number}} Utterance
 */

/** The least time a bubble stays up (ms), plus `BUBBLE_WORD_MS` for each word. */
export const BUBBLE_MIN_MS = 1500;
export const BUBBLE_WORD_MS = 300;

/**
 * How long a bubble of `text` stays up at least (ms): long enough to read it.
 * @param {string} text
 */
export function bubbleMs(text) {
  return BUBBLE_MIN_MS + BUBBLE_WORD_MS * String(text).trim().split(/\s+/).filter(Boolean).length;
}

/**
 * The speech bubbles of a table, paced so that each can be read: every utterance gets a
 * bubble at its seat for at least `bubbleMs(text)`; what a seat says meanwhile waits its turn
 * (queued per seat); once read, a bubble stays until the seat's next one, or goes when it
 * has become `stale` (its stage of the hand is over). What was said before the page's first
 * look is shown as it stands, without waiting.
 */
export class Bubbles {
  /** @param {() => void} rerender called when a bubble's time is up and another is due */
  constructor(rerender) {
    this.rerender = rerender;
    /** @type {Map<number, {queue: Utterance[], shown: Utterance | null, at: number}>} */
    this.seats = new Map();
    /** @type {Set<string>} */
    this.seen = new Set();
    this.looked = false;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
  }

  /**
   * The bubble each seat shows now, given everything said this hand in order.
   * @param {Utterance[]} said
   * @param {number} [now]
   * @returns {Map<number, Utterance>}
   */
  update(said, now = Date.now()) {
    const first = !this.looked;
    this.looked = true;
    const staleIds = new Set(said.filter((u) => u.stale).map((u) => u.id));
    for (const u of said) {
      if (this.seen.has(u.id)) continue;
      this.seen.add(u.id);
      let s = this.seats.get(u.seat);
      if (!s) { s = { queue: [], shown: null, at: 0 }; this.seats.set(u.seat, s); }
      if (first) { if (!u.stale) { s.shown = u; s.at = now - bubbleMs(u.text); } continue; }
      s.queue.push(u);
    }
    const known = new Set(said.map((u) => u.id));
    /** @type {Map<number, Utterance>} */
    const out = new Map();
    let wake = Infinity;
    for (const [seat, s] of this.seats) {
      // A new hand: what the old one said is gone from the log.
      s.queue = s.queue.filter((u) => known.has(u.id));
      if (s.shown && !known.has(s.shown.id)) s.shown = null;
      for (;;) {
        const due = s.shown ? s.at + bubbleMs(s.shown.text) : -Infinity;
        if (s.queue.length && now >= due) { s.shown = /** @type {Utterance} */ (s.queue.shift()); s.at = now; continue; }
        if (s.shown && !s.queue.length && staleIds.has(s.shown.id) && now >= due) { s.shown = null; }
        if (s.shown && (s.queue.length || staleIds.has(s.shown.id)) && due > now) wake = Math.min(wake, due);
        break;
      }
      if (s.shown) out.set(seat, { ...s.shown, since: s.at });
    }
    clearTimeout(this.timer);
    if (wake < Infinity) this.timer = setTimeout(() => this.rerender(), wake - now + 20);
    return out;
  }
}
