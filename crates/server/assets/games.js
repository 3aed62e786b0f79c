// @ts-check
// The games the pages know how to draw. Each game has its own module (mus.js, …) that
// registers itself here; the lobby, the table page and the replay page stay game-agnostic.
//
// A game module is an object (typed as `GameModule` in kit.js):
//   name                          the game's name in the API ("mus")
//   title                         the name shown to people ("Mus")
//   rulesForm(defaults, {seats}) -> {el, read()}   the table options of the lobby's create form
//                                         (seats: the game's {min, max, default} seat counts)
//   rulesSummary(rules) -> string         a few words about a table's options
//   render({main, side}, st, ctx)         draws the table in its two columns: st = {view, legal, lines, table, you,
//                                         outcome, replay}; ctx = {send(action), seatName(seat),
//                                         seatControls(seat) -> Node|null, mySeat}
//   outcomeText(outcome, table, you) -> string   (optional) the game-over banner's words
//   outcomeDetail(st, ctx) -> string       (optional) the final score under the banner
//   nameLine(line, {seatName, mySeat}) -> string   (optional) a narration line with names on it
//   pairName(pair, {seatName, mySeat}) -> string   (optional) a side's name in the narration
//   resultName(pair, {seatName, mySeat}) -> string (optional) a side's name in a result line
//   seatLabel(seat, seats) -> string       (optional) the lobby's words for a seat
//   seatHelp() -> string                   (optional) the lobby's explanation under the seat
//   sidesText(seatName, seats) -> string   (optional) who played, for the history
//   resultDetail(outcome, ctx) -> string   (optional) the final score from the outcome alone, for the history
//
// A new game's page is its module file alone (<name>.js in the web/ folder of its front-end
// crate, handed to the server through the catalog) and the pages load /assets/<name>.js for
// a table of game <name>.

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
