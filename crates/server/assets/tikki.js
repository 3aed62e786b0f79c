// Tikki at the table: 2–5 seats around the felt, each with the cards it holds (backs), the
// stack it laid face down this trick with its count (never which cards), its trick pile and
// score; your hand sorted, cards picked by tapping with the best combination they make shown
// as you pick, and a lay button the legal actions enable; the reveal with every player's
// best combination marked and the winner taking the trick; the retreat round's
// take-back-and-reveal step; a score sheet after each round. Only what the seat's view
// holds is drawn: the page never has another player's hidden cards.

import { registerGame } from './games.js';
import { el, clear } from './common.js';
import { cardEl, parseCard, cardShort, cardName, rankLetter, SUIT_ORDER } from './french.js';

if (typeof document !== 'undefined' && !document.querySelector('link[data-game-css="tikki"]')) {
  document.head.append(el('link', { rel: 'stylesheet', href: '/assets/tikki.css', 'data-game-css': 'tikki' }));
}

// ---------------------------------------------------------------------------------------
// Cards and combinations: the same ranking as the engine (crates/tikki/src/combo.rs)
// ---------------------------------------------------------------------------------------

export const DEFAULT_RULES = { top: 13, rounds: 0, target: 0, retreat: false };

/** The kinds of combination, weakest first (the engine's names). */
export const KINDS = ['single', 'pair', 'straight_flush_2', 'three_of_a_kind', 'straight_flush_3', 'straight_flush_4',
  'four_of_a_kind', 'straight_flush_5', 'straight_flush_6', 'straight_flush_7'];

/** A card's place in the engine's order: rank, then ♠ ♥ ♦ ♣ (the order its texts use). */
export function cardIndex(code) {
  const c = parseCard(code);
  return c ? (c.rank - 1) * 4 + SUIT_ORDER.indexOf(c.suit) : -1;
}

/** How strong a card is as the top of a combination: rank first, then suit (♠ highest). */
export function strength(code) {
  const c = parseCard(code);
  return c ? (c.rank - 1) * 4 + (3 - SUIT_ORDER.indexOf(c.suit)) : -1;
}

/** Cards in the engine's order (ace first, ♠ ♥ ♦ ♣ within a rank). */
export function sortCards(codes) {
  return [...codes].sort((a, b) => cardIndex(a) - cardIndex(b));
}

/**
 * The best combination among `codes`: {type, cards, top} as the engine names them, or null
 * for no cards. Groups of a rank and runs of a suit (straight flushes, no wrap-around; a
 * longer run counts as its top seven), compared by kind and then by the top card.
 */
export function best(codes) {
  const cards = codes.map((code) => ({ ...parseCard(code), code })).filter((c) => c.rank);
  if (!cards.length) return null;
  let found = null;
  const consider = (type, set, top) => {
    const score = KINDS.indexOf(type) * 64 + strength(top);
    if (!found || score > found.score) found = { score, type, cards: set, top };
  };
  for (let r = 1; r <= 13; r++) {
    const group = cards.filter((c) => c.rank === r).map((c) => c.code);
    if (!group.length) continue;
    const top = group.reduce((a, b) => (strength(b) > strength(a) ? b : a));
    consider(['single', 'pair', 'three_of_a_kind', 'four_of_a_kind'][group.length - 1], group, top);
  }
  for (const suit of SUIT_ORDER) {
    const has = new Map(cards.filter((c) => c.suit === suit).map((c) => [c.rank, c.code]));
    let run = [];
    for (let r = 1; r <= 13; r++) {
      if (!has.has(r)) { run = []; continue; }
      run.push(has.get(r));
      if (run.length >= 2) {
        const set = run.slice(-7);
        consider(`straight_flush_${set.length}`, set, has.get(r));
      }
    }
  }
  return { type: found.type, cards: sortCards(found.cards), top: found.top };
}

/** "pair", "3-card straight flush", "single card". */
export function kindWords(type) {
  const m = /^straight_flush_(\d)$/.exec(type || '');
  if (m) return `${m[1]}-card straight flush`;
  return { single: 'single card', pair: 'pair', three_of_a_kind: 'three of a kind', four_of_a_kind: 'four of a kind' }[type] || String(type);
}

/** "pair of 7s", "4-card straight flush to 9♥", "single K♠". */
export function comboWords(combo) {
  if (!combo) return '';
  const top = parseCard(combo.top);
  const plural = (r) => (r === 6 ? 'sixes' : `${rankLetter(r)}s`);
  if (/^straight_flush/.test(combo.type)) return `${kindWords(combo.type)} to ${cardShort(combo.top)}`;
  if (combo.type === 'single') return `single ${cardShort(combo.top)}`;
  return `${kindWords(combo.type)}${top ? ` of ${plural(top.rank)}` : ''}`;
}

/** A pile by rank: [{rank, cards, points}], points 1/5/10/20 for 1/2/3/4 cards of a rank. */
export function pileGroups(codes) {
  const by = new Map();
  for (const c of codes || []) {
    const p = parseCard(c);
    if (!p) continue;
    if (!by.has(p.rank)) by.set(p.rank, []);
    by.get(p.rank).push(c);
  }
  return [...by.entries()].sort((a, b) => a[0] - b[0])
    .map(([rank, cards]) => ({ rank, cards: sortCards(cards), points: [0, 1, 5, 10, 20][cards.length] || 0 }));
}

