// @ts-check
// The map of an 18xx title from the engine's board view (core18xx/board/view.py): hexes placed from
// their doubled (x, y), each tile's track from edge midpoints to its stops (narrow gauge drawn
// apart: thin, dashed, brown), cities with their token slots, towns, revenues, labels, terrain
// costs, reserved homes. Every coordinate is absolute in the SVG (no transforms), so what is
// drawn can be checked against the board: see tests/web/test_18xx_geometry.py.
import { s } from "../dom.js";

export const SIZE = 40; // hex centre to corner
const ROOT3 = Math.sqrt(3);
// (dx, dy) in doubled coordinates across each edge, as core18xx/board/hexgrid.py numbers them.
export const OFFSETS = {
  flat: [[0, 2], [-1, 1], [-1, -1], [0, -2], [1, -1], [1, 1]],
  pointy: [[-1, 1], [-2, 0], [-1, -1], [1, -1], [2, 0], [1, 1]],
};
/** @type {Record<string, string>} */
const FILL = { white: "#f4efe0", yellow: "#f7dc4a", green: "#7cc57a", brown: "#c98b52", gray: "#b8b8b8", red: "#e0533c", blue: "#7fb9e6" };

/**
 * @param {string} layout
 * @param {number} x
 * @param {number} y
 * @returns {[number, number]}
 */
export function centre(layout, x, y) {
  return layout === "pointy" ? [x * ROOT3 / 2 * SIZE, y * 1.5 * SIZE] : [x * 1.5 * SIZE, y * ROOT3 / 2 * SIZE];
}

/**
 * Midpoint of a hex's edge: half-way to the neighbour's centre.
 * @param {string} layout
 * @param {number} x
 * @param {number} y
 * @param {number} edge
 * @returns {[number, number]}
 */
export function edgePoint(layout, x, y, edge) {
  const [dx, dy] = /** @type {any} */ (OFFSETS)[layout === "pointy" ? "pointy" : "flat"][edge];
  const [cx, cy] = centre(layout, x, y);
  const [nx, ny] = centre(layout, x + dx, y + dy);
  return [(cx + nx) / 2, (cy + ny) / 2];
}

/**
 * @param {string} layout
 * @param {number} x
 * @param {number} y
 */
function corners(layout, x, y) {
  const [cx, cy] = centre(layout, x, y);
  const start = layout === "pointy" ? 30 : 0;
  return Array.from({ length: 6 }, (_, i) => {
    const a = ((start + 60 * i) * Math.PI) / 180;
    return `${(cx + SIZE * Math.cos(a)).toFixed(1)},${(cy + SIZE * Math.sin(a)).toFixed(1)}`;
  }).join(" ");
}

/**
 * Where each stop of a hex is drawn: alone at the centre; several pulled toward their edges
 * (or spread round the centre when they have none).
 * @param {string} layout
 * @param {any} hex   {x, y, nodes: [{kind, edges?}]}
 * @param {any[]} nodes
 * @returns {([number, number] | null)[]}
 */
export function nodePoints(layout, hex, nodes) {
  const [cx, cy] = centre(layout, hex.x, hex.y);
  const stops = nodes.map((n, i) => (n.kind === "junction" ? -1 : i)).filter((i) => i >= 0);
  return nodes.map((n, i) => {
    if (n.kind === "junction") return [cx, cy];
    if (stops.length <= 1) return [cx, cy];
    const edges = /** @type {number[]} */ (n.edges ?? []);
    if (edges.length && edges.length < 4) {
      const pts = edges.map((e) => edgePoint(layout, hex.x, hex.y, e));
      const mx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
      const my = pts.reduce((a, p) => a + p[1], 0) / pts.length;
      return [cx + (mx - cx) * 0.5, cy + (my - cy) * 0.5];
    }
    const k = stops.indexOf(i);
    const a = (2 * Math.PI * k) / stops.length - Math.PI / 2;
    return [cx + Math.cos(a) * SIZE * 0.4, cy + Math.sin(a) * SIZE * 0.4];
  });
}

/** Token slot centres of a city drawn at (x, y) with `n` slots, left to right. */
export const SLOT_R = 9;
/**
 * @param {number} x
 * @param {number} y
 * @param {number} n
 * @returns {[number, number][]}
 */
export function slotPoints(x, y, n) {
  return Array.from({ length: Math.max(1, n) }, (_, j) => [x + (j - (Math.max(1, n) - 1) / 2) * SLOT_R * 2, y]);
}

/**
 * One track path as an SVG path: edge to edge (straight across, else curved through the
 * centre), edge to stop, stop to stop.
 * @param {string} layout
 * @param {any} hex
 * @param {any} path  {a, b, track}: ends 0..5 edges, "nK" node K
 * @param {([number, number] | null)[]} points
 */
