// @ts-check
// The table's chat: the players' channel and, for spectators (and for everybody once the game
// is over), the spectators' channel, each a tab; a line to write in one's own channel, quick
// phrases and reactions a tap away; per message a mute and a report action. Messages are
// always put on the page as text (el() makes text nodes), never as markup.
//
// Where it is: on a wide screen a column beside the felt (table.js keeps that column as
// tall as the screen, so the last messages and the line to write stay in sight during a
// hand); on a narrow one a strip along the screen's bottom with the last message and a
// count of the unread ones, which opens the whole chat as a sheet over the table's lower
// part, and a button for the quick words. What a seated person says also shows for a few
// seconds beside their seat, in a spot that covers no card, button, name or words.
//
// Quick phrases are sent as text in the sender's language; a reaction is sent as its emoji
// (the text a person could have typed) and drawn as a picture wherever a message is exactly
// that emoji, since many browsers have no emoji font.

import { el, clear, t, toast, errorText } from './common.js';
import { icon } from './icons.js';
import { bubbleMs } from './kit.js';

/**
 * A message for the table's socket (`{type: 'chat', text}`, a mute, a report…).
 * @typedef {{type: string, [key: string]: unknown}} ClientMessage
 */

/**
 * A chat message as the table's socket sends it (`n`: its number at the table).
 * @typedef {{n: number, player: number, nickname: string, channel: 'players' | 'spectators', text: string, at?: number}} ChatLine
 */

/**
 * The reactions: the emoji sent, and the drawing and words that show it.
 * @type {{text: string, icon: import('./icons.js').IconName, label: () => string}[]}
 */
export const REACTIONS = [
  { text: '👍', icon: 'good', label: () => t('chat.react.good') },
  { text: '😂', icon: 'laugh', label: () => t('chat.react.laugh') },
  { text: '😮', icon: 'wow', label: () => t('chat.react.wow') },
  { text: '😢', icon: 'sad', label: () => t('chat.react.sad') },
];

/**
 * The quick phrases, in the person's language.
 * @type {[string, () => string][]}
 */
const PHRASES = [
  ['buena', () => t('chat.phrase.buena')],
  ['vaya', () => t('chat.phrase.vaya')],
  ['venga', () => t('chat.phrase.venga')],
  ['gg', () => t('chat.phrase.gg')],
];

/** Narrow screens: the strip and the sheet instead of the column (style.css agrees). */
const NARROW = window.matchMedia('(max-width: 900px)');

/** @type {(msg: ClientMessage) => boolean} */
let send = () => false;
/** @type {ChatLine[]} */
let lines = [];          // the messages this connection may see, oldest first
/** @type {Set<number>} */
let muted = new Set();   // the people this person mutes
let known = false;       // a state arrived: who one is is known
let seated = false;
let finished = false;
/** @type {number | null} */
let myId = null;
let hasName = false;
let tab = 'players';
let unread = 0;
let sheet = false;       // the sheet is open (narrow screens)
let tray = false;        // the quick words are open over the strip (narrow screens)
let error = '';          // the last refusal, shown under the line to write
/** @type {Map<number, string>} */
const names = new Map(); // player id → nickname, for the list of people muted
/** @type {Map<number, number>} */
const seatOf = new Map(); // player id → the seat they hold

const list = el('div', { class: 'chat-lines', 'data-testid': 'chat-lines', role: 'log', 'aria-live': 'polite' });
const tabs = el('div', { class: 'chat-tabs', role: 'tablist' });
const close = el('button', { class: 'chat-close', type: 'button', 'data-testid': 'chat-close', 'aria-label': t('chat.close'), title: t('chat.close'), onclick: () => setSheet(false) }, icon('close'));
const head = el('div', { class: 'chat-head' }, el('h3', {}, t('chat.title')), tabs, close);
const input = el('input', { type: 'text', maxlength: 300, 'data-testid': 'chat-input', 'aria-label': t('chat.write') });
const form = el('form', { class: 'chat-form row', onsubmit: (e) => { e.preventDefault(); write(); } },
  input, el('button', { class: 'btn small primary', 'data-testid': 'chat-send' }, t('chat.send')));
