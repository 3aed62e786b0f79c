// @ts-check
// The table page, for any game: the WebSocket (with reconnection), seats, start/stand,
// the narration and the game-over banner. The game's own module draws the felt.

import { topbar } from './topbar.js';
import { el, clear, me, register, getToken, toast, api, tokenEnded, t, errorText, botName, pageRoot, messageOf, ApiError, playChime } from './common.js';

// `t` names the table inside the functions that draw it: the catalog's words are `tr` there.
const tr = t;
import { gameModule } from './games.js';
import { has } from './i18n.js';
import { dockPadding } from './kit.js';
import { ratedBadge, seatLinks } from './ratings.js';
import { renderLine, lineClass, lineText } from './story.js';
import { inviteOf, withInvite, setNode, inviteControl, keptSeat, keepControl, otraControl, rematchNotice } from './invite.js';
import { chatPanel, chatStrip, chatState, chatMessage, chatLayout } from './chat.js';
import { invitePanel } from './friends.js';
import { icon } from './icons.js';
import { dealPanel, myContribution } from './deal.js';

/** @typedef {import('./common.js').TableInfo} TableInfo */
/** @typedef {import('./story.js').StoryLine} StoryLine */
/** @typedef {import('./chat.js').ClientMessage} ClientMessage */

/**
 * The table's state as this page keeps it: the last `state` message (docs/server.md) with
 * the whole story so far in `lines`; `you.player` is who the connection is.
 * @typedef {import('./kit.js').GameState & {n: number, table: TableInfo, lines: (StoryLine | string)[],
 *   you?: {seat?: number | null, pending_seat?: number | null, player?: number | null} | null,
 *   clock?: {seat: number, ms: number}[]}} TableState
 */

/**
 * A message of the table's socket, as far as this page reads it.
 * @typedef {{type: string, n?: number, table?: TableInfo, lines?: (StoryLine | string)[], more?: (StoryLine | string)[],
 *   code?: string, wait_s?: number, ask?: ClientMessage, seats?: number[], score?: unknown[]}} SocketMessage
 */

/**
 * What a keyboard had the focus on, to find it again after a redraw.
 * @typedef {{inGame: boolean, testid?: string, action?: string, card?: string, index?: string}} FocusKey
 */

topbar('table');
window.addEventListener('resize', () => { dockPadding(); fitSide(); chatLayout(); });
window.addEventListener('scroll', () => fitSide(), { passive: true });
const app = pageRoot();
const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');

const bar = el('div', { class: 'tablebar' });
const banner = el('div', { class: 'hidden', 'data-testid': 'game-over-slot' });
const notice = el('div');
// The turn clock: whose turn runs against the clock, and how long is left.
const clockBox = el('div', { class: 'turnclock hidden', 'data-testid': 'turn-clock' });
let clockAt = 0;        // when the last state (and its clock) arrived, by this page's clock
const gameMain = el('div', { 'data-testid': 'game' });
const gameSide = el('div', { class: 'side-game' });
const logBox = el('div', { class: 'log', 'data-testid': 'lines' });
// For screen readers: each new line of the narration, and "your turn", read out as they come
// (the log itself is redrawn whole on every state, so it is not the live region).
const live = el('div', { class: 'sr-only', role: 'log', 'aria-live': 'polite', 'data-testid': 'live' });
const logPanel = el('div', { class: 'panel calls' }, el('h3', {}, t('table.calls'), ' ', el('span', { class: 'muted small' }, t('table.calls_when'))), logBox);
const grid = el('div', { class: 'tablegrid' }, el('div', {}, gameMain), el('div', { class: 'side tableside' }, gameSide, logPanel, chatPanel(send), invitePanel(tableId)));
app.append(live, bar, clockBox, banner, notice, grid, ...chatStrip());

/**
 * On a wide screen the column beside the felt (the score, the calls, the chat) sticks under
 * the top bar and reaches the screen's bottom wherever the page is scrolled, so the chat's
 * last messages and its line to write stay in sight: its height, `--side-h`, is the room
 * from the column's top (or the bar, once scrolled past) to the screen's bottom.
 */
function fitSide() {
  const bar = document.querySelector('.topbar');
  const under = bar ? bar.getBoundingClientRect().bottom + 6 : 0;
  const top = Math.max(under, grid.getBoundingClientRect().top);
  document.documentElement.style.setProperty('--side-h', `${Math.max(240, Math.floor(window.innerHeight - top - 10))}px`);
}

