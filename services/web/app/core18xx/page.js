// @ts-check
// The table page of every 18xx title (see pageapi.js for the interface). What differs between
// titles is data (titles.js: names, colours, trains, money, the rules summary); the board, the
// money panels and the decisions are drawn from the engine's views and legal families.
import { mapBox } from "../mapbox.js";
import { fill, h, s } from "../dom.js";
import { cityByRef, decision, describe, layFamily, layPick, rotated, targets, tileName } from "./actions.js";
import { centre, drawBoard, slotPoints, SLOT_R, nodePoints } from "./map.js";
import { companiesPanel, marketPanel, playersPanel, roster, trainsPanel } from "./panels.js";
import { titleData } from "./titles.js";
import { placeName } from "./places.js";
import { mapKey } from "./mapkey.js";
import { currentRun, ROUTE_COLOURS, runFamily, tapRunStop } from "./runpanel.js";
import { boardIndex, routePoints } from "./routes.js";
import { auctionLines, eventLines, foundingLine, loneBid, loneBidLine } from "./questions.js";

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../pageapi.js").Slots} Slots
 * @typedef {import("./actions.js").Names} Names
 */

/** @type {{box: ReturnType<typeof mapBox>, key: ReturnType<typeof mapKey>} | null} */
let map = null;
let titleId = "";

const data = () => titleData(titleId);

/**
 * Names for people: companies by symbol and name, hexes by town name and coordinate.
 * @param {any} view
 * @returns {Names}
 */
function names(view) {
  const d = data();
  return {
    company: (sym) => sym ?? "?",
    hex: (hex) => placeName(view?.board, hex),
    player: (id) => view?.players?.find((/** @type {any} */ p) => p.id === id)?.name ?? `player ${id}`,
    money: (amount) => d.money(amount),
    fullName: (sym) => d.entities.privates[sym]?.name ?? d.entities.corporations[sym]?.name ?? "",
  };
}

/**
 * @param {any} view
 * @param {PageContext} ctx
 * @param {Slots} slots
 */
export function render(view, ctx, slots) {
  titleId = ctx.meta.id;
  const d = data();
  const n = names(view);
  if (!map || !slots.main.contains(map.box.element)) {
    const key = mapKey();
    map = { box: mapBox(key.below, { tools: [key.toggle], above: key.panel }), key };
    map.box.element.classList.add("m18xx");
    fill(slots.main, map.box.element);
  }
  map.key.update(d.currency, view.board);
  /** @type {Map<string, any>} */
  const previews = new Map();
  const lay = ctx.legal ? layFamily(ctx.legal) : null;
  const pick = lay ? layPick(lay, ctx.ui.picks) : null;
  if (pick?.hex && pick.tile && pick.rotation !== null) {
    const def = view.tile_defs?.[tileName(pick.tile)];
    if (def) previews.set(pick.hex, rotated(def, pick.rotation));
  }
  const svg = map.box.svg;
  const first = !svg.firstChild;
  drawBoard(svg, view.board, { colors: (sym) => ({ color: d.entities.corporations[sym]?.color ?? "#777", text: d.entities.corporations[sym]?.text ?? "#fff" }), currency: d.currency }, previews);
  drawRoutes(svg, view, ctx);
  markTargets(svg, view, ctx);
  if (first) {
    // Zoomed in on a phone: start on the middle of the island, not its north-west corner.
    const scroller = /** @type {HTMLElement | null} */ (svg.closest("[data-scroll]"));
    // Unless the table page has brought a tap target into view meanwhile.
    if (scroller) requestAnimationFrame(() => {
      if (svg.querySelector(".target")) return;
      scroller.scrollLeft = (scroller.scrollWidth - scroller.clientWidth) / 2;
      scroller.scrollTop = (scroller.scrollHeight - scroller.clientHeight) / 3;
    });
  }
  fill(slots.side,
    position(view, n),
    playersPanel(view, n, d.entities, ctx.mySeat, d.privatesTitle.replace(/^Private companies$/, "privates")),
    companiesPanel(view, n, d.entities),
    marketPanel(view, d.entities, n),
    trainsPanel(view, d.entities, n),
    privatesPanel(view));
}

