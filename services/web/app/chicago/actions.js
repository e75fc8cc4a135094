// @ts-check
// The action panel and the map's clickable hexes, both driven only by the seat's legal
// actions (GET /legal): what is not legal is not offered, and what the rules refuse anyway
// (an amount typed out of range, a move overtaken by another tab) comes back as the
// engine's message.
import { h, money } from "../dom.js";
import { companyColor, companyShort, hexName, ink, playerName } from "./names.js";

/**
 * @typedef {import("../../sdk/roundhouse.js").LegalAction} LegalAction
 * @typedef {import("../../sdk/roundhouse.js").Action} Action
 * @typedef {import("./map.js").Target} Target
 * @typedef {{company: string | null, amount: number | null, message: string | null, pending: boolean, canUndo: boolean}} PanelState
 *   what the player has picked so far in this decision, and the last refusal
 * @typedef {{act: (action: Action) => void, undo: () => void, update: (patch: Partial<PanelState>) => void}} PanelHandlers
 */

/**
 * Legal actions by type.
 * @param {LegalAction[]} legal
 * @returns {Map<string, LegalAction[]>}
 */
function byType(legal) {
  const out = new Map();
  for (const entry of legal) {
    const list = out.get(entry.action.type) ?? [];
    list.push(entry);
    out.set(entry.action.type, list);
  }
  return out;
}

/**
 * The company whose locomotives a build places: fixed by the first one, or the player's
 * pick, or the only one possible.
 * @param {any} view
 * @param {LegalAction[]} builds
 * @param {PanelState} ui
 */
function buildCompany(view, builds, ui) {
  const companies = [...new Set(builds.map((b) => /** @type {string} */ (b.action.company)))];
  if (view.build?.company) return view.build.company;
  if (ui.company && companies.includes(ui.company)) return ui.company;
  return companies.length === 1 ? companies[0] : null;
}

/**
 * The hexes a click acts on now, with what the click does.
 * @param {any} view
 * @param {LegalAction[]} legal
 * @param {PanelState} ui
 * @returns {Map<string, Target & {action: Action}>}
 */
export function mapTargets(view, legal, ui) {
  const out = new Map();
  if (ui.pending) return out;
  const groups = byType(legal);
  const builds = groups.get("build") ?? [];
  const company = buildCompany(view, builds, ui);
  for (const b of builds) {
    if (b.action.company !== company) continue;
    const hex = /** @type {string} */ (b.action.hex);
    const cost = view.hexes.find((/** @type {any} */ x) => x.id === hex)?.next_build_cost;
    out.set(hex, { hex, kind: "build", label: `Build ${companyShort(view, company)} at ${hexName(view, hex)} for $${cost}`, action: b.action });
  }
  for (const d of groups.get("develop") ?? []) {
    const hex = /** @type {string} */ (d.action.hex);
    out.set(hex, { hex, kind: "develop", label: `Develop ${hexName(view, hex)}`, action: d.action });
  }
  return out;
}

/**
 * @param {string} label
 * @param {string} act  data-act, for tests and styling
 * @param {() => void} onclick
 * @param {{primary?: boolean, disabled?: boolean, style?: any, company?: string}} [more]
 */
function button(label, act, onclick, more = {}) {
  return h(
    "button",
    {
      type: "button",
      class: more.primary ? "primary" : "",
      dataset: more.company ? { act, company: more.company } : { act },
      disabled: more.disabled,
      style: more.style,
      onclick,
    },
    label,
  );
}

/**
 * Amount field with − / + and the legal range shown.
 * @param {LegalAction} legal  the ranged legal action
 * @param {PanelState} ui
 * @param {PanelHandlers} on
 * @param {(amount: number) => string} label  the submit button's text
 * @param {string} act
 */