function trackD(layout, hex, path, points) {
  /** @param {number | string} end @returns {[number, number]} */
  const at = (end) => (typeof end === "number" ? edgePoint(layout, hex.x, hex.y, end)
    : /** @type {[number, number]} */ (points[Number(String(end).slice(1))] ?? centre(layout, hex.x, hex.y)));
  const [x1, y1] = at(path.a);
  const [x2, y2] = at(path.b);
  const f = (/** @type {number} */ v) => v.toFixed(2);
  if (typeof path.a === "number" && typeof path.b === "number" && (path.a + 3) % 6 !== path.b) {
    const [cx, cy] = centre(layout, hex.x, hex.y);
    return `M ${f(x1)} ${f(y1)} Q ${f(cx)} ${f(cy)} ${f(x2)} ${f(y2)}`;
  }
  return `M ${f(x1)} ${f(y1)} L ${f(x2)} ${f(y2)}`;
}

/**
 * @typedef {object} MapStyle
 * @property {(corp: string) => {color: string, text: string}} colors
 * @property {string} currency   e.g. "£"
 */

/**
 * Draw one hex: terrain, track, stops, tokens, labels. `preview` (a tile's paths and nodes
 * at a rotation) replaces what is drawn while a lay is being chosen.
 * @param {SVGElement} layer
 * @param {string} layout
 * @param {any} hex
 * @param {MapStyle} style
 * @param {{paths: any[], nodes: any[], color: string, label: string | null} | null} preview
 */
export function drawHex(layer, layout, hex, style, preview = null) {
  const [cx, cy] = centre(layout, hex.x, hex.y);
  const color = preview ? preview.color : hex.color;
  const g = s("g", { class: `hex${preview ? " preview" : ""}`, dataset: { hex: hex.hex } });
  g.append(s("polygon", { points: corners(layout, hex.x, hex.y), fill: FILL[color] ?? "#ddd",
    stroke: preview ? "#000" : "#6b6b6b", "stroke-width": preview ? 3 : 1 }));
  const nodes = preview ? preview.nodes : hex.nodes;
  const paths = preview ? preview.paths : hex.paths;
  const points = nodePoints(layout, hex, nodes);
  for (const p of paths) {
    const narrow = p.track === "narrow";
    g.append(s("path", { class: `track ${p.track}`, d: trackD(layout, hex, p, points), fill: "none",
      stroke: narrow ? "#7a4a12" : "#1b1b1b", "stroke-width": narrow ? 4 : 7, "stroke-dasharray": narrow ? "7 3" : null,
      dataset: { hex: hex.hex, a: String(p.a), b: String(p.b), track: p.track } }));
  }
  nodes.forEach((/** @type {any} */ n, /** @type {number} */ i) => {
    const pt = points[i];
    if (!pt || n.kind === "junction") return;
    const [x, y] = pt;
    if (n.kind === "town") {
      g.append(s("circle", { class: "town", cx: x, cy: y, r: 5, fill: "#111", dataset: { hex: hex.hex, node: i } }));
    } else if (n.kind === "city") {
      const count = preview ? (n.slots || 1) : (n.slots?.length || 1);
      const spots = slotPoints(x, y, count);
      g.append(s("rect", { x: spots[0][0] - SLOT_R - 2, y: y - SLOT_R - 2, width: count * SLOT_R * 2 + 4, height: SLOT_R * 2 + 4,
        rx: SLOT_R + 2, fill: "#fff", stroke: "#111", "stroke-width": 1.5 }));
      spots.forEach(([sx, sy], j) => {
        const owner = preview ? null : n.slots?.[j] ?? null;
        const reserved = !owner && !preview ? (n.reserved ?? [])[j] ?? null : null;
        const c = owner ? style.colors(owner) : null;
        g.append(s("circle", { class: `slot${owner ? " token" : ""}`, cx: sx, cy: sy, r: SLOT_R,
          fill: c ? c.color : "#fff", stroke: reserved ? style.colors(reserved).color : "#999", "stroke-width": reserved ? 2.5 : 1,
          dataset: { hex: hex.hex, node: i, slot: j, ref: n.ref ?? "", ...(owner ? { corp: owner } : {}) } }));
        const name = owner ?? reserved;
        if (name) {
          const size = name.length >= 4 ? 5.2 : name.length === 3 ? 6.5 : 8;
          g.append(s("text", { x: sx, y: sy + size / 2.8, "text-anchor": "middle", "font-size": size, "font-weight": 700,
            fill: owner ? (c?.text ?? "#fff") : "#333", "pointer-events": "none" }, name.slice(0, 4)));
        }
      });
    }
    if (n.kind === "city" && hex.pass && !preview) {
      g.append(s("text", { class: "pass", x, y: y - SLOT_R - 4, "text-anchor": "middle", "font-size": 7, "font-weight": 700, fill: "#555" }, "pass"));
    }
    if (n.kind !== "junction" && (n.revenue ?? 0) > 0) {
      // Beside the stop, never over the hex's name above it.
      const count = n.kind === "city" ? Math.max(1, preview ? (n.slots || 1) : (n.slots?.length || 1)) : 0;
      const rx = n.kind === "city" ? x - count * SLOT_R - 9 : x + 10;
      const ry = n.kind === "city" ? y + SLOT_R : y - 8;
      g.append(s("circle", { cx: rx, cy: ry, r: 7, fill: "#fff", stroke: "#333", "stroke-width": 1 }));
      g.append(s("text", { class: "revenue", x: rx, y: ry + 3, "text-anchor": "middle", "font-size": 8, fill: "#111" }, String(n.revenue)));
    }
  });
  const label = preview ? preview.label : hex.label;
  if (label) g.append(s("text", { x: cx + SIZE * 0.45, y: cy + SIZE * 0.62, "font-size": 10, "font-weight": 700, fill: "#111" }, label));
  if (!preview && hex.cost > 0) {
    g.append(s("text", { class: "cost", x: cx - SIZE * 0.55, y: cy + SIZE * 0.62, "font-size": 9, fill: "#5b2d00" },
      `${(hex.terrain ?? []).some((/** @type {string} */ t) => t === "water" || t === "swamp" || t === "river") ? "≈" : "▲"}${style.currency}${hex.cost}`));
  }
  if (hex.name && !preview) {
    g.append(s("text", { class: "name", x: cx, y: cy - SIZE * 0.62, "text-anchor": "middle", "font-size": 7.5, fill: "#222" },
      hex.name.length > 16 ? `${hex.name.slice(0, 15)}…` : hex.name));
  }
  g.append(s("text", { x: cx - SIZE * 0.2, y: cy + SIZE * 0.82, "font-size": 6.5, fill: "#777" }, hex.hex));
  layer.append(g);
  return g;
}