/**
 * Ring the hexes and slots a tap acts on, and make them buttons.
 * @param {SVGSVGElement} svg
 * @param {any} view
 * @param {PageContext} ctx
 */
function markTargets(svg, view, ctx) {
  const layout = view.board.layout;
  const top = s("g", { class: "targets" });
  /** @type {{key: string, target: import("../pageapi.js").Target, x: number, y: number}[]} */
  const slots = [];
  const entry = runFamily(ctx.legal);
  const editing = entry ? currentRun(view, entry, ctx.ui.picks) : null;
  const train = editing ? editing.picks.train ?? editing.trains[0] : null;
  const runStops = new Set(editing && train ? editing.picks.plans[train]?.nodes ?? [] : []);
  const ix = editing ? editing.ix : boardIndex(view.board);
  /** @type {{key: string, at: {hex: any, node: number}, x: number, y: number}[]} */
  const stopRings = [];
  for (const [key, target] of ctx.targets) {
    if (target.kind === "lay") {
      const hex = view.board.hexes.find((/** @type {any} */ hx) => hx.hex === key);
      if (!hex) continue;
      const [cx, cy] = centre(layout, hex.x, hex.y);
      const picked = ctx.ui.picks.lay?.hex === key;
      const ring = s("circle", { class: `target${picked ? " picked" : ""}`, cx, cy, r: 30, fill: "rgba(255,255,255,0.01)",
        stroke: picked ? "#d00" : "#0057d9", "stroke-width": 3, "stroke-dasharray": picked ? "2 3" : "6 4",
        tabindex: 0, role: "button", "aria-label": `Lay a tile on ${names(view).hex(key)}`, dataset: { target: key, testid: `target-${key}` } });
      const go = () => ctx.on.update({ picks: { ...ctx.ui.picks, lay: { hex: key, tile: null, turn: 0 } } });
      ring.addEventListener("click", go);
      ring.addEventListener("keydown", (e) => { if (/** @type {KeyboardEvent} */ (e).key === "Enter") go(); });
      // A picked hex keeps its ring but lets taps reach the preview's own drawing.
      if (picked) ring.setAttribute("fill", "none");
      top.append(ring);
    } else if (target.kind === "stop") {
      const at = ix.stopAt(key);
      const pt = at ? nodePoints(layout, at.hex, at.hex.nodes)[at.node] : null;
      if (!at || !pt) continue;
      stopRings.push({ key, at, x: pt[0], y: pt[1] });
    } else if (target.kind === "token") {

      const at = cityByRef(view, String(target.action.city));
      if (!at) continue;
      const pt = nodePoints(layout, at.hex, at.hex.nodes)[at.node];
      if (!pt) continue;
      const count = at.hex.nodes[at.node].slots?.length || 1;
      // the slot the target stands for (a title whose token names only the city: its first free one)
      const [x, y] = slotPoints(pt[0], pt[1], count)[Number(key.split("#").pop())] ?? pt;
      slots.push({ key, target, x, y });
    }
  }
  // A stop's ring as large as the stops beside it allow (two stops share a hex), never overlapping.
  for (const stop of stopRings) {
    const gap = Math.min(Infinity, ...stopRings.filter((o) => o !== stop).map((o) => Math.hypot(o.x - stop.x, o.y - stop.y)));
    const onRun = runStops.has(stop.key);
    const ring = s("circle", { class: `target stop${onRun ? " on-run" : ""}`, cx: stop.x, cy: stop.y, r: Math.max(7, Math.min(13, gap / 2 - 0.5)),
      fill: "rgba(255,255,255,0.01)", stroke: onRun ? "#d00" : "#0057d9", "stroke-width": 2.5, "stroke-dasharray": onRun ? null : "4 3",
      tabindex: 0, role: "button", "aria-label": `${onRun ? "Take off the route" : "Add to the route"}: ${names(view).hex(stop.at.hex.hex)}`,
      dataset: { target: stop.key, testid: `target-${stop.key}` } });
    const go = () => tapRunStop(view, ctx, stop.key);
    ring.addEventListener("click", go);
    ring.addEventListener("keydown", (e) => { if (/** @type {KeyboardEvent} */ (e).key === "Enter") go(); });
    top.append(ring);
  }
  // Each slot's ring as large as its neighbours allow (a phone's finger needs room), never
  // overlapping another slot's ring.
  for (const slot of slots) {
    const gap = Math.min(Infinity, ...slots.filter((o) => o !== slot).map((o) => Math.hypot(o.x - slot.x, o.y - slot.y)));
    const r = Math.max(SLOT_R + 1, Math.min(SLOT_R + 10, gap / 2 - 1));
    const ring = s("circle", { class: "target", cx: slot.x, cy: slot.y, r, fill: "rgba(255,255,255,0.01)", stroke: "#0057d9",
      "stroke-width": 3, tabindex: 0, role: "button", "aria-label": describe(view, slot.target.action, names(view)), dataset: { target: slot.key, testid: `target-${slot.key}` } });
    const go = () => ctx.on.act(slot.target.action);
    ring.addEventListener("click", go);
    ring.addEventListener("keydown", (e) => { if (/** @type {KeyboardEvent} */ (e).key === "Enter") go(); });
    top.append(ring);
  }
  svg.append(top);
}

