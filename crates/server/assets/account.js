// @ts-check
// Accounts in the pages: "Create account", "Log in" and "Log out" in the top bar's menu
// (topbar.js calls accountLinks), their forms in a dialog, and the account page (/account,
// started by account-page.js):
// a new password, and the sessions with "End session". A guest who creates an account keeps
// its id, games and tables (its token goes with the request). Errors are shown in the page.
//
// Each account this browser logs in to gives it a device token (docs/server.md, "Failed
// logins"): kept in localStorage by nickname and sent with the next login, it lets this
// browser in while a stranger's wrong guesses hold the nickname shut for other devices. It
// is no key to anything: a login still needs the password.

import { api, ApiError, el, clear, setToken, me, fmtDate, toast, pageRoot } from './common.js';
import { t } from './i18n.js';
import { pushSwitch } from './notices.js';

const CSS = `
.topbar nav .navaccount { display: contents; }
.topbar nav .navaccount button { background: none; border: 0; color: #e6dcc0; padding: .3rem .6rem; border-radius: 8px; font: inherit; font-size: .95rem; cursor: pointer; }
.topbar nav .navaccount button:hover { background: rgba(255,255,255,.08); }
dialog.acct { border: 1px solid var(--line, #ddd); border-radius: 12px; padding: 1.2rem; max-width: min(420px, 92vw); width: 100%; }
dialog.acct::backdrop { background: rgba(0,0,0,.4); }
.acct form { display: flex; flex-direction: column; gap: .7rem; }
.acct h2 { margin: 0 0 .3rem; }
.acct input[type=password], .acct input[type=text] { padding: .5rem .6rem; border: 1px solid #cfc8b8; border-radius: 8px; background: #fffdf8; }
.acct .note { font-size: .9rem; margin: 0; }
.acct table { border-collapse: collapse; width: 100%; }
.acct td, .acct th { text-align: left; padding: .35rem .4rem; border-bottom: 1px solid var(--line, #ddd); }
.acct .ok-text { color: var(--green, #2f7d32); font-size: .9rem; min-height: 1.2em; }
`;

const DEVICES_KEY = 'tapete.devices';
/** Device tokens kept: one per account that logged in here, the latest ones. */
const MAX_DEVICES = 10;

/** The name a nickname's device token is kept under (case and width aside). */
function deviceName(/** @type {string} */ nickname) {
  return nickname.trim().normalize('NFKC').toLowerCase();
}

/** @returns {Record<string, string>} */
function devices() {
  try {
    const d = JSON.parse(localStorage.getItem(DEVICES_KEY) || '{}');
    return d && typeof d === 'object' && !Array.isArray(d) ? d : {};
  } catch { return {}; }
}

/** The device token this browser holds for an account, if any. */
function deviceFor(/** @type {string} */ nickname) {
  const d = devices()[deviceName(nickname)];
  return typeof d === 'string' ? d : undefined;
}

/** Keeps the device token an account's login gave this browser. */
function keepDevice(/** @type {string} */ nickname, /** @type {unknown} */ token) {
  if (typeof token !== 'string' || !token) return;
  const d = devices();
  delete d[deviceName(nickname)];
  d[deviceName(nickname)] = token;
  const names = Object.keys(d);
  for (const old of names.slice(0, Math.max(0, names.length - MAX_DEVICES))) delete d[old];
  try { localStorage.setItem(DEVICES_KEY, JSON.stringify(d)); } catch { /* private mode */ }
}

function style() {
  if (document.getElementById('acct-style')) return;
  document.head.append(el('style', { id: 'acct-style' }, CSS));
}

/**
 * The words for an error: an API refusal comes worded in the page's language (`api`); any
 * other error as it is.
 * @param {any} e
 */
function explain(e) {
  return e instanceof ApiError ? e.message : String((e && e.message) || e);
}

/**
 * A labelled input.
 * @param {string} label
 * @param {Record<string, any>} attrs
 */
function field(label, attrs) {
  const input = el('input', attrs);
  return { input, node: el('label', { class: 'field' }, label, input) };
}