/** What a pile scores. */
export function pilePoints(codes) {
  return pileGroups(codes).reduce((n, g) => n + g.points, 0);
}

/** The lays of the legal list by their cards: a map from the sorted cards to the action's text. */
function layActions(legal) {
  const m = new Map();
  for (const a of legal) if (a.startsWith('lay ')) m.set(sortCards(a.slice(4).trim().split(/\s+/)).join(' '), a);
  return m;
}

// ---------------------------------------------------------------------------------------
// The lobby: every option of the table, with the game's defaults
// ---------------------------------------------------------------------------------------

function option(value, text, selected) {
  return el('option', { value, selected: String(value) === String(selected) }, text);
}

function rulesForm(defaults = {}) {
  const d = { ...DEFAULT_RULES, ...defaults };
  const select = (name, choices, value) => el('select', { name, 'data-testid': `rule-${name}` }, choices.map(([v, t]) => option(v, t, value)));
  const tops = [];
  for (let top = 13; top >= 4; top--) tops.push([top, top === 13 ? '52 cards (A–K)' : `${4 * top} cards (A–${rankLetter(top)})`]);
  const top = select('top', tops, d.top);
  const rounds = select('rounds', [[0, 'one per player'], ...[1, 2, 3, 4, 5, 6, 8, 10].map((n) => [n, `${n} ${n === 1 ? 'round' : 'rounds'}`])], d.rounds);
  const target = el('input', { type: 'number', name: 'target', min: 0, max: 10000, step: 1, value: d.target, 'data-testid': 'rule-target', title: '0: no target, the rounds decide' });
  const retreatBox = el('input', { type: 'checkbox', name: 'retreat', checked: !!d.retreat, 'data-testid': 'rule-retreat' });
  const field = (label, input, title) => el('label', { class: 'field', title }, label, input);
  const box = el('div', { class: 'tk-rules' },
    el('div', { class: 'fields' },
      field('Deck', top, 'the full deck, or ranks 1 to N of every suit (seven cards for each player at least)'),
      field('Rounds', rounds, 'the deal passes left each round; one per player: everybody deals once'),
      field('Play to points', target, 'with a target, the game ends with the round in which a player reaches it (0: no target)')),
    el('div', { class: 'row', style: { marginBottom: '.8rem' } },
      el('label', { class: 'check', title: 'before the reveal, each player in turn may take laid cards back, showing another laid card for each' },
        retreatBox, 'retreat round (perääntymiskierros)')));
  return {
    el: box,
    read: () => {
      const t = Number(target.value);
      if (!Number.isInteger(t) || t < 0 || t > 10000) throw new Error('Play to points: a whole number, 0–10000 (0: no target)');
      return { top: Number(top.value), rounds: Number(rounds.value), target: t, retreat: retreatBox.checked };
    },
  };
}

function rulesSummary(rules = {}) {
  const r = { ...DEFAULT_RULES, ...rules };
  const parts = [];
  if (Number(r.target) > 0) parts.push(`to ${r.target} points`);
  else parts.push(Number(r.rounds) > 0 ? `${r.rounds} ${Number(r.rounds) === 1 ? 'round' : 'rounds'}` : 'a round per player');
  parts.push(Number(r.top) === 13 ? '52 cards' : `${4 * r.top} cards (A–${rankLetter(Number(r.top))})`);
  if (r.retreat) parts.push('retreat round');
  return parts.join(' · ');
}

// ---------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------

// Per-table state of the page that survives re-renders: the cards picked, the retreat's
// choice, the reveal seen last, the end of a round on the felt.
const uiState = new WeakMap();

const seatedOf = (st) => (st.replay ? null : st.you && st.you.seat !== null && st.you.seat !== undefined ? st.you.seat : null);
const plural = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// How long the end of a round stays on the felt when the server holds nothing (ms).
const ROUND_END_MS = 8000;
// How long a reveal counts as new (its cards turned and the winner marked) (ms).
const FRESH_MS = 2500;

/** The seats in turn order starting after `from`: the next to play sits first (on your left). */
function after(from, seats) {
  return Array.from({ length: seats - 1 }, (_, k) => (from + 1 + k) % seats);
}

/** Whether a round just ended and nothing of the next one happened yet. */
function atRoundStart(v) {
  return v.phase === 'lay' && (v.history || []).length > 0 && !(v.tricks || []).length && (v.laid_counts || []).every((n) => !n);
}

/**
 * Whether the end of the round just finished is on the felt: it comes up when a round ends
 * while the page watches (or on arrival during the server's hold), and goes when the
 * person presses next, when the hold ends, when the next round gets going, or after
 * `ROUND_END_MS` without a hold.
 */