/**
 * The run being chosen (the engine's best until the player edits it), drawn: one coloured line
 * per train through its stops and the midpoints of the hex edges its track crosses.
 * @param {SVGSVGElement} svg
 * @param {any} view
 * @param {PageContext} ctx
 */
function drawRoutes(svg, view, ctx) {
  const entry = runFamily(ctx.legal);
  if (!entry) return;
  const run = currentRun(view, entry, ctx.ui.picks);
  const g = s("g", { class: "routes", "pointer-events": "none" });
  for (const r of run.routes) {
    const pts = routePoints(run.ix, r);
    if (pts.length < 2) continue;
    const colour = ROUTE_COLOURS[run.trains.indexOf(r.train) % ROUTE_COLOURS.length];
    g.append(s("polyline", { class: "route", points: pts.map((p) => p.map((v) => v.toFixed(2)).join(",")).join(" "), fill: "none",
      stroke: colour, "stroke-width": 5, "stroke-opacity": 0.8, "stroke-linejoin": "round",
      dataset: { train: r.train, nodes: r.nodes.join(" "), connections: JSON.stringify(r.connections) } }));
  }
  svg.append(g);
}

/**
 * Where the game stands, in words.
 * @param {any} view
 * @param {Names} n
 */
function position(view, n) {
  const pos = view.position ?? {};
  const lines = [];
  const end = pos.end ?? view.end;
  if (pos.round === "over") lines.push(`The game is over${end?.reason ? ` (${endReason(end.reason)})` : ""}.`);
  else if (end?.reason) lines.push(`The end is coming: ${endReason(end.reason)}; the game ends ${({ current_or: "after this operating round", current_round: "after this round", full_or: "after this set of operating rounds", immediate: "now" })[String(end.when)] ?? String(end.when ?? "").replaceAll("_", " ")}.`);
  if (pos.concession_auction) {
    lines.push(...auctionLines(pos.concession_auction, n));
    const lone = loneBid(pos.concession_auction);
    const who = lone ? n.player(pos.concession_auction.bids[0].player) : "";
    if (lone) lines.push(`No one else can afford to outbid ${who} on ${lone}: ${who} may raise the bid, or pass to withdraw it (${lone} then stays unsold).`);
  }
  if (pos.operating) lines.push(`Operating round ${pos.operating}: ${pos.company ? `${pos.company} operates` : ""}${pos.step ? ` (${stepWords(pos.step)})` : ""}.`);
  if (pos.minor_auction) {
    const bids = pos.minor_auction.bids.map((/** @type {[number, number]} */ [p, v]) => `${n.player(String(p))} ${n.money(v)}`).join(", ");
    lines.push(`Auction for minor ${pos.minor_auction.minor}${bids ? `: ${bids}` : ""}.`);
  }
  if (pos.privates) {
    lines.push(`Private auction: ${pos.privates.map((/** @type {any} */ o) => `${o.company} ${n.money(o.price)}`).join(", ")}.`);
    for (const b of pos.bids ?? []) lines.push(`${n.player(String(b.player))} bids ${n.money(b.price)} on ${b.company}.`);
  }
  if (pos.merger) {
    const m = pos.merger;
    if (!m.merging?.length) lines.push("Merger round: players may merge connected companies into majors.");
    else if (!m.votes_needed) lines.push(`A merger of ${m.merging.join(" + ")} is being put together.`);
    else lines.push(`Vote on merging ${m.merging.join(" + ")}: ${m.votes_for ?? 0} for, ${m.votes_against ?? 0} against, ${m.votes_needed} needed.`);
  }
  if (pos.token_to_place) lines.push(`${pos.token_to_place.company} places its ${pos.token_to_place.kind} token.`);
  if (pos.founding) lines.push(foundingLine(pos.founding));
  if (pos.event) lines.push(...eventLines(pos.event, n));
  else if (pos.event_log?.length) lines.push(`Last events: ${pos.event_log.slice(-3).join(" · ")}`);
  const frozen = (view.companies ?? []).filter((/** @type {any} */ c) => c.frozen).map((/** @type {any} */ c) => c.sym);
  if (frozen.length) lines.push(`Frozen (nobody in charge: they do not operate, the price falls twice a round): ${frozen.join(", ")}.`);
  const closed = view.board?.closed?.length ?? 0;
  if (closed) lines.push(`Region borders (red dashed hex sides; see the map key): ${Number(view.depot?.phase) <= 2 ? "no track may cross them in phase 2; " : ""}stations only where the network reaches inside a region; trains cross them freely.`);
  for (const m of view.program_moves ?? []) lines.push(m.text);
  return h("section", { class: "card where", dataset: { testid: "position" } }, h("h2", {}, "Where the game stands"),
    lines.map((l) => h("p", {}, l)));
}

