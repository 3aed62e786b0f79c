// @ts-check
// The games the pages know how to draw. Each game has its own module (mus.js, …) that
// registers itself here; the lobby, the table page and the replay page stay game-agnostic.
//
// A game module satisfies the one contract `GameModule`, typed in kit.js (what the lobby's
// form, the table page, the history and the replays call; `tsc` checks every module against
// it). A new game's page is its module file alone (<name>.js in the web/ folder of its
// front-end crate, handed to the server through the catalog) and the pages load
// /assets/<name>.js for a table of game <name>.

/** @typedef {import('./kit.js').GameModule} GameModule */

/** @type {Map<string, GameModule>} */
const registry = new Map();

/**
 * Makes a game's page known (each game module calls it once, on load).
 * @param {GameModule} mod
 */
export function registerGame(mod) {
  registry.set(mod.name, mod);
}

/**
 * The module of a game, loaded on first use from /assets/<name>.js.
 * @param {string} name
 * @returns {Promise<GameModule>}
 */
export async function gameModule(name) {
  if (!registry.has(name)) {
    if (!/^[a-z0-9_-]+$/.test(name)) throw new Error(`unknown game ${name}`);
    try {
      await import(`/assets/${name}.js`);
    } catch (e) {
      console.error(e);
    }
  }
  return registry.get(name) || genericModule(name);
}

/**
 * A plain fallback for games without a module yet: raw view and action buttons.
 * @param {string} name
 * @returns {GameModule}
 */
function genericModule(name) {
  return {
    name,
    rulesForm() {
      const ta = document.createElement('textarea');
      ta.rows = 3; ta.placeholder = '{}'; ta.style.width = '100%';
      return { el: ta, read: () => (ta.value.trim() ? JSON.parse(ta.value) : {}) };
    },
    rulesSummary: (rules) => JSON.stringify(rules),
    render({ main: root, side }, st, ctx) {
      root.innerHTML = '';
      if (side) side.innerHTML = '';
      const pre = document.createElement('pre');
      pre.textContent = JSON.stringify(st.view, null, 2);
      pre.style.cssText = 'max-height:50vh;overflow:auto;background:#0003;padding:8px;border-radius:8px';
      root.append(pre);
      for (const a of st.legal || []) {
        const b = document.createElement('button');
        b.className = 'btn'; b.textContent = a; b.dataset.testid = 'action'; b.dataset.action = a;
        b.onclick = () => ctx.send(a);
        root.append(b);
      }
    },
  };
}
