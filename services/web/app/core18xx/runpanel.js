// @ts-check
// The run-trains decision: the engine's best run, editable by hand (routes.js), its revenue as
// the engine counts it (Engine.preview through ctx.on.preview), and a button that sends exactly
// the run previewed. An invalid run says which train and why, in place names.
import { button } from "../controls.js";
import { h } from "../dom.js";
import { bestPicks, boardIndex, buildRun, connect, crossed, stops, tapStop } from "./routes.js";

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../../sdk/roundhouse.js").LegalAction} LegalAction
 * @typedef {import("../../sdk/roundhouse.js").Preview} Preview
 * @typedef {import("./actions.js").Names} Names
 * @typedef {import("./routes.js").RunPicks} RunPicks
 */

export const ROUTE_COLOURS = ["#e6007e", "#00a0e0", "#ff8c00", "#7a3fbf"];

/** The previews asked for, by the seq and the run's JSON (a redraw never asks twice). @type {Map<string, {answer?: Preview, failed?: string}>} */
const previews = new Map();

/** @param {LegalAction[] | null} legal */
export function runFamily(legal) {
  return legal?.find((e) => e.action.type === "run_routes") ?? null;
}

/** @param {LegalAction} entry @returns {any[]} */
function bestOf(entry) {
  return /** @type {any[]} */ (entry.choices && "values" in entry.choices ? entry.choices.values[0] : entry.action.routes) ?? [];
}

/**
 * The company's trains, in the order its charter lists them.
 * @param {any} view
 * @param {LegalAction} entry
 * @returns {string[]}
 */
export function trainsOf(view, entry) {
  const corp = (view.companies ?? []).find((/** @type {any} */ c) => c.sym === entry.action.entity);
  const owned = /** @type {string[]} */ (corp?.trains ?? []);
  const best = bestOf(entry).map((r) => String(r.train));
  return [...owned, ...best.filter((t) => !owned.includes(t))];
}

/**
 * The run being edited: the player's picks, else the engine's best.
 * @param {LegalAction} entry
 * @param {any} picks
 * @returns {RunPicks}
 */
export function runPicks(entry, picks) {
  return picks.run ?? bestPicks(bestOf(entry));
}

/**
 * The run on show: its routes (for the map and the engine) and what is wrong with it here.
 * @param {any} view
 * @param {LegalAction} entry
 * @param {any} picks
 */
export function currentRun(view, entry, picks) {
  const ix = boardIndex(view.board);
  const trains = trainsOf(view, entry);
  const chosen = runPicks(entry, picks);
  return { ix, trains, picks: chosen, ...buildRun(ix, trains, chosen) };
}

/**
 * The stops the editing train's route may go on to (the nearest few by track from either
 * end, over track no other train of the run uses), or, for an empty route, the company's
 * stations.
 * @param {any} view
 * @param {ReturnType<typeof currentRun>} run
 * @param {string} train
 * @returns {string[]}
 */
function nextStops(view, run, train) {
  const nodes = run.picks.plans[train]?.nodes ?? [];
  const corp = view.position?.company;
  if (!nodes.length) {
    return (view.board?.hexes ?? []).flatMap((/** @type {any} */ hx) => hx.nodes
      .filter((/** @type {any} */ nd) => nd.id && (nd.slots ?? []).includes(corp)).map((/** @type {any} */ nd) => nd.id));
  }
  const used = new Set(run.routes.filter((r) => r.train !== train)
    .flatMap((r) => r.connections.flatMap((c) => crossed(run.ix, c))));
  const ends = [...new Set([nodes[nodes.length - 1], nodes[0]])];
  /** @type {[string, number][]} */
  const found = [];
  for (const stop of stops(view.board)) {
    if (nodes.includes(stop)) continue;
    const ways = ends.map((e) => connect(run.ix, e, stop, used)?.hexes.length ?? Infinity);
    const d = Math.min(...ways);
    if (d < Infinity) found.push([stop, d]);
  }
  return found.sort((a, b) => a[1] - b[1]).slice(0, 8).map(([stop]) => stop);
}

/**
 * A tap on a stop of the map while the run is being chosen.
 * @param {any} view
 * @param {PageContext} ctx
 * @param {string} stop
 */