/** @param {any} view */
function privatesPanel(view) {
  const d = data();
  const owned = new Map();
  for (const [c, who] of Object.entries(view.concession_owners ?? {})) if (who === "bank") owned.set(c, "the bank's (for sale in stock rounds)");
  for (const p of view.players ?? []) for (const c of p.privates ?? []) owned.set(c, p.name);
  for (const c of view.companies ?? []) for (const pv of c.privates ?? []) owned.set(pv, c.sym);
  const inGame = view.setup?.privates ?? (view.concession_owners ? Object.keys(view.concession_owners) : Object.keys(d.entities.privates));
  return h("section", { class: "card privates", dataset: { testid: "privates" } }, h("h2", {}, d.privatesTitle),
    h("ul", {}, inGame.map((/** @type {string} */ sym) => {
      const pv = d.entities.privates[sym];
      return h("li", {}, h("strong", {}, sym), ` ${pv?.name ?? ""} · value ${d.money(pv?.value ?? 0)}, income ${d.money(pv?.revenue ?? 0)} · ${owned.get(sym) ?? "unsold"}`,
        pv?.desc ? h("br") : null, pv?.desc ? h("span", { class: "muted" }, pv.desc) : null);
    })));
}

/** @param {unknown} reason */
export function endReason(reason) {
  return ({ bank: "the bank broke", stock_market: "a share price reached the end of the market", bankrupt: "a player went bankrupt",
    dnf: "the game did not finish (100 stock rounds)", offboards: "every off-board exit was connected" })[String(reason)] ?? String(reason).replaceAll("_", " ");
}

