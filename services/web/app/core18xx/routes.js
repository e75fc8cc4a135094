// @ts-check
// Routes edited by hand. The run starts as the engine's best (its exact search); per train the
// player taps stops on the map to add them to the route's end (or start) and taps a stop on the
// route to take it off. The track between two stops is the shortest the board's view allows on
// the running gauge, through no other stop and over no track another train of the run uses;
// the revenue is never counted here: the engine's preview (POST .../preview) counts it and
// names the first route it refuses, and only then can the run be sent.
import { edgePoint, nodePoints, OFFSETS } from "./map.js";

/**
 * @typedef {{nodes: string[], connections: string[][] | null}} Plan   a train's stops in route order; the
 *   hexes between consecutive stops (null: to be found from the board)
 * @typedef {{train: string | null, plans: Record<string, Plan>}} RunPicks
 * @typedef {{train: string, connections: string[][], nodes: string[]}} RouteSpec
 */

/**
 * The board's hexes by id and by doubled (x, y).
 * @param {any} board
 */
export function boardIndex(board) {
  /** @type {Map<string, any>} */
  const byId = new Map();
  /** @type {Map<string, any>} */
  const byXY = new Map();
  for (const hx of board?.hexes ?? []) {
    byId.set(hx.hex, hx);
    byXY.set(`${hx.x},${hx.y}`, hx);
  }
  const layout = board?.layout === "pointy" ? "pointy" : "flat";
  /** @param {any} hx @param {number} edge */
  const across = (hx, edge) => {
    const [dx, dy] = /** @type {any} */ (OFFSETS)[layout][edge];
    return byXY.get(`${hx.x + dx},${hx.y + dy}`) ?? null;
  };
  /** @param {string} stop "H8-0" */
  const stopAt = (stop) => {
    const hx = byId.get(stop.replace(/-[^-]*$/, ""));
    const k = hx ? hx.nodes.findIndex((/** @type {any} */ n) => n.id === stop) : -1;
    return hx && k >= 0 ? { hex: hx, node: k } : null;
  };
  return { byId, byXY, layout, across, stopAt };
}

/** @typedef {ReturnType<typeof boardIndex>} BoardIndex */

const runs = (/** @type {any} */ p) => p.track !== "narrow";  // the broad gauge runs on broad and dual track
const end = (/** @type {number | string} */ e) => (typeof e === "number" ? e : Number(String(e).slice(1)) + 100);

/**
 * The shortest free track from stop `a` to stop `b`: the hexes it passes, in order, and the
 * hex edges it uses ("H8:3"), or null when none is free.
 * @param {BoardIndex} ix
 * @param {string} a
 * @param {string} b
 * @param {Set<string>} used
 * @returns {{hexes: string[], edges: string[]} | null}
 */
export function connect(ix, a, b, used) {
  const from = ix.stopAt(a);
  const to = ix.stopAt(b);
  if (!from || !to || a === b) return null;
  /** @typedef {{hex: any, at: number, hexes: string[], edges: string[]}} Step  `at`: the end the train is on (edge, or 100 + node) */
  /** @type {Step[]} */
  let frontier = [{ hex: from.hex, at: 100 + from.node, hexes: [from.hex.hex], edges: [] }];
  const seen = new Set([`${from.hex.hex}:${100 + from.node}`]);
  while (frontier.length) {
    /** @type {Step[]} */
    const next = [];
    for (const step of frontier) {
      // Within the hex: every path from where the train is, through junctions.
      /** @type {{at: number, edges: string[]}[]} */
      const inside = [{ at: step.at, edges: step.edges }];
      const reached = new Set([step.at]);
      while (inside.length) {
        const here = /** @type {{at: number, edges: string[]}} */ (inside.pop());
        for (const p of step.hex.paths) {
          if (!runs(p)) continue;
          const [x, y] = [end(p.a), end(p.b)];
          if (x !== here.at && y !== here.at) continue;
          const other = x === here.at ? y : x;
          if (reached.has(other)) continue;
          const edges = [...here.edges, ...[x, y].filter((e) => e < 100).map((e) => `${step.hex.hex}:${e}`)];
          if (edges.some((e) => used.has(e))) continue;
          if (other >= 100) {
            const node = step.hex.nodes[other - 100];
            if (step.hex.hex === to.hex.hex && other - 100 === to.node) return { hexes: step.hexes, edges };
            if (node?.kind === "junction") {
              reached.add(other);
              inside.push({ at: other, edges });
            }
            continue;  // another stop: a connection ends at the next stop
          }
          reached.add(other);
          const nb = ix.across(step.hex, other);
          if (!nb || (step.hex.borders ?? []).includes(other)) continue;
          const entry = (other + 3) % 6;
          const key = `${nb.hex}:${entry}`;
          if (seen.has(key) || used.has(`${nb.hex}:${entry}`)) continue;
          seen.add(key);
          next.push({ hex: nb, at: entry, hexes: [...step.hexes, nb.hex], edges: [...edges, `${nb.hex}:${entry}`] });
        }
      }
    }
    frontier = next;
  }
  return null;
}

/**
 * The edges a connection given as hexes crosses ("H8:3" on both sides), for keeping another
 * train off them.
 * @param {BoardIndex} ix
 * @param {string[]} hexes
 */
export function crossed(ix, hexes) {
  const out = [];
  for (let k = 0; k + 1 < hexes.length; k++) {
    const hx = ix.byId.get(hexes[k]);
    const e = hx ? edgeTo(ix, hx, hexes[k + 1]) : -1;
    if (e >= 0) out.push(`${hexes[k]}:${e}`, `${hexes[k + 1]}:${(e + 3) % 6}`);
  }
  return out;
}

