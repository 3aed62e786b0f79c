// @ts-check
// Pages the server writes (a game's rules, "no such page"): only the top bar is added here.

import { topbar } from './topbar.js';

topbar(location.pathname.startsWith('/rules/') ? 'rules' : '');
