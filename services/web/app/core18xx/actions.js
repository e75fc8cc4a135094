// @ts-check
// The decision at hand for an 18xx title, built from the seat's legal families only. Track:
// tap a hex (or its button), pick a tile, turn it through its legal rotations only, see it on
// the map, then confirm. Tokens: tap a slot. Routes: the engine's best run, drawn. Every other
// kind gets a button (or an amount field) that says in words what it sends, and any kind this
// module does not know still gets the generic control.
import { nextChoice } from "../../sdk/roundhouse.js";
import { amountControl, button } from "../controls.js";
import { h, s } from "../dom.js";
import { centre, drawHex, edgePoint, SIZE } from "./map.js";
import { placeName } from "./places.js";
import { byType, familyControl } from "../legalform.js";
import { currentRun, runControl, runFamily } from "./runpanel.js";
import { stops } from "./routes.js";
import { chooseWords, loneBid } from "./questions.js";

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../pageapi.js").Target} Target
 * @typedef {import("../../sdk/roundhouse.js").LegalAction} LegalAction
 * @typedef {import("../../sdk/roundhouse.js").Action} Action
 */

/**
 * @typedef {object} Names
 * @property {(sym: string | null | undefined) => string} company   "GSWR (Great Southern & Western Railway)"
 * @property {(hex: string) => string} hex                          "Dublin (I11)"
 * @property {(entity: string) => string} player                    a player id -> name
 * @property {(amount: number) => string} money
 * @property {(sym: string) => string} fullName                     "Dalkey Atmospheric Railway", or ""
 */

/**
 * The values a trie offers at `path` (field values picked so far, in order).
 * @param {any} node
 * @param {any[]} path
 * @returns {{field: string, values: any[]} | null}
 */
function trieAt(node, path) {
  for (const value of path) {
    if (!node || !("values" in node)) return null;
    const i = node.values.findIndex((/** @type {any} */ v) => JSON.stringify(v) === JSON.stringify(value));
    if (i < 0) return null;
    node = nextChoice(node, i);
  }
  return node && "values" in node ? node : null;
}

/**
 * The lay family (hex -> tile -> rotation), if offered.
 * @param {LegalAction[]} legal
 */
export function layFamily(legal) {
  return legal.find((e) => e.action.type === "lay_tile" && e.choices) ?? null;
}

/** @param {LegalAction[]} legal */
export function tokenFamily(legal) {
  return legal.find((e) => e.action.type === "place_token" && e.choices) ?? null;
}

/**
 * Where the lay being chosen stands: the hex, the tile, the rotation (indices into the trie).
 * @param {LegalAction} lay
 * @param {any} picks
 */
export function layPick(lay, picks) {
  const p = picks.lay ?? {};
  const hexes = trieAt(lay.choices, [])?.values ?? [];
  const hex = p.hex && hexes.includes(p.hex) ? p.hex : null;
  const tiles = hex ? trieAt(lay.choices, [hex])?.values ?? [] : [];
  const tile = p.tile && tiles.includes(p.tile) ? p.tile : tiles.length === 1 ? tiles[0] : null;
  const rotations = tile ? trieAt(lay.choices, [hex, tile])?.values ?? [] : [];
  const r = rotations.length ? rotations[((p.turn ?? 0) % rotations.length + rotations.length) % rotations.length] : null;
  return { hexes, hex, tiles, tile, rotations, rotation: r };
}

/**
 * A tile's drawing at a rotation (for the preview), from the view's tile_defs.
 * @param {any} def
 * @param {number} rotation
 */
export function rotated(def, rotation) {
  const turn = (/** @type {any} */ e) => (typeof e === "number" ? (e + rotation) % 6 : e);
  const paths = def.paths.map((/** @type {any} */ p) => ({ ...p, a: turn(p.a), b: turn(p.b) }));
  const nodes = def.nodes.map((/** @type {any} */ n, /** @type {number} */ i) => ({ ...n,
    edges: paths.flatMap((/** @type {any} */ p) => [[p.a, p.b], [p.b, p.a]]).filter((/** @type {any[]} */ [x]) => x === `n${i}`)
      .map((/** @type {any[]} */ [, y]) => y).filter((/** @type {any} */ y) => typeof y === "number") }));
  return { color: def.color, label: def.label, paths, nodes };
}

/** "IR2-0" -> "IR2": a tile instance's name. @param {string} id */
export const tileName = (id) => id.replace(/-\d+$/, "");