function roundEndOpen(ui, v, st, ctx) {
  if (v.phase === 'over') return true;
  const key = atRoundStart(v) ? (v.history || []).length : 0;
  const hold = st.hold || null;
  const me = seatedOf(st);
  const waitingForMe = hold && Array.isArray(hold.waiting) && me !== null && hold.waiting.includes(me);
  const c = ui.roundEnd;
  if (!c || key !== c.key) {
    if (c) clearTimeout(c.timer);
    const fresh = c ? !!key : !!(key && ((hold && (waitingForMe || me === null)) || (!hold && me === null)));
    ui.roundEnd = { key, open: fresh, sawHold: !!hold, at: Date.now() };
  } else if (c.open) {
    if (hold) c.sawHold = true;
    else if (c.sawHold) c.open = false;
  }
  const cur = ui.roundEnd;
  if (hold && !cur.holdAt) cur.holdAt = Date.now();
  if (cur.open) {
    clearTimeout(cur.timer);
    const ms = hold && Number(hold.ms) > 0 ? cur.holdAt + Number(hold.ms) + 500 - Date.now() : cur.sawHold ? 0 : ROUND_END_MS - (Date.now() - cur.at);
    if (ms > 0) cur.timer = setTimeout(() => { if (ui.roundEnd === cur && cur.open) { cur.open = false; ctx.rerender(); } }, ms);
    else cur.open = false;
  }
  return cur.open;
}

const mini = (code, attrs = {}) => cardEl(code, { ...attrs, class: `mini ${attrs.class || ''}` });

/** A row of face-down cards (backs) with how many. */
function backs(n, { testid, cls = '', title } = {}) {
  return el('span', { class: `tk-backs ${cls}`, 'data-testid': testid, 'data-count': n, title: title || plural(n, 'card') },
    Array.from({ length: Math.min(n, 7) }, () => cardEl('back')));
}

/** A seat's trick pile: a small stack, its cards and points (public: every card was revealed). */
function pileEl(v, s, ui) {
  const pile = (v.piles || [])[s] || [];
  const pts = pilePoints(pile);
  const grew = ui.grew === s && Date.now() - ui.freshAt < FRESH_MS;
  return el('span', {
    class: `tk-pile ${pile.length ? '' : 'empty'} ${grew ? 'grew' : ''}`, 'data-testid': `pile-${s}`, 'data-count': pile.length, 'data-points': pts,
    title: pile.length ? `trick pile: ${pileGroups(pile).map((g) => g.cards.map(cardShort).join(' ')).join(' · ')}` : 'no tricks taken yet',
  },
  el('span', { class: 'tk-pile-ico' }, pile.length ? cardEl('back') : null),
  el('span', { class: 'tk-pile-t' }, pile.length ? [el('b', {}, String(pile.length)), ` · ${plural(pts, 'pt')}`] : 'no tricks'));
}

/** What a seat has on the table this trick: the face-down stack with its count, the cards it showed. */
function stackEl(v, s, { mine = false, shownLaid = null } = {}) {
  const n = (v.laid_counts || [])[s] || 0;
  const shown = (v.revealed || [])[s] || [];
  const back = (v.retreated || [])[s] || 0;
  const inTrick = (v.in_trick || [])[s];
  if (!inTrick) return el('div', { class: 'tk-stack out', 'data-testid': `stack-${s}` }, el('span', { class: 'tk-note' }, 'sits this tikki out'));
  if (!n) return el('div', { class: 'tk-stack none', 'data-testid': `stack-${s}`, 'data-count': 0 }, el('span', { class: 'tk-slot' }), el('span', { class: 'tk-note' }, v.turn === s ? 'laying…' : 'to lay'));
  const down = n - shown.length;
  const known = shownLaid ? sortCards(shownLaid.filter((c) => !shown.includes(c))) : null;
  return el('div', { class: 'tk-stack', 'data-testid': `stack-${s}`, 'data-count': n },
    down > 0 ? el('span', { class: 'tk-down' },
      known ? el('span', { class: 'tk-known', title: mine ? 'your cards, face down: only you see them' : 'face down' }, known.map((c) => mini(c, { class: 'facedown-known' })))
        : el('span', { class: 'tk-layers' }, Array.from({ length: Math.min(down, 4) }, (_, k) => cardEl('back', { style: `--k:${k}` }))),
      el('span', { class: 'tk-count', 'data-testid': `laid-count-${s}` }, String(n))) : el('span', { class: 'tk-count', 'data-testid': `laid-count-${s}` }, String(n)),
    shown.length ? el('span', { class: 'tk-shown', 'data-testid': `revealed-${s}`, title: 'shown in the retreat round' }, shown.map((c) => mini(c))) : null,
    el('span', { class: 'tk-note' }, `${n} laid${back ? ` · ${back} taken back` : ''}`));
}

/** A seat's nameplate: connection, name, deals / leads, away, winner. */
function nameplate(v, s, st, ctx, { me = false } = {}) {
  const connected = ctx.connected ? ctx.connected(s) : null;
  const away = ctx.away ? ctx.away(s) : false;
  const running = v.phase !== 'over' && !(st.table && st.table.status === 'waiting');
  return el('div', { class: `nameplate ${me ? 'us' : ''}` },
    connected === null ? null : el('span', { class: `dot ${connected ? 'on' : ''}`, title: connected ? 'connected' : 'not connected' }),
    el('span', { class: 'nm', 'data-testid': `seat-name-${s}` }, me ? `${ctx.seatName(s)} (you)` : ctx.seatName(s)),
    away ? el('span', { class: 'chip away', 'data-testid': `away-${s}`, title: 'away: a bot plays this seat until they are back' }, 'away, bot plays') : null,
    running && s === v.dealer ? el('span', { class: 'chip dealer', 'data-testid': `dealer-${s}`, title: 'dealt this round' }, 'D') : null,
    running && s === v.leader ? el('span', { class: 'chip mano', title: 'laid first this tikki' }, 'leads') : null,
    (v.winners || []).includes(s) ? el('span', { class: 'chip yes', 'data-testid': `winner-${s}` }, 'winner') : null);
}