/**
 * @param {any} view
 * @param {PageContext} ctx
 */
export function actionPanel(view, ctx) {
  titleId = ctx.meta.id;
  const n = names(view);
  if (view.result) return [h("p", {}, "The game is over.")];
  if (ctx.mySeat === null) return [h("p", {}, "Watching as a spectator.")];
  if (!(view.active_seats ?? []).includes(ctx.mySeat)) {
    const who = (view.active_seats ?? []).map((/** @type {number} */ s) => view.seats?.[s] ?? `seat ${s}`).join(", ");
    return [h("p", {}, who ? `Waiting for ${who}.` : "Nobody can act: the game cannot go on from here.")];
  }
  return [h("div", { class: "m18xx-actions" }, prompt(view, ctx.mySeat, n, ctx.legal ?? []), ...decision(view, ctx, n))];
}

/** @param {unknown} step */
function stepWords(step) {
  return ({ track: "lay track", token: "place a token", route: "run trains", routes: "run trains", dividend: "pay or withhold",
    train: "buy trains", buy_train: "buy trains", discard: "discard a train", home_token: "place its home token",
    buy_token: "buy another corporation's station", shares: "trade shares of other corporations", merge: "merge",
    transform: "transform into a major" })[String(step)]
    ?? String(step ?? "").replaceAll("_", " ");
}

/**
 * What buying the first of a train kind does to older trains ("The first 6H rusts every 2H").
 * @param {any} view
 * @param {Names} _n
 */
function rustWarnings(view, _n) {
  const d = data();
  const remaining = view.depot?.remaining ?? {};
  const out = [];
  for (const offer of view.depot?.offer ?? []) {
    const kind = roster(view, d.entities).find((t) => t.name === offer.name);
    if (!kind || offer.from !== "depot" || remaining[offer.name] !== kind.num) continue;
    const rusting = roster(view, d.entities).filter((t) => t.rusts_on === offer.name).map((t) => t.name);
    if (rusting.length) out.push(`Buying the first ${offer.name} rusts every ${rusting.join(" and ")} train.`);
  }
  return out;
}

/**
 * What the decision is about, with the facts it needs beside it.
 * @param {any} view
 * @param {number} seat
 * @param {Names} n
 * @param {import("../../sdk/roundhouse.js").LegalAction[]} legal
 */
