// @ts-check
// The titles the server plays (GET /api/titles) and their table-page modules.
//
// A title's META names its page module (`web_module`, a path under app/); the table page
// imports it when it opens a table of that title. A title without one, or whose module
// fails to load, gets the generic page (the raw view and a form of its legal actions).
import * as generic from "./generic/page.js";

/**
 * @typedef {import("../sdk/roundhouse.js").TitleMeta} TitleMeta
 * @typedef {import("./pageapi.js").TitlePage} TitlePage
 */

const DEFAULT_BOT_LEVELS = ["random", "heuristic", "mcts"];

/** @type {Promise<TitleMeta[]> | null} */
let asked = null;

/**
 * The server's titles (asked once per page load).
 * @param {import("../sdk/roundhouse.js").RoundhouseClient} client
 * @returns {Promise<TitleMeta[]>}
 */
export function loadTitles(client) {
  asked ??= client.listTitles().then(
    (reply) => reply.titles.map((t) => ({ ...t, bot_levels: t.bot_levels?.length ? t.bot_levels : DEFAULT_BOT_LEVELS })),
    (error) => {
      asked = null; // a network failure: ask again next time
      throw error;
    },
  );
  return asked;
}

/**
 * The title's META, or a stand-in naming only its id (a title this server no longer lists).
 * @param {import("../sdk/roundhouse.js").RoundhouseClient} client
 * @param {string} id
 * @returns {Promise<TitleMeta>}
 */
export async function titleMeta(client, id) {
  /** @type {TitleMeta[]} */
  let titles = [];
  // A server that cannot be reached for a moment should not leave the table on the generic page.
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      titles = await loadTitles(client);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 1000 * (attempt + 1)));
    }
  }
  return titles.find((t) => t.id === id) ?? { id, name: id, min_players: 1, max_players: 1, rules_version: "", web_module: null };
}

// A page module is a relative path under app/: never a URL, never `..`.
const MODULE_PATH = /^[a-z0-9_-]+(\/[a-z0-9_-]+)*\.js$/;

/**
 * The table-page module of a title: its `web_module`, or the generic page.
 * @param {TitleMeta} meta
 * @returns {Promise<{page: TitlePage, problem: string | null}>}  `problem`: why the generic page is used
 */
export async function loadPage(meta) {
  const path = meta.web_module;
  if (!path) return { page: generic, problem: null };
  if (!MODULE_PATH.test(path)) return { page: generic, problem: `the page module ${JSON.stringify(path)} is not a path under app/` };
  try {
    const module = await import(new URL(path, import.meta.url).href);
    return { page: /** @type {TitlePage} */ (module), problem: null };
  } catch (error) {
    return { page: generic, problem: `the page module ${path} did not load (${error instanceof Error ? error.message : error})` };
  }
}
