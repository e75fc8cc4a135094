// @ts-check
// Dividends, shown when they happen: the engine pays them inside an action (the dividend
// phase when two dials are on red, the extra dividend when a company reaches Chicago) and
// logs them as `dividend_phase` / `chicago_reached` followed by one `dividend` entry per
// paying company (income, shares held by players, per share, payout per seat). This turns
// the latest such group into a summary card: per company, and what this seat received.
import { button } from "../controls.js";
import { h, money } from "../dom.js";
import { companyColor, companyShort, ink, playerName } from "./names.js";

/**
 * @typedef {{company: string, income: number, shares_out: number, per_share: number, payouts: number[]}} Paid
 * @typedef {{key: string, kind: "phase" | "chicago", at: number, round: number | null, company: string | null,
 *            seat: number | null, first: boolean, paid: Paid[], totals: number[]}} PayoutGroup
 */

/**
 * Every payout of the game so far, in order.
 * @param {any} view
 * @returns {PayoutGroup[]}
 */
export function payoutGroups(view) {
  /** @type {PayoutGroup[]} */
  const groups = [];
  /** @type {PayoutGroup | null} */
  let open = null;
  const n = view.players.length;
  view.log.forEach((/** @type {any} */ e, /** @type {number} */ i) => {
    if (e.event === "dividend_phase") {
      open = { key: `dividends-${i}`, kind: "phase", at: i, round: e.round, company: null, seat: null, first: false, paid: [], totals: new Array(n).fill(0) };
      groups.push(open);
    } else if (e.event === "chicago_reached") {
      open = { key: `chicago-${i}`, kind: "chicago", at: i, round: null, company: e.company, seat: e.seat, first: e.first, paid: [], totals: new Array(n).fill(0) };
      groups.push(open);
    } else if (e.event === "dividend" && open) {
      const group = /** @type {PayoutGroup} */ (open);
      group.paid.push({ company: e.company, income: e.income, shares_out: e.shares_out, per_share: e.per_share, payouts: e.payouts });
      e.payouts.forEach((/** @type {number} */ p, /** @type {number} */ seat) => (group.totals[seat] += p));
    } else if (e.event !== "game_ended" && e.event !== "dials_reset" && e.event !== "developed" && e.event !== "wabash_opened") {
      open = null; // the payouts of a group follow its heading directly
    }
  });
  return groups;
}

/**
 * The latest payout while it is news: until every player has had a turn since, or the
 * game is over; and until the player closes it.
 * @param {any} view
 * @param {import("../pageapi.js").PageContext} ctx
 */
export function dividendNews(view, ctx) {
  const groups = payoutGroups(view);
  const last = groups[groups.length - 1];
  if (!last || ctx.ui.dismissed === last.key) return null;
  const turnsSince = view.log.slice(last.at).filter((/** @type {any} */ e) => e.event === "chose").length;
  if (!view.result && turnsSince >= view.players.length) return null;
  return payoutCard(view, last, ctx);
}

/**
 * @param {any} view
 * @param {PayoutGroup} g
 * @param {import("../pageapi.js").PageContext} ctx
 */
export function payoutCard(view, g, ctx) {
  const who = (/** @type {number} */ seat) => playerName(view, seat);
  const title = g.kind === "phase"
    ? `Dividends paid · end of round ${g.round}`
    : `${companyShort(view, g.company ?? "")} reached Chicago${g.first ? " first" : ""}: extra dividend`;
  const why = g.kind === "phase"
    ? "Two dials were on red, so every company paid its shareholders: per share = income ÷ shares held by players, rounded up, paid by the bank."
    : `${who(g.seat ?? 0)} built ${companyShort(view, g.company ?? "")} into Chicago: its shareholders get an extra dividend at once.${g.first ? " Wabash is now open, and its first share is auctioned." : ""}`;
  const mine = ctx.mySeat !== null ? g.totals[ctx.mySeat] ?? 0 : null;
  const ended = view.log.slice(g.at).some((/** @type {any} */ e) => e.event === "game_ended");
  return h("section", { class: "news dividend-news", role: "status", dataset: { testid: "dividend-news", kind: g.kind } },
    h("h2", {}, title),
    h("p", { class: "muted" }, why),
    mine !== null ? h("p", { class: "you-received", dataset: { testid: "you-received", amount: mine } }, h("strong", {}, `You received ${money(mine)}.`)) : null,
    g.paid.length
      ? h("table", { class: "payouts" },
        h("thead", {}, h("tr", {}, ["Company", "Income", "Shares held", "Per share", "Paid to"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", {}, g.paid.map((p) => h("tr", { dataset: { company: p.company, income: p.income, perShare: p.per_share } },
          h("th", { scope: "row" }, h("span", { class: "chip", style: { background: companyColor(p.company), color: ink(p.company) } }, companyShort(view, p.company))),
          h("td", {}, money(p.income)),
          h("td", {}, String(p.shares_out)),
          h("td", {}, money(p.per_share)),
          h("td", { class: "paid-to" }, p.payouts.map((amount, seat) => (amount ? `${who(seat)} ${money(amount)}` : null)).filter(Boolean).join(", "))))))
      : h("p", {}, "No company had shares held by players: nothing was paid."),
    h("p", { class: "totals" }, "In all: ", g.totals.map((t, seat) => `${who(seat)} ${money(t)}`).join(" · ")),
    ended ? h("p", {}, h("strong", {}, "That was the last payout: the game is over.")) : null,
    button("OK", "dismiss-news", () => ctx.on.dismiss(g.key), { testid: "dismiss-news" }));
}

/**
 * Every payout so far, one line each, newest first: what each brought this seat (or, for a
 * spectator, everyone).
 * @param {any} view
 * @param {number | null} mySeat
 */
export function payoutHistory(view, mySeat) {
  const groups = payoutGroups(view).reverse();
  if (!groups.length) return h("p", { class: "muted" }, "No dividends yet: they are paid when two dials are on red.");
  const who = (/** @type {number} */ seat) => playerName(view, seat);
  return h("ol", { class: "payout-history", dataset: { testid: "payout-history" } }, groups.map((g) => {
    const what = g.kind === "phase" ? `Round ${g.round}` : `${companyShort(view, g.company ?? "")} in Chicago`;
    const byCompany = g.paid.map((p) => `${companyShort(view, p.company)} ${money(p.per_share)}/share`).join(", ");
    const got = mySeat !== null
      ? `you received ${money(g.totals[mySeat] ?? 0)}`
      : g.totals.map((t, seat) => `${who(seat)} ${money(t)}`).join(", ");
    return h("li", { dataset: { key: g.key } }, h("strong", {}, `${what}: `), got, byCompany ? h("span", { class: "muted" }, ` (${byCompany})`) : null);
  }));
}