function prompt(view, seat, n, legal) {
  const pos = view.position ?? {};
  const me = (view.players ?? []).find((/** @type {any} */ p) => p.seat === seat);
  const mine = me ? `You have ${n.money(me.cash)} and ${me.certificates} of ${view.cert_limit} certificates${me.controls?.length ? `; through your corporations you also control ${me.controls.join(", ")}` : ""}.` : "";
  const lines = [];
  if (pos.event) lines.push(...eventLines(pos.event, n));
  else if (pos.founding) lines.push(foundingLine(pos.founding), pos.founding.kind === "tokens" ? `It has ${n.money((view.companies ?? []).find((/** @type {any} */ c) => c.sym === pos.founding.company)?.cash ?? 0)}.` : "");
  else if (pos.concession_auction) {
    const a = pos.concession_auction;
    const lone = loneBid(a);
    if (lone) lines.push(...auctionLines(a, n), loneBidLine(lone, legal.some((e) => e.action.type === "bid")), mine);
    else lines.push(a.auctioning ? `The ${a.auctioning} concession is up for auction: raise the bid or drop out.` : "Concession auction: nominate a concession with a bid, or pass.", mine);
  } else if (pos.privates) lines.push("Private auction: buy the cheapest private at its price, bid on another, or pass.", mine);
  else if (pos.minor_auction) lines.push(`Auction for minor ${pos.minor_auction.minor}: raise the bid or pass.`, mine);
  else if (pos.merger) {
    const m = pos.merger;
    if (m.merging?.length && m.votes_needed) {
      lines.push(`Vote on merging ${m.merging.join(" + ")} into a major: ${m.votes_for} for, ${m.votes_against} against, ${m.votes_needed} needed.`);
      const held = m.merging.map((/** @type {string} */ c) => `${c} ${me?.shares?.[c] ?? 0}%`).join(", ");
      lines.push(`Your shares: ${held}.`);
    } else if (m.merging?.length) {
      lines.push(`Merger of ${m.merging.join(" + ")}: add another connected company, or put it to the vote.`);
    } else {
      lines.push("Merger round: start a merger with one of the companies offered, or pass.");
    }
  } else if (pos.operating && pos.company) {
    const c = (view.companies ?? []).find((/** @type {any} */ x) => x.sym === pos.company);
    const step = stepWords(pos.step);
    lines.push(`You operate ${pos.company}: ${step}.`);
    if (c) lines.push(`${pos.company} has ${n.money(c.cash ?? 0)}, trains ${(c.trains ?? []).map((/** @type {string} */ t) => tileName(t)).join(", ") || "none"} (limit ${c.train_limit}), share price ${c.price ? n.money(c.price) : "—"}.`);
    if (pos.step === "dividend" && typeof pos.revenue === "number") lines.push(`This run earned ${n.money(pos.revenue)}.`);
    if (String(pos.step).includes("train")) lines.push(...rustWarnings(view, n));
  } else if (pos.round === "stock") lines.push(`Stock round: sell, then buy one certificate, ${view.concession_owners ? "buy a concession, found a corporation (for yourself or for a corporation you control)" : "start a company"}, or pass.`, mine);
  else lines.push("Your move.");
  return h("div", { class: "prompt", dataset: { testid: "prompt" } }, lines.filter(Boolean).map((l) => h("p", {}, l)));
}

/**
 * @param {any} view
 * @param {any[]} legal
 * @param {any} ui
 */
export function mapTargets(view, legal, ui) {
  return targets(view, legal, ui);
}

/**
 * @param {any} view
 * @param {any} entry
 */
export function describeEvent(view, entry) {
  if (typeof entry === "string") return entry;
  if (entry?.action) return `${entry.name ?? ""} ${describe(view, entry.action, names(view))}`.trim();
  return JSON.stringify(entry);
}

export const milestones = new Set(["round"]);

/** @param {any} _view */
export function rules(_view) {
  return data().rules();
}

/** @param {any} view */
export function turnInfo(view) {
  const pos = view.position ?? {};
  const phase = view.depot?.phase ? ` · phase ${view.depot.phase}` : "";
  if (pos.round === "over") return "game over";
  if (pos.operating) return `OR ${pos.operating}${pos.company ? ` · ${pos.company}` : ""}${phase}`;
  if (pos.concession_auction) return `concession auction${phase}`;
  return `${String(pos.round ?? "").replaceAll("_", " ")} round${pos.turn ? ` ${pos.turn}` : ""}${phase}`;
}

/**
 * @param {any} view
 * @param {PageContext} _ctx
 */
export function result(view, _ctx) {
  const r = view.result;
  const order = r.ranks.map((/** @type {number} */ _, /** @type {number} */ seat) => seat)
    .sort((/** @type {number} */ a, /** @type {number} */ b) => r.ranks[a] - r.ranks[b]);
  const name = (/** @type {number} */ seat) => view.seats?.[seat] ?? `seat ${seat}`;
  return h("section", { class: "result card", dataset: { testid: "result" } },
    h("h2", {}, "Game over"),
    h("p", { class: "reason" }, `The game ended because ${endReason(r.reason)}.`),
    h("p", { class: "winner" }, `${r.winners.map(name).join(" and ")} ${r.winners.length > 1 ? "win" : "wins"}.`),
    h("ol", { class: "ranking" }, order.map((/** @type {number} */ seat) => h("li", { dataset: { seat, rank: r.ranks[seat] } },
      h("span", { class: "rank" }, `#${r.ranks[seat]}`), " ", h("span", { class: "swatch", style: { background: PLAYER_COLOURS[seat % PLAYER_COLOURS.length] } }),
      " ", name(seat), " ", h("strong", {}, data().money(r.scores[seat])),
      " (cash, shares at their price, privates at face value)"))),
    valueChart(view, _ctx.seen, r.scores));
}