export function tapRunStop(view, ctx, stop) {
  const entry = runFamily(ctx.legal);
  if (!entry) return;
  const run = currentRun(view, entry, ctx.ui.picks);
  ctx.on.update({ picks: { ...ctx.ui.picks, run: tapStop(run.ix, run.trains, run.picks, stop) } });
}

const SIDES = ["south", "south-west", "north-west", "north", "north-east", "south-east"];

/**
 * A stop as a player calls it: the place, and which of its stops when it has several ("Dublin,
 * the city to the north-east", "Armagh & Portadown town").
 * @param {import("./routes.js").BoardIndex} ix
 * @param {string} id
 * @param {Names} n
 */
export function stopWords(ix, id, n) {
  const at = ix.stopAt(id);
  if (!at) return "a stop not on the map";
  const place = n.hex(at.hex.hex);
  const node = at.hex.nodes[at.node];
  const stopsHere = at.hex.nodes.filter((/** @type {any} */ x) => x.kind !== "junction");
  if (stopsHere.length < 2) return place;
  const kind = node.kind === "offboard" ? "off-board" : node.kind;
  if (stopsHere.filter((/** @type {any} */ x) => x.kind === node.kind).length < 2) return `${place} ${kind}`;
  const sides = (node.edges ?? []).map((/** @type {number} */ e) => SIDES[e]);
  return `${place}, the ${kind} to the ${sides.join(" and ") || "middle"}`;
}

/**
 * Hex ids and stop ids in an engine message, as the map names them.
 * @param {string} message
 * @param {Names} n
 * @param {import("./routes.js").BoardIndex | null} [ix]  to name a stop of a hex with several
 */
export function inWords(message, n, ix = null) {
  return message.replace(/\b([A-Z]\d{1,2})(-\d+)?\b/g, (whole, hex, part) => (part && ix ? stopWords(ix, whole, n) : n.hex(hex)))
    .replace(/\b(\d+[A-Z]*|[A-Z])-\d+\b/g, "$1");
}

/**
 * The decision: trains to pick, each route in words with its revenue, the total as the engine
 * counts it, then Run (only for a run the engine accepts), Best run, Clear this train.
 * @param {any} view
 * @param {LegalAction} entry
 * @param {PageContext} ctx
 * @param {Names} n
 */
