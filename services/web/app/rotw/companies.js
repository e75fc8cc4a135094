// @ts-check
// The advanced share game's panels (view.game === "advanced"; advanced/view.py): the round
// and whose decision it is, the companies (price, cash, the three share boxes, holders, bonds,
// income marker, links), the players' cash and shares, the end, and the final ranking.
import { h } from "../dom.js";
import { shareValue } from "./dividend.js";
import { companyColor, companyInk, dollars, seatColor } from "./names.js";

/** @param {any} view @param {number} seat */
export const nameOf = (view, seat) => view.players?.[seat]?.name ?? `seat ${seat}`;

/** @param {any} view @param {string} id */
export const companyOf = (view, id) => (view.companies ?? []).find((/** @type {any} */ c) => c.id === id);

/** A company's name on its colour. @param {any} c */
export function chip(c) {
  return h("span", { class: "chip", style: { background: companyColor(c.id), color: companyInk(c.id) }, dataset: { company: c.id } }, c.name);
}

/** $8k: share prices are in thousands. @param {number} k */
export const kilo = (k) => dollars(k * 1000);

const PHASES = [
  ["company_turn", "Company turns"], ["dividend", "Dividends"], ["merger", "Mergers"], ["share_auction", "Share auction"],
];
const STEP_OF = { company_build: "company_turn", merger_vote: "merger" };

/** The company whose decision it is (company turns, dividends, mergers), or null. @param {any} view */
export function companyInTurn(view) {
  if (!["company_turn", "company_build", "dividend", "merger", "merger_vote"].includes(view.phase)) return null;
  if (view.merger) return companyOf(view, view.merger.acquirer);
  const id = view.order?.[view.pos];
  return id ? companyOf(view, id) : null;
}

/**
 * Where the round is and who decides, in words (the turn line, the waiting text).
 * @param {any} view
 */
export function situation(view) {
  const c = companyInTurn(view);
  const boss = c && c.controller >= 0 ? nameOf(view, c.controller) : "";
  const au = view.auction;
  switch (view.phase) {
    case "opening_auction":
    case "share_auction":
      if (au) {
        const co = companyOf(view, au.company);
        return `${nameOf(view, au.to_act)} to bid on a ${co?.name} share: high bid ${dollars(au.high_bid)} (${nameOf(view, au.high_bidder)})`;
      }
      return view.chooser != null && view.chooser >= 0 ? `${nameOf(view, view.chooser)} chooses a share to auction, or passes` : "share auctions";
    case "company_turn":
      return `the ${c?.name}'s turn ${view.company_turn} of 3 (${boss}): build, deliver or pass`;
    case "company_build":
      return `the ${c?.name} is building (${boss})`;
    case "dividend":
      return view.dividend_step === "repay" ? `the ${c?.name} may repay bonds (${boss})` : `the ${c?.name} sets its dividend (${boss})`;
    case "merger":
      return `the ${c?.name} may propose a merger (${boss})`;
    case "merger_vote": {
      const m = view.merger;
      const voting = companyOf(view, m.stage === "acquirer" ? m.acquirer : m.target);
      return `the ${voting?.name} shareholders vote on the merger`;
    }
    case "over":
      return "the game is over";
    default:
      return String(view.phase);
  }
}

/**
 * The round: its four phases with the current one marked, the order of the companies (by
 * share price) with the one to act marked, and what is under way (auction, merger vote).
 * @param {any} view
 * @param {number | null} mySeat
 */
