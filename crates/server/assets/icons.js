// @ts-check
// The table page's small pictures, drawn as SVG so that they look the same everywhere: a
// browser without an emoji font (many Linux desktops, headless Chromium) shows an emoji as
// an empty box. Each is a <span> holding its drawing; `label` names it for screen readers
// (role img), else it is decoration beside words that already say it.

import { el } from './common.js';

const FACE = '<circle cx="12" cy="12" r="10.2" fill="#f6c945" stroke="#b7861b" stroke-width="1.1"/>';
const INK = '#5b3a0a';

/** The drawings, each the inside of a 24×24 <svg>. */
const DRAWINGS = {
  // A padlock (a table's committed deal).
  lock: '<rect x="5" y="10.5" width="14" height="10" rx="2" fill="currentColor"/><path d="M8.2 10.5V8a3.8 3.8 0 0 1 7.6 0v2.5" fill="none" stroke="currentColor" stroke-width="2"/>',
  // A bell, and the bell struck through (the sound on your turn, on and off).
  bell: '<path d="M12 3.2c-3.3 0-5.6 2.5-5.6 5.8v3.6L4.7 15.8c-.3.6.1 1.2.8 1.2h13c.7 0 1.1-.6.8-1.2l-1.7-3.2V9c0-3.3-2.3-5.8-5.6-5.8z" fill="currentColor"/><path d="M9.6 18.6a2.5 2.5 0 0 0 4.8 0z" fill="currentColor"/>',
  bellOff: '<path d="M12 3.2c-3.3 0-5.6 2.5-5.6 5.8v3.6L4.7 15.8c-.3.6.1 1.2.8 1.2h13c.7 0 1.1-.6.8-1.2l-1.7-3.2V9c0-3.3-2.3-5.8-5.6-5.8z" fill="none" stroke="currentColor" stroke-width="1.6"/><path d="M9.6 18.6a2.5 2.5 0 0 0 4.8 0z" fill="currentColor"/><path d="M3.5 3.5l17 17" stroke="currentColor" stroke-width="2" stroke-linecap="round"/>',
  // A speech balloon (the chat), a smile (quick words), a cross (close).
  chat: '<path d="M4 5.5C4 4.7 4.7 4 5.5 4h13c.8 0 1.5.7 1.5 1.5v9c0 .8-.7 1.5-1.5 1.5H10l-4.2 3.6c-.5.4-1.1 0-1.1-.5V16h-.2C3.7 16 4 15.3 4 14.5z" fill="currentColor"/>',
  smile: '<circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" stroke-width="1.8"/><circle cx="9" cy="10" r="1.3" fill="currentColor"/><circle cx="15" cy="10" r="1.3" fill="currentColor"/><path d="M8 14.2c2.2 2.6 5.8 2.6 8 0" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>',
  close: '<path d="M6 6l12 12M18 6L6 18" stroke="currentColor" stroke-width="2.2" stroke-linecap="round"/>',
  // The reactions: a thumb up, a laugh with tears, a face of surprise, a sad face.
  good: '<rect x="2.6" y="10.2" width="4" height="10" rx="1" fill="#2b5fab"/><path d="M7 10.6h3.1l1.5-5.3c.4-1.5 2.9-1.3 2.8.6l-.4 4.2h4.3c1.3 0 2.2 1.2 1.9 2.4l-1.5 6.1c-.2.9-1 1.5-1.9 1.5H7z" fill="#f6c945" stroke="#b7861b" stroke-width="1.1" stroke-linejoin="round"/><path d="M14.6 13.6h4.4M14.4 16.4h3.8" stroke="#b7861b" stroke-width="1" stroke-linecap="round"/>',
  laugh: `${FACE}<path d="M6.6 9.8q1.7-2.2 3.4 0M14 9.8q1.7-2.2 3.4 0" stroke="${INK}" stroke-width="1.5" fill="none" stroke-linecap="round"/><path d="M6.4 13h11.2a5.6 5.6 0 0 1-11.2 0z" fill="${INK}"/><path d="M9 16.6a4 2 0 0 0 6 0 4 4 0 0 1-6 0z" fill="#e86a5b"/><path d="M4.4 10.8c-1.3 1.9-1.7 3.2-.7 3.9s2.3-.5 1.7-2.2zM19.6 10.8c1.3 1.9 1.7 3.2.7 3.9s-2.3-.5-1.7-2.2z" fill="#5fb3f0"/>`,
  wow: `${FACE}<path d="M6.8 7q1.6-1.4 3.2-.6M14 6.4q1.6-.8 3.2.6" stroke="${INK}" stroke-width="1.3" fill="none" stroke-linecap="round"/><circle cx="8.6" cy="10" r="1.5" fill="${INK}"/><circle cx="15.4" cy="10" r="1.5" fill="${INK}"/><ellipse cx="12" cy="16.2" rx="2.5" ry="3" fill="${INK}"/>`,
  sad: `${FACE}<path d="M6.8 8.2q1.6.4 3-1M17.2 8.2q-1.6.4-3-1" stroke="${INK}" stroke-width="1.3" fill="none" stroke-linecap="round"/><circle cx="8.8" cy="11" r="1.4" fill="${INK}"/><circle cx="15.2" cy="11" r="1.4" fill="${INK}"/><path d="M8.4 17.4q3.6-3.4 7.2 0" stroke="${INK}" stroke-width="1.6" fill="none" stroke-linecap="round"/><path d="M16.4 12.6c-.9 1.4-1.2 2.3-.5 2.8s1.6-.4 1.2-1.6z" fill="#5fb3f0"/>`,
};

/** @typedef {keyof typeof DRAWINGS} IconName */

/**
 * A drawing as an element: `icon('bell')`; with `label`, an image of that name, else hidden
 * from screen readers.
 * @param {IconName} name
 * @param {{label?: string, cls?: string}} [opts]
 * @returns {HTMLElement}
 */
export function icon(name, { label = '', cls = '' } = {}) {
  const svg = `<svg viewBox="0 0 24 24" width="24" height="24" focusable="false" aria-hidden="true">${DRAWINGS[name]}</svg>`;
  return el('span', {
    class: `icon icon-${name} ${cls}`.trim(), html: svg, 'data-icon': name,
    role: label ? 'img' : null, 'aria-label': label || null, 'aria-hidden': label ? null : 'true', title: label || null,
  });
}
