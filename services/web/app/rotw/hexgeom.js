// @ts-check
// The one hex geometry of the England & Wales page: the twin of
// shared/games/rotw_england_wales/hexgrid.py for the map's layout (pointy-top, odd rows shifted
// half a hex east, hex ids "col,row"). Edges are numbered as the engine numbers them, clockwise
// on screen: 0 east, 1 south-east, 2 south-west, 3 west, 4 north-west, 5 north-east. Everything
// the page draws or names about a hex's sides (track, barriers, route choice) comes from here.

export const R = 16; // circumradius
export const W = Math.sqrt(3) * R; // column pitch
export const APOTHEM = W / 2;
export const EDGE_ANGLE = [0, 60, 120, 180, -120, -60]; // degrees, SVG y down
export const EDGE_NAMES = ["east", "south-east", "south-west", "west", "north-west", "north-east"];
// (dcol, drow) per edge, for even (unshifted) and odd (shifted) rows: hexgrid.py's tables.
const OFFSETS = [
  [[1, 0], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1]],
  [[1, 0], [1, 1], [0, 1], [-1, 0], [0, -1], [1, -1]],
];

/** @param {string} id */
export function cell(id) {
  const [col, row] = id.split(",").map(Number);
  return { col, row };
}

/** The centre of (col,row) in the map's SVG units. @param {number} col @param {number} row */
export function xy(col, row) {
  return { x: W / 2 + col * W + (row & 1 ? W / 2 : 0) + 2, y: R + row * 1.5 * R + 2 };
}

/** @param {string} id */
export function centre(id) {
  const { col, row } = cell(id);
  return xy(col, row);
}

/** The hex id across `edge` of `id` (it may be off the map). @param {string} id @param {number} edge */
export function across(id, edge) {
  const { col, row } = cell(id);
  const [dc, dr] = OFFSETS[row & 1][edge];
  return `${col + dc},${row + dr}`;
}

/** The edge of a (col,row) that faces b, or -1. @param {number[]} a @param {number[]} b */
export function edgeToward(a, b) {
  return OFFSETS[a[1] & 1].findIndex(([dc, dr]) => a[0] + dc === b[0] && a[1] + dr === b[1]);
}

/** The midpoint of a hex's edge (k < 1: that share of the way out). @param {number} x @param {number} y @param {number} edge @param {number} [k] */
export function edgePoint(x, y, edge, k = 1) {
  const a = (Math.PI / 180) * EDGE_ANGLE[edge];
  return { x: x + APOTHEM * k * Math.cos(a), y: y + APOTHEM * k * Math.sin(a) };
}

/** The two corners of a hex's edge. @param {number} x @param {number} y @param {number} edge */
export function edgeCorners(x, y, edge) {
  const c1 = (Math.PI / 180) * (EDGE_ANGLE[edge] - 30);
  const c2 = (Math.PI / 180) * (EDGE_ANGLE[edge] + 30);
  return [{ x: x + R * Math.cos(c1), y: y + R * Math.sin(c1) }, { x: x + R * Math.cos(c2), y: y + R * Math.sin(c2) }];
}

/** The hexagon's corners as an SVG points list (k scales it about the centre). @param {number} x @param {number} y @param {number} [k] */
export function points(x, y, k = 1) {
  return Array.from({ length: 6 }, (_, i) => {
    const a = (Math.PI / 180) * (60 * i - 30);
    return `${(x + R * k * Math.cos(a)).toFixed(1)},${(y + R * k * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}

/** Hexes between two ids (odd-r offset to cube coordinates). @param {string} a @param {string} b */
export function distance(a, b) {
  const cube = (/** @type {string} */ id) => {
    const { col, row } = cell(id);
    const q = col - (row - (row & 1)) / 2;
    return [q, row, -q - row];
  };
  const [p, q] = [cube(a), cube(b)];
  return Math.max(Math.abs(p[0] - q[0]), Math.abs(p[1] - q[1]), Math.abs(p[2] - q[2]));
}