/** @type {TableState | null} */
let st = null;          // the last state
/** @type {import('./kit.js').GameModule | null} */
let mod = null;         // the game module
/** @type {import('./common.js').Me | null} */
let player = null;      // {id, nickname} or null
/** @type {WebSocket | null} */
let ws = null;
let attempts = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let reconnectTimer;
/** @type {ReturnType<typeof setInterval> | undefined} */
let watchTimer;
let lastHeard = 0;      // when the open link last brought anything (ms)
let gone = false;       // the table does not exist: no more reconnecting
let wasOn = false;      // a link has worked: what follows is reconnecting
let nextId = 1;
let connState = 'connecting';
let connects = 0;       // WebSockets opened so far (for the tests)
let heardCount = 0;     // messages heard over every link (for the tests)
/** @type {string[]} */
const connLog = [];     // the link's last states, in order (for the tests)
/** @type {ClientMessage[]} */
const waiting = [];     // what was asked while the link was opening, sent once it opens
const MAX_WAITING = 8;

// The server sends something at least every 5 s (a heartbeat when it has nothing else to
// say): a link silent for DEAD_MS, two heartbeats missed, is dead though not closed (a
// frozen or unreachable server), and the page connects again.
const DEAD_MS = 10000;
// The waits before each new try after a link is lost: short at first, since another server
// takes a dead one's tables within a second or two; longer once that has not been enough.
const BACKOFF_MS = [200, 500, 1000, 2000, 4000, 8000, 10000];

/** The table's WebSocket address, with this browser's token and the table's secret. */
function wsUrl() {
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = getToken();
  const path = `/ws/${encodeURIComponent(tableId)}${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  return `${proto}//${location.host}${withInvite(path, tableId)}`;
}

/** Opens a link to the table (closing any other). */
function connect() {
  clearTimeout(reconnectTimer);
  if (gone) return;
  if (ws) { ws.onclose = null; try { ws.close(); } catch { /* already closed */ } }
  // Once a link has worked, the page says "reconnecting…" until one works again.
  setConn(wasOn ? 'off' : 'connecting');
  const sock = new WebSocket(wsUrl());
  connects++;
  ws = sock;
  let heard = false;
  sock.onopen = () => {
    lastHeard = Date.now();
    for (const m of waiting.splice(0)) sock.send(JSON.stringify(m));
    clearInterval(watchTimer);
    watchTimer = setInterval(() => {
      // Nothing at all for DEAD_MS (not even a heartbeat): the link is dead though not closed.
      if (ws === sock && Date.now() - lastHeard > DEAD_MS) lost(sock, true);
    }, 1000);
  };
  sock.onmessage = (ev) => {
    lastHeard = Date.now();
    heardCount++;
    // Live once the server has spoken (it sends the table at once): a link opened and
    // closed again without a word is no link.
    if (!heard) { heard = true; attempts = 0; wasOn = true; setConn('on'); }
    /** @type {SocketMessage} */
    let msg;
    try { msg = JSON.parse(ev.data); } catch { return; }
    if (msg.type === 'state') onState(/** @type {SocketMessage & TableState} */ (msg));
    else if (msg.type === 'table') onTable(msg.table);
    else if (chatMessage(msg)) { /* the chat's */ }
    else if (msg.type === 'error' && msg.ask) {
      // A question (a move to the other side, say): the same message with `confirm` goes on.
      const ask = msg.ask;
      if (confirm(askText(msg))) send(ask);
    } else if (msg.type === 'error') {
      // Not saved (the database did not answer): nothing changed, and the table sends its
      // state again once it answers; said, but not as a failure of the person's.
      toast(errorText(msg.code, { s: msg.wait_s }), msg.code === 'not_saved' ? '' : 'error');
      if (st) render();
    }
  };
  sock.onclose = () => lost(sock, heard);
}

/**
 * A question of the server in the page's words: a move to the other side names that side's
 * seats and the score (theirs first); any other, as errors are.
 * @param {SocketMessage} msg
 */
function askText(msg) {
  if (msg.code !== 'switch_sides' || !Array.isArray(msg.seats)) return errorText(msg.code, { s: msg.wait_s });
  const rows = (Array.isArray(msg.score) ? msg.score : [])
    .filter((r) => Array.isArray(r) && r.length === 3).map((r) => /** @type {[string, string, string]} */ (r))
    .map(([what, theirs, ours]) => `${has(`score.head.${what}`) ? t(`score.head.${what}`) : what} ${theirs}–${ours}`);
  const now = rows.length ? t('ask.now', { score: rows.join(', ') }) : '';
  // The other side by who sits there ("Bea y bot 3"), as the score names the sides.
  const names = msg.seats.filter((s) => Number.isInteger(s)).map(seatName);
  return t('ask.switch_sides', { seats: names.join(` ${t('words.and')} `), now });
}

