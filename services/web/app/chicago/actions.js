// @ts-check
// The action panel and the map's clickable hexes, both driven only by the seat's legal
// actions (GET /legal): what is not legal is not offered, and what the rules refuse anyway
// (an amount typed out of range, a move overtaken by another tab) comes back as the
// engine's message. Each decision says what it does and shows, beside it, the facts it
// needs (a company's income, what a share pays, who holds it), so a phone need not scroll.
// Action kinds this page does not know get the generic control (app/legalform.js).
import { amountControl, button } from "../controls.js";
import { h, money } from "../dom.js";
import { byType, familyControl, splitBy } from "../legalform.js";
import { capitalised, companyColor, companyShort, hexName, hexPlace, ink, playerName } from "./names.js";

/**
 * @typedef {import("../../sdk/roundhouse.js").LegalAction} LegalAction
 * @typedef {import("../../sdk/roundhouse.js").Action} Action
 * @typedef {import("../pageapi.js").Target} Target
 * @typedef {import("../pageapi.js").PanelState} PanelState
 * @typedef {import("../pageapi.js").PanelHandlers} PanelHandlers
 * @typedef {import("../pageapi.js").PageContext} PageContext
 */

const KNOWN = new Set(["bid", "pass", "choose", "offer", "build", "done", "develop", "forgo"]);

/** @param {number} a @param {number} b */
const ceilDiv = (a, b) => Math.ceil(a / b);

/**
 * @param {any} view
 * @param {string} id
 */
function company(view, id) {
  return view.companies.find((/** @type {any} */ c) => c.id === id);
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
  if (ui.picks.company && companies.includes(ui.picks.company)) return ui.picks.company;
  return companies.length === 1 ? companies[0] : null;
}

/**
 * Build and develop families, one concrete action per hex (a family may come as a trie).
 * @param {LegalAction[]} entries
 */
function perHex(entries) {
  return splitBy(splitBy(entries, "company"), "hex").filter((e) => typeof e.action.hex === "string");
}

/**
 * What developing a hex brings, in words ("income +2 for PRR, B&O").
 * @param {any} view
 * @param {string} id
 */
function developGain(view, id) {
  const hex = view.hexes.find((/** @type {any} */ x) => x.id === id);
  if (!hex) return "";
  const cos = hex.locomotives.map((/** @type {string} */ c) => companyShort(view, c)).join(", ");
  if (hex.terrain === "forest") return `$2 for ${cos}`;
  if (hex.terrain === "industrial") {
    const t = view.industry.find((/** @type {any} */ i) => i.hex === id);
    const next = t && t.position + 1 < t.track.length ? t.track[t.position + 1] : null;
    return t && next !== null ? `income +${next - t.value} for ${cos}` : "at its top value";
  }
  return hex.house_value ? `income +${hex.house_value} for ${cos}` : "";
}

/**
 * The hexes a click acts on now, with what the click does.
 * @param {any} view
 * @param {LegalAction[]} legal
 * @param {PanelState} ui
 * @returns {Map<string, Target>}
 */
export function mapTargets(view, legal, ui) {
  const out = new Map();
  if (ui.pending) return out;
  const groups = byType(legal);
  const builds = perHex(groups.get("build") ?? []);
  const chosen = buildCompany(view, builds, ui);
  for (const b of builds) {
    if (b.action.company !== chosen) continue;
    const hex = /** @type {string} */ (b.action.hex);
    const cell = view.hexes.find((/** @type {any} */ x) => x.id === hex);
    const gain = cell?.arrival_income ? `, income +${cell.arrival_income}` : "";
    out.set(hex, { kind: "build", label: `Build ${companyShort(view, chosen)} at ${hexPlace(view, hex)} for ${money(cell?.next_build_cost)}${gain}`, action: b.action });
  }
  for (const d of perHex(groups.get("develop") ?? [])) {
    const hex = /** @type {string} */ (d.action.hex);
    const gain = developGain(view, hex);
    out.set(hex, { kind: "develop", label: `Develop ${hexPlace(view, hex)}${gain ? ` (${gain})` : ""}`, action: d.action });
  }
  return out;
}

/** @param {string} id */
function chipStyle(id) {
  return { background: companyColor(id), color: ink(id) };
}

/**
 * The facts a decision about a company needs, next to it: income, what a share pays now
 * and once one more share is sold, its cash, who holds it.
 * @param {any} view
 * @param {string} id
 * @param {{selling?: boolean, mySeat: number | null}} how  `selling`: a share is being auctioned
 */
