// The one headless Chromium the browser test files share (started by run.sh): prints the
// address the files connect to (TAPETE_BROWSER), then runs until it is told to stop
// (SIGTERM), when Playwright closes the browser with it. A file connecting to it instead of
// starting its own saves a second or more of CPU per file.
import { chromium } from 'playwright-core';
import { LAUNCH } from './lib.mjs';

const server = await chromium.launchServer({ ...LAUNCH, host: '127.0.0.1' });
console.log(server.wsEndpoint());