/** Another seat (or any seat, for spectators and replays) around the felt. */
function seatPlate(v, s, st, ctx, ui, { hand = null, laid = null, pos = '' } = {}) {
  const started = !(st.table && st.table.status === 'waiting');
  const toAct = started && v.turn === s && v.phase !== 'over';
  const size = (v.hand_sizes || [])[s] || 0;
  const score = (v.scores || [])[s] ?? 0;
  const cards = hand ? el('span', { class: 'tk-open', 'data-testid': `shown-hand-${s}` }, sortCards(hand).map((c) => mini(c)))
    : started ? backs(size, { testid: `backs-${s}`, title: `${plural(size, 'card')} in hand` }) : null;
  const verb = v.phase === 'retreat' ? 'may take back' : 'lays';
  return el('div', {
    class: `tk-seat ${pos} ${toAct ? 'to-act' : ''} ${ctx.away && ctx.away(s) ? 'away' : ''}`,
    'data-seat': s, 'data-testid': `seat-${s}`, 'data-held': size,
  },
  nameplate(v, s, st, ctx),
  el('div', { class: 'tk-line' },
    el('span', { class: 'tk-pts', 'data-testid': `points-${s}`, title: 'points from the rounds played' }, String(score)),
    cards,
    started ? el('span', { class: 'tk-held', title: 'cards in hand' }, String(size)) : null,
    toAct ? el('span', { class: 'tk-turn' }, verb) : null),
  started ? stackEl(v, s, { shownLaid: laid }) : null,
  started ? pileEl(v, s, ui) : null,
  ctx.seatControls ? ctx.seatControls(s) : null);
}

/** A revealed trick: each player's cards, the best combination marked, the winner taking it. */
function trickEl(t, v, ctx, { fresh = false, title, testid = 'reveal' } = {}) {
  const seats = t.laid.length;
  const total = t.laid.reduce((n, l) => n + l.length, 0);
  const rows = el('div', { class: 'tk-rows' });
  let k = 0;
  for (let j = 0; j < seats; j++) {
    const s = (t.leader + j) % seats;
    const combo = t.best[s];
    if (!combo) continue;
    const inCombo = new Set(combo.cards);
    const ordered = [...sortCards(t.laid[s].filter((c) => inCombo.has(c))), ...sortCards(t.laid[s].filter((c) => !inCombo.has(c)))];
    const won = s === t.winner;
    rows.append(el('div', { class: `tk-row ${won ? 'winner' : ''}`, 'data-testid': `reveal-seat-${s}`, 'data-combo': combo.type, style: `--i:${k++}` },
      el('span', { class: 'tk-who' }, el('b', {}, ctx.seatName(s)), (t.retreated || [])[s] ? el('small', {}, `${t.retreated[s]} taken back`) : null),
      el('span', { class: 'tk-cards' }, ordered.map((c, i) => mini(c, { class: inCombo.has(c) ? 'combo' : 'ballast', style: `--j:${i}` }))),
      el('span', { class: 'tk-combo', 'data-testid': `combo-${s}` }, comboWords(combo)),
      won ? el('span', { class: 'chip takes', 'data-testid': 'trick-winner', 'data-seat': s }, `takes ${plural(total, 'card')}`) : null));
  }
  return el('div', { class: `tk-reveal ${fresh ? 'fresh' : ''}`, 'data-testid': testid, 'data-winner': t.winner },
    el('div', { class: 'tk-reveal-t' }, title || '', el('span', {}, ` · ${t.winner === ctx.mySeat ? 'you take' : `${ctx.seatName(t.winner)} takes`} the tikki`)),
    rows);
}