/**
 * What a tap on the board does now: hexes to lay on, slots to token.
 * @param {any} view
 * @param {LegalAction[]} legal
 * @param {any} ui
 * @returns {Map<string, Target>}
 */
export function targets(view, legal, ui) {
  /** @type {Map<string, Target>} */
  const out = new Map();
  const lay = layFamily(legal);
  if (lay) {
    for (const hex of layPick(lay, ui.picks).hexes) out.set(hex, { label: `Lay a tile on ${placeName(view.board, hex)}`, action: { type: "pick_hex", hex }, kind: "lay" });
  }
  const run = runFamily(legal);
  if (run) {
    // The run's own stops first: the page brings the first target into sight.
    const on = currentRun(view, run, ui.picks).routes.flatMap((r) => r.nodes);
    for (const stop of [...new Set([...on, ...stops(view.board)])]) {
      out.set(stop, { label: `Route stop at ${placeName(view.board, stop.replace(/-[^-]*$/, ""))}`, action: { type: "pick_stop", stop }, kind: "stop" });
    }
  }
  const token = tokenFamily(legal);
  if (token) {
    const cities = trieAt(token.choices, [])?.values ?? [];
    for (const city of cities) {
      const at = cityByRef(view, String(city));
      for (const { slot, action } of tokenSpots(view, token, city)) {
        out.set(`${city}#${slot}`, { label: `Token in ${at ? placeName(view.board, at.hex.hex) : "a city"}`, action, kind: "token" });
      }
    }
  }
  return out;
}

/**
 * The slots a token family offers in a city, with the action each sends: the trie's own slots,
 * or (a title whose tokens name only the city, 1841) the city's first free slot, sent without one.
 * @param {any} view
 * @param {LegalAction} token
 * @param {any} city
 * @returns {{slot: number, action: Action}[]}
 */
export function tokenSpots(view, token, city) {
  const slots = trieAt(token.choices, [city])?.values;
  if (slots) return slots.map((/** @type {number} */ slot) => ({ slot, action: { ...token.action, city, slot } }));
  const at = cityByRef(view, String(city));
  const free = at ? (at.hex.nodes[at.node].slots ?? []).findIndex((/** @type {any} */ o) => !o) : -1;
  return [{ slot: Math.max(0, free), action: { ...token.action, city } }];
}

/**
 * The node a city id names, as the view's board has it.
 * @param {any} view
 * @param {string} ref
 */
export function cityByRef(view, ref) {
  for (const hex of view.board?.hexes ?? []) {
    const i = hex.nodes.findIndex((/** @type {any} */ n) => n.ref === ref);
    if (i >= 0) return { hex, node: i };
  }
  return null;
}

const SIDES = { flat: ["south", "south-west", "north-west", "north", "north-east", "south-east"],
  pointy: ["south-west", "west", "north-west", "north-east", "east", "south-east"] };

/**
 * Which of a hex's cities: "on the north-east track", or its place in the hex.
 * @param {any} view
 * @param {{hex: any, node: number}} at
 */
export function cityWhere(view, at) {
  const sides = SIDES[view.board?.layout === "pointy" ? "pointy" : "flat"];
  const edges = /** @type {number[]} */ (at.hex.nodes[at.node].edges ?? []);
  if (edges.length) return `toward the ${edges.map((e) => sides[e]).join(" and ")}`;
  const k = at.hex.nodes.filter((/** @type {any} */ x, /** @type {number} */ i) => x.kind === "city" && i < at.node).length;
  return `number ${k + 1}`;
}

/**
 * @param {any} view
 * @param {Action} action
 * @param {Names} n
 */
