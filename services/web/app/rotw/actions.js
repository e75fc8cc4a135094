// @ts-check
// The decision at hand, built only from the seat's legal families (GET /legal): the families
// that start at a hex (lay_track hex -> entry -> exit, urbanize hex -> colour, deliver
// city -> colour -> path) are picked on the map (or from a list), then finished with buttons
// that say what they do; the baron, bids and plain actions get their own words; any other
// kind gets the generic family control, so a reshaped action still has a control.
import { nextChoice } from "../../sdk/roundhouse.js";
import { amountControl, button } from "../controls.js";
import { h } from "../dom.js";
import { familyControl } from "../legalform.js";
import { EDGE_NAMES, across, cell, distance } from "./hexgeom.js";
import { TERRAIN } from "./mapdata.js";
import { baronText, cardText, dollars, ownerName } from "./names.js";
import { companyInTurn } from "./companies.js";
import { cityName } from "./panels.js";

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../pageapi.js").PanelState} PanelState
 * @typedef {import("../pageapi.js").Target} Target
 * @typedef {import("../../sdk/roundhouse.js").LegalAction} LegalAction
 * @typedef {import("../../sdk/roundhouse.js").Choice} Choice
 */

const AT_HEX = { lay_track: "hex", urbanize: "hex", deliver: "city" };
const KIND_WORDS = { lay_track: "Build track", urbanize: "Urbanize", deliver: "Deliver goods from" };

/** @param {any} node @returns {Choice | null} */
const asChoice = (node) => (node && "values" in node ? node : null);

/**
 * Hexes the map offers now: every first value of the hex-led families.
 * @param {any} view
 * @param {LegalAction[]} legal
 * @param {PanelState} ui
 * @returns {Map<string, Target>}
 */
export function mapTargets(view, legal, ui) {
  /** @type {Map<string, Target>} */
  const out = new Map();
  const route = layRoute(legal, ui);
  if (route) {
    // A tile's hex is picked: its neighbours are the choices (where the track comes from, if
    // more than one way, then where it goes), each a tap on the map that previews the tile.
    const entry = chosenEntry(route, ui);
    if (entry === undefined) {
      for (const e of route.entries) {
        const from = across(route.hex, e.entry);
        out.set(from, { label: `Track into ${placeName(view, route.hex)} from ${placeName(view, from)}`, action: { ...route.base, entry: e.entry, exit: e.exits[0] }, kind: "route-entry" });
      }
    } else {
      for (const ex of route.entries.find((e) => e.entry === entry)?.exits ?? []) {
        const to = across(route.hex, ex);
        out.set(to, { label: `Track from ${placeName(view, route.hex)} toward ${placeName(view, to)} (${EDGE_NAMES[ex]})`, action: { ...route.base, entry, exit: ex }, kind: "route-exit" });
      }
    }
    return out;
  }
  // Mid-build with track of yours left open: its next hex is what to tap (and what the page
  // scrolls to); other starts stay in the list under the prompt.
  const ends = openEnds(view);
  for (const entry of legal) {
    const type = entry.action.type;
    const field = /** @type {any} */ (AT_HEX)[type];
    const root = asChoice(entry.choices);
    if (!field || !root || root.field !== field) continue;
    for (const hex of /** @type {string[]} */ (root.values)) {
      if (type === "lay_track" && root.values.some((v) => ends.has(String(v))) && !ends.has(hex)) continue;
      const known = out.get(hex);
      const words = `${/** @type {any} */ (KIND_WORDS)[type]} ${cityName(view, hex)}`;
      out.set(hex, known ? { ...known, label: `${known.label} / ${words}` } : { label: words, action: { ...entry.action, [field]: hex }, kind: type });
    }
  }
  return out;
}

/**
 * Where the acting seat's open track goes next, in a build (the hexes across each open end).
 * @param {any} view @returns {Set<string>}
 */
