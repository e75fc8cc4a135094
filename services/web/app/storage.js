// @ts-check
// What the browser keeps between visits: seat tokens (so the lobby can offer "play as"),
// and the last view of a table (so a reload resumes from its seq instead of starting over).

const SEATS_KEY = "roundhouse.seats";
const HELD_PREFIX = "roundhouse.held.";

/**
 * @typedef {{table: string, seat: number, name: string, token: string}} KnownSeat
 */

/** Storage can be missing or full (private windows, quotas): the app works without it. */
function safely(/** @type {() => any} */ fn, /** @type {any} */ fallback = null) {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** @returns {KnownSeat[]} */
export function knownSeats() {
  return safely(() => JSON.parse(localStorage.getItem(SEATS_KEY) || "[]"), []);
}

/** @param {KnownSeat} seat */
export function rememberSeat(seat) {
  const others = knownSeats().filter((s) => s.token !== seat.token);
  // The newest first, and only a bounded number: old tables fall off.
  const kept = [seat, ...others].slice(0, 200);
  safely(() => localStorage.setItem(SEATS_KEY, JSON.stringify(kept)));
}

/**
 * @param {string} table
 * @param {string | null} token
 */
function heldKey(table, token) {
  return `${HELD_PREFIX}${table}.${token ? token.split(".")[1] ?? "seat" : "spectator"}`;
}

/**
 * The view and seq held for this table and seat in this tab, if any.
 * @param {string} table
 * @param {string | null} token
 * @returns {{seq: number, view: any} | null}
 */
export function loadHeld(table, token) {
  return safely(() => {
    const raw = sessionStorage.getItem(heldKey(table, token));
    const held = raw ? JSON.parse(raw) : null;
    return held && typeof held.seq === "number" && held.view ? held : null;
  });
}

/**
 * @param {string} table
 * @param {string | null} token
 * @param {number} seq
 * @param {any} view
 */
export function saveHeld(table, token, seq, view) {
  safely(() => sessionStorage.setItem(heldKey(table, token), JSON.stringify({ seq, view })));
}

/**
 * The log lines this tab wrote from the updates it saw (for titles whose view has no log).
 * @param {string} table
 * @param {string | null} token
 * @returns {import("./pageapi.js").SeenLine[]}
 */
export function loadSeenLog(table, token) {
  return safely(() => {
    const raw = sessionStorage.getItem(`${heldKey(table, token)}:log`);
    const lines = raw ? JSON.parse(raw) : [];
    return Array.isArray(lines) ? lines : [];
  }, []);
}

/**
 * @param {string} table
 * @param {string | null} token
 * @param {import("./pageapi.js").SeenLine[]} lines
 */
export function saveSeenLog(table, token, lines) {
  safely(() => sessionStorage.setItem(`${heldKey(table, token)}:log`, JSON.stringify(lines)));
}