const PLAYER_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf"];

/**
 * Every player's value over the game (the log's lines, filled in from the table's history for
 * moves this tab did not see), ending on the final scores.
 * @param {any} view
 * @param {import("../pageapi.js").SeenLine[]} seen
 * @param {number[]} scores
 */
function valueChart(view, seen, scores) {
  const points = [...seen.filter((e) => Array.isArray(e.values) && e.values.length === scores.length).map((e) => /** @type {number[]} */ (e.values)), scores];
  if (points.length < 3) {
    return h("p", { class: "muted", dataset: { testid: "value-chart" } },
      "No chart of values over the game yet: the earlier moves are still being read.");
  }
  const w = 600, ht = 220, pad = 36;
  const max = Math.max(1, ...points.flat());
  const x = (/** @type {number} */ i) => pad + (i / (points.length - 1)) * (w - pad - 8);
  const y = (/** @type {number} */ v) => ht - pad + 8 - (v / max) * (ht - pad);
  const svg = s("svg", { class: "value-chart", viewBox: `0 0 ${w} ${ht}`, role: "img", "aria-label": "Each player's value over the game" });
  for (const t of [0, 0.5, 1]) {
    svg.append(s("line", { x1: pad, x2: w - 8, y1: y(max * t), y2: y(max * t), stroke: "#eee" }));
    svg.append(s("text", { x: 2, y: y(max * t) + 3, "font-size": 10, fill: "#777" }, data().money(Math.round(max * t))));
  }
  scores.forEach((_, seat) => svg.append(s("polyline", { points: points.map((p, i) => `${x(i).toFixed(1)},${y(p[seat]).toFixed(1)}`).join(" "),
    fill: "none", stroke: PLAYER_COLOURS[seat % PLAYER_COLOURS.length], "stroke-width": 2.5, dataset: { seat } })));
  return h("figure", { class: "chart", dataset: { testid: "value-chart" } }, svg,
    h("figcaption", {}, `Value of each player (${view.seats?.join(", ") ?? ""}) over the game's ${points.length - 1} moves.`));
}

/**
 * @param {any} view
 * @returns {number[] | null}
 */
export function trackValues(view) {
  const players = view.players ?? [];
  if (!players.length || players.some((/** @type {any} */ p) => typeof p.value !== "number")) return null;
  return (view.seats ?? []).map((/** @type {any} */ _, /** @type {number} */ seat) => players.find((/** @type {any} */ p) => p.seat === seat)?.value ?? 0);
}

/**
 * @param {any} view
 * @param {number} seat
 */
export function playerName(view, seat) {
  return view.seats?.[seat] ?? `seat ${seat}`;
}

/**
 * One log line for an update, in words with names and the money it moved (from the views
 * before and after it): "Bot A (GSWR) lays tile 7 on Dublin (I11) for £20".
 * @param {any} before
 * @param {any} after
 * @param {{seat: number, action: any, seq: number}} update
 */