export function runControl(view, entry, ctx, n) {
  const run = currentRun(view, entry, ctx.ui.picks);
  const { trains, picks, routes, problems } = run;
  const editing = picks.train ?? trains[0] ?? null;
  const action = { ...entry.action, routes };
  // The same run at a later position (a phase on, a token placed since) may earn or break
  // differently: an answer holds for the seq it was asked at.
  const key = JSON.stringify([ctx.seq, action]);
  let got = previews.get(key);
  if (!got && !problems.length && routes.length) {
    got = {};
    if (previews.size >= 200) previews.delete(previews.keys().next().value ?? "");
    previews.set(key, got);
    const slot = got;
    ctx.on.preview(action).then((answer) => { slot.answer = answer; }, (error) => { slot.failed = String(error?.message ?? error); })
      .finally(() => { if (JSON.stringify(currentRun(view, entry, ctx.ui.picks).routes) === JSON.stringify(routes)) ctx.on.update({}); });
  }
  const answer = got?.answer;
  const stopName = (/** @type {string} */ id) => stopWords(run.ix, id, n);
  const byTrain = new Map((answer?.routes ?? []).map((/** @type {any} */ r) => [r.train, r]));
  const trainName = (/** @type {string} */ t) => `${t.replace(/-\d+$/, "")} train`;
  const items = trains.map((train, i) => {
    const plan = picks.plans[train];
    const stopsNow = plan?.nodes ?? [];
    const counted = byTrain.get(train);
    const failed = answer && answer.part !== null && answer.part !== undefined && routes[answer.part]?.train === train;
    const problem = problems.find((p) => p.train === train);
    let state;
    if (stopsNow.length === 0) state = "does not run";
    else if (stopsNow.length === 1) state = "one stop: tap another to make a route";
    else if (problem) state = `no free track from ${stopName(problem.from)} to ${stopName(problem.to)}`;
    else if (failed) state = `refused: ${inWords(answer?.error?.message ?? "", n, run.ix)}`;
    else if (counted) state = n.money(counted.revenue);
    else state = "checking…";
    return h("li", { class: `train${train === editing ? " editing" : ""}`, dataset: { train, testid: `route-${train}` } },
      button(`${train === editing ? "✎ " : ""}${trainName(train)}`, "pick-train", () => ctx.on.update({ picks: { ...ctx.ui.picks, run: { ...picks, train } } }),
        { primary: train === editing, testid: `train-${train}`, style: { borderLeft: `8px solid ${ROUTE_COLOURS[i % ROUTE_COLOURS.length]}` } }),
      " ", h("span", { class: "stops" }, stopsNow.length ? stopsNow.map(stopName).join(" – ") : ""),
      " · ", h("span", { class: "revenue", dataset: { testid: `revenue-${train}` } }, state));
  });
  // Sent with each route's revenue as the engine counted it (as 18xx.games sends a run): the
  // log then says what it earned, and apply checks the figures again.
  const sendable = answer?.legal ? { ...action, routes: routes.map((r) => ({ ...r, revenue: byTrain.get(r.train)?.revenue ?? 0 })) } : action;
  const edited = ctx.ui.picks.run !== undefined;
  const tap = (/** @type {string} */ stop) => tapRunStop(view, ctx, stop);
  const onRoute = editing ? picks.plans[editing]?.nodes ?? [] : [];
  const next = editing ? nextStops(view, run, editing) : [];
  let verdict;
  let ok = false;
  if (problems.length) verdict = "This run cannot be sent: a route has no free track between two of its stops.";
  else if (!routes.length) { verdict = "No train runs: the company earns nothing."; ok = true; }
  else if (got?.failed) verdict = `The revenue could not be checked: ${got.failed}`;
  else if (!answer) verdict = "Checking the revenue with the rules…";
  else if (answer.legal) { verdict = `Revenue ${n.money(answer.total)}, as the rules count it.`; ok = true; }
  else verdict = `Not a legal run: ${inWords(answer.error?.message ?? "refused", n, run.ix)}.`;
  return h("div", { class: "family routes", dataset: { type: "run_routes", testid: "routes" } },
    h("p", {}, edited ? "Your run, drawn on the map:" : "The best run the engine finds, drawn on the map:"),
    h("p", { class: "muted" }, editing ? `Editing the ${trainName(editing)}: tap a city, town or off-board on the map to add it to the route, tap one on the route to take it off.` : ""),
    h("ul", { class: "train-routes" }, items),
    // The same taps as on the map, as buttons: a finger's room on a phone, and the keyboard.
    onRoute.length ? h("div", { class: "choices stop-list", dataset: { testid: "stops-off" } }, h("span", {}, "Take off: "),
      onRoute.map((id) => button(stopName(id), "stop", () => tap(id), { testid: `stop-${id}` }))) : null,
    next.length ? h("div", { class: "choices stop-list", dataset: { testid: "stops-on" } }, h("span", {}, onRoute.length ? "Go on to: " : "Start at: "),
      next.map((id) => button(stopName(id), "stop", () => tap(id), { testid: `stop-${id}` }))) : null,
    h("p", { class: ok ? "verdict" : "verdict refusal", role: "status", dataset: { testid: "run-verdict", legal: String(ok) } }, verdict),
    h("div", { class: "choices" },
      button(routes.length ? `Run for ${answer?.legal ? n.money(answer.total) : "…"}` : "Run no trains", "run_routes", () => ctx.on.act(sendable),
        { primary: true, disabled: ctx.ui.pending || !ok }),
      button("Best run", "best-run", () => ctx.on.update({ picks: { ...ctx.ui.picks, run: undefined } }), { disabled: !edited }),
      editing ? button(`Clear the ${trainName(editing)}`, "clear-train", () => ctx.on.update({ picks: { ...ctx.ui.picks,
        run: { ...picks, train: editing, plans: { ...picks.plans, [editing]: { nodes: [], connections: [] } } } } }), { disabled: !(picks.plans[editing]?.nodes ?? []).length }) : null));
}