const quick = el('div', { class: 'chat-quick', 'data-testid': 'chat-quick', role: 'group', 'aria-label': t('chat.quick') },
  REACTIONS.map((r) => el('button', {
    class: 'chat-react', type: 'button', 'data-testid': 'chat-react', 'data-text': r.text, title: r.label(), 'aria-label': r.label(),
    onclick: () => say(r.text),
  }, icon(r.icon))),
  PHRASES.map(([key, words]) => el('button', {
    class: 'chat-phrase', type: 'button', 'data-testid': 'chat-phrase', 'data-key': key, onclick: () => say(words()),
  }, words())));
const note = el('div', { class: 'muted small chat-note', 'data-testid': 'chat-note' });
const mutedBox = el('div', { class: 'muted small chat-muted', 'data-testid': 'chat-muted' });
const panel = el('section', { class: 'panel chat', 'data-testid': 'chat', 'aria-label': t('chat.title') }, head, list, form, note, mutedBox);

// The strip (narrow screens): the last message and the unread count, which open the sheet,
// and the quick words' button, which puts the quick words (the tray, one row that scrolls
// sideways) in the message's place: the strip keeps its height, so it covers nothing more.
const count = el('span', { class: 'chat-unread hidden', 'data-testid': 'chat-unread' });
const last = el('span', { class: 'chat-last', 'data-testid': 'chat-last' });
const toggle = el('button', {
  class: 'chat-toggle', type: 'button', 'data-testid': 'chat-toggle', 'aria-label': t('chat.open'),
  onclick: () => setSheet(true),
}, el('span', { class: 'chat-badge' }, icon('chat'), count), last);
const quickToggle = el('button', {
  class: 'chat-quick-toggle', type: 'button', 'data-testid': 'chat-quick-toggle', 'aria-label': t('chat.quick'), title: t('chat.quick'),
  'aria-expanded': 'false', onclick: () => { tray = !tray; draw(); },
}, icon('smile'), icon('close'));
const trayBox = el('div', { class: 'chat-tray hidden', 'data-testid': 'chat-tray' });
const strip = el('div', { class: 'chat-strip', 'data-testid': 'chat-strip' }, toggle, trayBox, quickToggle);

// The list stays at its newest message unless the person scrolled up to read older ones,
// also when the column or the sheet around it changes height.
let pinned = true;
list.addEventListener('scroll', () => { if (list.clientHeight) pinned = list.scrollHeight - list.scrollTop - list.clientHeight < 30; }, { passive: true });
new ResizeObserver(() => { if (pinned) list.scrollTop = list.scrollHeight; }).observe(list);

NARROW.addEventListener('change', () => { if (!NARROW.matches) { sheet = false; tray = false; unread = 0; } draw(); });
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || !NARROW.matches || (!sheet && !tray)) return;
  if (sheet) setSheet(false); else { tray = false; draw(); }
});
// A tap anywhere else puts the tray away.
document.addEventListener('pointerdown', (e) => {
  const at = /** @type {Node} */ (e.target);
  if (tray && !trayBox.contains(at) && !quickToggle.contains(at)) { tray = false; draw(); }
});

/**
 * The chat panel, to place on the table page; `sender` sends a message on the table's
 * socket (false when it could not).
 * @param {(msg: ClientMessage) => boolean} sender
 */
export function chatPanel(sender) {
  send = sender;
  draw();
  return panel;
}

/** The strip of narrow screens, to place on the table page. */
export function chatStrip() {
  return [strip];
}

/**
 * The table's state arrived: whether one sits, whether the game is over, who one is, who sits where.
 * @param {{you?: {seat?: number | null, player?: number | null} | null, table?: import('./common.js').TableInfo | null} | null} st
 */