/**
 * The two ends of a hex's edge: its midpoint, half a side either way along it.
 * @param {string} layout
 * @param {any} hex
 * @param {number} edge
 * @returns {[[number, number], [number, number]]}
 */
export function edgeEnds(layout, hex, edge) {
  const [cx, cy] = centre(layout, hex.x, hex.y);
  const [mx, my] = edgePoint(layout, hex.x, hex.y, edge);
  const [dx, dy] = [mx - cx, my - cy];
  const k = SIZE / 2 / Math.hypot(dx, dy);
  return [[mx - dy * k, my + dx * k], [mx + dy * k, my - dx * k]];
}

/**
 * Borders on top of the hexes: the map's impassable ones (dark) and the region borders standing
 * now (`board.closed`, red double line; 1841's move with the phases).
 * @param {SVGSVGElement} svg
 * @param {any} board
 */
function drawBorders(svg, board) {
  const layout = board.layout;
  const byHex = new Map(board.hexes.map((/** @type {any} */ hx) => [hx.hex, hx]));
  const g = s("g", { class: "borders", "pointer-events": "none" });
  const line = (/** @type {any} */ hex, /** @type {number} */ edge, /** @type {string} */ kind) => {
    const [[x1, y1], [x2, y2]] = edgeEnds(layout, hex, edge);
    const attrs = { x1: x1.toFixed(2), y1: y1.toFixed(2), x2: x2.toFixed(2), y2: y2.toFixed(2), dataset: { hex: hex.hex, edge } };
    if (kind === "region") g.append(s("line", { ...attrs, class: "border region", stroke: "#c0001a", "stroke-width": 4, "stroke-linecap": "round", "stroke-dasharray": "9 4" }));
    else g.append(s("line", { ...attrs, class: "border impassable", stroke: "#222", "stroke-width": 5, "stroke-linecap": "round" }));
  };
  for (const hex of board.hexes) for (const e of hex.borders ?? []) line(hex, e, "impassable");
  for (const [coord, e] of board.closed ?? []) {
    const hex = byHex.get(coord);
    if (hex) line(hex, Number(e), "region");
  }
  svg.append(g);
}

/**
 * The whole board into `svg`; returns the viewBox used.
 * @param {SVGSVGElement} svg
 * @param {any} board
 * @param {MapStyle} style
 * @param {Map<string, any>} previews   hex -> preview tile drawing
 */
export function drawBoard(svg, board, style, previews) {
  const layout = board.layout;
  while (svg.firstChild) svg.firstChild.remove();
  svg.dataset.hexSize = String(SIZE);
  svg.dataset.layout = layout;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const hex of board.hexes) {
    const [cx, cy] = centre(layout, hex.x, hex.y);
    minX = Math.min(minX, cx); minY = Math.min(minY, cy); maxX = Math.max(maxX, cx); maxY = Math.max(maxY, cy);
  }
  const pad = SIZE * 1.1;
  svg.setAttribute("viewBox", `${(minX - pad).toFixed(1)} ${(minY - pad).toFixed(1)} ${(maxX - minX + 2 * pad).toFixed(1)} ${(maxY - minY + 2 * pad).toFixed(1)}`);
  const layer = /** @type {SVGElement} */ (s("g", { class: "hexes" }));
  svg.append(layer);
  for (const hex of board.hexes) drawHex(layer, layout, hex, style, previews.get(hex.hex) ?? null);
  drawBorders(svg, board);
  return layer;
}
