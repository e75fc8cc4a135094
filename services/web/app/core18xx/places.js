// @ts-check
// Hexes as a player calls them: by the name the map prints, with the hex's coordinate beside it
// (printed small on every hex, so a player can find it on the map); a hex without a name by its
// coordinate, with where it lies from the nearest named place.
import { centre } from "./map.js";

const COMPASS = ["east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east"];

/**
 * A hex as a player calls it: "Firenze (Q11)"; without a name, its coordinate and where it lies
 * from the nearest named hex ("H10 (south-west of Dublin)", "H8 (2 hexes north of Cork)").
 * @param {any} board
 * @param {string} hex
 */
export function placeName(board, hex) {
  const hexes = board?.hexes ?? [];
  const at = hexes.find((/** @type {any} */ hx) => hx.hex === hex);
  if (!at) return "off the map";
  if (at.name) return `${at.name} (${hex})`;
  const layout = board.layout;
  // Hex steps between doubled coordinates (flat: columns differ by 1, rows by 2 within a column).
  const steps = (/** @type {any} */ o) => {
    const [dx, dy] = layout === "pointy" ? [Math.abs(o.y - at.y), Math.abs(o.x - at.x)] : [Math.abs(o.x - at.x), Math.abs(o.y - at.y)];
    return dx + Math.max(0, (dy - dx) / 2);
  };
  let best = null;
  for (const o of hexes) if (o.name && (!best || steps(o) < steps(best))) best = o;
  if (!best) return hex;
  const [ax, ay] = centre(layout, at.x, at.y);
  const [bx, by] = centre(layout, best.x, best.y);
  const side = COMPASS[((Math.round(Math.atan2(ay - by, ax - bx) / (Math.PI / 4)) % 8) + 8) % 8];
  const d = steps(best);
  return `${hex} (${d > 1 ? `${d} hexes ` : ""}${side} of ${best.name})`;
}