function openEnds(view) {
  if (view.phase !== "build" && view.phase !== "company_build") return new Set();
  const actor = (view.to_act ?? [])[0]; // the advanced game's only open link is the company's in hand
  return new Set((view.links ?? [])
    .filter((/** @type {any} */ l) => !l.complete && (view.game === "advanced" || l.owner === actor) && l.hexes.length)
    .map((/** @type {any} */ l) => across(l.hexes[l.hexes.length - 1], l.exit)));
}

/**
 * The tile being chosen: the lay_track family at the picked hex, its (entry, exits) pairs.
 * @param {LegalAction[] | null} legal @param {PanelState} ui
 * @returns {{hex: string, base: any, entries: {entry: number, exits: number[]}[]} | null}
 */
export function layRoute(legal, ui) {
  const at = ui.picks.at;
  const family = (legal ?? []).find((e) => e.action.type === "lay_track");
  const root = asChoice(family?.choices);
  const index = root && root.field === "hex" && typeof at === "string" ? root.values.indexOf(at) : -1;
  if (!family || !root || index < 0) return null;
  const entries = asChoice(nextChoice(root, index));
  if (!entries) return null;
  return {
    hex: String(at), base: { ...family.action, hex: at },
    entries: entries.values.map((en, i) => ({ entry: Number(en), exits: (asChoice(nextChoice(entries, i))?.values ?? []).map(Number) })),
  };
}

/** The entry edge chosen (or the only one). @param {NonNullable<ReturnType<typeof layRoute>>} route @param {PanelState} ui */
function chosenEntry(route, ui) {
  const picked = route.entries.find((e) => e.entry === ui.picks.entry);
  if (picked) return picked.entry;
  return route.entries.length === 1 ? route.entries[0].entry : undefined;
}

/**
 * The tile previewed on the map: the picked hex, its entry and the exit tapped (or chosen).
 * @param {LegalAction[] | null} legal @param {PanelState} ui
 * @returns {{hex: string, entry: number, exit: number} | null}
 */
export function buildPreview(legal, ui) {
  const route = layRoute(legal, ui);
  if (!route) return null;
  const entry = chosenEntry(route, ui);
  const exit = Number(ui.picks.exit);
  const ok = route.entries.some((e) => e.entry === entry && e.exits.includes(exit));
  return ok && entry !== undefined ? { hex: route.hex, entry, exit } : null;
}

/**
 * A tap on the map: a route choice when a tile's hex is picked, else a new pick.
 * @param {PageContext} ctx @param {string} hex
 */
export function pickOnMap(ctx, hex) {
  const t = ctx.targets.get(hex);
  const { entry: _e, exit: _x, ...rest } = ctx.ui.picks;
  if (t?.kind === "route-exit") ctx.on.update({ picks: { ...rest, entry: t.action.entry, exit: t.action.exit } });
  else if (t?.kind === "route-entry") ctx.on.update({ picks: { ...rest, entry: t.action.entry } });
  else ctx.on.update({ picks: { ...rest, at: hex } });
}

const TILE_COST = { p: 2000, w: 3000, m: 4000, x: 4000 };
const TERRAIN_WORDS = { p: "open country", w: "water", m: "mountains", x: "mountains" };

/** What a tile in `hex` costs now (the Tunnel Engineer halves mountains). @param {any} view @param {string} hex */
export function tileCost(view, hex) {
  const { col, row } = cell(hex);
  const t = TERRAIN[row]?.[col] ?? "p";
  if ((t === "m" || t === "x") && view.build?.tunnel) return 2000;
  // Advanced game: a company's second link costs $2,000 more per hex (seed III.1).
  const second = view.game === "advanced" && (view.build?.links ?? 0) >= 1 ? 2000 : 0;
  return (/** @type {any} */ (TILE_COST)[t] ?? 2000) + second;
}

/** A hex as a player knows it: the city or town's name, else its terrain near a place. @param {any} view @param {string} hex */
export function placeName(view, hex) {
  const named = cityName(view, hex);
  if (named !== hex) return named;
  const { col, row } = cell(hex);
  const t = TERRAIN[row]?.[col];
  const near = nearestPlace(view, hex);
  return `${/** @type {any} */ (TERRAIN_WORDS)[t ?? "p"] ?? "open country"}${near ? ` near ${near}` : ""}`;
}