export function describe(view, action, n) {
  /** @type {any} */
  const a = action;
  const price = typeof a.price === "number" ? ` for ${n.money(a.price)}` : "";
  switch (a.type) {
    case "pass": {
      const merging = view.position?.merger?.merging ?? [];
      if (merging.length) return `Done: put the merger of ${merging.join(" + ")} to the vote`;
      return passWords(view, a, n);
    }
    case "bid":
      if (a.corporation) return `Bid ${n.money(Number(a.price))} to start minor ${a.corporation}${n.fullName(String(a.corporation)) ? ` · ${n.fullName(String(a.corporation))}` : ""}`;
      if (view.position?.concession_auction) return `Bid ${n.money(Number(a.price))} on the ${a.company} concession${n.fullName(String(a.company)) ? ` · ${n.fullName(String(a.company))}` : ""}`;
      return `Bid ${n.money(Number(a.price))} on ${n.company(String(a.company))}${n.fullName(String(a.company)) ? ` · ${n.fullName(String(a.company))}` : ""}`;
    case "blind_bid": return `Seal my bids: ${(a.bids ?? []).map((/** @type {number} */ b, /** @type {number} */ i) => b ? `${view.position?.concession_auction?.unsold?.[i] ?? `#${i + 1}`} ${n.money(b)}` : null).filter(Boolean).join(", ") || "none"}`;
    case "buy_shares": return `${forWhom(a, n)}Buy a ${a.percent}% share of ${n.company(certCorp(a))} (${certFrom(view, a)})`;
    case "sell_shares": return `${forWhom(a, n)}Sell ${(a.shares ?? []).length > 1 ? `${a.shares.length} shares` : `a ${a.percent}% share`} of ${n.company(certCorp(a))} (${a.percent}%)${a.share_price ? ` at ${n.money(Number(a.share_price))} each` : ""}`;
    case "par": return `${forWhom(a, n)}Start ${n.company(String(a.corporation))} at ${n.money(Number(String(a.share_price).split(",")[0]))} a share`;
    case "buy_train": return `Buy a ${a.variant ?? tileName(String(a.train))} train${trainSeller(view, String(a.train), n)}${price}`;
    case "discard_train": return `Discard the ${tileName(String(a.train))} train`;
    case "dividend": return { payout: "Pay out to shareholders", withhold: "Withhold (revenue to the company)", half: "Pay half" }[String(a.kind)] ?? `Dividend: ${a.kind}`;
    case "run_routes": {
      const total = (a.routes ?? []).reduce((/** @type {number} */ t, /** @type {any} */ r) => t + (r.revenue ?? 0), 0);
      return (a.routes ?? []).length ? `Run for ${n.money(total)}` : "Run no trains";
    }
    case "lay_tile": return `Lay tile ${tileName(String(a.tile))} on ${n.hex(String(a.hex))} (rotation ${a.rotation})`;
    case "place_token": {
      const at = cityByRef(view, String(a.city));
      if (!at) return `Place ${a.tokener ?? a.entity}'s token`;
      const cities = at.hex.nodes.filter((/** @type {any} */ x) => x.kind === "city");
      // A hex with two cities (Belfast, Dublin): say which one, by the track it sits on.
      const which = cities.length > 1 ? `, the city ${cityWhere(view, at)}` : "";
      return `Place ${a.tokener ?? a.entity}'s token in ${n.hex(at.hex.hex)}${which}`;
    }
    case "buy_company": return `Buy ${n.company(String(a.company))}${price}`;
    case "merge": {
      const merging = view.position?.merger?.merging ?? [];
      if (merging.length) return `Add ${a.corporation} to the merger of ${merging.join(" + ")}`;
      if (view.position?.operating) return mergeWords(view, a, n);
      return `Start a merger with ${a.corporation}`;
    }
    case "choose":
      if (a.choice === "for" || a.choice === "against") return a.choice === "for" ? "Vote for the merger" : "Vote against the merger";
      return chooseWords(view, a.choice, n);
    case "remove_token": {
      const at = cityByRef(view, String(a.city));
      const owner = at ? at.hex.nodes[at.node].slots?.[Number(a.slot)] : null;
      return `Remove ${owner ?? "the"} station in ${at ? n.hex(at.hex.hex) : a.city}`;
    }
    case "buy_token": {
      const at = cityByRef(view, String(a.city));
      const owner = at ? at.hex.nodes[at.node].slots?.[Number(a.slot)] : null;
      return `${a.entity} buys ${owner ?? "another corporation"}'s station in ${at ? n.hex(at.hex.hex) : a.city} for ${n.money(Number(a.price))}`;
    }
    case "assign": return `Use ${n.company(String(a.entity))} on ${n.hex(String(a.target))}`;
    case "bankrupt": return a.option === 1 ? `Declare bankruptcy, taking the ${n.money(500)} loan` : a.option === 0 ? "Declare bankruptcy (no loan)" : "Declare bankruptcy";
    case "program_share_pass": return `Auto-pass in stock rounds${a.unconditional ? ", whatever the others do" : ""}${a.indefinite ? ", in every stock round until I stop it" : ""}`;
    case "program_buy_shares": return `Auto-buy ${n.company(String(a.corporation))} from the ${a.from_market ? "market" : "IPO"} until ${a.until_condition === "float" ? "it floats" : `I hold ${a.until_condition} shares`}${a.auto_pass_after ? ", then auto-pass" : ""}`;
    case "program_merger_pass": return `Auto-pass in merger rounds${(a.options ?? []).includes("disable_others") ? ", unless another player proposes a merger" : ""}`;
    case "program_auction_bid": {
      const parts = [];
      if (a.enable_buy_price) parts.push(`buy ${a.bid_target} when its price is ${n.money(Number(a.buy_price))}`);
      if (a.enable_maximum_bid) parts.push(`bid on ${a.bid_target} up to ${n.money(Number(a.maximum_bid))}`);
      if (a.auto_pass_after) parts.push("otherwise pass");
      return parts.length ? `Auto-bid: ${parts.join("; ")}` : `Auto-bid on ${a.bid_target}: nothing set yet`;
    }
    case "program_disable": return "Stop my program";
    default: return [a.type.replaceAll("_", " "), ...Object.entries(a).filter(([k]) => !["type", "entity", "entity_type"].includes(k))
      .map(([k, v]) => `${k.replaceAll("_", " ")}: ${typeof v === "object" ? JSON.stringify(v) : v}`)].join(" · ");
  }
}