/**
 * The link `sock` is closed or dead: show it and try again with backoff, unless the table is gone.
 * @param {WebSocket} sock
 * @param {boolean} heard
 */
async function lost(sock, heard) {
  if (ws !== sock) return;
  sock.onclose = null;
  sock.onmessage = null;
  try { sock.close(); } catch { /* already closed */ }
  ws = null;
  // What waited for this link is not sent on a later one: the person asks again.
  waiting.length = 0;
  clearInterval(watchTimer);
  setConn(wasOn ? 'off' : 'connecting');
  if (!heard && await tableMissing()) { noSuchTable(); return; }
  // Refused for a token ended elsewhere (logged out): start again as a visitor.
  if (!heard && await tokenEnded()) { location.reload(); return; }
  if (ws) return; // a new link was opened meanwhile
  // Backoff: 0.2 s, 0.5 s, 1 s, 2 s … up to 10 s, with some jitter.
  const delay = BACKOFF_MS[Math.min(attempts, BACKOFF_MS.length - 1)] * (0.8 + Math.random() * 0.4);
  attempts++;
  clearTimeout(reconnectTimer);
  reconnectTimer = setTimeout(connect, delay);
}

/** True when the server says there is no such table (404), not merely unreachable. */
async function tableMissing() {
  try {
    await api('GET', withInvite(`/api/tables/${encodeURIComponent(tableId)}`, tableId));
    return false;
  } catch (e) {
    if (!(e instanceof ApiError)) return false;
    // Another server runs the table now (its first one went away): ask the balancer for it.
    if (e.code === 'table_moved' && e.node) setNode(tableId, e.node);
    return e.status === 404;
  }
}

/** The table does not exist: say so, and stop connecting. */
function noSuchTable() {
  gone = true;
  clearTimeout(reconnectTimer);
  setConn('gone');
  clear(bar);
  clear(banner); banner.className = 'hidden';
  clear(notice);
  clear(gameMain); clear(gameSide); clear(logBox);
  // Nothing to play or to talk about: the table's column and the chat's strip go.
  grid.classList.add('hidden');
  for (const e of chatStrip()) e.remove();
  dockPadding();
  drawnLines = [];
  notice.append(el('div', { class: 'panel', 'data-testid': 'no-such-table' },
    el('h1', {}, t('table.no_such')),
    el('p', {}, t('table.no_such_text', { id: tableId })),
    el('a', { class: 'btn primary', href: '/' }, t('table.to_lobby'))));
  document.title = `${t('table.no_such')} · tapete`;
}

/** The table this page has sent its contribution to (see `contributeOnce`). */
let contributedTo = '';

/**
 * Seated at a table waiting to start (by a link, an invitation, a tournament's page): the
 * page's contribution to the deal goes once, if it was not given with the seat.
 * @param {TableInfo} table @param {number | null} seat
 */
function contributeOnce(table, seat) {
  if (table.status !== 'waiting' || seat === null || !table.fairness || contributedTo === table.id) return;
  if (ws && ws.readyState === WebSocket.OPEN) {
    contributedTo = table.id;
    send({ type: 'contribute', seed: myContribution(table.id) });
  }
}

/**
 * Sends a message on the table's link; false when it could not (and says why).
 * @param {ClientMessage} msg
 */
function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify(msg)); return true; }
  // A link being opened (a nickname just picked, a reconnect under way) takes what the
  // person asks for once it opens — but a move, which was chosen for the state on screen
  // and may mean another thing by then: the person makes it again on the fresh state.
  if (ws && ws.readyState === WebSocket.CONNECTING && msg.type !== 'act' && waiting.length < MAX_WAITING) {
    waiting.push(msg);
    return true;
  }
  // Not a failure of the person's: the page is reconnecting by itself, and says so.
  toast(t('table.not_connected'));
  return false;
}

/** @type {Record<string, string>} */
const CONN_WORDS = { on: t('conn.on'), off: t('conn.off'), connecting: t('conn.connecting'), gone: t('conn.gone') };

/**
 * The link's state: 'on', 'off' (lost: reconnecting), 'connecting', 'gone'.
 * @param {string} s
 */