/**
 * The edge of `hx` that faces hex `other`, or -1.
 * @param {BoardIndex} ix
 * @param {any} hx
 * @param {string} other
 */
function edgeTo(ix, hx, other) {
  for (let e = 0; e < 6; e++) if (ix.across(hx, e)?.hex === other) return e;
  return -1;
}

/**
 * The run as the engine's best gave it.
 * @param {any[]} best   run_routes routes: {train, nodes, connections}
 * @returns {RunPicks}
 */
export function bestPicks(best) {
  /** @type {Record<string, Plan>} */
  const plans = {};
  for (const r of best) plans[r.train] = { nodes: [...(r.nodes ?? [])], connections: (r.connections ?? []).map((/** @type {string[]} */ c) => [...c]) };
  return { train: best[0]?.train ?? null, plans };
}

/**
 * The run's routes for the engine, the track between stops found where the plan lacks it;
 * `problems` names each train whose stops have no free track between them (in words later).
 * @param {BoardIndex} ix
 * @param {string[]} trains   the company's trains, in order
 * @param {RunPicks} picks
 */
export function buildRun(ix, trains, picks) {
  /** @type {RouteSpec[]} */
  const routes = [];
  /** @type {{train: string, from: string, to: string}[]} */
  const problems = [];
  const used = new Set();
  // Trains whose track is fixed (the engine's) first, so a train being edited goes round them.
  const order = [...trains].sort((x, y) => Number(!picks.plans[x]?.connections) - Number(!picks.plans[y]?.connections));
  for (const train of order) {
    const plan = picks.plans[train];
    if (!plan || plan.nodes.length < 2) continue;
    let connections = plan.connections;
    if (connections) {
      for (const c of connections) for (const e of crossed(ix, c)) used.add(e);
    } else {
      connections = [];
      for (let k = 0; k + 1 < plan.nodes.length; k++) {
        const found = connect(ix, plan.nodes[k], plan.nodes[k + 1], used);
        if (!found) {
          problems.push({ train, from: plan.nodes[k], to: plan.nodes[k + 1] });
          connections = null;
          break;
        }
        for (const e of found.edges) used.add(e);
        connections.push(found.hexes);
      }
    }
    if (connections) routes.push({ train, connections, nodes: [...plan.nodes] });
  }
  routes.sort((x, y) => trains.indexOf(x.train) - trains.indexOf(y.train));
  return { routes, problems };
}

/**
 * A tap on stop `stop` while editing `picks.train`: take it off the route when on it; else add
 * it at the end the track reaches (the end first), or at the end when neither does (the check
 * then says so).
 * @param {BoardIndex} ix
 * @param {string[]} trains
 * @param {RunPicks} picks
 * @param {string} stop
 * @returns {RunPicks}
 */
export function tapStop(ix, trains, picks, stop) {
  const train = picks.train ?? trains[0];
  if (!train) return picks;
  const nodes = [...(picks.plans[train]?.nodes ?? [])];
  const i = nodes.indexOf(stop);
  if (i >= 0) {
    nodes.splice(i, 1);
  } else if (nodes.length) {
    const others = { ...picks, plans: { ...picks.plans, [train]: { nodes: [], connections: [] } } };
    const used = new Set(buildRun(ix, trains, others).routes.flatMap((r) => r.connections.flatMap((c) => crossed(ix, c))));
    const atEnd = connect(ix, nodes[nodes.length - 1], stop, used);
    const atStart = !atEnd && connect(ix, stop, nodes[0], used);
    if (atStart) nodes.unshift(stop);
    else nodes.push(stop);
  } else {
    nodes.push(stop);
  }
  return { train, plans: { ...picks.plans, [train]: { nodes, connections: null } } };
}

/**
 * The points a route is drawn through: each stop where the map draws it, and between stops
 * the midpoint of every hex edge the track crosses (so the line lies on the track's hexes).
 * @param {BoardIndex} ix
 * @param {RouteSpec} route
 * @returns {[number, number][]}
 */
export function routePoints(ix, route) {
  /** @type {[number, number][]} */
  const pts = [];
  /** @param {string} stop */
  const stopPoint = (stop) => {
    const at = ix.stopAt(stop);
    return at ? /** @type {[number, number] | null} */ (nodePoints(ix.layout, at.hex, at.hex.nodes)[at.node]) : null;
  };
  route.nodes.forEach((stop, k) => {
    const p = stopPoint(stop);
    if (p) pts.push(p);
    const next = route.nodes[k + 1];
    if (!next) return;
    let hexes = route.connections[k] ?? [];
    // A connection may be listed from either end.
    if (hexes.length && hexes[0] !== stop.replace(/-[^-]*$/, "")) hexes = [...hexes].reverse();
    for (let j = 0; j + 1 < hexes.length; j++) {
      const hx = ix.byId.get(hexes[j]);
      const e = hx ? edgeTo(ix, hx, hexes[j + 1]) : -1;
      if (e >= 0) pts.push(edgePoint(ix.layout, hx.x, hx.y, e));
    }
  });
  return pts;
}

/**
 * Every stop a route may use: cities, towns and off-boards with track to them.
 * @param {any} board
 * @returns {string[]}
 */
export function stops(board) {
  const out = [];
  for (const hx of board?.hexes ?? []) {
    for (const n of hx.nodes) if (n.kind !== "junction" && n.id && (n.edges ?? []).length) out.push(n.id);
  }
  return out;
}