/** The nearest city or town's name (within 3 hexes). @param {any} view @param {string} hex */
function nearestPlace(view, hex) {
  let best = null;
  let dist = 4;
  for (const p of [...(view.cities ?? []), ...(view.towns ?? [])]) {
    const d = distance(hex, p.hex);
    if (d < dist) { dist = d; best = p.name; }
  }
  return best;
}


/**
 * The deliveries the seat may make from the picked city (every colour and path the family
 * offers there), to draw on the map; none until a city is picked.
 * @param {LegalAction[] | null} legal
 * @param {unknown} at
 * @returns {{city: string, color: string, path: number[]}[]}
 */
export function deliveryRoutes(legal, at) {
  const entry = (legal ?? []).find((e) => e.action.type === "deliver");
  const root = asChoice(entry?.choices);
  const index = root && root.field === "city" ? root.values.indexOf(/** @type {any} */ (at)) : -1;
  if (!root || index < 0) return [];
  const colours = asChoice(nextChoice(root, index));
  if (!colours) return [];
  return colours.values.flatMap((colour, i) => (asChoice(nextChoice(colours, i))?.values ?? [])
    .map((path) => ({ city: String(at), color: String(colour), path: /** @type {number[]} */ (path) })));
}

/**
 * The families picked on the map first (lay_track, urbanize, deliver).
 * @param {LegalAction[]} legal
 */
export function hexLedFamilies(legal) {
  return legal.filter((e) => /** @type {any} */ (AT_HEX)[e.action.type] && asChoice(e.choices)?.field === /** @type {any} */ (AT_HEX)[e.action.type]);
}

/**
 * @param {any} view
 * @param {PageContext} ctx
 */
export function actionPanel(view, ctx) {
  const { mySeat, legal, ui, on } = ctx;
  if (view.result) return [h("p", {}, "The game is over.")];
  if (mySeat === null) return [h("p", {}, "Watching as a spectator.")];
  if (!(view.to_act ?? []).includes(mySeat)) {
    const who = (view.to_act ?? []).map((/** @type {number} */ s) => view.players[s]?.name).join(", ");
    return [h("p", {}, `Waiting for ${who || "the other players"}…`)];
  }
  if (legal === null) return [h("p", { class: "muted" }, "Loading your options…")];
  const me = view.players[mySeat];
  /** @type {import("../dom.js").Child[]} */
  const out = [h("p", { class: "prompt" }, prompt(view, me))];
  const why = missing(view, legal, me);
  if (why.length) out.push(h("p", { class: "muted why-missing", dataset: { testid: "why-missing" } }, `Not possible now: ${why.join(" ")}`));
  const at = /** @type {string | undefined} */ (ui.picks.at);
  const hexLed = hexLedFamilies(legal);
  if (hexLed.length) out.push(...hexPanel(view, ctx, hexLed, at));
  /** @type {HTMLElement[]} */
  const buttons = [];
  /** @type {import("../dom.js").Child[]} */
  const others = [];
  legal.forEach((entry, i) => {
    if (hexLed.includes(entry)) return;
    const type = entry.action.type;
    const root = asChoice(entry.choices);
    if (type === "choose_baron" && root) {
      root.values.forEach((b) => buttons.push(button(`Keep ${baronText(String(b))}`, "choose_baron", () => on.act({ type, baron: b }), { primary: true, disabled: ui.pending })));
    } else if (type === "bid" && entry.range) {
      const range = entry.range;
      others.push(h("div", { class: "family", dataset: { type } }, amountControl({
        range, value: ui.amount, act: type, pending: ui.pending, format: dollars,
        label: (amount) => `Bid ${dollars(amount)}`,
        submit: (amount) => on.act({ ...entry.action, [range.field]: amount }),
        remember: (amount) => (ui.amount = amount),
        step: (amount) => on.update({ amount }),
      })));
    } else if (type === "take_card" && root?.field === "card") {
      others.push(...cardChoices(view, root, nextChoice, ctx));
    } else if (!root && !entry.range && PLAIN[type]) {
      // Only "Done building" stands out: a card or a share is never the obvious next step.
      buttons.push(button(PLAIN[type](me), type, () => on.act(entry.action), { primary: type === "end_build", disabled: ui.pending }));
    } else {
      others.push(familyControl(entry, `family-${i}-${type}`, ui, on, (a) => describe(view, a)));
    }
  });
  out.push(...others);
  if (buttons.length) out.push(h("div", { class: "choices" }, buttons));
  return out;
}