export function companyFacts(view, id, how) {
  const c = company(view, id);
  if (!c) return null;
  const holders = c.holdings
    .map((/** @type {number} */ n, /** @type {number} */ seat) => (n ? `${playerName(view, seat)} ×${n}` : null))
    .filter(Boolean);
  const after = ceilDiv(c.income, c.shares_out + 1);
  const rows = [
    ["Income", money(c.income)],
    ["Per share now", c.shares_out ? `${money(c.dividend_per_share)} (${money(c.income)} ÷ ${c.shares_out} held, rounded up)` : "no share held yet"],
  ];
  if (how.selling) rows.push(["Per share after this sale", `${money(after)} (${money(c.income)} ÷ ${c.shares_out + 1})`]);
  rows.push(
    ["Company cash", `${money(c.cash)}${how.selling ? " (the price is paid to the company: it funds building)" : ""}`],
    ["Shares left", `${c.shares_left} of ${c.shares_total}`],
    ["Locomotives left", `${c.locomotives_left} of ${c.locomotives_total}`],
    ["Held by", holders.length ? holders.join(", ") : "nobody yet"],
  );
  if (how.mySeat !== null) rows.push(["Your cash", money(view.players[how.mySeat]?.cash ?? 0)]);
  return h("div", { class: "facts", dataset: { testid: "facts", company: id } },
    h("p", { class: "facts-head" }, h("span", { class: "chip", style: chipStyle(id) }, c.short), ` ${c.name}`),
    h("dl", {}, rows.map(([k, v]) => [h("dt", {}, k), h("dd", {}, v)])));
}

const AUCTION_KIND = { opening: "Opening auction", share: "Auction", wabash: "First Wabash auction" };

/**
 * The running auction in words, with its facts.
 * @param {any} view
 * @param {number | null} mySeat
 */
function auctionSummary(view, mySeat) {
  const a = view.auction;
  if (!a) return null;
  const high = a.high_bid != null ? `high bid ${money(a.high_bid)} by ${playerName(view, a.high_bidder)}` : "no bid yet";
  const passed = a.passed?.length ? ` Out of this auction: ${a.passed.map((/** @type {number} */ s) => playerName(view, s)).join(", ")}.` : "";
  let stage = /** @type {any} */ (AUCTION_KIND)[a.kind] ?? "Auction";
  if (a.kind === "opening" && view.opening) stage += ` ${view.opening.index + 1} of ${view.opening.auctions.length}`;
  return [
    h("p", { class: "auction-info", dataset: { testid: "auction" } },
      h("strong", {}, `${stage}: `),
      h("span", { class: "chip", style: chipStyle(a.company) }, companyShort(view, a.company)),
      ` share: ${high}; the next bid must be at least ${money(a.lowest_bid)}.${passed}`),
    companyFacts(view, a.company, { selling: true, mySeat }),
  ];
}

const DIAL_TITLE = { auction: "Auction", build: "Build", develop: "Develop" };
const DIAL_DOES = {
  auction: "offer one share of a company for sale to the highest bidder",
  build: "extend one company's railroad by up to 3 hexes, paid from its cash (you need one of its shares)",
  develop: "put a house on a hex with a locomotive: more income for every company there",
};

/**
 * When the next dividends come, and which choice brings them on.
 * @param {any} view
 */
function dividendTiming(view) {
  const red = view.dials.filter((/** @type {any} */ d) => d.red);
  const names = red.map((/** @type {any} */ d) => /** @type {any} */ (DIAL_TITLE)[d.action] ?? d.action);
  if (red.length === 0) {
    return "Dividends are paid once two dials are on red (full). No dial is on red yet.";
  }
  const closing = view.dials.filter((/** @type {any} */ d) => !d.red && d.position + 1 >= d.length)
    .map((/** @type {any} */ d) => /** @type {any} */ (DIAL_TITLE)[d.action] ?? d.action);
  const soon = closing.length ? ` Choosing ${closing.join(" or ")} puts a second dial on red: dividends are paid right after your turn.` : "";
  return `Dividends are paid once two dials are on red (full). On red now: ${names.join(", ")}.${soon}`;
}

/**
 * What choosing `name` would let the player do, from the view's `turn_options` (the rules'
 * own reading): null when it can do something.
 * @param {any} view
 * @param {string} name
 * @returns {string | null}
 */
