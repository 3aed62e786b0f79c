// @ts-check
// The account page (/account): the top bar, then account.js's page.

import { topbar } from './topbar.js';
import { accountPage } from './account.js';

topbar('account');
accountPage();