/** @type {Record<string, (me: any) => string>} */
const PLAIN = {
  pass: () => "Pass",
  issue_share: () => "Issue a share (+$5,000; $1,000 a turn, −1 VP)",
  end_build: () => "Done building",
  use_tunnel_engineer: () => "Use the Tunnel Engineer (mountains $2,000)",
  upgrade_engine: (me) => `Upgrade engine to level ${me.engine + 1} ($${me.engine + 3},000)`,
  inspect: () => "Play the Railway Inspector (stop this delivery)",
  allow: () => "Let the delivery happen",
};

/**
 * The actions of the round the seat cannot take, each with what would unlock it.
 * @param {any} view @param {LegalAction[]} legal @param {any} me
 */
function missing(view, legal, me) {
  if (view.phase !== "action" || view.game === "advanced") return [];
  const has = new Set(legal.map((e) => e.action.type));
  const out = [];
  if (!has.has("deliver")) out.push(`Deliver — no goods cube can reach a city of its colour over completed links (your engine ${me.engine} carries a cube over at most ${me.engine} link${me.engine === 1 ? "" : "s"}); complete a link between a city with goods and a city of their colour, or upgrade the engine.`);
  if (!has.has("lay_track")) out.push("Build — no city, town or open track of yours has a free edge to build from.");
  if (!has.has("upgrade_engine")) out.push("Upgrade engine — your engine is at the top level.");
  if (!has.has("urbanize")) out.push("Urbanize — no new-city tile is left.");
  if (!has.has("take_card")) out.push("Take a card — none on display that you may take.");
  return out;
}

/** @param {any} view @param {any} me */
function prompt(view, me) {
  if (view.phase === "baron") return "Choose your secret baron: it scores 10 VP at the end if you meet its goal.";
  if (view.phase === "auction") {
    const a = view.auction;
    const high = a && a.high_bidder >= 0 ? `${view.players[a.high_bidder]?.name ?? "?"} bids ${dollars(a.high_bid)}` : "no bid yet";
    const lowest = a && a.high_bidder >= 0 ? a.high_bid + 1000 : 1000;
    const can = me.cash >= lowest ? `Bid at least ${dollars(lowest)} to play first, or pass.` : `You cannot bid: the lowest bid is ${dollars(lowest)} and you have ${dollars(me.cash)} (a bid is paid in cash; shares are issued only to pay for track, a city or an engine). Pass.`;
    return `First-player auction: ${high}. ${can}`;
  }
  if (view.phase === "build") return `Building (${view.build?.tiles ?? 0} of 4 tiles, ${dollars(view.build?.spent ?? 0)} spent): tap a highlighted hex for the next tile, then the neighbour it leads to.`;
  if (view.phase === "inspect") return "A delivery is announced: play your Railway Inspector?";
  return `Round ${view.round} of 3: take one action. You have ${dollars(me.cash)}, engine ${me.engine}. To build, tap a highlighted hex next to a city or your open track. What you cannot pay in cash is paid by issuing shares ($5,000 each), as the payment needs.`;
}

/**
 * The hex-led families: a list to pick a hex from (the map's highlights, for the keyboard and
 * small screens), and once a hex is picked, its options as buttons.
 * @param {any} view
 * @param {PageContext} ctx
 * @param {LegalAction[]} families
 * @param {string | undefined} at
 */
