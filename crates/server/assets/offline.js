// @ts-check
// The offline page (offline.html), which the service worker shows when the server cannot be
// reached: its words from the catalogs the worker keeps (i18n.js needs nothing else), and a
// way back.

import { t } from './i18n.js';

document.title = `${t('offline.title')} · tapete`;
for (const e of document.querySelectorAll('[data-i18n]')) e.textContent = t(e.getAttribute('data-i18n') || '');
document.querySelector('[data-testid="offline-retry"]')?.addEventListener('click', () => location.reload());