export function logLine(before, after, update) {
  const a = update.action ?? {};
  const n = names(after);
  const who = after.seats?.[update.seat] ?? `seat ${update.seat}`;
  const corp = (/** @type {any} */ v, /** @type {string} */ sym) => (v.companies ?? []).find((/** @type {any} */ c) => c.sym === sym);
  const player = (/** @type {any} */ v) => (v.players ?? []).find((/** @type {any} */ p) => p.seat === update.seat);
  const spent = (/** @type {string} */ sym) => (corp(before, sym)?.cash ?? 0) - (corp(after, sym)?.cash ?? 0);
  const paid = () => (player(before)?.cash ?? 0) - (player(after)?.cash ?? 0);
  const cost = (/** @type {number} */ x) => (x > 0 ? ` for ${n.money(x)}` : "");
  const entity = String(a.entity ?? "");
  const acting = a.entity_type === "corporation" ? `${who} (${entity})` : who;
  let text;
  switch (a.type) {
    case "undo": text = `${who} takes back a move`; break;
    case "redo": text = `${who} redoes a move`; break;
    case "pass": text = `${acting} passes`; break;
    case "bid": text = `${who} bids ${n.money(a.price)} on ${a.company ? `${a.company}${before.position?.concession_auction ? " (concession)" : ""}` : `minor ${a.corporation}`}`; break;
    case "buy_shares": text = `${acting} buys a ${a.percent}% share of ${String(a.shares?.[0] ?? "").replace(/_\d+$/, "")}${cost(a.entity_type === "corporation" ? spent(entity) : paid())}`; break;
    case "sell_shares": text = `${acting} sells ${a.percent}% of ${String(a.shares?.[0] ?? "").replace(/_\d+$/, "")}${cost(a.entity_type === "corporation" ? -spent(entity) : -paid())}`; break;
    case "par": text = `${acting} starts ${a.corporation} at ${n.money(Number(String(a.share_price).split(",")[0]))} a share`; break;
    case "lay_tile": text = `${acting} lays tile ${tileName(String(a.tile))} on ${n.hex(String(a.hex))}${cost(spent(entity))}`; break;
    case "place_token": {
      const at = cityByRef(after, String(a.city)) ?? cityByRef(before, String(a.city));
      text = `${acting} places a token in ${at ? n.hex(at.hex.hex) : a.city}${cost(spent(entity))}`;
      break;
    }
    case "run_routes": {
      const total = (a.routes ?? []).reduce((/** @type {number} */ t, /** @type {any} */ r) => t + (r.revenue ?? 0), 0);
      text = `${acting} runs ${(a.routes ?? []).map((/** @type {any} */ r) => tileName(String(r.train))).join(", ") || "no train"} for ${n.money(total)}`;
      break;
    }
    case "dividend": {
      const was = corp(before, entity)?.price;
      const now = corp(after, entity)?.price;
      const revenue = before.position?.revenue;
      const how = { payout: "pays out", withhold: "withholds", half: "pays half of" }[String(a.kind)] ?? a.kind;
      text = `${entity} ${how}${typeof revenue === "number" ? ` ${n.money(revenue)}` : ""}${was && now && was !== now ? `, price ${n.money(was)} → ${n.money(now)}` : ""}`;
      break;
    }
    case "buy_train": text = `${acting} buys a ${a.variant ?? tileName(String(a.train))} train${cost(spent(entity))}`; break;
    case "discard_train": text = `${acting} discards a ${tileName(String(a.train))}`; break;
    case "buy_company": text = `${acting} buys ${a.company} for ${n.money(a.price)}`; break;
    case "merge": text = `${who} adds ${a.corporation} to a merger`; break;
    case "choose":
      text = before.position?.merger ? `${who} votes ${a.choice} the merger of ${(before.position?.merger?.merging ?? []).join(" + ")}`
        : `${acting}: ${describe(before, a, names(before))}`;
      break;
    default: text = `${acting}: ${describe(after, a, n)}`;
  }
  const was = turnInfo(before).replace(/ · phase.*$/, "");
  const now = turnInfo(after).replace(/ · phase.*$/, "");
  const roundOf = (/** @type {string} */ t) => t.replace(/ · .*$/, "");
  if (roundOf(was) !== roundOf(now)) text += ` — ${now === "game over" ? "the game is over" : `now ${roundOf(now)}`}`;
  if (before.depot?.phase !== after.depot?.phase) text += ` — phase ${after.depot?.phase} begins`;
  return text;
}