function amountControl(legal, ui, on, label, act) {
  const range = /** @type {import("../../sdk/roundhouse.js").AmountRange} */ (legal.range);
  const amount = ui.amount ?? range.min;
  const input = /** @type {HTMLInputElement} */ (
    h("input", {
      type: "number", inputmode: "numeric", min: range.min, max: range.max, step: range.step, value: amount,
      "aria-label": "Amount", dataset: { testid: "amount" },
    })
  );
  const read = () => Number(input.value);
  const submit = () => {
    const value = read();
    if (!Number.isInteger(value)) {
      on.update({ message: `Enter a whole amount from $${range.min} to $${range.max}.` });
      return;
    }
    on.act({ ...legal.action, [range.field]: value });
  };
  const nudge = (/** @type {number} */ by) => {
    const next = Math.min(range.max, Math.max(range.min, (Number.isInteger(read()) ? read() : range.min) + by));
    on.update({ amount: next });
  };
  // Typing is kept without a redraw (a redraw would take the focus away mid-number).
  input.addEventListener("input", () => {
    if (Number.isInteger(read())) ui.amount = read();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter") submit();
  });
  return h(
    "div",
    { class: "amount" },
    h("div", { class: "stepper" },
      button("−", "less", () => nudge(-range.step), { disabled: ui.pending || amount <= range.min }),
      input,
      button("+", "more", () => nudge(range.step), { disabled: ui.pending || amount >= range.max })),
    h("span", { class: "range", dataset: { testid: "range" } }, `min ${money(range.min)} · max ${money(range.max)}`),
    button(label(amount), act, submit, { primary: true, disabled: ui.pending }),
  );
}

/**
 * Offers come per company as one with a bid (ranged, when the seat can pay the minimum)
 * and one without an amount: put the share up and pass at once.
 * @param {any} view
 * @param {LegalAction[]} offers
 * @param {PanelState} ui
 * @param {PanelHandlers} on
 */
function offerControls(view, offers, ui, on) {
  const companies = [...new Set(offers.map((o) => /** @type {string} */ (o.action.company)))];
  const withBid = (/** @type {string} */ id) => offers.find((o) => o.action.company === id && o.range) ?? null;
  const withPass = (/** @type {string} */ id) => offers.find((o) => o.action.company === id && !o.range) ?? null;
  const chosen = ui.company && companies.includes(ui.company) ? ui.company : null;
  const bid = chosen ? withBid(chosen) : null;
  const pass = chosen ? withPass(chosen) : null;
  const short = companyShort(view, chosen ?? "");
  return [
    h("p", {}, "Put a share up for auction: pick the company, then open with a bid or pass (the others may still bid)."),
    h("div", { class: "choices" },
      companies.map((id) => {
        const opening = withBid(id);
        return button(`${companyShort(view, id)} · ${opening ? `from ${money(/** @type {any} */ (opening.range).min)}` : "pass only"}`, "offer-company",
          () => on.update({ company: id, amount: null, message: null }),
          { company: id, disabled: ui.pending, style: { background: companyColor(id), color: ink(id), outline: id === ui.company ? "3px solid #111" : "" } });
      })),
    bid ? amountControl(bid, ui, on, (amount) => `Offer ${short} at ${money(amount)}`, "offer") : null,
    pass ? button(`Offer ${short} and pass`, "offer-pass", () => on.act(pass.action), { disabled: ui.pending }) : null,
  ];
}

/**
 * @param {any} view
 * @param {LegalAction[]} builds
 * @param {PanelState} ui
 * @param {PanelHandlers} on
 */
function buildControls(view, builds, ui, on) {
  const companies = [...new Set(builds.map((b) => /** @type {string} */ (b.action.company)))];
  const company = buildCompany(view, builds, ui);
  const placed = view.build?.placed?.length ?? 0;
  const out = [];
  if (!view.build?.company && companies.length > 1) {
    out.push(h("p", {}, "Build for which company?"));
    out.push(h("div", { class: "choices" },
      companies.map((id) => button(companyShort(view, id), "build-company", () => on.update({ company: id, message: null }),
        { company: id, disabled: ui.pending, style: { background: companyColor(id), color: ink(id), outline: id === company ? "3px solid #111" : "" } }))));
  }
  if (company) {
    const co = view.companies.find((/** @type {any} */ c) => c.id === company);
    out.push(h("p", { class: "prompt" },
      `Click a highlighted hex to place a ${co.short} locomotive (${placed} of 3 placed; ${co.short} has ${money(co.cash)}).`));
    out.push(h("div", { class: "hex-list", "aria-label": "Hexes you can build on" },
      builds.filter((b) => b.action.company === company).map((b) => {
        const hex = /** @type {string} */ (b.action.hex);
        const cost = view.hexes.find((/** @type {any} */ x) => x.id === hex)?.next_build_cost;
        return button(`${hexName(view, hex)} ${money(cost)}`, "build", () => on.act(b.action), { disabled: ui.pending });
      })));
  } else if (companies.length === 0 && placed > 0) {
    out.push(h("p", {}, "No further locomotive can be placed."));
  }
  return out;
}

/**
 * @param {any} view
 * @param {LegalAction[]} develops
 * @param {PanelState} ui
 * @param {PanelHandlers} on
 */