function nothingToDo(view, name) {
  const option = view.turn_options?.[name];
  return option && !option.possible ? option.why_not : null;
}

/**
 * The companies a build could be for, in words ("PRR: 4 hexes in reach; B&O has $0; ...").
 * @param {any} view
 */
function buildReach(view) {
  const companies = view.turn_options?.build?.companies ?? [];
  return companies.map((/** @type {any} */ c) =>
    c.hexes ? `${companyShort(view, c.company)}: ${c.hexes} hex${c.hexes > 1 ? "es" : ""} in reach` : c.why_not).join("; ");
}

/**
 * @param {any} view
 * @param {LegalAction[]} chooses
 * @param {PanelState} ui
 * @param {PanelHandlers} on
 */
function chooseControls(view, chooses, ui, on) {
  const title = (/** @type {string} */ name) => /** @type {any} */ (DIAL_TITLE)[name] ?? name;
  return [
    h("p", {}, "Your turn: choose an action. Its dial moves one step; then you do it, or forgo it (the dial has moved anyway)."),
    h("div", { class: "choices" }, chooses.map((c) => {
      const name = /** @type {string} */ (c.action.action);
      const dial = view.dials.find((/** @type {any} */ d) => d.action === name);
      const idle = nothingToDo(view, name);
      // Still a legal choice (the rules let a player move a dial and forgo), said plainly.
      const label = `${title(name)} (${dial.position}/${dial.length})${idle ? " · dial only" : ""}`;
      return button(label, `choose-${name}`, () => on.act(c.action),
        { primary: !idle, disabled: ui.pending, title: idle ? `Nothing to ${name}: ${idle}` : `${dial.position} of ${dial.length} steps used this round` });
    })),
    h("ul", { class: "explain" }, chooses.map((c) => {
      const name = /** @type {string} */ (c.action.action);
      const dial = view.dials.find((/** @type {any} */ d) => d.action === name);
      const left = dial.length - dial.position;
      const idle = nothingToDo(view, name);
      if (idle) {
        return h("li", { class: "idle-choice", dataset: { testid: `why-not-${name}` } }, h("strong", {}, title(name)),
          ` (${dial.position}/${dial.length}): nothing to ${name}: ${idle}. Choosing it only moves its dial one step (then you forgo), which brings the dividends closer.`);
      }
      const reach = name === "build" ? buildReach(view) : "";
      return h("li", {}, h("strong", {}, title(name)),
        ` (${dial.position}/${dial.length}: on red after ${left} more): ${/** @type {any} */ (DIAL_DOES)[name] ?? ""}${reach ? ` (${reach})` : ""}.`);
    })),
    h("p", { class: "explain", dataset: { testid: "dividend-timing" } }, dividendTiming(view)),
  ];
}

/**
 * @param {any} view
 * @param {LegalAction[]} entries  offer families (one per company, or a trie over companies)
 * @param {PageContext} ctx
 */
function offerControls(view, entries, ctx) {
  const { ui, on } = ctx;
  // Per company: an offer with an opening bid (ranged; only when the seat can pay the
  // minimum) and one without an amount: put the share up and pass at once.
  const offers = splitBy(entries, "company");
  const ids = [...new Set(offers.map((o) => /** @type {string} */ (o.action.company)))];
  const withBid = (/** @type {string} */ id) => offers.find((o) => o.action.company === id && o.range) ?? null;
  const withPass = (/** @type {string} */ id) => offers.find((o) => o.action.company === id && !o.range && !o.choices) ?? null;
  /** @type {import("../dom.js").Child[]} */
  const out = [
    h("p", {}, "Auction: pick the company whose share you put up for sale, then open with a bid or pass (the others may still bid in turn). The highest bid buys it and the money goes to the company; if everyone passes, the share stays."),
    h("div", { class: "choices" },
      ids.map((id) => {
        const c = company(view, id);
        const opening = withBid(id);
        const from = opening?.range ? ` · from ${money(opening.range.min)}` : " · pass only";
        return button(`${companyShort(view, id)}${from}`, "offer-company", () => on.update({ picks: { company: id }, amount: null, message: null }),
          { company: id, disabled: ui.pending, title: c ? `income ${money(c.income)}, ${c.shares_out} held` : undefined,
            style: { ...chipStyle(id), outline: id === ui.picks.company ? "3px solid #111" : "" } });
      })),
  ];
  const id = ids.includes(ui.picks.company) ? /** @type {string} */ (ui.picks.company) : null;
  if (id) {
    out.push(companyFacts(view, id, { selling: true, mySeat: ctx.mySeat }));
    const bid = withBid(id);
    if (bid?.range) {
      const range = bid.range;
      out.push(amountControl({
        range, value: ui.amount, act: "offer", pending: ui.pending,
        label: (amount) => `Offer ${companyShort(view, id)} at ${money(amount)}`,
        submit: (amount) => on.act({ ...bid.action, [range.field]: amount }),
        remember: (amount) => (ui.amount = amount),
        step: (amount) => on.update({ amount }),
      }));
    }
    const pass = withPass(id);
    if (pass) {
      out.push(button(`Offer ${companyShort(view, id)} and pass`, "offer-pass", () => on.act(pass.action), { disabled: ui.pending }));
    }
  }
  return out;
}