/**
 * A dialog with a form: `fields` then the submit button and Cancel; `submit` gets the form's
 * values and throws to show an error in the dialog.
 * @param {{title: string, note?: string, testid: string, fields: {input: HTMLInputElement, node: Node}[], action: string, submit: () => Promise<void>}} o
 */
function dialog(o) {
  style();
  const error = el('p', { class: 'error-text', role: 'alert', 'data-testid': 'account-error' });
  const go = el('button', { type: 'submit', class: 'btn primary', 'data-testid': `${o.testid}-submit` }, o.action);
  const cancel = el('button', { type: 'button', class: 'btn' }, t('account.cancel'));
  const form = el('form', {}, el('h2', {}, o.title), o.note ? el('p', { class: 'note muted' }, o.note) : null,
    o.fields.map((f) => f.node), error, el('div', { class: 'row' }, go, cancel));
  const d = /** @type {HTMLDialogElement} */ (el('dialog', { class: 'acct', 'data-testid': o.testid }, form));
  cancel.addEventListener('click', () => d.close());
  d.addEventListener('close', () => d.remove());
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    go.disabled = true;
    try {
      await o.submit();
    } catch (e) {
      error.textContent = explain(e);
    } finally {
      go.disabled = false;
    }
  });
  document.body.append(d);
  d.showModal();
  o.fields[0]?.input.focus();
}

/**
 * "Create account": a guest (`p`) keeps everything; anyone else starts afresh.
 * @param {any} p
 */
export function createAccount(p) {
  const nick = field(t('account.nickname'), { type: 'text', maxlength: 24, required: true, autocomplete: 'username', value: p ? p.nickname : '', 'data-testid': 'account-nickname' });
  const pass = field(t('account.password.hint'), { type: 'password', minlength: 8, required: true, autocomplete: 'new-password', 'data-testid': 'account-password' });
  dialog({
    title: t('account.create.title'),
    note: p ? t('account.create.keeps', { name: p.nickname }) : t('account.create.why'),
    testid: 'account-create',
    fields: [nick, pass],
    action: t('account.create'),
    submit: async () => {
      const a = await api('POST', '/api/accounts', { nickname: nick.input.value.trim(), password: pass.input.value });
      keepDevice(a.nickname, a.device);
      setToken(a.token);
      location.reload();
    },
  });
}

/**
 * "Log in": a new session of an account on this browser.
 * @param {any} p
 */
export function logIn(p) {
  const nick = field(t('account.nickname'), { type: 'text', maxlength: 24, required: true, autocomplete: 'username', 'data-testid': 'login-nickname' });
  const pass = field(t('account.password'), { type: 'password', required: true, autocomplete: 'current-password', 'data-testid': 'login-password' });
  dialog({
    title: t('account.login.title'),
    note: p && !p.account ? t('account.login.replaces', { name: p.nickname }) : undefined,
    testid: 'account-login',
    fields: [nick, pass],
    action: t('account.login'),
    submit: async () => {
      const nickname = nick.input.value.trim();
      const s = await api('POST', '/api/sessions', { nickname, password: pass.input.value, device: deviceFor(nickname) });
      keepDevice(nickname, s.device);
      keepDevice(s.nickname, s.device);
      setToken(s.token);
      location.reload();
    },
  });
}

/** "Log out": this session ends, and this browser forgets its token. */
export async function logOut() {
  try {
    await api('DELETE', '/api/sessions/current');
  } catch (e) {
    // A token already ended is as good as logged out.
    if (/** @type {any} */ (e).status !== 401) {
      toast(explain(e), 'error');
      return;
    }
  }
  setToken('');
  location.href = '/';
}

/**
 * Puts the account's links in the top bar's menu: for an account, its page and "Log out";
 * for a guest or nobody, "Create account" and "Log in".
 * @param {HTMLElement} box
 * @param {any} p the player (`/api/me`) or null
 */
