// @ts-check
// The game log: each engine event of the view as one line of text.
import { companyShort, hexPlace, playerName } from "./names.js";

const AUCTION_KIND = { opening: "Opening auction", share: "Auction", wabash: "First Wabash auction" };

/**
 * @param {any} view
 * @param {any} e  one entry of view.log
 * @returns {string}
 */
export function describeEvent(view, e) {
  const who = (/** @type {number} */ seat) => playerName(view, seat);
  const co = (/** @type {string} */ id) => companyShort(view, id);
  switch (e.event) {
    case "chose":
      return `${who(e.seat)} chooses ${e.action}`;
    case "forgone":
      return `${who(e.seat)} forgoes the ${e.action}`;
    case "auction_started":
      return `${/** @type {any} */ (AUCTION_KIND)[e.kind] ?? "Auction"} of a ${co(e.company)} share, opened by ${who(e.opener)} (at least $${e.min_bid})`;
    case "bid":
      return `${who(e.seat)} bids $${e.amount} for ${co(e.company)}`;
    case "pass":
      return `${who(e.seat)} passes on ${co(e.company)}`;
    case "share_sold":
      return e.price
        ? `${who(e.seat)} buys a ${co(e.company)} share for $${e.price}`
        : `${who(e.seat)} gets the ${co(e.company)} share nobody bid on`;
    case "share_unsold":
      return `The ${co(e.company)} share stays unsold`;
    case "built":
      return `${who(e.seat)} builds ${co(e.company)} at ${hexPlace(view, e.hex)} for $${e.cost}${e.income_gain ? ` (income +${e.income_gain})` : ""}`;
    case "developed": {
      const actor = e.seat < 0 ? "Detroit develops itself" : `${who(e.seat)} develops ${hexPlace(view, e.hex)}`;
      const gains = [];
      if (e.companies.length && e.income_gain) gains.push(`income +${e.income_gain} for ${e.companies.map(co).join(", ")}`);
      if (e.cash_bonus) gains.push(`$${e.cash_bonus} bonus for ${e.companies.map(co).join(", ")}`);
      if (e.industry_value) gains.push(`now worth ${e.industry_value}`);
      return gains.length ? `${actor}: ${gains.join("; ")}` : actor;
    }
    case "dividend": {
      const paid = e.payouts
        .map((/** @type {number} */ amount, /** @type {number} */ seat) => (amount ? `${who(seat)} $${amount}` : null))
        .filter(Boolean);
      const kind = e.kind === "chicago" ? "Chicago dividend" : "Dividend";
      return `${kind}: ${co(e.company)} pays $${e.per_share} a share (income ${e.income}, ${e.shares_out} out)${paid.length ? ` to ${paid.join(", ")}` : ""}`;
    }
    case "chicago_reached":
      return `${co(e.company)} reaches Chicago${e.first ? " first" : ""} (${who(e.seat)})`;
    case "wabash_opened":
      return `Wabash opens at ${hexPlace(view, e.hex)} with income ${e.income}`;
    case "dividend_phase":
      return `Dividend phase, end of round ${e.round}`;
    case "dials_reset":
      return "The action dials are reset";
    case "game_ended":
      return `Game over: ${e.reasons.join(", ").replaceAll("_", " ")}`;
    default:
      return JSON.stringify(e);
  }
}

/** Events that mark a new section of the log (drawn as headings). */
export const MILESTONES = new Set(["dividend_phase", "game_ended", "auction_started"]);