/**
 * A hex button that lights its hex on the map while pointed at or focused, so a list entry
 * and the map's outline are seen to be the same place.
 * @param {string} hex
 * @param {HTMLElement} el
 */
function pointsAt(hex, el) {
  el.dataset.hex = hex;
  const light = (/** @type {boolean} */ on) =>
    document.querySelector(`svg.map .hex[data-hex="${hex}"]`)?.classList.toggle("pointed", on);
  for (const [type, on] of /** @type {[string, boolean][]} */ ([["mouseenter", true], ["focus", true], ["mouseleave", false], ["blur", false]])) {
    el.addEventListener(type, () => light(on));
  }
  return el;
}

/** How the map's numbers read, where a build or develop decision is made. */
function hexLabelHelp() {
  return h("p", { class: "explain" }, "On the map: ", h("b", {}, "$2"), " top left is the build cost per locomotive on the hex (paid × every locomotive there, the new one included); ",
    h("b", {}, "+1"), " top right is the income a house adds; the number in the circle is the income a company gains by arriving.");
}

/**
 * @param {any} view
 * @param {LegalAction[]} entries
 * @param {PageContext} ctx
 */
function buildControls(view, entries, ctx) {
  const { ui, on } = ctx;
  const builds = perHex(entries);
  const companies = [...new Set(builds.map((b) => /** @type {string} */ (b.action.company)))];
  const chosen = buildCompany(view, builds, ui);
  const placed = view.build?.placed?.length ?? 0;
  const out = [];
  if (placed === 0 && companies.length) out.push(h("p", {}, "Build: place up to 3 locomotives of one company, each on a hex next to its railroad. The company pays from its own cash."));
  if (!view.build?.company && companies.length > 1) {
    out.push(h("p", {}, "Build for which company?"));
    out.push(h("div", { class: "choices" },
      companies.map((id) => button(companyShort(view, id), "build-company", () => on.update({ picks: { company: id }, message: null }),
        { company: id, disabled: ui.pending, style: { ...chipStyle(id), outline: id === chosen ? "3px solid #111" : "" } }))));
  }
  if (chosen) {
    const co = company(view, chosen);
    out.push(h("p", { class: "prompt" },
      `Click a highlighted hex to place a ${co.short} locomotive (${placed} of 3 placed; ${co.short} has ${money(co.cash)}, income ${money(co.income)}).`));
    out.push(h("div", { class: "hex-list", "aria-label": "Hexes you can build on" },
      builds.filter((b) => b.action.company === chosen).map((b) => {
        const hex = /** @type {string} */ (b.action.hex);
        const cell = view.hexes.find((/** @type {any} */ x) => x.id === hex);
        const gain = cell?.arrival_income ? ` +${cell.arrival_income}` : "";
        return pointsAt(hex, button(`${capitalised(hexName(view, hex))} ${money(cell?.next_build_cost)}${gain}`, "build", () => on.act(b.action), { disabled: ui.pending }));
      })));
    out.push(hexLabelHelp());
  } else if (companies.length === 0) {
    const why = nothingToDo(view, "build");
    out.push(h("p", { class: "prompt", dataset: { testid: "why-not-build" } },
      placed > 0 ? `No further locomotive can be placed${why ? `: ${why}` : ""}. Finish with Done building.`
        : `Nothing can be built${why ? `: ${why}` : ""}. Forgo ends your turn; the Build dial has moved anyway.`));
  }
  return out;
}