export function chatState(st) {
  const you = (st && st.you) || {};
  const wasSeated = seated;
  known = true;
  seated = you.seat !== null && you.seat !== undefined;
  finished = !!(st && st.table && st.table.status === 'finished');
  myId = you.player ?? null;
  hasName = myId !== null;
  seatOf.clear();
  for (const s of (st && st.table && st.table.seats) || []) if (s.player) seatOf.set(s.player.id, s.seat);
  if (wasSeated !== seated) tab = seated ? 'players' : 'spectators';
  if (!tabsShown().includes(tab)) tab = 'players';
  draw();
}

/**
 * A message from the table's socket: true when it was the chat's.
 * @param {{type: string}} raw
 */
export function chatMessage(raw) {
  // The chat's messages, by their type: the history, a message, a report taken, a refusal.
  const msg = /** @type {{type: string, lines?: ChatLine[], muted?: number[], line?: ChatLine, code?: string, wait_s?: number}} */ (raw);
  if (msg.type === 'chat_history') {
    lines = Array.isArray(msg.lines) ? msg.lines : [];
    muted = new Set(msg.muted || []);
    for (const l of lines) names.set(l.player, l.nickname);
    draw();
    return true;
  }
  if (msg.type === 'chat' && msg.line) {
    lines.push(msg.line);
    if (lines.length > 200) lines.shift();
    names.set(msg.line.player, msg.line.nickname);
    if (NARROW.matches && !sheet && msg.line.player !== myId) unread++;
    draw();
    const seat = seatOf.get(msg.line.player);
    if (msg.line.channel === 'players' && seat !== undefined) seatBubble(seat, msg.line);
    return true;
  }
  if (msg.type === 'chat_reported') { toast(t('chat.reported'), ''); return true; }
  if (msg.type === 'error' && typeof msg.code === 'string' && msg.code.startsWith('chat_')) {
    error = errorText(msg.code, { s: msg.wait_s });
    draw();
    // Said from the strip: the refusal shows there too.
    if (NARROW.matches && !sheet) toast(error, 'error');
    return true;
  }
  return false;
}

/** After the table was drawn anew: the speech bubbles follow their seats. */
export function chatLayout() {
  for (const seat of said.keys()) place(seat);
}

/** The channels one may read: the players' always; the spectators' but while seated at a game on. */
function tabsShown() {
  return !seated || finished ? ['players', 'spectators'] : ['players'];
}

/**
 * Opens or closes the chat's sheet (narrow screens).
 * @param {boolean} open
 */
function setSheet(open) {
  sheet = open;
  tray = false;
  if (open) { unread = 0; tab = tabsShown().includes(tab) ? tab : 'players'; }
  draw();
  // The focus goes into the sheet (not to the line to write: a phone's keyboard would
  // cover the table at once) and back to the strip when it closes.
  if (open) { pinned = true; list.scrollTop = list.scrollHeight; close.focus({ preventScroll: true }); }
  else toggle.focus({ preventScroll: true });
}

/**
 * Sends a message in one's own channel; true when it went.
 * @param {string} text
 */
function say(text) {
  if (!send({ type: 'chat', text })) return false;
  error = '';
  // A quick word said: back to one's own channel, and the tray goes.
  tab = seated ? 'players' : 'spectators';
  tray = false;
  pinned = true;
  draw();
  return true;
}

/** Sends the line written. */
function write() {
  const text = input.value.trim();
  if (!text) { error = t('error.chat_empty'); draw(); return; }
  if (say(text)) input.value = '';
}

/**
 * A reaction by its emoji, or undefined.
 * @param {string} text
 */
function reaction(text) {
  return REACTIONS.find((r) => r.text === text);
}

/**
 * A message's words, or its reaction's picture.
 * @param {ChatLine} l
 */
function textOf(l, { short = false } = {}) {
  const r = reaction(l.text);
  if (r) return icon(r.icon, { label: r.label(), cls: 'chat-rx' });
  if (short && l.text.length > 60) return `${l.text.slice(0, 57)}…`;
  return l.text;
}

/**
 * A message in the chat's list, with a mute and a report for others' messages.
 * @param {ChatLine} l
 */