function developControls(view, develops, ui, on) {
  if (!develops.length) return [h("p", {}, "There is no hex you can develop.")];
  return [
    h("p", { class: "prompt" }, `Click a highlighted hex to develop it (${view.houses_supply} houses left).`),
    h("div", { class: "hex-list" },
      develops.map((d) => button(hexName(view, /** @type {string} */ (d.action.hex)), "develop", () => on.act(d.action), { disabled: ui.pending }))),
  ];
}

/**
 * @param {any} view
 */
function auctionSummary(view) {
  const a = view.auction;
  if (!a) return null;
  const high = a.high_bid != null ? `high bid ${money(a.high_bid)} by ${playerName(view, a.high_bidder)}` : "no bid yet";
  return h("p", { class: "auction-info", dataset: { testid: "auction" } },
    h("span", { class: "chip", style: { background: companyColor(a.company), color: ink(a.company) } }, companyShort(view, a.company)),
    ` share: ${high}; the next bid must be at least ${money(a.lowest_bid)}.`);
}

const DIAL_TITLE = { auction: "Auction", build: "Build", develop: "Develop" };

/**
 * The panel for the seat to act (or what it waits for).
 * @param {any} view
 * @param {{mySeat: number | null, legal: LegalAction[] | null, ui: PanelState, on: PanelHandlers}} ctx
 */
export function actionPanel(view, ctx) {
  const { mySeat, legal, ui, on } = ctx;
  const toAct = view.active_seats.map((/** @type {number} */ s) => playerName(view, s)).join(", ");
  const body = [];
  if (view.result) {
    body.push(h("p", {}, "The game is over."));
  } else if (mySeat === null) {
    body.push(h("p", {}, `Watching as a spectator. ${toAct} to act.`), auctionSummary(view));
  } else if (!view.active_seats.includes(mySeat)) {
    body.push(h("p", {}, `Waiting for ${toAct}…`), auctionSummary(view));
  } else if (legal === null) {
    body.push(h("p", { class: "muted" }, "Loading your options…"));
  } else {
    const groups = byType(legal);
    if (groups.has("bid")) {
      const bid = /** @type {LegalAction} */ (groups.get("bid")?.[0]);
      body.push(auctionSummary(view), amountControl(bid, ui, on, (amount) => `Bid ${money(amount)}`, "bid"));
    } else if (view.auction && groups.has("pass")) {
      body.push(auctionSummary(view), h("p", {}, "You cannot afford the lowest bid."));
    }
    if (groups.has("choose")) {
      body.push(h("p", {}, "Your turn: choose an action (its dial moves one step)."));
      body.push(h("div", { class: "choices" }, (groups.get("choose") ?? []).map((c) => {
        const name = /** @type {string} */ (c.action.action);
        const dial = view.dials.find((/** @type {any} */ d) => d.action === name);
        return button(`${/** @type {any} */ (DIAL_TITLE)[name] ?? name} (${dial.position}/${dial.length})`, `choose-${name}`, () => on.act(c.action),
          { primary: true, disabled: ui.pending });
      })));
    }
    if (groups.has("offer")) body.push(...offerControls(view, groups.get("offer") ?? [], ui, on));
    if (groups.has("build") || view.phase === "build") body.push(...buildControls(view, groups.get("build") ?? [], ui, on));
    if (view.phase === "develop") body.push(...developControls(view, groups.get("develop") ?? [], ui, on));
    const finishers = [];
    if (groups.has("done")) finishers.push(button("Done building", "done", () => on.act({ type: "done" }), { primary: true, disabled: ui.pending }));
    if (groups.has("pass")) finishers.push(button("Pass", "pass", () => on.act({ type: "pass" }), { disabled: ui.pending }));
    if (groups.has("forgo")) finishers.push(button("Forgo", "forgo", () => on.act({ type: "forgo" }), { disabled: ui.pending }));
    if (finishers.length) body.push(h("div", { class: "choices" }, finishers));
  }
  if (ui.canUndo && !view.result && mySeat !== null) {
    body.push(h("div", { class: "choices undo" }, button("Undo my last action", "undo", () => on.undo(), { disabled: ui.pending })));
  }
  if (ui.pending) body.push(h("p", { class: "muted", role: "status" }, "Sending…"));
  if (ui.message) body.push(h("p", { class: "refusal", role: "alert", dataset: { testid: "refusal" } }, ui.message));
  return body;
}