/**
 * @param {any} view
 * @param {LegalAction[]} entries
 * @param {PanelState} ui
 * @param {PanelHandlers} on
 */
function developControls(view, entries, ui, on) {
  const develops = perHex(entries);
  if (!develops.length) {
    const why = nothingToDo(view, "develop");
    return [h("p", { class: "prompt", dataset: { testid: "why-not-develop" } },
      `Nothing can be developed${why ? `: ${why}` : ""}. Forgo ends your turn; the Develop dial has moved anyway.`)];
  }
  return [
    h("p", { class: "prompt" }, `Develop: click a highlighted hex (${view.houses_supply} houses left). A house on a city or mountain adds its +income to every company there; on a forest each company there gets $2; an industrial city moves up its track.`),
    h("div", { class: "hex-list" },
      develops.map((d) => {
        const hex = /** @type {string} */ (d.action.hex);
        const gain = developGain(view, hex);
        return pointsAt(hex, button(`${capitalised(hexName(view, hex))}${gain ? ` (${gain})` : ""}`, "develop", () => on.act(d.action), { disabled: ui.pending }));
      })),
    hexLabelHelp(),
  ];
}

/**
 * The panel for the seat to act (or what it waits for).
 * @param {any} view
 * @param {PageContext} ctx
 */
export function actionPanel(view, ctx) {
  const { mySeat, legal, ui, on } = ctx;
  const toAct = view.active_seats.map((/** @type {number} */ s) => playerName(view, s)).join(", ");
  const body = [];
  if (view.result) {
    body.push(h("p", {}, "The game is over."));
  } else if (mySeat === null) {
    body.push(h("p", {}, `Watching as a spectator. ${toAct} to act.`), auctionSummary(view, null));
  } else if (!view.active_seats.includes(mySeat)) {
    body.push(h("p", {}, `Waiting for ${toAct}…`), auctionSummary(view, mySeat));
  } else if (legal === null) {
    body.push(h("p", { class: "muted" }, "Loading your options…"));
  } else {
    const groups = byType(legal);
    if (groups.has("bid")) {
      const bid = /** @type {LegalAction} */ (groups.get("bid")?.[0]);
      const range = bid.range;
      body.push(auctionSummary(view, mySeat));
      if (range) {
        body.push(amountControl({
          range, value: ui.amount, act: "bid", pending: ui.pending,
          label: (amount) => `Bid ${money(amount)}`,
          submit: (amount) => on.act({ ...bid.action, [range.field]: amount }),
          remember: (amount) => (ui.amount = amount),
          step: (amount) => on.update({ amount }),
        }));
      } else {
        body.push(familyControl(bid, "bid", ui, on, (a) => `Bid ${money(Number(a.amount))}`));
      }
    } else if (view.auction && groups.has("pass")) {
      body.push(auctionSummary(view, mySeat), h("p", {}, "You cannot afford the lowest bid."));
    }
    if (groups.has("choose")) body.push(...chooseControls(view, groups.get("choose") ?? [], ui, on));
    if (groups.has("offer")) body.push(...offerControls(view, groups.get("offer") ?? [], ctx));
    if (groups.has("build") || view.phase === "build") body.push(...buildControls(view, groups.get("build") ?? [], ctx));
    if (groups.has("develop") || view.phase === "develop") body.push(...developControls(view, groups.get("develop") ?? [], ui, on));
    for (const [type, entries] of groups) {
      if (KNOWN.has(type)) continue;
      entries.forEach((entry, i) => body.push(familyControl(entry, `${type}-${i}`, ui, on)));
    }
    const finishers = [];
    if (groups.has("done")) finishers.push(button("Done building", "done", () => on.act({ type: "done" }), { primary: true, disabled: ui.pending }));
    if (groups.has("pass")) {
      const label = view.auction ? "Pass (leave this auction)" : "Pass";
      finishers.push(button(label, "pass", () => on.act({ type: "pass" }), { disabled: ui.pending }));
    }
    if (groups.has("forgo")) {
      finishers.push(button("Forgo", "forgo", () => on.act({ type: "forgo" }), { disabled: ui.pending, title: "Do nothing for this action" }));
    }
    if (finishers.length) body.push(h("div", { class: "choices" }, finishers));
    if (groups.has("forgo")) {
      body.push(h("p", { class: "explain" }, "Forgo: do nothing for the action you chose. Its dial has moved anyway, so forgoing brings the dividends closer."));
    }
  }
  return body;
}