export function hexPanel(view, ctx, families, at) {
  const { ui, on } = ctx;
  const out = [];
  for (const entry of families) {
    const type = entry.action.type;
    const root = /** @type {Choice} */ (asChoice(entry.choices));
    const index = at === undefined ? -1 : root.values.indexOf(at);
    out.push(h("label", { class: "pick" }, `${/** @type {any} */ (KIND_WORDS)[type]} `,
      h("select", {
        dataset: { testid: `pick-${type}` }, disabled: ui.pending, "aria-label": /** @type {any} */ (KIND_WORDS)[type],
        onchange: (/** @type {Event} */ e) => on.update({ picks: { ...ui.picks, at: root.values[Number(/** @type {HTMLSelectElement} */ (e.target).value)] } }),
      },
      h("option", { value: "", selected: index < 0, disabled: true }, `${root.values.length} place${root.values.length === 1 ? "" : "s"}…`),
      root.values.map((v, i) => h("option", { value: i, selected: i === index, dataset: { hex: String(v) } }, placeName(view, String(v)))))));
    if (index < 0) continue;
    const next = nextChoice(root, index);
    const base = { ...entry.action, [root.field]: at };
    if (type === "lay_track") out.push(...routePanel(view, ctx));
    else if (type === "urbanize") {
      const colours = asChoice(next);
      out.push(h("div", { class: "choices" }, (colours?.values ?? []).map((c) => button(`Urbanize ${cityName(view, String(at))} as ${c} ($10,000)`, "urbanize", () => on.act({ ...base, color: c }), { disabled: ui.pending }))));
    } else if (type === "deliver") out.push(h("div", { class: "choices", dataset: { testid: "deliveries" } }, deliveries(view, next, base, ui, on)));
  }
  return out;
}

/** @param {HTMLElement} el @param {Record<string, number>} data */
function withData(el, data) {
  for (const [k, v] of Object.entries(data)) el.dataset[k] = String(v);
  return el;
}

/**
 * The tile at the picked hex, step by step: where the track comes from (when there is a
 * choice), where it goes (a tap on a highlighted neighbour, or these buttons), then the tile
 * drawn on the map with its cost, to confirm or take back. Nothing is built before "Build".
 * @param {any} view @param {PageContext} ctx
 */
function routePanel(view, ctx) {
  const { legal, ui, on, mySeat } = ctx;
  const route = layRoute(legal, ui);
  if (!route) return [];
  const { entry: _e, exit: _x, at: _a, ...rest } = ui.picks;
  const cost = tileCost(view, route.hex);
  const price = `${dollars(cost)}${paidBy(view, mySeat, cost)}`;
  const cancel = button("Cancel", "cancel-build", () => on.update({ picks: rest }), { disabled: ui.pending });
  const entry = chosenEntry(route, ui);
  const out = [h("p", { class: "route-head", dataset: { testid: "route-head" } }, `A tile in ${placeName(view, route.hex)}: ${price}.`)];
  if (entry === undefined) {
    out.push(h("p", {}, "Where does the track come from? Tap the highlighted neighbour on the map, or:"),
      h("div", { class: "choices", dataset: { testid: "route-entries" } }, route.entries.map((e) => button(`From ${placeName(view, across(route.hex, e.entry))} (${EDGE_NAMES[e.entry]})`, "route-entry",
        () => on.update({ picks: { ...ui.picks, entry: e.entry } }), { disabled: ui.pending })), cancel));
    return out;
  }
  const preview = buildPreview(legal, ui);
  const from = placeName(view, across(route.hex, entry));
  if (!preview) {
    const exits = route.entries.find((e) => e.entry === entry)?.exits ?? [];
    out.push(h("p", {}, `From ${from}. Where does it go? Tap a highlighted neighbouring hex to see the tile drawn, or:`),
      h("div", { class: "choices", dataset: { testid: "routes" } }, exits.map((ex) => withData(button(`Toward ${placeName(view, across(route.hex, ex))} (${EDGE_NAMES[ex]})`, "route",
        () => on.update({ picks: { ...ui.picks, entry, exit: ex } }), { disabled: ui.pending }), { entry, exit: ex })), cancel));
    return out;
  }
  const to = placeName(view, across(route.hex, preview.exit));
  out.push(h("p", {}, `The dotted tile on the map: from ${from} toward ${to}.`), confirmRow(view, ctx, "confirm-route"));
  return out;
}