/** "SFTC_3" -> "SFTC": the corporation of a share action's first certificate. @param {any} a */
const certCorp = (a) => String(a.shares?.[0] ?? "").replace(/_\d+$/, "");

/**
 * "SSFL: " when a corporation (not the player) trades, as 1841's corporations do.
 * @param {any} a
 * @param {Names} n
 */
function forWhom(a, n) {
  return a.entity_type === "corporation" ? `${n.company(String(a.entity))}: ` : "";
}

/**
 * Who sells a train, said after its name: another company (at a price the two presidents
 * agree), the bank's pool of discarded trains, or nothing for a new one from the depot.
 * @param {any} view
 * @param {string} train
 * @param {Names} n
 */
function trainSeller(view, train, n) {
  const owner = (view.companies ?? []).find((/** @type {any} */ c) => (c.trains ?? []).includes(train));
  if (owner) return ` from ${n.company(String(owner.sym))}`;
  const offered = (view.depot?.offer ?? []).find((/** @type {any} */ t) => t.id === train);
  return offered?.from === "pool" ? " from the bank's pool (discarded)" : "";
}

/**
 * Where a certificate is bought from: the corporation's treasury, the pool, or another holder.
 * @param {any} view
 * @param {any} a
 */
function certFrom(view, a) {
  const corp = certCorp(a);
  const c = (view.companies ?? []).find((/** @type {any} */ x) => x.sym === corp);
  const price = c?.price ? ` at ${c.price}` : "";
  if (a.percent && c && (c.pool_percent ?? 0) > 0 && !(c.treasury_percent ?? 0)) return `from the pool${price}`;
  if (c && (c.treasury_percent ?? 0) > 0) return `from ${corp}'s treasury${price}`;
  return `from the pool${price}`;
}

/**
 * What a pass gives up, said in words: the step of the operating turn, the founding's second
 * home, the event's removals.
 * @param {any} view
 * @param {any} a
 * @param {Names} _n
 */
function passWords(view, a, _n) {
  const pos = view.position ?? {};
  if (pos.founding?.kind === "home2") return `${pos.founding.company}: no second home station`;
  if (pos.event) return "Enough stations removed";
  const lone = loneBid(pos.concession_auction);
  if (lone) return `Pass: withdraw my bid, ${lone} stays unsold`;
  if (pos.concession_auction) return pos.concession_auction.auctioning ? `Drop out of the ${pos.concession_auction.auctioning} auction` : "Pass";
  if (pos.operating && a.entity_type === "corporation") {
    return ({ track: "Lay no (more) track", token: "Place no station", buy_token: "Buy no station", buy_train: "Buy no (more) trains",
      shares: "Trade no (more) shares", merge: "Do not merge", transform: "Do not transform", discard: "Pass" })[String(pos.step)] ?? "Pass";
  }
  return "Pass";
}

/**
 * A merge in an operating turn (1841): the partner first, then the general major it forms.
 * @param {any} view
 * @param {any} a
 * @param {Names} n
 */
