// @ts-check
// Colours and names the page uses: goods/city colours, one colour per seat, baron cards.

const CUBE = { red: "#d0312d", yellow: "#f2c521", blue: "#2e6fd8", purple: "#8e44ad", black: "#222222", grey: "#9a9a9a" };
const SEATS = ["#e67e22", "#16a085", "#c0392b", "#2c3e50", "#8e44ad"];

/** @param {string} colour */
export function cubeColor(colour) {
  return /** @type {any} */ (CUBE)[colour] ?? "#ccc";
}

// The advanced game's companies are named for their colours (advanced/data.py).
const COMPANY = { red: "#c0392b", blue: "#2e6fd8", green: "#2e8b47", yellow: "#e8b80c", purple: "#8e44ad", black: "#222222" };
const DARK_INK = new Set(["yellow"]);

/** @param {string} id */
export function companyColor(id) {
  return /** @type {any} */ (COMPANY)[id] ?? "#777";
}

/** Text colour on a company's colour. @param {string} id */
export function companyInk(id) {
  return DARK_INK.has(id) ? "#1d1d1f" : "#ffffff";
}

/**
 * Who owns a link: a seat (standard game) or a company id (advanced game).
 * @param {any} view @param {number | string | undefined} owner
 */
export function ownerName(view, owner) {
  if (typeof owner === "string") return (view.companies ?? []).find((/** @type {any} */ c) => c.id === owner)?.name ?? owner;
  return view.players?.[owner ?? -1]?.name ?? "?";
}

/** @param {number} seat */
export function seatColor(seat) {
  return SEATS[seat % SEATS.length];
}

/** @param {number} amount  dollars */
export function dollars(amount) {
  return `$${Number(amount).toLocaleString("en-US")}`;
}

// The baron cards as cards.json has them (a reconstructed deck: see the title's README):
// name, what it rewards, and what end.py counts for it (for the result screen).
const BARONS = {
  links: ["Baron of the Network", "most completed links", "completed links"],
  engine: ["Baron of Steam", "the highest engine", "engine level"],
  cities: ["Baron of the Towns", "most cities on your links", "cities on your links"],
  mountains: ["Baron of the Hills", "most mountain track tiles", "mountain tiles"],
  majors: ["Baron of the Main Lines", "most major lines", "major lines"],
  red: ["Red goods baron", "most red goods delivered", "red goods delivered"],
  yellow: ["Yellow goods baron", "most yellow goods delivered", "yellow goods delivered"],
  blue: ["Blue goods baron", "most blue goods delivered", "blue goods delivered"],
  purple: ["Purple goods baron", "most purple goods delivered", "purple goods delivered"],
  black: ["Black goods baron", "most black goods delivered", "black goods delivered"],
};

/** "Baron of Steam: 10 VP for the highest engine" @param {string} id */
export function baronText(id) {
  const b = /** @type {any} */ (BARONS)[id];
  return b ? `${b[0]}: 10 VP at the end for ${b[1]} (more than 0, not beaten; ties all score)` : id;
}

/** @param {string} id */
export function baronName(id) {
  return /** @type {any} */ (BARONS)[id]?.[0] ?? id;
}

/** What a baron counts, in words ("engine level"). @param {string} id */
export function baronMeasure(id) {
  return /** @type {any} */ (BARONS)[id]?.[2] ?? "count";
}

// What each operations card does when taken (cards.json kinds; README 'Operations cards').
const CARDS = {
  engine: "your engine goes up one level, free",
  city_growth: "two goods cubes from the bag go to a city you choose",
  tunnel_engineer: "keep it: one build of yours pays $2,000 for mountains",
  railway_inspector: "keep it: stop one delivery of another player's when it is announced",
  passenger_line: "won, not taken: 5 VP to the first to deliver 4 goods colours",
};

/** @param {string} kind */
export function cardText(kind) {
  return /** @type {any} */ (CARDS)[kind] ?? "";
}