/**
 * What paying `cost` now raises, in words ("" when the cash covers it): the standard game's
 * player issues $5,000 shares (payment.py); an advanced company issues shares from its card
 * at its price, then takes $5,000 bonds (advanced/shares.py raise_for).
 * @param {any} view @param {number | null} mySeat @param {number} cost
 */
export function paidBy(view, mySeat, cost) {
  if (view.game === "advanced") {
    const c = companyInTurn(view);
    if (!c || cost <= c.cash) return "";
    const [shares, bonds] = raiseFor(c, cost);
    const what = [shares ? `issues ${shares} share${shares > 1 ? "s" : ""} at ${dollars(c.price * 1000)}` : "",
      bonds ? `takes ${bonds} bond${bonds > 1 ? "s" : ""} ($5,000 each)` : ""].filter(Boolean).join(" and ");
    return ` — the ${c.name} has ${dollars(c.cash)}, so it ${what}`;
  }
  const cash = mySeat === null ? 0 : view.players?.[mySeat]?.cash ?? 0;
  const shares = Math.max(0, Math.ceil((cost - cash) / 5000));
  return shares ? ` — you have ${dollars(cash)}, so ${shares} share${shares > 1 ? "s" : ""} will be issued (${dollars(5000 * shares)}; $1,000 a turn and −1 VP each)` : "";
}

/** [shares, bonds] an advanced company raises to pay `cost` (as advanced/shares.py raise_for). @param {any} c @param {number} cost */
export function raiseFor(c, cost) {
  let short = Math.max(0, cost - c.cash);
  const shares = Math.min(c.card, Math.ceil(short / (c.price * 1000)));
  short = Math.max(0, short - shares * c.price * 1000);
  return [shares, Math.ceil(short / 5000)];
}

/**
 * After a hex is picked on the map its choices (routes, deliveries) appear in the action
 * panel: bring them into sight inside it (sticky on a desktop, docked at the bottom on a
 * phone; both scroll inside, so the page and the map stay where they are).
 */
export function showChoices() {
  const panel = document.querySelector("[data-testid=actions]");
  const el = panel?.querySelector(["route-head", "deliveries"].map((t) => `[data-testid=${t}]`).join(", "));
  if (!panel || !el) return;
  // To the top of the panel: the choices under the heading then fit in it.
  panel.scrollTop += el.getBoundingClientRect().top - panel.getBoundingClientRect().top - 4;
}

/**
 * Build / another way / cancel for the previewed tile, in the action panel. Empty without a
 * preview.
 * @param {any} view @param {PageContext} ctx @param {string} testid
 */
export function confirmRow(view, ctx, testid) {
  const { legal, ui, on } = ctx;
  const route = layRoute(legal, ui);
  const preview = buildPreview(legal, ui);
  if (!route || !preview) return h("div", { hidden: true, dataset: { testid } });
  const { entry: _e, exit: _x, at: _a, ...rest } = ui.picks;
  const from = placeName(view, across(route.hex, preview.entry));
  const to = placeName(view, across(route.hex, preview.exit));
  const cost = tileCost(view, route.hex);
  return h("div", { class: "choices", dataset: { testid } },
    withData(button(`Build: ${from} → ${to} (${dollars(cost)})`, "lay_track", () => on.act({ ...route.base, entry: preview.entry, exit: preview.exit }),
      { primary: true, disabled: ui.pending, testid: testid === "confirm-route" ? "confirm-build" : `${testid}-build` }), { entry: preview.entry, exit: preview.exit }),
    button("Another way", "route-back", () => on.update({ picks: { ...rest, at: route.hex, ...(route.entries.length > 1 ? { entry: preview.entry } : {}) } }), { disabled: ui.pending }),
    button("Cancel", "cancel-build", () => on.update({ picks: rest }), { disabled: ui.pending }));
}

