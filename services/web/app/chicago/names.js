// @ts-check
// How companies and players look: colours and names shared by every panel.

// The shades of the companies' colours (red, blue, green, yellow, black in board.json).
const COMPANY_COLOURS = { PRR: "#c8312b", BO: "#2f5fb3", NYC: "#2e8b47", CO: "#e7c12f", WAB: "#2b2b2b" };
// Text on a company colour: dark on yellow, light elsewhere.
const LIGHT_COMPANIES = new Set(["CO"]);

/** Distinct player colours for the chart and the seat markers. */
export const PLAYER_COLOURS = ["#e4572e", "#2e86ab", "#8e44ad", "#3bb273", "#f39c12", "#795548"];

/** @param {string} id */
export function companyColor(id) {
  return /** @type {any} */ (COMPANY_COLOURS)[id] ?? "#777";
}

/** Outline and text colour that reads on the company's colour. @param {string} id */
export function ink(id) {
  return LIGHT_COMPANIES.has(id) ? "#3a3000" : "#ffffff";
}

/**
 * @param {any} view
 * @param {string} id
 */
export function companyShort(view, id) {
  return view.companies.find((/** @type {any} */ c) => c.id === id)?.short ?? id;
}

/**
 * @param {any} view
 * @param {number} seat
 */
export function playerName(view, seat) {
  return view.players[seat]?.name ?? `seat ${seat}`;
}

/**
 * What the player can find the hex by on the map: its city name, else the view's label
 * ("forest NE of Pittsburgh"); the map prints no coordinates.
 * @param {any} view
 * @param {string} id
 */
export function hexName(view, id) {
  const hex = view.hexes.find((/** @type {any} */ h) => h.id === id);
  return hex?.name ?? hex?.label ?? id;
}

/**
 * The hex in a sentence: "Pittsburgh", or "the forest NE of Pittsburgh".
 * @param {any} view
 * @param {string} id
 */
export function hexPlace(view, id) {
  const hex = view.hexes.find((/** @type {any} */ h) => h.id === id);
  return hex?.name ?? (hex?.label ? `the ${hex.label}` : id);
}

/** "forest NE of Pittsburgh" as a button starts: "Forest NE of Pittsburgh". @param {string} text */
export function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