/** The end of a round on the felt: its last reveal, every pile by rank with its points, the totals. */
function roundEndEl(v, st, ctx, { onNext, seated }) {
  const over = v.phase === 'over';
  const history = v.history || [];
  const r = history[history.length - 1];
  const roundNo = over ? v.round : v.round - 1;
  const rows = el('div', { class: 'tk-end-rows' });
  const scores = v.scores || [];
  for (let s = 0; s < v.seats; s++) {
    const pile = r ? r.piles[s] || [] : [];
    const groups = pileGroups(pile);
    rows.append(el('div', { class: `tk-end-row ${s === seated ? 'mine' : ''} ${(v.winners || []).includes(s) ? 'won' : ''}`, 'data-testid': `round-seat-${s}`, 'data-points': r ? r.points[s] : 0 },
      el('div', { class: 'tk-end-who' }, el('b', {}, ctx.seatName(s)), r && r.dealer === s ? el('span', { class: 'chip dealer' }, 'dealt') : null,
        (v.winners || []).includes(s) ? el('span', { class: 'chip yes', 'data-testid': `winner-${s}` }, 'winner') : null),
      el('div', { class: 'tk-groups', 'data-testid': `groups-${s}` }, groups.length ? groups.map((g) => el('span', { class: `tk-group g${g.cards.length}`, title: `${plural(g.cards.length, 'card')} of rank ${rankLetter(g.rank)}: ${g.points}` },
        el('span', { class: 'tk-group-c' }, g.cards.map((c) => mini(c))), el('small', {}, String(g.points)))) : el('span', { class: 'tk-note' }, 'no tricks')),
      el('div', { class: 'tk-end-pts' }, el('b', {}, `+${r ? r.points[s] : 0}`), el('small', {}, `total ${scores[s] ?? 0}`))));
  }
  const last = r && r.last_trick ? trickEl(r.last_trick, v, ctx, { title: 'The last tikki', testid: 'last-trick' }) : null;
  const yourTurn = !st.replay && (st.legal || []).length > 0;
  const next = over || (st.replay && st.lastStep) ? null
    : el('button', { class: 'btn primary', 'data-testid': 'next-round', onclick: onNext }, st.replay ? 'next ▶' : yourTurn ? 'Next round · you lead' : 'Next round');
  const waiting = !st.replay && st.hold && Array.isArray(st.hold.waiting) ? st.hold.waiting.filter((s) => s !== seated) : [];
  return el('div', { class: 'tk-end', 'data-testid': 'round-end', 'data-round': roundNo },
    el('div', { class: 'phase-title' }, over ? `The game is over · ${plural(history.length, 'round')}` : `Round ${roundNo} is over`),
    el('div', { class: 'tk-end-how small' }, 'Each pile by rank: 1 card 1 point, 2 cards 5, 3 cards 10, all 4 cards 20.'),
    last,
    rows,
    el('div', { class: 'tk-end-next' }, next,
      waiting.length && !over ? el('span', { class: 'small muted-felt' }, `waiting for ${waiting.map(ctx.seatName).join(', ')}`) : null));
}

/** The score: each seat's points, this round's pile, and a row per finished round. */
function scorePanel(v, st, ctx) {
  const seated = seatedOf(st);
  const r = { ...DEFAULT_RULES, ...(v.rules || {}) };
  const history = v.history || [];
  const goal = Number(r.target) > 0 ? `to ${r.target} points` : plural(Number(r.rounds) > 0 ? Number(r.rounds) : v.seats, 'round');
  const panel = el('div', { class: 'panel tk-score', 'data-testid': 'score', 'data-points': (v.scores || []).join(',') });
  panel.append(el('h3', {}, v.phase === 'over' ? 'Final score ' : 'Points ', el('span', { class: 'muted small' }, `· ${goal}`)));
  const grid = el('div', { class: 'tk-score-grid' });
  const running = v.phase !== 'over';
  for (let s = 0; s < v.seats; s++) {
    const pile = (v.piles || [])[s] || [];
    grid.append(el('div', { class: `tk-score-row ${s === seated ? 'mine' : ''}`, 'data-testid': `score-${s}` },
      el('span', { class: 'nm' }, ctx.seatName(s)),
      el('span', { class: 'now small muted', title: 'this round\'s pile so far' }, running ? `pile ${pile.length} · ${plural(pilePoints(pile), 'pt')}` : ''),
      el('span', { class: 'pts', 'data-testid': `score-points-${s}` }, String((v.scores || [])[s] ?? 0))));
  }
  panel.append(grid);
  if (history.length) {
    const head = el('tr', {}, el('th', {}, 'round'), Array.from({ length: v.seats }, (_, s) => el('th', { title: ctx.seatName(s) }, ctx.seatName(s))));
    const body = el('tbody');
    history.forEach((h, i) => body.append(el('tr', { 'data-testid': 'sheet-row' }, el('td', {}, String(i + 1)),
      h.points.map((p, s) => el('td', { class: s === h.dealer ? 'dealt' : '', title: s === h.dealer ? 'dealt this round' : null }, String(p))))));
    body.append(el('tr', { class: 'total' }, el('td', {}, 'total'), (v.scores || []).map((p) => el('td', {}, String(p)))));
    panel.append(el('div', { class: 'tablewrap' }, el('table', { class: 'tk-sheet', 'data-testid': 'score-sheet' }, el('thead', {}, head), body)));
  }
  return panel;
}