export function accountLinks(box, p) {
  style();
  clear(box);
  const button = (/** @type {string} */ text, /** @type {string} */ testid, /** @type {() => void} */ onclick) =>
    el('button', { type: 'button', 'data-testid': testid, onclick }, text);
  if (p && p.account) {
    box.append(
      el('a', { href: '/account', 'data-testid': 'nav-account-page', class: location.pathname === '/account' ? 'active' : '' }, t('account.page')),
      button(t('account.logout'), 'nav-logout', () => { logOut(); }),
    );
  } else {
    box.append(
      button(t('account.create'), 'nav-create-account', () => createAccount(p)),
      button(t('account.login'), 'nav-login', () => logIn(p)),
    );
  }
}

/**
 * The sessions of this account, each with "End session" (this one: "This device").
 * @param {HTMLElement} box
 */
async function sessions(box) {
  const error = el('p', { class: 'error-text', 'data-testid': 'sessions-error' });
  let list;
  try {
    list = await api('GET', '/api/sessions');
  } catch (e) {
    clear(box).append(error);
    error.textContent = explain(e);
    return;
  }
  const rows = list.map((/** @type {any} */ s) => el('tr', { 'data-testid': 'session' },
    el('td', {}, s.agent || '?'),
    el('td', {}, fmtDate(s.created)),
    el('td', {}, fmtDate(s.last_used)),
    el('td', {}, s.current
      ? el('b', { 'data-testid': 'session-current' }, t('account.sessions.this'))
      : el('button', {
        type: 'button', class: 'btn small', 'data-testid': 'end-session',
        onclick: async () => {
          try {
            await api('DELETE', `/api/sessions/${s.id}`);
            await sessions(box);
          } catch (e) { error.textContent = explain(e); }
        },
      }, t('account.sessions.end')))));
  clear(box).append(
    el('table', {}, el('thead', {}, el('tr', {},
      el('th', {}, t('account.sessions.device')), el('th', {}, t('account.sessions.created')),
      el('th', {}, t('account.sessions.used')), el('th', {}))), el('tbody', {}, rows)),
    error);
}

/** The account page's content (under the top bar): who you are, a new password, your sessions. */
export async function accountPage() {
  style();
  const app = pageRoot();
  const panel = el('section', { class: 'panel acct', 'data-testid': 'account-page' });
  clear(app).append(panel);
  const p = await me();
  panel.append(el('h1', {}, t('account.page.title')));
  if (!p || !p.account) {
    panel.append(
      el('p', {}, p ? t('account.page.guest', { name: p.nickname }) : t('account.page.none')),
      el('div', { class: 'row' },
        el('button', { type: 'button', class: 'btn primary', onclick: () => createAccount(p) }, t('account.create')),
        el('button', { type: 'button', class: 'btn', onclick: () => logIn(p) }, t('account.login'))));
    return;
  }
  panel.append(el('p', { 'data-testid': 'account-who' }, t('account.page.who', { name: p.nickname })));

  const old = field(t('account.password.old'), { type: 'password', required: true, autocomplete: 'current-password', 'data-testid': 'password-old' });
  const fresh = field(t('account.password.new'), { type: 'password', minlength: 8, required: true, autocomplete: 'new-password', 'data-testid': 'password-new' });
  const said = el('p', { class: 'ok-text', role: 'status', 'data-testid': 'password-said' });
  const box = el('div', { 'data-testid': 'sessions' });
  const form = el('form', {}, old.node, fresh.node, said,
    el('div', {}, el('button', { type: 'submit', class: 'btn primary', 'data-testid': 'password-save' }, t('account.password.save'))));
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    said.className = 'ok-text';
    said.textContent = '';
    try {
      const r = await api('POST', '/api/me/password', { old: old.input.value, new: fresh.input.value });
      said.textContent = t('account.password.changed', { count: r.ended.length });
      old.input.value = '';
      fresh.input.value = '';
      await sessions(box);
    } catch (e) {
      said.className = 'error-text';
      said.textContent = explain(e);
    }
  });
  panel.append(
    el('h2', {}, t('account.password.title')), form,
    el('h2', {}, t('account.sessions.title')), box,
    el('h2', {}, t('notices.title')), pushSwitch(),
    el('p', {}, el('button', { type: 'button', class: 'btn', 'data-testid': 'account-logout', onclick: () => { logOut(); } }, t('account.logout'))));
  await sessions(box);
}