/**
 * One button per (colour, path): the cities the cube passes, in order.
 * @param {any} view @param {any} node @param {any} base @param {PanelState} ui @param {any} on
 */
function deliveries(view, node, base, ui, on) {
  const colours = asChoice(node);
  if (!colours) return [];
  const links = new Map((view.links ?? []).map((/** @type {any} */ l) => [l.id, l]));
  return colours.values.flatMap((colour, i) => {
    const paths = asChoice(nextChoice(colours, i));
    return (paths?.values ?? []).map((path) => {
      let here = base.city;
      const stops = [cityName(view, here)];
      for (const id of /** @type {number[]} */ (path)) {
        const l = links.get(id);
        here = l ? (l.a === here ? l.b : l.a) : "?";
        stops.push(cityName(view, here));
      }
      const owners = /** @type {number[]} */ (path).map((id) => ownerName(view, links.get(id)?.owner));
      // Whose links it uses, one name a link: each link moves its owner up one space (VP in the
      // standard game, the company's income marker in the advanced one).
      const gain = view.game === "advanced" ? "+1 income a link to" : "1 VP a link to";
      return button(`${colour} cube: ${stops.join(" → ")} · ${gain} (${owners.join(", ")})`, "deliver", () => on.act({ ...base, color: colour, path }), { disabled: ui.pending });
    });
  });
}

/**
 * The operations cards that may be taken: one button per kind of card; City growth first
 * asks for the city.
 * @param {any} view @param {any} root the family's `card` choice @param {(node: any, i: number) => any} next
 * @param {PageContext} ctx
 */
function cardChoices(view, root, next, ctx) {
  const { ui, on } = ctx;
  const kindOf = (/** @type {string} */ id) => (view.display ?? []).find((/** @type {any} */ c) => c.id === id);
  // Cards of one kind are alike: one control per kind (the first such card on display). All
  // in one row, named only (the display panel says what each does; so does each tooltip).
  const seen = new Set();
  const controls = root.values.flatMap((/** @type {string} */ id, /** @type {number} */ i) => {
    const card = kindOf(id) ?? { id, name: id, kind: id };
    if (seen.has(card.kind)) return [];
    seen.add(card.kind);
    const cities = next(root, i)?.values ?? [""];
    const title = `${card.name}: ${cardText(card.kind)}`;
    if (cities.length === 1 && cities[0] === "") {
      return [button(`Take ${card.name}`, "take_card", () => on.act({ type: "take_card", card: id, city: "" }), { disabled: ui.pending, title })];
    }
    const picked = /** @type {string | undefined} */ (ui.picks[`growth-${id}`]);
    return [h("label", { class: "pick", title }, `Take ${card.name} for `, h("select", {
      dataset: { testid: "pick-growth" }, disabled: ui.pending, "aria-label": `${card.name}: city`,
      onchange: (/** @type {Event} */ e) => on.update({ picks: { ...ui.picks, [`growth-${id}`]: cities[Number(/** @type {HTMLSelectElement} */ (e.target).value)] } }),
    }, h("option", { value: "", selected: !picked, disabled: true }, "city…"),
    cities.map((/** @type {string} */ c, /** @type {number} */ k) => h("option", { value: k, selected: c === picked, dataset: { hex: c } }, cityName(view, c))))),
    picked ? button(`Take ${card.name} (${cityName(view, picked)})`, "take_card", () => on.act({ type: "take_card", card: id, city: picked }), { disabled: ui.pending, title }) : null];
  });
  return controls.length ? [h("div", { class: "choices cards-row" }, controls)] : [];
}

/** A complete action in words, for the generic controls. @param {any} view @param {any} a */
function describe(view, a) {
  if (a.type === "bid") return `Bid ${dollars(a.amount)}`;
  if (a.type === "take_card") return `Take ${a.card}${a.city ? ` (goods to ${cityName(view, a.city)})` : ""}`;
  return Object.entries(a).map(([k, v]) => (k === "type" ? String(v) : `${k}=${JSON.stringify(v)}`)).join(" ");
}