function render({ main, side }, st, ctx) {
  const v = st.view;
  if (!v) { clear(main); return; }
  let ui = uiState.get(main);
  const tableId = st.table ? st.table.id : '';
  if (!ui || ui.table !== tableId) {
    ui = { table: tableId, sel: new Set(), back: null, reveal: null, sort: 'suit', trickKey: null, freshAt: 0, grew: null };
    uiState.set(main, ui);
  }
  const outer = ctx;
  const rerender = () => (outer.rerender ? outer.rerender() : render({ main, side }, st, outer));
  ctx = { ...outer, rerender };
  const seated = seatedOf(st);
  const legal = st.replay ? [] : st.legal || [];
  const started = !(st.table && st.table.status === 'waiting');

  let sent = false;
  const send = (a) => {
    if (sent) return;
    sent = true;
    for (const b of main.querySelectorAll('button')) b.disabled = true;
    ui.sel = new Set(); ui.back = null; ui.reveal = null;
    ctx.send(a);
  };

  // A new reveal: its cards turn over and the winner's pile grows, for a moment.
  const tricks = v.tricks || [];
  const lastTrick = tricks[tricks.length - 1] || null;
  const trickKey = lastTrick ? `${v.round}.${tricks.length}` : null;
  if (trickKey !== ui.trickKey) {
    // Not on the page's first look: a reveal that was already there when it opened is not new.
    if (ui.looked && lastTrick) {
      ui.freshAt = Date.now();
      ui.grew = lastTrick.winner;
      setTimeout(rerender, FRESH_MS + 50);
    }
    ui.trickKey = trickKey;
  }
  ui.looked = true;
  const fresh = lastTrick && Date.now() - ui.freshAt < FRESH_MS;

  // ---- the end of a round ----
  if (started && (v.history || []).length && (st.replay ? atRoundStart(v) || v.phase === 'over' : roundEndOpen(ui, v, st, ctx))) {
    const onNext = () => {
      if (st.replay) { if (ctx.next) ctx.next(); return; }
      if (ui.roundEnd) { ui.roundEnd.open = false; clearTimeout(ui.roundEnd.timer); }
      if (ctx.next) ctx.next();
      rerender();
    };
    const felt = el('div', { class: 'felt tk-felt round-end-on' }, roundEndEl(v, st, ctx, { onNext, seated }));
    clear(main).append(felt);
    if (!st.replay && ui.roundEnd && !ui.roundEnd.scrolled) {
      ui.roundEnd.scrolled = true;
      const r = felt.getBoundingClientRect();
      if (r.top < 0 || r.bottom > window.innerHeight) felt.scrollIntoView({ block: 'nearest' });
    }
    if (side) clear(side).append(scorePanel(v, st, ctx));
    return;
  }

  // ---- the seats around the felt ----
  const hands = st.replay ? st.hands || v.hands || null : null;
  // A replay's full view has every seat's hand and laid cards (`laid` by seat).
  const laidAll = st.replay && Array.isArray(v.laid) && v.laid.every(Array.isArray) ? v.laid : null;
  const others = seated !== null ? after(seated, v.seats) : Array.from({ length: v.seats }, (_, k) => k);
  const ring = el('div', { class: `tk-ring n${others.length} ${seated === null ? 'all' : ''}`, 'data-testid': 'ring' });
  others.forEach((s, k) => {
    const pos = others.length > 2 && (k === 0 || k === others.length - 1) ? 'end' : '';
    ring.append(seatPlate(v, s, st, ctx, ui, { hand: hands ? hands[s] : null, laid: laidAll ? laidAll[s] : null, pos }));
  });

  // ---- the middle: whose turn, the round, the last reveal ----
  const r = { ...DEFAULT_RULES, ...(v.rules || {}) };
  const turnName = v.turn === null || v.turn === undefined ? '' : v.turn === seated ? 'your turn' : `${ctx.seatName(v.turn)}'s turn`;
  const doing = v.phase === 'retreat' ? 'the retreat round: take cards back?' : 'lay cards face down';
  const title = !started ? 'Before the start' : v.phase === 'over' ? 'Game over' : `${turnName} · ${doing}`;
  const rounds = Number(r.target) > 0 ? `to ${r.target} points` : `of ${Number(r.rounds) > 0 ? r.rounds : v.seats}`;
  const center = el('div', { class: 'tk-center', 'data-testid': 'phase', 'data-phase': started ? v.phase : 'waiting', 'data-turn': v.turn ?? '' },
    el('div', { class: `phase-title ${v.turn === seated && started ? 'mine' : ''}` }, title),
    started ? el('div', { class: 'deckinfo', 'data-testid': 'round-info' },
      `round ${v.round} ${rounds} · tikki ${tricks.length + 1} · `, el('span', { 'data-testid': 'stock', 'data-count': v.stock }, `${plural(v.stock, 'card')} in the stock`),
      r.retreat ? ' · retreat round on' : '') : null,
    lastTrick ? trickEl(lastTrick, v, ctx, { fresh, title: `Tikki ${tricks.length}` }) : started ? el('div', { class: 'tk-reveal empty small' }, 'The first tikki of the round: every player lays one card or more, face down.') : null);

  const felt = el('div', { class: 'felt tk-felt' }, ring, center);
  if (st.hold && Array.isArray(st.hold.waiting) && !st.replay) {
    const waiting = st.hold.waiting.filter((s) => s !== seated);
    if (waiting.length) felt.append(el('div', { class: 'tk-hold small', 'data-testid': 'hold' }, `waiting for ${waiting.map(ctx.seatName).join(', ')} to see the round…`));
  }
  if (seated !== null) felt.append(mySeat(v, st, ctx, ui, { seated, legal, send, rerender, started }));
  clear(main).append(felt);
  if (side) clear(side).append(scorePanel(v, st, ctx));
}