function line(l) {
  const mine = l.player === myId;
  const acts = mine || !hasName ? null : el('span', { class: 'chat-acts' },
    el('button', { class: 'linkish', type: 'button', 'data-testid': 'chat-mute', title: t('chat.mute_who', { name: l.nickname }), onclick: () => { names.set(l.player, l.nickname); send({ type: 'mute', player: l.player }); } }, t('chat.mute')),
    el('button', { class: 'linkish', type: 'button', 'data-testid': 'chat-report', title: t('chat.report_title'), onclick: () => { if (confirm(t('chat.report_confirm', { name: l.nickname }))) send({ type: 'report', n: l.n }); } }, t('chat.report')));
  return el('div', { class: `chat-line${mine ? ' mine' : ''}`, 'data-testid': 'chat-line', 'data-channel': l.channel },
    el('b', {}, l.nickname), ' ', el('span', { class: 'chat-text', 'data-testid': 'chat-text', 'data-text': l.text }, textOf(l)), acts);
}

/** Draws the chat anew from what it knows. */
function draw() {
  const narrow = NARROW.matches;
  panel.classList.toggle('sheet', narrow);
  panel.classList.toggle('open', !narrow || sheet);
  clear(tabs);
  const shown = tabsShown();
  for (const ch of shown) {
    tabs.append(el('button', {
      type: 'button', role: 'tab', class: `chat-tab${ch === tab ? ' on' : ''}`, 'data-testid': `chat-tab-${ch}`,
      'aria-selected': String(ch === tab), onclick: () => { tab = ch; pinned = true; draw(); },
    }, t(`chat.tab.${ch}`)));
  }
  tabs.classList.toggle('hidden', shown.length < 2);
  clear(list);
  const here = lines.filter((l) => l.channel === tab);
  for (const l of here) list.append(line(l));
  if (!here.length) list.append(el('div', { class: 'muted small' }, t(tab === 'players' ? 'chat.empty_players' : 'chat.empty_spectators')));
  if (pinned) list.scrollTop = list.scrollHeight;
  // One writes in one's own channel: the players' when seated, else the spectators'.
  const mineTab = seated ? 'players' : 'spectators';
  const writes = hasName && tab === mineTab;
  form.classList.toggle('hidden', !writes);
  input.placeholder = t(seated ? 'chat.placeholder_players' : 'chat.placeholder_spectators');
  // The quick words: above the line to write in the panel, or in the tray over the strip.
  const inTray = narrow && !sheet;
  const home = inTray ? trayBox : panel;
  if (quick.parentNode !== home) { if (inTray) trayBox.append(quick); else panel.insertBefore(quick, form); }
  quick.classList.toggle('hidden', !hasName || (!inTray && !writes));
  const trayOpen = inTray && tray && hasName;
  trayBox.classList.toggle('hidden', !trayOpen);
  strip.classList.toggle('quick', trayOpen);
  quickToggle.classList.toggle('hidden', !hasName);
  quickToggle.setAttribute('aria-expanded', String(trayOpen));
  // Under the line: the last refusal, else (once who one is is known) why one cannot write.
  note.textContent = error || (known && !hasName ? t('chat.need_name') : '');
  note.classList.toggle('error-text', !!error);
  note.classList.toggle('hidden', !note.textContent);
  clear(mutedBox);
  if (muted.size) {
    mutedBox.append(t('chat.muted', { count: muted.size }), ' ');
    for (const id of muted) {
      mutedBox.append(el('button', { class: 'linkish', type: 'button', 'data-testid': 'chat-unmute', onclick: () => send({ type: 'mute', player: id, on: false }) },
        t('chat.unmute_who', { name: names.get(id) || `#${id}` })), ' ');
    }
  }
  mutedBox.classList.toggle('hidden', !muted.size);
  // The strip: the last message, and how many came while the chat was closed.
  const newest = lines[lines.length - 1];
  clear(last).append(...(newest ? [el('b', {}, newest.nickname), ' ', textOf(newest, { short: true })] : [el('span', { class: 'chat-last-none' }, t('chat.strip_empty'))]));
  count.textContent = unread ? String(unread) : '';
  count.classList.toggle('hidden', !unread);
  toggle.setAttribute('aria-label', unread ? t('chat.open_unread', { count: unread }) : t('chat.open'));
}