function setConn(s) {
  const was = connState;
  if (s !== was) { connLog.push(s); if (connLog.length > 50) connLog.shift(); }
  connState = s;
  const c = document.querySelector('.conn');
  if (c) { c.className = `conn ${s}`; c.textContent = CONN_WORDS[s] || s; }
  // The notice of a lost link comes and goes with it.
  if (st && (s === 'off') !== (was === 'off')) render();
}

/** The narration so far: a state carries it whole (`lines`) or the lines after what this
 * connection was sent (`more`). */
/** @type {(StoryLine | string)[]} */
let story = [];
const MAX_LINES = 200;

/**
 * A state of the table arrived.
 * @param {SocketMessage & TableState} msg
 */
async function onState(msg) {
  // States only grow: ignore an older one arriving late.
  if (st && msg.n < st.n && msg.table && st.table && msg.table.status === st.table.status) return;
  const first = !st;
  if (Array.isArray(msg.lines)) story = msg.lines;
  else if (Array.isArray(msg.more)) story = story.concat(msg.more).slice(-MAX_LINES);
  // What is new is read out; a whole story (a first state, a new hand) is there to read.
  if (!first && Array.isArray(msg.more)) tellLive(msg.more);
  const { more: _told, ...state } = msg;
  const now = { ...state, lines: story };
  st = now;
  chatState(now);
  clockAt = performance.now();
  if (!mod || mod.name !== now.table.game) mod = await gameModule(now.table.game);
  render();
}

/**
 * Only the table's description changed (who is connected or away): keep the rest.
 * @param {TableInfo | undefined} table
 */
function onTable(table) {
  if (!table || !st) return;
  st = { ...st, table };
  render();
}

/**
 * "0:42": seconds as minutes and seconds.
 * @param {number} secs
 */
function clockText(secs) {
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}

/** Draws the running turn clocks; called on every state and a few times a second. The
 * server sends the time left, so this page's clock need not agree with the server's. */
function renderClock() {
  const clocks = st && st.table && st.table.status === 'playing' && Array.isArray(st.clock) ? st.clock : [];
  clear(clockBox);
  clockBox.className = clocks.length ? 'turnclock' : 'turnclock hidden';
  const passed = performance.now() - clockAt;
  for (const c of clocks) {
    const secs = Math.ceil(Math.max(0, c.ms - passed) / 1000);
    const mine = c.seat === mySeat();
    clockBox.append(el('span', { class: `clock${mine ? ' mine' : ''}${secs <= 10 ? ' low' : ''}`, 'data-testid': `clock-${c.seat}` },
      ...clockWords(mine ? t('clock.mine', { time: '\u0000' }) : t('clock.theirs', { name: seatName(c.seat), time: '\u0000' }), el('b', {}, clockText(secs)))));
  }
}
setInterval(renderClock, 250);

/** The last state (not the one a past drawing was made from). */
function current() { return st; }

/** The person's seat, null while watching. */
function mySeat() { return st && st.you && st.you.seat !== undefined ? st.you.seat : null; }

/** @param {number | null} s */
function seatInfo(s) { return st && st.table ? st.table.seats.find((x) => x.seat === s) : null; }

/**
 * A person's nickname, or "bot 2" for a seat a bot plays.
 * @param {number} s
 */
function seatName(s) {
  const i = seatInfo(s);
  return i && i.player ? i.player.nickname : `bot ${s}`;
}

/**
 * A sentence with a place (`\u0000`) for an element: the text around it and the element.
 * @param {string} text
 * @param {Node} node
 */
function clockWords(text, node) {
  const [before, after = ''] = text.split('\u0000');
  return [before, node, after];
}

/**
 * The narration names seats ("seat 2 (3rd): paso"): name them as the table does.
 * @param {string} line
 * @param {(seat: number) => string} name
 */