/** Your plate, your laid stack, your hand (sorted, cards picked by tapping) and the actions. */
function mySeat(v, st, ctx, ui, { seated, legal, send, rerender, started }) {
  const hand = v.hand || [];
  const laid = v.laid || [];
  const shown = (v.revealed || [])[seated] || [];
  const phase = v.phase;
  const myTurn = started && v.turn === seated && legal.length > 0;
  const laying = phase === 'lay' && hand.length > 0 && started;
  const retreating = myTurn && phase === 'retreat';
  const lays = layActions(legal);
  for (const c of [...ui.sel]) if (!hand.includes(c)) ui.sel.delete(c);
  const faceDown = laid.filter((c) => !shown.includes(c));
  if (ui.back && !faceDown.includes(ui.back)) ui.back = null;
  if (ui.reveal && !faceDown.includes(ui.reveal)) ui.reveal = null;

  const order = ui.sort === 'rank' ? sortCards(hand)
    : [...hand].sort((a, b) => { const x = parseCard(a); const y = parseCard(b); return SUIT_ORDER.indexOf(x.suit) - SUIT_ORDER.indexOf(y.suit) || x.rank - y.rank; });
  const picked = order.filter((c) => ui.sel.has(c));
  const combo = best(picked);
  const inCombo = new Set(combo ? combo.cards : []);
  const handEl = el('div', { class: `tk-hand ${laying ? 'picking' : ''}`, 'data-testid': 'my-hand' });
  for (const c of order) {
    const on = ui.sel.has(c);
    const card = cardEl(c, {
      'data-testid': 'my-card', class: `${on ? 'selected' : ''} ${on && inCombo.has(c) ? 'combo' : ''} ${laying ? 'selectable' : ''}`,
      role: laying ? 'button' : null, tabindex: laying ? '0' : null, 'aria-pressed': on ? 'true' : 'false',
    });
    if (laying) {
      const pick = () => { if (ui.sel.has(c)) ui.sel.delete(c); else ui.sel.add(c); rerender(); };
      card.addEventListener('click', pick);
      card.addEventListener('keydown', (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); pick(); } });
    }
    handEl.append(card);
  }

  // ---- my cards on the table this trick ----
  let table = null;
  if (laid.length) {
    const cards = sortCards(laid).map((c) => {
      const isShown = shown.includes(c);
      const role = ui.back === c ? 'back' : ui.reveal === c ? 'show' : '';
      const card = mini(c, {
        'data-testid': 'my-laid', class: `${isShown ? 'shown' : 'down'} ${role ? `pick-${role}` : ''} ${retreating && !isShown ? 'selectable' : ''}`,
        title: isShown ? `${cardName(c)} · shown to everybody` : `${cardName(c)} · face down: only you see it`,
      });
      if (role) card.append(el('span', { class: 'tk-tag' }, role));
      if (retreating && !isShown) {
        card.addEventListener('click', () => {
          if (ui.back === c) ui.back = null;
          else if (ui.reveal === c) ui.reveal = null;
          else if (!ui.back) ui.back = c;
          else ui.reveal = c;
          rerender();
        });
      }
      return card;
    });
    table = el('div', { class: `tk-mylaid ${retreating ? 'choosing' : ''}`, 'data-testid': 'my-stack', 'data-count': laid.length },
      el('span', { class: 'small muted-felt' }, shown.length ? 'on the table (face down, and shown):' : 'on the table, face down:'),
      el('span', { class: 'tk-row-cards' }, cards),
      el('span', { class: 'small muted-felt', title: 'the best combination of what you laid' }, comboWords(best(laid))));
  }

  // ---- the plate ----
  const score = (v.scores || [])[seated] ?? 0;
  const handBest = best(hand);
  const plate = el('div', { class: `tk-me ${v.turn === seated && started && phase !== 'over' ? 'to-act' : ''}`, 'data-seat': seated, 'data-testid': `seat-${seated}` },
    el('div', { class: 'tk-me-head' }, nameplate(v, seated, st, ctx, { me: true }),
      el('span', { class: 'tk-pts', 'data-testid': `points-${seated}` }, String(score)),
      started ? pileEl(v, seated, ui) : null,
      hand.length > 1 ? el('button', {
        class: 'btn small ghost', 'data-testid': 'sort', title: 'sort the hand by suit or by rank',
        onclick: () => { ui.sort = ui.sort === 'rank' ? 'suit' : 'rank'; rerender(); },
      }, ui.sort === 'rank' ? 'by suit' : 'by rank') : null),
    table,
    handEl);

  // ---- the actions ----
  const actions = el('div', { class: 'actions tk-actions', 'data-testid': 'actions' });
  const button = (action, label, cls = '', extra = {}) => el('button', {
    class: `btn ${cls}`, 'data-testid': extra.testid || 'action', 'data-action': action, title: extra.title, disabled: extra.disabled, onclick: () => send(action),
  }, label);
  if (!started) {
    actions.append(el('span', { class: 'hint', 'data-testid': 'waiting' }, 'Waiting for the start: the creator starts the game.'));
  } else if (phase === 'over') {
    actions.append(el('span', { class: 'hint' }, 'The game is over.'));
  } else if (phase === 'lay' && hand.length) {
    const key = sortCards(picked).join(' ');
    const action = picked.length ? lays.get(key) : null;
    const words = combo ? `${comboWords(combo)}${picked.length > combo.cards.length ? ` + ${plural(picked.length - combo.cards.length, 'other card')}` : ''}` : '';
    actions.append(el('span', { class: 'hint tk-pickline', 'data-testid': 'selection', 'data-combo': combo ? combo.type : '', 'data-top': combo ? combo.top : '' },
      picked.length ? [`${plural(picked.length, 'card')}: `, el('b', {}, words)] : myTurn ? 'Your turn: tap cards to pick them, then lay them face down' : 'Tap cards to pick them for your lay'));
    actions.append(el('button', {
      class: 'btn primary', 'data-testid': 'lay', 'data-action': action || '', disabled: !action || !myTurn,
      title: !myTurn ? 'not your turn yet' : action ? `lay ${picked.map(cardShort).join(' ')} face down` : 'pick at least one card', onclick: () => action && send(action),
    }, picked.length ? `Lay ${plural(picked.length, 'card')}` : 'Lay'));
    if (picked.length) actions.append(el('button', { class: 'btn small ghost', 'data-testid': 'clear', onclick: () => { ui.sel = new Set(); rerender(); } }, 'clear'));
    if (handBest && handBest.cards.length > 1 && key !== handBest.cards.join(' ')) {
      actions.append(el('button', {
        class: 'btn small ghost', 'data-testid': 'pick-best', title: 'pick the best combination of your hand',
        onclick: () => { ui.sel = new Set(handBest.cards); rerender(); },
      }, `best: ${comboWords(handBest)}`));
    }
    if (!myTurn) {
      const who = v.turn === null || v.turn === undefined ? '' : ctx.seatName(v.turn);
      actions.append(el('span', { class: 'hint small', 'data-testid': 'waiting' }, who ? `${who} ${phase === 'retreat' ? 'decides' : 'lays'}…` : ''));
    }
  } else if (retreating) {
    const action = ui.back && ui.reveal ? `retreat ${ui.back} reveal ${ui.reveal}` : null;
    const ok = action && legal.includes(action);
    actions.append(el('span', { class: 'hint', 'data-testid': 'retreat-hint' },
      !ui.back ? 'Retreat round: tap a laid card to take back, then one to show, or keep them all'
        : !ui.reveal ? ['Taking back ', el('b', {}, cardShort(ui.back)), ': now tap the card to show everybody'] : ''));
    actions.append(el('button', {
      class: 'btn gold', 'data-testid': 'retreat', 'data-action': ok ? action : '', disabled: !ok,
      onclick: () => ok && send(action),
    }, ok ? `Take back ${cardShort(ui.back)}, show ${cardShort(ui.reveal)}` : 'Take back one, show one'));
    if (legal.includes('keep')) actions.append(button('keep', 'Keep them all', 'primary', { testid: 'keep' }));
  } else {
    const who = v.turn === null || v.turn === undefined ? '' : ctx.seatName(v.turn);
    actions.append(el('span', { class: 'hint', 'data-testid': 'waiting' },
      !hand.length && phase === 'lay' ? 'No cards in hand: you sit this tikki out.' : who ? `${who} ${phase === 'retreat' ? 'may take cards back' : 'lays'}…` : ''));
  }
  return el('div', { class: 'tk-mine' }, plate, actions);
}