export function roundBox(view, mySeat) {
  const step = /** @type {any} */ (STEP_OF)[view.phase] ?? view.phase;
  const opening = view.phase === "opening_auction";
  const steps = opening ? null : h("p", { class: "steps" }, PHASES.map(([id, words], i) => [i ? h("span", { class: "muted" }, " → ") : null,
    h("span", { class: id === step ? "now" : "", dataset: { step: id } }, id === "company_turn" && step === id ? `${words} (${view.company_turn} of 3)` : words)]));
  const c = companyInTurn(view);
  const order = ["company_turn", "company_build", "dividend", "merger", "merger_vote"].includes(view.phase) ? view.order ?? [] : view.price_order ?? [];
  return h("section", { class: "card rotw-round", "aria-label": "The round", dataset: { testid: "round" } },
    h("h2", {}, opening ? "Set-up: opening share auctions" : `Round ${view.round}`),
    steps,
    h("p", { dataset: { testid: "situation" } }, h("b", {}, "Now: "), situation(view)),
    h("p", { class: "order", dataset: { testid: "order" } },
      h("span", { class: "muted" }, step === "merger" ? "Merger order (lowest price first): " : "Order by share price: "),
      order.map((/** @type {string} */ id) => {
        const co = companyOf(view, id);
        const here = c?.id === id;
        return h("span", { class: `order-item${here ? " here" : ""}`, dataset: { company: id } },
          here ? "▶ " : "", chip(co), ` ${kilo(co.price)}${co.controller >= 0 ? ` · ${nameOf(view, co.controller)}` : ""} `);
      })),
    auctionBox(view, mySeat),
    mergerBox(view, mySeat));
}

/** @param {any} view @param {number | null} _mySeat */
function auctionBox(view, _mySeat) {
  const au = view.auction;
  const out = view.out_of_auctions ?? [];
  if (!["opening_auction", "share_auction"].includes(view.phase)) return null;
  const passed = out.length ? h("p", { class: "muted" }, `Passed for this phase: ${out.map((/** @type {number} */ s) => nameOf(view, s)).join(", ")}`) : null;
  if (!au) return h("div", { class: "facts", dataset: { testid: "auction" } }, h("p", {}, "No auction running."), passed);
  const co = companyOf(view, au.company);
  const inIt = (view.players ?? []).map((/** @type {any} */ p) => p.seat).filter((/** @type {number} */ s) => !au.passed.includes(s) && !out.includes(s));
  return h("div", { class: "facts", dataset: { testid: "auction" } },
    h("p", { class: "facts-head" }, "Auction: a ", chip(co), ` share from the ${au.source} box (${au.source === "available" ? "the money goes to the company" : "the money goes to the bank"})`),
    h("dl", {},
      h("dt", {}, "High bid"), h("dd", { dataset: { field: "high-bid" } }, `${dollars(au.high_bid)} · ${nameOf(view, au.high_bidder)}`),
      h("dt", {}, "Still in"), h("dd", { dataset: { field: "still-in" } }, inIt.map((/** @type {number} */ s) => nameOf(view, s)).join(", ")),
      h("dt", {}, "To bid"), h("dd", {}, nameOf(view, au.to_act)),
      h("dt", {}, "Opened by"), h("dd", {}, nameOf(view, au.auctioneer))),
    passed);
}

