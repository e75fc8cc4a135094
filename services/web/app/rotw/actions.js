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
import { EDGE_NAMES } from "./hexgeom.js";
import { baronText, cardText, dollars, ownerName } from "./names.js";
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
 * @param {PanelState} _ui
 * @returns {Map<string, Target>}
 */
export function mapTargets(view, legal, _ui) {
  /** @type {Map<string, Target>} */
  const out = new Map();
  for (const entry of legal) {
    const type = entry.action.type;
    const field = /** @type {any} */ (AT_HEX)[type];
    const root = asChoice(entry.choices);
    if (!field || !root || root.field !== field) continue;
    for (const hex of /** @type {string[]} */ (root.values)) {
      const known = out.get(hex);
      const words = `${/** @type {any} */ (KIND_WORDS)[type]} ${cityName(view, hex)}`;
      out.set(hex, known ? { ...known, label: `${known.label} / ${words}` } : { label: words, action: { ...entry.action, [field]: hex }, kind: type });
    }
  }
  return out;
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

/** @param {any} view @param {any} me */
function prompt(view, me) {
  if (view.phase === "baron") return "Choose your secret baron: it scores 10 VP at the end if you meet its goal.";
  if (view.phase === "auction") {
    const a = view.auction;
    return `First-player auction: ${a?.high_bidder != null ? `${view.players[a.high_bidder]?.name} bids ${dollars(a.high_bid)}` : "no bid yet"}. You have ${dollars(me.cash)}.`;
  }
  if (view.phase === "build") return `Building (${view.build?.tiles ?? 0} of 4 tiles, ${dollars(view.build?.spent ?? 0)} spent): click a highlighted hex, then pick the route.`;
  if (view.phase === "inspect") return "A delivery is announced: play your Railway Inspector?";
  return `Round ${view.round} of 3: take one action. You have ${dollars(me.cash)}, engine ${me.engine}.`;
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
      root.values.map((v, i) => h("option", { value: i, selected: i === index }, `${cityName(view, String(v))} (${v})`)))));
    if (index < 0) continue;
    const next = nextChoice(root, index);
    const base = { ...entry.action, [root.field]: at };
    if (type === "lay_track") out.push(h("div", { class: "choices", dataset: { testid: "routes" } }, routes(next, base, ui, on)));
    else if (type === "urbanize") {
      const colours = asChoice(next);
      out.push(h("div", { class: "choices" }, (colours?.values ?? []).map((c) => button(`Urbanize ${cityName(view, String(at))} as ${c} ($10,000)`, "urbanize", () => on.act({ ...base, color: c }), { disabled: ui.pending }))));
    } else if (type === "deliver") out.push(h("div", { class: "choices", dataset: { testid: "deliveries" } }, deliveries(view, next, base, ui, on)));
  }
  return out;
}

/**
 * One button per (entry, exit) pair the trie allows at the picked hex.
 * @param {any} node @param {any} base @param {PanelState} ui @param {any} on
 */
function routes(node, base, ui, on) {
  const entries = asChoice(node);
  if (!entries) return [];
  return entries.values.flatMap((en, i) => {
    const exits = asChoice(nextChoice(entries, i));
    return (exits?.values ?? []).map((ex) => button(`In from the ${EDGE_NAMES[Number(en)]}, out to the ${EDGE_NAMES[Number(ex)]}`, "lay_track",
      () => on.act({ ...base, entry: en, exit: ex }), { disabled: ui.pending, primary: true }));
  });
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
      return button(`${colour}: ${stops.join(" → ")} (${owners.join(", ")})`, "deliver", () => on.act({ ...base, color: colour, path }), { disabled: ui.pending });
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
    cities.map((/** @type {string} */ c, /** @type {number} */ k) => h("option", { value: k, selected: c === picked }, `${cityName(view, c)} (${c})`)))),
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