// ---------------------------------------------------------------------------------------
// Words for the table page, the history and the replays
// ---------------------------------------------------------------------------------------

/** A narration line with the players' names on its seats and the cards as people write them ("7♥"). */
function nameLine(line, { seatName }) {
  return String(line)
    .replace(/(you \()?seat (\d+)\b/g, (m, you, d) => (you ? m : seatName(Number(d))))
    .replace(/\b(1[0-3]|[1-9])([SHDC])\b/g, (m) => cardShort(m));
}

function outcomeText(outcome, table, you, ctx = {}) {
  const winners = outcome.winners || [];
  const seatName = ctx.seatName || ((s) => `seat ${s}`);
  const who = `${winners.map(seatName).join(' and ')} ${winners.length === 1 ? 'wins' : 'share the win'}`;
  if (you && you.seat !== null && you.seat !== undefined) {
    if (winners.includes(you.seat)) return winners.length === 1 ? 'You won the game.' : `You share the win: ${winners.map(seatName).join(' and ')}.`;
    return `You lost: ${who}.`;
  }
  return `${who}.`;
}

/** The final points: "Ane 31 · bot 1 24 · bot 2 18". */
function outcomeDetail(st, ctx = {}) {
  const v = st.view;
  if (!v || !Array.isArray(v.scores)) return '';
  const seatName = ctx.seatName || ((s) => `seat ${s}`);
  return v.scores.map((p, s) => `${seatName(s)} ${p}`).join(' · ');
}

function seatLabel(i) {
  return `seat ${i}`;
}

function sidesText(seatName, n) {
  return Array.from({ length: n }, (_, s) => seatName(s)).join(', ');
}

registerGame({ name: 'tikki', title: 'Tikki', rulesForm, rulesSummary, render, outcomeText, outcomeDetail, nameLine, seatLabel, sidesText });
