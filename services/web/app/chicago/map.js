// @ts-check
// The Chicago Express map as SVG, drawn from the view's hexes: an odd-q offset grid of
// flat-top hexes, columns A..S west to east, rows from 0 north to south, odd columns
// shifted half a hex down (the layout board.json describes).
import { h, s } from "../dom.js";
import { capitalised, companyColor, companyShort, ink } from "./names.js";

const R = 30; // circumradius in SVG units
const W = R * 1.5; // column pitch
const HH = (Math.sqrt(3) / 2) * R; // half the hex height

const TERRAIN_FILL = {
  plain: "#efe4c4",
  forest: "#9cc58a",
  mountain: "#c4a98a",
  city: "#f7f3ea",
  industrial: "#b9bec6",
};

/**
 * Grid position of a hex id such as "R3" or "I10".
 * @param {string} id
 */
export function cell(id) {
  return { col: id.charCodeAt(0) - 65, row: Number(id.slice(1)) };
}

/** @param {string} id */
export function centre(id) {
  const { col, row } = cell(id);
  return { x: R + col * W, y: HH + row * 2 * HH + (col % 2 ? HH : 0) };
}

const CORNERS = Array.from({ length: 6 }, (_, i) => {
  const a = (Math.PI / 3) * i;
  return [R * Math.cos(a), R * Math.sin(a)];
});

/** @param {number} x @param {number} y @param {number} [scale] */
export function hexPoints(x, y, scale = 1) {
  return CORNERS.map(([dx, dy]) => `${(x + dx * scale).toFixed(1)},${(y + dy * scale).toFixed(1)}`).join(" ");
}

/**
 * @typedef {import("../pageapi.js").Target} Target  a hex a click acts on
 * @typedef {{targets: Map<string, Target>, placed: Set<string>, onPick: (hex: string) => void}} MapInteraction
 */

/**
 * Draw the map into `svg` (replacing its content). The hexes come first; above them, in
 * layers that take no clicks, the locomotives (a chip per company, with its name), the city
 * names (never clipped by a neighbouring hex) and the outlines of the hexes to click (whole,
 * not half hidden under their neighbours).
 * @param {SVGSVGElement} svg
 * @param {any} view
 * @param {MapInteraction} interaction
 */
export function drawMap(svg, view, interaction) {
  const ids = view.hexes.map((/** @type {any} */ h) => cell(h.id));
  const cols = Math.max(...ids.map((/** @type {{col: number}} */ c) => c.col)) + 1;
  const rows = Math.max(...ids.map((/** @type {{row: number}} */ c) => c.row)) + 1;
  const width = R * 2 + (cols - 1) * W;
  const height = (rows + 0.5) * 2 * HH;
  svg.setAttribute("viewBox", `0 0 ${width.toFixed(0)} ${height.toFixed(0)}`);
  svg.setAttribute("role", "group");
  svg.setAttribute("aria-label", "Map");
  const startOf = new Map(view.companies.map((/** @type {any} */ c) => [c.start_hex, c]));
  const hexes = view.hexes.map((/** @type {any} */ hex) => drawHex(hex, startOf.get(hex.id), view, interaction));
  const locos = s("g", { class: "layer locos", "aria-hidden": "true" });
  const names = s("g", { class: "layer names", "aria-hidden": "true" });
  const outlines = s("g", { class: "layer outlines", "aria-hidden": "true" });
  for (const hex of view.hexes) {
    const { x, y } = centre(hex.id);
    locos.append(...locomotives(hex, x, y, view));
    const name = hex.chicago ? "Chicago" : hex.name;
    if (name) names.append(s("text", { class: "city-name", x, y: y - HH * 0.6 }, name));
    const target = interaction.targets.get(hex.id);
    if (target) outlines.append(s("polygon", { class: `outline target-outline ${target.kind ?? ""}`, points: hexPoints(x, y, 0.97) }));
    else if (interaction.placed.has(hex.id)) outlines.append(s("polygon", { class: "outline placed-outline", points: hexPoints(x, y, 0.95) }));
  }
  // Into its own group: other layers (the latest move's ring) stay on top across redraws.
  let board = svg.querySelector("g.board");
  if (!board) {
    board = s("g", { class: "board" });
    svg.prepend(board);
  }
  board.replaceChildren(...hexes, locos, names, outlines);
}

/**
 * @param {any} hex
 * @param {any} startCompany  the company starting here, if any
 * @param {any} view
 * @param {MapInteraction} interaction
 */
function drawHex(hex, startCompany, view, interaction) {
  const { x, y } = centre(hex.id);
  const target = interaction.targets.get(hex.id);
  const placed = interaction.placed.has(hex.id);
  const classes = ["hex", `t-${hex.terrain}`, target ? "target" : "", placed ? "placed" : ""].filter(Boolean).join(" ");
  const label = describeHex(hex, view);
  const g = s("g", {
    class: classes,
    dataset: { hex: hex.id },
    role: target ? "button" : "img",
    tabindex: target ? 0 : undefined,
    "aria-label": target ? `${target.label}. ${label}` : label,
  });
  g.append(
    s("title", {}, target ? `${target.label}\n${label}` : label),
    s("polygon", { class: "cell", points: hexPoints(x, y), fill: /** @type {any} */ (TERRAIN_FILL)[hex.terrain] ?? "#eee" }),
  );
  if (startCompany) {
    g.append(s("polygon", { class: "start-ring", points: hexPoints(x, y, 0.88), stroke: companyColor(startCompany.id), fill: "none" }));
  }
  g.append(...terrainMark(hex, x, y, view));
  g.append(s("text", { class: "cost", x: x - R * 0.68, y: y - 1 }, `$${hex.cost}`));
  if (hex.house_value && hex.terrain !== "industrial") {
    g.append(s("text", { class: "house-value", x: x + R * 0.68, y: y - 1 }, `+${hex.house_value}`));
  }
  if (hex.house) g.append(house(x + R * 0.62, y + 7));
  if (target) {
    g.addEventListener("click", () => interaction.onPick(hex.id));
    g.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        interaction.onPick(hex.id);
      }
    });
  }
  return g;
}

