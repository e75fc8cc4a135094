// @ts-check
// Every player's cash over the whole game, replayed from the game log in the view (so a
// reloaded page, or a spectator arriving at the end, draws the same chart).
//
// A player's cash changes only by buying a share (`share_sold`: pays `price`) and by
// dividends (`dividend`: `payouts` per seat); the starting cash is what is left once those
// are taken back from the cash the view shows now.
import { h, s } from "../dom.js";
import { PLAYER_COLOURS } from "./names.js";

/**
 * @typedef {{x: number, cash: number[]}} Point  cash of every seat after log entry x (0 = the start)
 * @typedef {{points: Point[], rounds: {x: number, round: number}[], length: number}} CashHistory
 */

/**
 * @param {any} view
 * @returns {CashHistory}
 */
export function cashHistory(view) {
  const n = view.players.length;
  /** @type {{x: number, delta: number[]}[]} */
  const changes = [];
  /** @type {{x: number, round: number}[]} */
  const rounds = [];
  view.log.forEach((/** @type {any} */ e, /** @type {number} */ i) => {
    const delta = new Array(n).fill(0);
    if (e.event === "share_sold") delta[e.seat] -= e.price;
    else if (e.event === "dividend") e.payouts.forEach((/** @type {number} */ p, /** @type {number} */ seat) => (delta[seat] += p));
    else if (e.event === "dividend_phase") rounds.push({ x: i + 1, round: e.round });
    if (delta.some((d) => d !== 0)) changes.push({ x: i + 1, delta });
  });
  const cash = view.players.map((/** @type {any} */ p) => p.cash);
  for (const { delta } of changes) delta.forEach((d, seat) => (cash[seat] -= d));
  const points = [{ x: 0, cash: [...cash] }];
  for (const { x, delta } of changes) {
    delta.forEach((d, seat) => (cash[seat] += d));
    points.push({ x, cash: [...cash] });
  }
  return { points, rounds, length: view.log.length };
}

/**
 * The chart as SVG: one step line per player, dividend phases as vertical rules.
 * @param {any} view
 * @param {number} width  the width it will be shown at, in CSS pixels (so its text stays readable)
 */
export function cashChart(view, width) {
  const { points, rounds, length } = cashHistory(view);
  const W = Math.round(Math.max(300, Math.min(900, width)));
  const H = W < 500 ? 220 : 280;
  const pad = { l: 40, r: 12, t: 12, b: 26 };
  const maxCash = Math.max(10, ...points.flatMap((p) => p.cash));
  const top = Math.ceil(maxCash / 10) * 10;
  const xs = (/** @type {number} */ x) => pad.l + (x / Math.max(1, length)) * (W - pad.l - pad.r);
  const ys = (/** @type {number} */ v) => H - pad.b - (v / top) * (H - pad.t - pad.b);
  const grid = [];
  for (let v = 0; v <= top; v += top / 5) {
    grid.push(s("line", { class: "grid", x1: pad.l, x2: W - pad.r, y1: ys(v), y2: ys(v) }));
    grid.push(s("text", { class: "axis", x: pad.l - 6, y: ys(v) + 4, "text-anchor": "end" }, `$${Math.round(v)}`));
  }
  for (const { x, round } of rounds) {
    grid.push(s("line", { class: "round-rule", x1: xs(x), x2: xs(x), y1: pad.t, y2: H - pad.b }));
    grid.push(s("text", { class: "axis", x: xs(x), y: H - 8, "text-anchor": "middle" }, `R${round}`));
  }
  const lines = view.players.map((/** @type {any} */ p, /** @type {number} */ seat) => {
    let d = `M${xs(0)},${ys(points[0].cash[seat])}`;
    for (const pt of points.slice(1)) d += ` H${xs(pt.x).toFixed(1)} V${ys(pt.cash[seat]).toFixed(1)}`;
    d += ` H${xs(length).toFixed(1)}`;
    return s("path", { class: "cash-line", d, stroke: PLAYER_COLOURS[seat % PLAYER_COLOURS.length], dataset: { seat } });
  });
  const svg = s(
    "svg",
    { class: "cash-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "Cash of every player over the game" },
    ...grid,
    ...lines,
  );
  const legend = h(
    "ul",
    { class: "legend" },
    view.players.map((/** @type {any} */ p, /** @type {number} */ seat) =>
      h("li", {}, h("span", { class: "swatch", style: { background: PLAYER_COLOURS[seat % PLAYER_COLOURS.length] } }), `${p.name} $${p.cash}`),
    ),
  );
  return h("figure", { class: "chart", dataset: { testid: "cash-chart", points: points.length } }, svg, legend,
    h("figcaption", {}, "Cash over the game (R = dividend phases)"));
}
