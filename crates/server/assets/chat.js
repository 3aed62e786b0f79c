// The table's chat panel: the players' channel and, for spectators (and for everybody once
// the game is over), the spectators' channel, each a tab; a line to write in one's own
// channel; per message a mute and a report action. Messages are always put on the page as
// text (el() makes text nodes), never as markup. On a phone the panel starts collapsed,
// with a count of the messages not yet read, so it never hides the cards.

import { el, clear, t, toast, errorText } from './common.js';

/** @type {(msg: object) => boolean} */
let send = () => false;
let lines = [];          // the messages this connection may see, oldest first
let muted = new Set();   // the people this person mutes
let seated = false;
let finished = false;
let myId = null;
let hasName = false;
let tab = 'players';
let unread = 0;
let open = !window.matchMedia('(max-width: 700px)').matches;
const names = new Map(); // player id → nickname, for the list of people muted

const list = el('div', { class: 'chat-lines', 'data-testid': 'chat-lines', role: 'log', 'aria-live': 'polite' });
const tabs = el('div', { class: 'chat-tabs', role: 'tablist' });
const input = el('input', { type: 'text', maxlength: 300, 'data-testid': 'chat-input', 'aria-label': t('chat.write') });
const form = el('form', { class: 'chat-form row', onsubmit: (e) => { e.preventDefault(); write(); } },
  input, el('button', { class: 'btn small primary', 'data-testid': 'chat-send' }, t('chat.send')));
const note = el('div', { class: 'muted small chat-note', 'data-testid': 'chat-note' });
const mutedBox = el('div', { class: 'muted small chat-muted', 'data-testid': 'chat-muted' });
const count = el('span', { class: 'chat-unread hidden', 'data-testid': 'chat-unread' });
const toggle = el('button', { class: 'chat-toggle', type: 'button', 'data-testid': 'chat-toggle', onclick: () => { open = !open; if (open) unread = 0; draw(); } },
  el('span', {}, t('chat.title')), count);
const body = el('div', { class: 'chat-body' }, tabs, list, form, note, mutedBox);
const panel = el('section', { class: 'panel chat', 'data-testid': 'chat' }, toggle, body);

/** The chat panel, to place on the table page; `sender` sends a message on the table's socket. */
export function chatPanel(sender) {
  send = sender;
  draw();
  return panel;
}

/** The table's state arrived: whether one sits, whether the game is over, who one is. */
export function chatState(st) {
  const you = (st && st.you) || {};
  const wasSeated = seated;
  seated = you.seat !== null && you.seat !== undefined;
  finished = !!(st && st.table && st.table.status === 'finished');
  myId = you.player ?? null;
  hasName = myId !== null;
  if (wasSeated !== seated) tab = seated ? 'players' : 'spectators';
  if (!tabsShown().includes(tab)) tab = 'players';
  draw();
}

/** A message from the table's socket: true when it was the chat's. */
export function chatMessage(msg) {
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
    if (!open && msg.line.player !== myId) unread++;
    draw();
    return true;
  }
  if (msg.type === 'chat_reported') { toast(t('chat.reported'), ''); return true; }
  if (msg.type === 'error' && typeof msg.code === 'string' && msg.code.startsWith('chat_')) {
    note.textContent = errorText(msg.code, { s: msg.wait_s });
    note.classList.add('error-text');
    return true;
  }
  return false;
}

function tabsShown() {
  return !seated || finished ? ['players', 'spectators'] : ['players'];
}

function write() {
  const text = input.value.trim();
  if (!text) { note.textContent = t('error.chat_empty'); note.classList.add('error-text'); return; }
  if (send({ type: 'chat', text })) { input.value = ''; note.textContent = ''; note.classList.remove('error-text'); }
}

function line(l) {
  const mine = l.player === myId;
  const acts = mine || !hasName ? null : el('span', { class: 'chat-acts' },
    el('button', { class: 'linkish', type: 'button', 'data-testid': 'chat-mute', title: t('chat.mute_who', { name: l.nickname }), onclick: () => { names.set(l.player, l.nickname); send({ type: 'mute', player: l.player }); } }, t('chat.mute')),
    el('button', { class: 'linkish', type: 'button', 'data-testid': 'chat-report', title: t('chat.report_title'), onclick: () => { if (confirm(t('chat.report_confirm', { name: l.nickname }))) send({ type: 'report', n: l.n }); } }, t('chat.report')));
  return el('div', { class: `chat-line${mine ? ' mine' : ''}`, 'data-testid': 'chat-line', 'data-channel': l.channel },
    el('b', {}, l.nickname), ' ', el('span', { class: 'chat-text', 'data-testid': 'chat-text' }, l.text), acts);
}

function draw() {
  panel.classList.toggle('closed', !open);
  count.textContent = unread ? String(unread) : '';
  count.classList.toggle('hidden', !unread || open);
  toggle.setAttribute('aria-expanded', String(open));
  clear(tabs);
  const shown = tabsShown();
  for (const ch of shown) {
    tabs.append(el('button', {
      type: 'button', role: 'tab', class: `chat-tab${ch === tab ? ' on' : ''}`, 'data-testid': `chat-tab-${ch}`,
      'aria-selected': String(ch === tab), onclick: () => { tab = ch; draw(); },
    }, t(`chat.tab.${ch}`)));
  }
  tabs.classList.toggle('hidden', shown.length < 2);
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  clear(list);
  const here = lines.filter((l) => l.channel === tab);
  for (const l of here) list.append(line(l));
  if (!here.length) list.append(el('div', { class: 'muted small' }, t(tab === 'players' ? 'chat.empty_players' : 'chat.empty_spectators')));
  if (atBottom) list.scrollTop = list.scrollHeight;
  // One writes in one's own channel: the players' when seated, else the spectators'.
  const mineTab = seated ? 'players' : 'spectators';
  form.classList.toggle('hidden', !hasName || tab !== mineTab);
  input.placeholder = t(seated ? 'chat.placeholder_players' : 'chat.placeholder_spectators');
  if (!hasName) { note.textContent = t('chat.need_name'); note.classList.remove('error-text'); }
  clear(mutedBox);
  if (muted.size) {
    mutedBox.append(t('chat.muted', { count: muted.size }), ' ');
    for (const id of muted) {
      mutedBox.append(el('button', { class: 'linkish', type: 'button', 'data-testid': 'chat-unmute', onclick: () => send({ type: 'mute', player: id, on: false }) },
        t('chat.unmute_who', { name: names.get(id) || `#${id}` })), ' ');
    }
  }
}