/** What the map's marks mean, under the map. */
export function mapLegend() {
  return h("p", { class: "map-legend", dataset: { testid: "map-legend" } },
    h("b", {}, "$2"), " build cost per locomotive (× the locomotives on the hex) · ",
    h("b", {}, "+1"), " income a house adds · ",
    h("b", {}, "number in the circle"), " income for arriving · ",
    "coloured ring: a company's start · chips: the companies with a locomotive there · ",
    h("b", {}, "orange outline"), ": you can click it");
}

/**
 * The glyph for the hex's terrain, with its income (and name for cities).
 * @param {any} hex
 * @param {number} x
 * @param {number} y
 * @param {any} view
 * @returns {SVGElement[]}
 */
function terrainMark(hex, x, y, view) {
  const out = [];
  if (hex.chicago) {
    out.push(s("circle", { class: "chicago", cx: x, cy: y - 2, r: R * 0.36 }));
    out.push(s("text", { class: "income chicago-income", x, y: y + 2 }, String(hex.income)));
  } else if (hex.terrain === "city") {
    out.push(s("circle", { class: "city-dot", cx: x, cy: y - 2, r: R * 0.3 }));
    out.push(s("text", { class: "income", x, y: y + 2 }, String(hex.income)));
  } else if (hex.terrain === "industrial") {
    const track = view.industry.find((/** @type {any} */ i) => i.hex === hex.id);
    out.push(s("rect", { class: "industry", x: x - 11, y: y - 10, width: 22, height: 18, rx: 3 }));
    out.push(s("text", { class: "income", x, y: y + 1 }, String(track ? track.value : hex.income)));
  } else if (hex.terrain === "mountain") {
    out.push(s("path", { class: "mountain", d: `M${x - 12},${y + 6} L${x},${y - 12} L${x + 12},${y + 6} Z` }));
    out.push(s("text", { class: "income small", x, y: y + 3 }, String(hex.income)));
  } else if (hex.terrain === "forest") {
    out.push(s("path", { class: "tree", d: `M${x},${y - 13} L${x + 9},${y + 3} L${x - 9},${y + 3} Z` }));
    out.push(s("rect", { class: "trunk", x: x - 2, y: y + 3, width: 4, height: 5 }));
  }
  return out;
}

/** @param {number} x @param {number} y */
function house(x, y) {
  return s("path", { class: "house", d: `M${x - 5},${y} L${x},${y - 5} L${x + 5},${y} L${x + 5},${y + 5} L${x - 5},${y + 5} Z` });
}

/**
 * One chip per company with a locomotive here, named, in rows of three along the hex's
 * lower half.
 * @param {any} hex
 * @param {number} x
 * @param {number} y
 * @param {any} view
 */
function locomotives(hex, x, y, view) {
  const n = hex.locomotives.length;
  return hex.locomotives.map((/** @type {string} */ company, /** @type {number} */ i) => {
    const row = Math.floor(i / 3);
    const inRow = Math.min(3, n - row * 3);
    const cx = x + ((i % 3) - (inRow - 1) / 2) * 19;
    const cy = y + HH * 0.5 + row * 11;
    return s("g", { class: "loco", dataset: { company, hex: hex.id } },
      s("rect", { x: cx - 9, y: cy - 5, width: 18, height: 10, rx: 2, fill: companyColor(company), stroke: ink(company) }),
      s("text", { x: cx, y: cy + 0.5, fill: ink(company) }, companyShort(view, company)));
  });
}

/**
 * What a hex is, in words (tooltip and screen readers).
 * @param {any} hex
 * @param {any} view
 */
export function describeHex(hex, view) {
  const parts = [hex.name ? `${hex.name}: ${hex.terrain}` : capitalised(hex.label ?? hex.id)];
  parts.push(`build $${hex.cost}${hex.next_build_cost !== hex.cost ? ` (next $${hex.next_build_cost})` : ""}`);
  if (hex.terrain === "industrial") {
    const track = view.industry.find((/** @type {any} */ i) => i.hex === hex.id);
    if (track) parts.push(`income ${track.value}`);
  } else if (hex.income) {
    parts.push(`income ${hex.income}`);
  }
  if (hex.house_value) parts.push(`house +${hex.house_value}`);
  if (hex.house) parts.push("developed");
  if (hex.locomotives.length) parts.push(`locomotives: ${hex.locomotives.join(", ")}`);
  if (hex.start_of) parts.push(`start of ${hex.start_of}`);
  return parts.join("; ");
}