function mergeWords(view, a, n) {
  const sym = String(a.corporation);
  const target = view.companies?.find((/** @type {any} */ c) => c.sym === sym);
  const me = String(a.entity);
  if (view.position?.step === "transform") return `Transform ${n.company(me)} into ${n.company(sym)} (its shares one for one)`;
  if (view.position?.merging) return `Form ${n.company(sym)} from ${n.company(me)} and ${n.company(view.position.merging)}`;
  return target?.started ? `Merge ${n.company(me)} with ${n.company(sym)} (a connected ${target.type})` : `Merge ${n.company(me)} into ${n.company(sym)}`;
}

/** @type {Record<string, string>} */
const PROGRAM_KINDS = {
  program_share_pass: "Auto-pass in stock rounds", program_buy_shares: "Auto-buy shares",
  program_merger_pass: "Auto-pass in merger rounds", program_auction_bid: "Auto-bid in the private auction",
  program_disable: "Your program",
};

/** @type {Record<string, string>} */
const PROGRAM_FIELDS = {
  unconditional: "Pass even when others buy or sell", indefinite: "Keep it for later stock rounds",
  corporation: "Company", until_condition: "Buy until", from_market: "Buy from", auto_pass_after: "Then pass automatically",
  options: "When another player proposes a merger", bid_target: "Private", enable_maximum_bid: "Bid up to a limit",
  enable_buy_price: "Buy at a price", buy_price: "Buy price", maximum_bid: "Highest bid",
};

/**
 * The programs' fields and values in words, for their selects.
 * @param {Names} n
 * @returns {import("../legalform.js").FieldWords}
 */
function programWords(n) {
  return {
    field: (f) => PROGRAM_FIELDS[f] ?? f.replaceAll("_", " "),
    value: (f, v) => {
      if (f === "from_market") return v ? "the market" : "the IPO";
      if (f === "until_condition") return v === "float" ? "it floats" : `I hold ${v} shares`;
      if (f === "options") return Array.isArray(v) && v.includes("disable_others") ? "stop passing" : "keep passing";
      if (f === "corporation" || f === "bid_target") return `${v}${n.fullName(String(v)) ? ` · ${n.fullName(String(v))}` : ""}`;
      if (f === "buy_price" || f === "maximum_bid") return n.money(Number(v));
      if (typeof v === "boolean") return v ? "yes" : "no";
      return typeof v === "string" ? v : JSON.stringify(v);
    },
  };
}

// Kinds a player sets up once (auto-pass, auto-buy); shown folded under "Programs".
const PROGRAMS = /^program_/;

/**
 * @param {any} view
 * @param {PageContext} ctx
 * @param {Names} n
 */
export function decision(view, ctx, n) {
  const { legal, ui, on } = ctx;
  if (!legal) return [h("p", { class: "muted" }, "Loading your options…")];
  const out = [];
  const kinds = byType(legal);
  const lay = layFamily(legal);
  if (lay) out.push(layPanel(view, lay, ctx, n));
  const token = tokenFamily(legal);
  if (token) out.push(tokenPanel(view, token, ctx, n));
  /** @type {{entry: LegalAction, key: string}[]} */
  const plain = [];
  /** @type {{entry: LegalAction, key: string}[]} */
  const programs = [];
  for (const [kind, entries] of kinds) {
    if ((kind === "lay_tile" && lay) || (kind === "place_token" && token)) continue;
    for (const [i, entry] of entries.entries()) (PROGRAMS.test(kind) ? programs : plain).push({ entry, key: `${kind}-${i}` });
  }
  if (plain.length) {
    const bids = bidGroups(plain.map(({ entry }) => entry));
    out.push(h("div", { class: "choices decisions" }, plain.map(({ entry, key }) => {
      const group = bids.get(entry);
      if (group) return group.length ? bidControl(view, group, ctx, n) : null;
      if (entry.action.type === "run_routes") return runControl(view, entry, ctx, n);
      const each = oneButtonEach(entry);
      if (each) return each.map((action) => button(describe(view, action, n), action.type, () => on.act(action), { disabled: ui.pending }));
      return familyControl(entry, key, ui, on, (a) => describe(view, a, n));
    })));
  }
  if (programs.length) {
    out.push(h("details", { class: "programs", dataset: { testid: "programs" } },
      h("summary", {}, "Programs: let the table play standing orders for you (auto-pass, auto-buy, auto-bid)"),
      programs.map(({ entry, key }) => h("div", { class: "program" }, h("h3", {}, PROGRAM_KINDS[entry.action.type] ?? describe(view, entry.action, n)),
        familyControl(entry, key, ui, on, (a) => (a.type === "program_disable" ? describe(view, a, n) : `Set: ${describe(view, a, n)}`),
          programWords(n))))));
  }
  return out;
}