export function nameSeats(line, name) {
  return line.replace(/(you \()?seat (\d+)\b/g, (/** @type {string} */ m, /** @type {string | undefined} */ you, /** @type {string} */ d) => (you ? m : name(Number(d))));
}

/** How the narration names seats and sides here (see story.js). */
function storyContext() {
  const ctx = { seatName, mySeat: mySeat() };
  const pairName = mod && mod.pairName;
  const resultName = mod && mod.resultName;
  return {
    seatName,
    pairName: pairName ? (/** @type {number} */ p) => pairName(p, ctx) : undefined,
    resultPairName: resultName ? (/** @type {number} */ p) => resultName(p, ctx) : undefined,
    nameText: nameLine,
  };
}

/**
 * A narration line in the table's words: the game's own naming when it has one.
 * @param {string} line
 */
function nameLine(line) {
  if (mod && mod.nameLine) return mod.nameLine(line, { seatName, mySeat: mySeat() });
  return nameSeats(line, seatName);
}

/**
 * What a seat offers the person: sit, move, take over, or the seat kept for a friend.
 * @param {number} s
 * @returns {HTMLElement | null}
 */
function seatControls(s) {
  if (!st || st.replay) return null;
  const t = st.table;
  const info = seatInfo(s);
  const you = st.you || {};
  if (!info || t.status === 'finished') return null;
  if (you.pending_seat === s) return el('span', { class: 'chip', 'data-testid': `pending-${s}` }, tr('seat.pending'));
  const kept = keptSeat(t, s, player);
  if (kept !== undefined) return kept;
  if (info.player) return null;
  if (!player) return null;
  if (t.status === 'waiting' || (t.status === 'playing' && you.seat !== s)) {
    const seated = you.seat !== null && you.seat !== undefined;
    // Once playing, a seat changes hands at the next hand, never mid-hand.
    const label = t.status === 'waiting' ? (seated ? tr('seat.move') : tr('seat.sit')) : seated ? tr('seat.move') : tr('seat.take_over');
    const cls = seated ? 'ghost' : 'gold';
    const when = t.status === 'playing' ? tr('seat.next_hand') : null;
    return keepControl(t, s, player, el('button', { class: `btn small ${cls} sitbtn`, 'data-testid': `sit-${s}`, title: when, onclick: () => { send(t.status === 'waiting' ? { type: 'sit', seat: s, seed: myContribution(t.id) } : { type: 'sit', seat: s }); } }, label));
  }
  return null;
}

/**
 * Reads `lines` (narration) or a text out in the live region, keeping its last few.
 * @param {(StoryLine | string)[]} lines
 */
function tellLive(lines) {
  const told = storyContext();
  for (const line of lines) {
    const text = typeof line === 'string' ? line : lineText(line, told);
    if (text) live.append(el('div', {}, text));
  }
  while (live.childElementCount > 12 && live.firstElementChild) live.firstElementChild.remove();
}

// The optional sound on your turn: off unless the person turns it on (kept in this browser).
const SOUND_KEY = 'tapete.sound';
let beeps = 0; // sounds played (for the tests)
const soundOn = () => { try { return localStorage.getItem(SOUND_KEY) === 'on'; } catch { return false; } };
/** A short soft two-note chime. */
function chime() {
  beeps++;
  playChime();
}
/** The bar's bell: the sound on your turn, on or off. */
function soundToggle() {
  const on = soundOn();
  return el('button', {
    class: `btn small ghost sound ${on ? 'on' : ''}`, 'data-testid': 'sound', 'aria-pressed': on ? 'true' : 'false',
    title: tr(on ? 'table.sound_on' : 'table.sound_off'), 'aria-label': tr('table.sound'),
    onclick: () => {
      try { localStorage.setItem(SOUND_KEY, on ? 'off' : 'on'); } catch { /* private mode */ }
      if (!on) chime();
      render();
    },
  }, icon(on ? 'bell' : 'bellOff'));
}
let wasTurn = false;

/**
 * What has the keyboard's focus in the game, to find again after a redraw: its test id and
 * the attributes that tell it from its siblings.
 * @returns {FocusKey | null}
 */
function focusKey() {
  const a = document.activeElement;
  if (!(a instanceof HTMLElement) || a === document.body || !app.contains(a)) return null;
  const ds = a.dataset;
  return { inGame: gameMain.contains(a), testid: ds.testid, action: ds.action, card: ds.card, index: ds.index };
}

/**
 * Gives the focus back after a redraw: to the same control, else (in the game) to its first action.
 * @param {FocusKey | null} k
 */
function refocus(k) {
  if (!k) return;
  const a = document.activeElement;
  if (a && a !== document.body && app.contains(a)) return;
  const esc = (/** @type {string} */ v) => CSS.escape(String(v));
  let sel = k.testid ? `[data-testid="${esc(k.testid)}"]` : null;
  if (sel && k.action) sel += `[data-action="${esc(k.action)}"]`;
  if (sel && k.card) sel += `[data-card="${esc(k.card)}"]`;
  if (sel && k.index !== undefined && !k.card) sel += `[data-index="${esc(k.index)}"]`;
  /** @type {HTMLElement | null} */
  let target = sel ? app.querySelector(sel) : null;
  if (target && (target.matches(':disabled') || target.getAttribute('tabindex') === '-1')) target = null;
  if (!target && k.inGame) {
    target = gameMain.querySelector('[data-testid="actions"] button:not([disabled])')
      || gameMain.querySelector('button:not([disabled]), [role="button"][tabindex="0"]');
  }
  if (target) target.focus({ preventScroll: true });
}

/**
 * The tab's icon: the usual one, or the one with a dot while it is your turn.
 * @param {boolean} turn
 */
function turnIcon(turn) {
  const link = document.querySelector('link[rel="icon"]');
  const href = turn ? '/assets/favicon-turn.svg' : '/assets/favicon.svg';
  if (link && link.getAttribute('href') !== href) link.setAttribute('href', href);
}

// The last control of the page that had the focus: a control the page disables as it sends
// (so that nothing is sent twice) drops the focus before the answer redraws the page.
/** @type {FocusKey | null} */
let lastFocus = null;
app.addEventListener('focusin', () => { lastFocus = focusKey(); });

/** Draws the page anew from the last state, the keyboard's focus kept. */
function render() {
  if (!st) return;
  const focus = focusKey() || (document.activeElement === document.body ? lastFocus : null);
  drawTable(st);
  refocus(focus);
}

/**
 * The table's bar, notices, felt, banner and narration for state `st`.
 * @param {TableState} st
 */
function drawTable(st) {
  const t = st.table;
  const you = st.you || {};
  // Your turn shows on the tab itself (its title and icon), so a person in another tab sees it;
  // it is read out, and chimes when the person asked for a sound.
  const turn = Array.isArray(st.legal) && st.legal.length > 0 && !(st.outcome || t.outcome);
  document.title = `${turn ? `${tr('table.turn_title')} · ` : ''}${mod && mod.title ? mod.title : t.game} · ${t.id} · tapete`;
  turnIcon(turn);
  if (turn && !wasTurn) {
    tellLive([tr('table.live_turn')]);
    if (soundOn()) chime();
  }
  wasTurn = turn;

  // ---- the bar: title, status, share, start, stand ----
  clear(bar);
  bar.append(el('h1', {}, `${mod && mod.title ? mod.title : t.game}`, el('span', { class: 'muted', style: { fontWeight: 400 } }, ` · ${t.id}`)));
  bar.append(el('span', { class: `badge ${t.status}`, 'data-testid': 'status' }, tr(`status.${t.status}`)));
  bar.append(el('span', { class: `conn ${connState}`, 'data-testid': 'conn' }, CONN_WORDS[connState] || ''));
  const ratedMark = ratedBadge(t);
  if (ratedMark) bar.append(ratedMark);
  bar.append(el('span', { class: 'spacer' }));
  if (mod && mod.rulesSummary) bar.append(el('span', { class: 'muted small rules-sum' }, mod.rulesSummary(t.rules)));
  bar.append(soundToggle());
  bar.append(el('a', { class: 'btn small', href: `/rules/${encodeURIComponent(t.game)}`, target: '_blank', 'data-testid': 'rules-link' }, tr('table.how_to_play')));
  bar.append(inviteControl(t) || el('button', {
    class: 'btn small', 'data-testid': 'share', onclick: async () => {
      const url = `${location.origin}/t/${t.id}`;
      try { await navigator.clipboard.writeText(url); toast(tr('table.copied')); } catch { prompt(tr('table.share_prompt'), url); }
    },
  }, tr('table.share')));
  if (t.status === 'waiting' && player && t.creator === player.id) {
    bar.append(el('button', { class: 'btn small primary', 'data-testid': 'start', onclick: () => send({ type: 'start' }) }, tr('table.start')));
  }
  if (you.seat !== null && you.seat !== undefined && t.status !== 'finished') {
    bar.append(el('button', { class: 'btn small', 'data-testid': 'stand', onclick: () => { if (confirm(tr('table.stand_confirm'))) send({ type: 'stand' }); } }, tr('table.stand')));
  }
  // Every seat's profile (a person's, or the bot level's), on a line of its own.
  bar.append(seatLinks(t) || '');
  bar.append(dealPanel(t, you.seat ?? null, (m) => { send(m); }) || '');
  contributeOnce(t, you.seat ?? null);


  renderClock();

  // ---- notices ----
  clear(notice);
  const mine = seatInfo(mySeat());
  if (connState === 'off') {
    // The link was lost (its server went away, say): the page is connecting again by
    // itself, to whichever server runs the table now.
    notice.append(el('div', { class: 'notice', role: 'status', 'data-testid': 'reconnecting' }, tr('table.reconnecting')));
  } else if (mine && mine.away && t.status === 'playing' && connState === 'on') {
    notice.append(el('div', { class: 'notice row', 'data-testid': 'away-notice' },
      el('span', {}, tr('table.away_notice')),
      el('button', { class: 'btn small primary', 'data-testid': 'back', onclick: () => send({ type: 'back' }) }, tr('table.im_back'))));
  } else if (!player && t.status !== 'finished') {
    notice.append(nicknameNotice());
  } else if (t.status === 'waiting' && t.rematch_of && t.starts_at) {
    notice.append(rematchNotice(t) || '');
  } else if (t.status === 'waiting') {
    notice.append(el('div', { class: 'notice' }, ...clockWords(tr('table.waiting_notice', { bot: '\u0000' }), el('b', {}, botName(t.bot)))));
  } else if ((you.seat === null || you.seat === undefined) && t.status === 'playing') {
    notice.append(el('div', { class: 'notice' }, tr('table.watching'),
      player ? ` ${tr('table.watching_take')}` : ''));
  }

  // ---- the game ----
  /** @type {import('./kit.js').GameContext} */
  const ctx = {
    send: (action) => { send({ type: 'act', action, id: nextId++ }); },
    // "I have seen the counting": only while the server holds the table for this seat.
    next: () => {
      const now = current();
      const h = now && now.hold;
      const me = mySeat();
      if (h && Array.isArray(h.waiting) && me !== null && h.waiting.includes(me)) send({ type: 'next' });
    },
    seatName,
    connected: (s) => { const i = seatInfo(s); return i && i.player ? !!i.connected : null; },
    away: (s) => { const i = seatInfo(s); return !!(i && i.player && i.away); },
    seatControls,
    rerender: () => render(),
    mySeat: mySeat(),
    // "Otra" at a finished game, for the felt's last buttons.
    otra: () => otraControl(t, player),
  };
  if (mod) mod.render({ main: gameMain, side: gameSide }, st, ctx);

  // ---- game over ----
  const outcome = st.outcome || t.outcome;
  if (outcome) {
    const won = you.seat !== null && you.seat !== undefined && (outcome.winners || []).includes(you.seat);
    const words = mod && mod.outcomeText ? mod.outcomeText(outcome, t, you, { seatName }) : tr('table.winners', { names: (outcome.winners || []).map(seatName).join(', ') });
    const detail = mod && mod.outcomeDetail ? mod.outcomeDetail(st, { seatName, mySeat: mySeat() }) : nameLine(outcome.summary || '');
    banner.className = `banner ${you.seat !== null && you.seat !== undefined && !won ? 'lost' : ''}`;
    banner.setAttribute('data-testid', 'game-over');
    // Otra, the replay and a new table are the felt's last buttons when the felt shows the
    // game's end (kit.js nextButton); else here.
    const onFelt = !!gameMain.querySelector('[data-testid="match-over"]');
    // The review of the game, beside them (or alone, when they are on the felt).
    const buttons = el('span', { class: 'row' }, reviewControl(t, you.seat === undefined ? null : you.seat));
    clear(banner).append(el('b', {}, words), el('span', { 'data-testid': 'final-score' }, detail), el('span', { class: 'spacer' }), buttons);
    if (!onFelt) {
      buttons.append(otraControl(t, player) || '',
        el('a', { class: 'btn small', href: withInvite(`/replay/${t.id}`, t.id) }, tr('table.replay')),
        el('a', { class: 'btn small primary', href: '/' }, tr('lobby.new_table')));
    }
  } else {
    banner.className = 'hidden';
    banner.setAttribute('data-testid', 'game-over-slot');
  }
  dockPadding();
  fitSide();
  if (outcome) showEnd();
  chatLayout();

  drawStory(st);
}

// The games that have a review (`reviews` in /api/games): their end offers one.
/** @type {Set<string>} */
const reviewed = new Set();
api('GET', '/api/games').then((/** @type {{name: string, reviews?: boolean}[] | null} */ list) => {
  for (const g of Array.isArray(list) ? list : []) if (g.reviews) reviewed.add(g.name);
  if (st && (st.outcome || st.table.outcome)) render();
}).catch(() => { /* the end of a game offers no review */ });

/**
 * "Review" at a finished game: the person's own seat's; watching a public table, the page
 * where a seat is chosen; none for a private table's spectator (its reviews are for the
 * people who sat there).
 * @param {TableInfo} t
 * @param {number | null} seat
 */
function reviewControl(t, seat) {
  if (!reviewed.has(t.game) || (seat === null && t.private)) return null;
  const path = `/t/${encodeURIComponent(t.id)}/review${seat === null ? '' : `?seat=${seat}`}`;
  return el('a', { class: 'btn small primary', href: withInvite(path, t.id), 'data-testid': 'to-review', title: tr('review.open_title') }, tr('review.title'));
}

// The table whose end was brought into view (once a table, not at every state after).
let endShown = '';

/**
 * At a game's end the banner saying who won comes into view under the top bar (the page
 * may have been scrolled down during the hand, which left it under the bar); the felt's
 * last buttons, docked at the bottom, stay in view below it.
 */
function showEnd() {
  if (!st || !st.table || endShown === st.table.id) return;
  endShown = st.table.id;
  const bar = document.querySelector('.topbar');
  const under = bar ? bar.getBoundingClientRect().bottom : 0;
  const r = banner.getBoundingClientRect();
  if (r.top < under || r.bottom > window.innerHeight) banner.scrollIntoView({ block: 'start' });
}

// What the narration box shows: the lines drawn (the state's own line objects, which a
// state with `more` carries over) and the names they were told with. A state whose lines
// go on from those draws only its new ones: a fast table sends a state per action, and
// the whole story (up to 200 lines) drawn anew each time kept phones and the tests'
// browser busy.
/** @type {(StoryLine | string)[]} */
let drawnLines = [];
let drawnWith = '';

/**
 * The narration box: the lines of state `st`, only the new ones where it goes on from
 * those drawn.
 * @param {TableState} st
 */
function drawStory(st) {
  const atBottom = logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 30;
  const lines = st.lines || [];
  const told = storyContext();
  const seats = (st.table && st.table.seats) || [];
  const names = JSON.stringify([mySeat(), seats.map((_, i) => seatName(i))]);
  // How many drawn lines the story has let go of at its start (-1: it does not go on from them).
  const shift = lines.length && drawnLines.length ? drawnLines.indexOf(lines[0]) : -1;
  const kept = shift >= 0 ? drawnLines.length - shift : 0;
  const goesOn = names === drawnWith && shift >= 0 && kept <= lines.length
    && logBox.childElementCount === drawnLines.length
    && lines.slice(0, kept).every((l, i) => l === drawnLines[shift + i]);
  if (goesOn) {
    for (let i = 0; i < shift; i++) logBox.firstElementChild?.remove();
  } else {
    clear(logBox);
  }
  for (const line of lines.slice(goesOn ? kept : 0)) {
    const row = el('div', { class: lineClass(line) });
    row.innerHTML = renderLine(line, told);
    logBox.append(row);
  }
  drawnLines = lines.slice();
  drawnWith = names;
  if (atBottom || logBox.dataset.first !== 'no') { logBox.scrollTop = logBox.scrollHeight; logBox.dataset.first = 'no'; }
}

/** @type {HTMLFormElement | null} */
let nickForm = null;
/** The notice of a visitor without a nickname: pick one to sit. */
function nicknameNotice() {
  if (nickForm) return nickForm;
  const input = el('input', { type: 'text', maxlength: 24, placeholder: t('table.your_nickname'), 'aria-label': t('lobby.nickname'), 'data-testid': 'nickname', required: true });
  const err = el('span', { class: 'error-text', 'data-testid': 'nickname-error' });
  const form = el('form', {
    class: 'notice row', novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = '';
      if (!input.value.trim()) {
        err.textContent = t('error.nickname_empty');
        input.focus();
        return;
      }
      try {
        player = await register(input.value.trim());
        connect();
      } catch (x) { err.textContent = messageOf(x); }
    },
  }, el('span', {}, t('table.pick_to_sit')), input, el('button', { class: 'btn small primary', 'data-testid': 'nickname-save' }, t('table.ok')), err);
  nickForm = form;
  return form;
}

(async () => {
  if (!tableId) { app.append(el('p', {}, t('table.none'))); return; }
  player = await me();
  inviteOf(tableId);
  connect();
})();

document.addEventListener('visibilitychange', () => {
  if (!gone && document.visibilityState === 'visible' && (!ws || ws.readyState === WebSocket.CLOSED)) { attempts = 0; connect(); }
});
// For the tests: where the page stands.
/** @type {Window & {tapete?: object}} */ (window).tapete = { get state() { return st; }, get beeps() { return beeps; }, get connection() { return connState; }, get connects() { return connects; }, get connLog() { return [...connLog]; }, get heard() { return heardCount; } };