// ---- what a seated person says, beside their seat for a while ----

/**
 * The bubbles up now: seat → {node, timer}.
 * @type {Map<number, {node: HTMLElement, timer: ReturnType<typeof setTimeout>}>}
 */
const said = new Map();

/**
 * Shows what `l` says beside `seat` for as long as it takes to read (2.5 to 6 s).
 * @param {number} seat
 * @param {ChatLine} l
 */
function seatBubble(seat, l) {
  const old = said.get(seat);
  if (old) { clearTimeout(old.timer); old.node.remove(); }
  const node = el('div', { class: 'chat-said', 'data-testid': `chat-said-${seat}`, 'aria-hidden': 'true' }, textOf(l, { short: true }));
  document.body.append(node);
  const ms = Math.min(6000, Math.max(2500, bubbleMs(l.text)));
  const timer = setTimeout(() => { node.remove(); if (said.get(seat)?.node === node) said.delete(seat); }, ms);
  said.set(seat, { node, timer });
  place(seat);
}

/**
 * What a bubble must not cover on the felt: cards, buttons, names, chips, and any words.
 * @param {Element} felt
 */
function obstacles(felt) {
  /** @type {DOMRect[]} */
  const out = [];
  for (const e of felt.querySelectorAll('*')) {
    const solid = e.matches('.card, button, .btn, [role="button"], .nameplate, .bubble, .chip')
      || [...e.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent || '').trim());
    if (!solid) continue;
    const r = e.getBoundingClientRect();
    if (r.width && r.height) out.push(r);
  }
  return out;
}

/**
 * Puts a seat's bubble beside its nameplate (above, at either end, or below it) where it covers nothing; else hides it.
 * @param {number} seat
 */
function place(seat) {
  const b = said.get(seat);
  if (!b) return;
  const node = b.node;
  const name = document.querySelector(`[data-testid="seat-name-${seat}"]`);
  const plate = name && name.closest('.nameplate');
  const felt = plate && plate.closest('.felt');
  node.style.visibility = 'hidden';
  node.classList.remove('hidden');
  if (!plate || !felt) { node.classList.add('hidden'); return; }
  const p = plate.getBoundingClientRect();
  const f = felt.getBoundingClientRect();
  const w = node.offsetWidth;
  const h = node.offsetHeight;
  const gap = 6;
  // Beside the name first (above it, then at either end), lined up with it in a few ways.
  const xs = [p.left + p.width / 2 - w / 2, p.left, p.right - w];
  const ys = [p.top + p.height / 2 - h / 2, p.top, p.bottom - h];
  /** @type {(x: number, y: number, dir: string) => [number, number, string]} */
  const spot = (x, y, dir) => [x, y, dir];
  const spots = [
    ...xs.map((x) => spot(x, p.top - h - gap, 'up')),
    ...ys.map((y) => spot(p.right + gap, y, 'right')),
    ...ys.map((y) => spot(p.left - w - gap, y, 'left')),
    ...xs.map((x) => spot(x, p.bottom + gap, 'down')),
  ];
  const walls = obstacles(felt);
  const free = spots.map(([x, y, dir]) => spot(Math.min(Math.max(x, f.left + 4), f.right - w - 4), y, dir)).find(([x, y]) =>
    y >= f.top && y + h <= f.bottom && x >= f.left && x + w <= f.right
    && walls.every((r) => x + w <= r.left || r.right <= x || y + h <= r.top || r.bottom <= y));
  if (!free) { node.classList.add('hidden'); return; }
  const [x, y, dir] = free;
  node.dataset.dir = dir;
  node.style.left = `${Math.round(x + window.scrollX)}px`;
  node.style.top = `${Math.round(y + window.scrollY)}px`;
  node.style.visibility = '';
}