/**
 * Bids on several companies over the same range (1841's nomination: any unsold concession, from
 * L.20 to one's cash): one amount field with a button per company, not a field each. Maps each
 * such entry to its group (the group's first entry) or to [] (drawn with the first).
 * @param {LegalAction[]} entries
 * @returns {Map<LegalAction, LegalAction[]>}
 */
function bidGroups(entries) {
  /** @type {Map<string, LegalAction[]>} */
  const byRange = new Map();
  for (const e of entries) {
    if (e.action.type !== "bid" || !e.range || e.choices) continue;
    const key = JSON.stringify(e.range);
    byRange.set(key, [...(byRange.get(key) ?? []), e]);
  }
  /** @type {Map<LegalAction, LegalAction[]>} */
  const out = new Map();
  for (const group of byRange.values()) group.forEach((e, i) => out.set(e, i ? [] : group));
  return out;
}

/**
 * One amount field for a group of bids, its range said in money, each button saying the amount.
 * @param {any} view
 * @param {LegalAction[]} group
 * @param {PageContext} ctx
 * @param {Names} n
 */
function bidControl(view, group, ctx, n) {
  const range = /** @type {import("../../sdk/roundhouse.js").AmountRange} */ (group[0].range);
  const each = group.map((e) => ({
    label: (/** @type {number} */ amount) => describe(view, { ...e.action, [range.field]: amount }, n),
    submit: (/** @type {number} */ amount) => ctx.on.act({ ...e.action, [range.field]: amount }),
  }));
  return h("div", { class: "family bids", dataset: { type: "bid", testid: "bids" } },
    h("p", { class: "bid-help" }, group.length > 1 ? "Set your bid, then tap what you bid it on:" : "Your bid:"),
    amountControl({ range, value: ctx.ui.amount, act: "bid", pending: ctx.ui.pending, format: n.money,
      label: each[0].label, submit: each[0].submit, also: each.slice(1),
      remember: (amount) => (ctx.ui.amount = amount), step: (amount) => ctx.on.update({ amount }) }));
}

/**
 * A family with one closed choice of a few values and no amount (a par price, an event's
 * answer, a home city): one button per value, each saying what it sends, instead of a menu.
 * @param {LegalAction} entry
 * @returns {Action[] | null}
 */
function oneButtonEach(entry) {
  const c = /** @type {any} */ (entry.choices);
  if (!c || !("values" in c) || c.open || (c.then ?? []).length || entry.range || c.values.length > 12) return null;
  return c.values.map((/** @type {any} */ v) => ({ ...entry.action, [c.field]: v }));
}

/**
 * @param {any} view
 * @param {LegalAction} lay
 * @param {PageContext} ctx
 * @param {Names} n
 */