/** The proposal and the vote: others see only who has voted until the reveal. @param {any} view @param {number | null} mySeat */
function mergerBox(view, mySeat) {
  const m = view.merger;
  if (!m) return null;
  const acq = companyOf(view, m.acquirer);
  const tgt = companyOf(view, m.target);
  const per = (tgt.price + 1) * 1000;
  const voting = m.stage === "acquirer" ? acq : tgt;
  const voters = (m.voters ?? []).map((/** @type {number} */ s) => h("li", { dataset: { seat: s } },
    `${nameOf(view, s)} (${voting.held[s]} vote${voting.held[s] === 1 ? "" : "s"}): `,
    s === mySeat && m.my_vote !== null ? h("b", {}, `you voted ${m.my_vote ? "yes" : "no"}`) : m.voted[s] ? "has voted" : "not yet"));
  return h("div", { class: "facts", dataset: { testid: "merger" } },
    h("p", { class: "facts-head" }, "Merger: ", chip(acq), " takes over ", chip(tgt)),
    h("p", {}, `Price: ${tgt.outstanding} outstanding share(s) × ${dollars(per)} (the ${tgt.name}'s price + $1,000) = ${dollars(tgt.outstanding * per)}, paid to their holders; the ${acq.name} takes its links, cash and bonds.`),
    h("p", {}, `Vote of the ${voting.name} shareholders${m.stage === "acquirer" ? ` (then the ${tgt.name}'s)` : ""}: one vote per share, secret until all have voted; a tie goes the controller's way.`),
    h("ul", { dataset: { testid: "voters" } }, voters));
}

/**
 * One card per company, highest share price first: price, controller, cash, the three share
 * boxes (available, company card, issued), bonds, income marker, links, holders.
 * @param {any} view
 */
export function companyCards(view) {
  const inTurn = companyInTurn(view);
  const box = (/** @type {string} */ field, /** @type {string} */ label, /** @type {number} */ k, /** @type {string} */ title) =>
    h("div", { title }, label, h("b", { dataset: { field } }, String(k)));
  return h("div", { class: "charters rotw-companies", dataset: { testid: "companies" } },
    (view.price_order ?? []).map((/** @type {string} */ id) => {
      const c = companyOf(view, id);
      const holders = c.held.map((/** @type {number} */ k, /** @type {number} */ s) => (k ? `${nameOf(view, s)} ×${k}` : null)).filter(Boolean);
      return h("article", { class: `charter${inTurn?.id === id ? " in-turn" : ""}${c.controller < 0 ? " idle" : ""}`, dataset: { company: id, testid: `company-${id}` } },
        h("header", { style: { background: companyColor(id), color: companyInk(id) } },
          h("strong", {}, c.name), h("span", { class: "price", title: `share price (started at ${kilo(c.start_price)})`, dataset: { field: "price" } }, kilo(c.price)),
          h("span", { class: "controller" }, c.controller >= 0 ? `controlled by ${nameOf(view, c.controller)}` : "no controller")),
        h("p", { class: "cash" }, "Cash ", h("b", { dataset: { field: "cash" } }, dollars(c.cash))),
        h("div", { class: "share-boxes" },
          box("available", "Available", c.available, "shares on the available box: sold in auctions, the money goes to the company"),
          box("card", "On card", c.card, "unissued shares on the company card: issued at the current price when the company must pay more than its cash"),
          box("issued", "Issued", c.issued, "shares on the issued box: held by the bank, they take dividends; sold in auctions, the money goes to the bank")),
        h("p", { class: "stats" },
          h("span", { title: "$5,000 each, $1,000 interest a round, at most one per link; each takes $1,000 off every share's worth at the end" }, "Bonds ", h("b", { dataset: { field: "bonds" } }, String(c.bonds))),
          h("span", { title: "spaces on the income track this round (one per link of this company a delivery used)" }, "Income ", h("b", { dataset: { field: "income" } }, String(c.income))),
          h("span", {}, "Links ", h("b", { dataset: { field: "links" } }, String(c.links)))),
        h("p", { class: "holders" }, holders.length ? holders.join(" · ") : "no shareholders yet"));
    }));
}

/**
 * Players: cash, shares per company, and what they would have if the game ended now.
 * @param {any} view
 * @param {number | null} mySeat
 */
export function playersTable(view, mySeat) {
  const toAct = new Set(view.to_act ?? []);
  const companies = (view.price_order ?? []).map((/** @type {string} */ id) => companyOf(view, id));
  return h("table", { class: "players rotw-players", dataset: { testid: "players" } },
    h("caption", {}, "★ after a name: first player · ★ after shares: controls the company · Worth: cash + shares × (price − bonds), the final money if the game ended now"),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Cash"),
      companies.map((/** @type {any} */ c) => h("th", { scope: "col", title: c.name },
        h("span", { class: "cswatch", "aria-label": c.name, style: { background: companyColor(c.id) } }))),
      h("th", { scope: "col", title: "cash + each share × (price − its company's bonds)" }, "Worth"))),
    h("tbody", {}, (view.players ?? []).map((/** @type {any} */ p) => {
      const worth = p.cash + companies.reduce((/** @type {number} */ t, /** @type {any} */ c) => t + c.held[p.seat] * shareValue(c), 0);
      return h("tr", { class: `${p.seat === mySeat ? "me" : ""}${toAct.has(p.seat) ? " to-act" : ""}`, dataset: { seat: p.seat, testid: "player" } },
        h("th", { scope: "row" }, h("span", { class: "swatch", style: { background: seatColor(p.seat) } }),
          toAct.has(p.seat) ? h("span", { class: "turn-mark", "aria-label": "to act" }, "▶ ") : null,
          p.name, p.seat === view.first ? " ★" : "", p.seat === mySeat ? h("span", { class: "muted" }, " (you)") : null),
        h("td", { dataset: { field: "cash" } }, dollars(p.cash)),
        companies.map((/** @type {any} */ c) => h("td", { dataset: { company: c.id } }, c.held[p.seat] ? `${c.held[p.seat]}${c.controller === p.seat ? "★" : ""}` : "·")),
        h("td", { dataset: { field: "worth" } }, dollars(worth)));
    })));
}

/** @param {any} view */
export function endingBox(view) {
  return h("div", { dataset: { testid: "ending" } },
    h("p", {}, `Empty cities: ${view.empty_cities} of ${view.empty_needed}. The game ends at the end of the round in which ${view.empty_needed} cities are empty (or after three rounds in a row without building or delivering).`),
    view.ending ? h("p", { class: "news" }, "The end is triggered: this round is the last.") : null);
}

/**
 * The final ranking with the seed's computation: cash + shares × (price − bonds).
 * @param {any} view
 */
export function resultPanel(view) {
  const rows = Array.isArray(view.scores) ? view.scores : [];
  const ranks = view.result?.ranks ?? [];
  const order = rows.map((/** @type {any} */ _r, /** @type {number} */ i) => i).sort((/** @type {number} */ a, /** @type {number} */ b) => (ranks[a] ?? 0) - (ranks[b] ?? 0));
  const winners = (view.result?.winners ?? []).map((/** @type {number} */ w) => nameOf(view, w));
  return h("section", { class: "result card rotw-result", dataset: { testid: "rotw-result" } },
    h("h2", {}, "Game over"),
    h("p", { class: "winner" }, `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}`, view.result?.reason ? ` · ${String(view.result.reason).replaceAll("_", " ")}` : ""),
    h("ol", { class: "final-ranking" }, order.map((/** @type {number} */ i) => {
      const r = rows[i];
      const parts = Object.entries(r.shares).map(([id, value]) => {
        const c = companyOf(view, id);
        return h("li", { class: "share-worth", dataset: { company: id } }, chip(c), ` ${c.held[i]} × (${kilo(c.price)} − ${kilo(c.bonds)}) = ${dollars(Number(value))}`);
      });
      return h("li", { class: "final", dataset: { seat: i, rank: ranks[i] } },
        h("p", { class: "final-head" }, h("span", { class: "rank" }, `#${ranks[i] ?? ""}`), " ", h("b", { class: "who" }, nameOf(view, i)), " ",
          h("b", { class: "total", dataset: { field: "total" } }, dollars(r.total))),
        h("p", {}, "Cash ", h("span", { dataset: { field: "cash" } }, dollars(r.cash)), parts.length ? " + shares × (price − bonds):" : ", no shares"),
        parts.length ? h("ul", {}, parts) : null);
    })),
    h("p", { class: "muted" }, "Final money: cash + each share at its price less $1,000 per unpaid bond of its company (never below $0). Most money wins; ties share the rank."));
}