function layPanel(view, lay, ctx, n) {
  const { ui, on } = ctx;
  const p = layPick(lay, ui.picks);
  const set = (/** @type {any} */ patch) => on.update({ picks: { ...ui.picks, lay: { ...(ui.picks.lay ?? {}), ...patch } } });
  const parts = [];
  if (!p.hex) {
    parts.push(h("p", {}, `Lay track: tap a highlighted hex on the map (${p.hexes.length} open), or pick one:`),
      h("div", { class: "choices hex-list" }, p.hexes.map((/** @type {string} */ hex) =>
        button(n.hex(hex), "pick-hex", () => set({ hex, tile: null, turn: 0 }), { testid: `hex-${hex}` }))));
  } else {
    const board = view.board.hexes.find((/** @type {any} */ hx) => hx.hex === p.hex);
    const cost = board?.cost ?? 0;
    parts.push(h("p", {}, `Tile for ${n.hex(p.hex)}${cost ? ` (terrain ${n.money(cost)})` : ""}:`),
      h("div", { class: "choices tile-list" }, p.tiles.map((/** @type {string} */ tile) =>
        button(`${tileName(tile)} (${view.tile_defs?.[tileName(tile)]?.color ?? ""})`, "pick-tile", () => set({ tile, turn: 0 }),
          { primary: tile === p.tile, testid: `tile-${tileName(tile)}` }))));
    if (p.tile) {
      const k = p.rotations.indexOf(p.rotation);
      parts.push(h("div", { class: "choices rotate" },
        button("⟲", "rotate-back", () => set({ turn: (ui.picks.lay?.turn ?? 0) - 1 }), { disabled: p.rotations.length < 2, title: "Previous legal rotation" }),
        h("span", { class: "rotation", dataset: { testid: "rotation" } }, `rotation ${k + 1} of ${p.rotations.length} legal`),
        button("⟳", "rotate", () => set({ turn: (ui.picks.lay?.turn ?? 0) + 1 }), { disabled: p.rotations.length < 2, title: "Next legal rotation" })));
      const def = view.tile_defs?.[tileName(p.tile)];
      if (def && board) parts.push(tileCloseUp(view, board, rotated(def, /** @type {number} */ (p.rotation))));
      const action = { ...lay.action, hex: p.hex, tile: p.tile, rotation: p.rotation };
      parts.push(h("div", { class: "choices" },
        button(`Lay ${tileName(p.tile)} on ${n.hex(p.hex)}${cost ? ` for ${n.money(cost)}` : ""}`, "lay_tile", () => on.act(action), { primary: true, disabled: ui.pending }),
        button("Another hex", "cancel-lay", () => on.update({ picks: { ...ui.picks, lay: {} } }))));
    } else {
      parts.push(button("Another hex", "cancel-lay", () => on.update({ picks: { ...ui.picks, lay: {} } })));
    }
  }
  return h("div", { class: "family lay", dataset: { type: "lay_tile", testid: "lay" } }, parts);
}

/**
 * @param {any} view
 * @param {LegalAction} token
 * @param {PageContext} ctx
 * @param {Names} n
 */
function tokenPanel(view, token, ctx, n) {
  const cities = trieAt(token.choices, [])?.values ?? [];
  return h("div", { class: "family token", dataset: { type: "place_token", testid: "token" } },
    h("p", {}, `${view.position?.founding ? "Place the home station of" : "Place a station of"} ${token.action.tokener ?? token.action.entity}: tap a ringed slot, or pick a city:`),
    h("div", { class: "choices" }, cities.flatMap((/** @type {string} */ city) => tokenSpots(view, token, city).map(({ slot, action }) =>
      button(describe(view, action, n), "place_token", () => ctx.on.act(action), { primary: true, disabled: ctx.ui.pending, testid: `token-${city}-${slot}` })))));
}

/**
 * The tile being laid, large, with the neighbours named at each side, so its orientation is
 * plain on a phone (where the map's hex is small) before it is sent.
 * @param {any} view
 * @param {any} hex
 * @param {any} preview
 */
function tileCloseUp(view, hex, preview) {
  const layout = view.board.layout;
  const [cx, cy] = centre(layout, hex.x, hex.y);
  const r = SIZE * 1.75;
  const svg = s("svg", { class: "tile-close-up", viewBox: `${cx - r} ${cy - r} ${2 * r} ${2 * r}`, role: "img",
    "aria-label": `Tile ${preview.label ?? ""} as it would be laid`, dataset: { testid: "tile-close-up" } });
  drawHex(svg, layout, hex, { colors: () => ({ color: "#777", text: "#fff" }), currency: "" }, preview);
  for (let e = 0; e < 6; e++) {
    const [ex, ey] = edgePoint(layout, hex.x, hex.y, e);
    const [dx, dy] = [ex - cx, ey - cy];
    const nx = Math.round(hex.x + dx / (layout === "pointy" ? SIZE * Math.sqrt(3) / 4 : SIZE * 0.75));
    const ny = Math.round(hex.y + dy / (layout === "pointy" ? SIZE * 0.75 : SIZE * Math.sqrt(3) / 4));
    const other = view.board.hexes.find((/** @type {any} */ o) => o.x === nx && o.y === ny);
    // Named neighbours only: a coordinate tells a player nothing; the track shows the rest.
    const name = other ? (other.name ? other.name.split(" ")[0] : "") : "off the map";
    svg.append(s("text", { x: cx + dx * 1.55, y: cy + dy * 1.55 + 3, "text-anchor": "middle", "font-size": 7, fill: other ? "#222" : "#888" }, name));
  }
  return h("figure", { class: "close-up" }, svg, h("figcaption", {}, "The tile as it would lie, its neighbours named round it."));
}
