// @ts-check
// The information panels of the table page: company charters, players, dials, the
// industrial tracks, and the result.
import { h, money } from "../dom.js";
import { cashChart } from "./chart.js";
import { PLAYER_COLOURS, companyColor, ink, playerName } from "./names.js";

/**
 * @typedef {{seat: number, name: string, kind: "human" | "bot", level: string | null}} SeatInfo
 */

/** @param {any} company */
function swatchStyle(company) {
  return { background: companyColor(company.id), color: ink(company.id) };
}

/** @param {any} view */
export function charters(view) {
  return view.companies.map((/** @type {any} */ c) => {
    const holders = c.holdings
      .map((/** @type {number} */ n, /** @type {number} */ seat) => (n ? `${playerName(view, seat)} ×${n}` : null))
      .filter(Boolean);
    const status = c.open ? null : c.id === "WAB" ? "opens when a company reaches Chicago" : "closed";
    return h(
      "article",
      { class: "charter", dataset: { company: c.id, testid: `charter-${c.id}` } },
      h("header", { style: swatchStyle(c) }, h("strong", {}, c.short), h("span", { class: "full-name" }, c.name)),
      h(
        "dl",
        {},
        h("dt", {}, "Cash"), h("dd", { dataset: { field: "cash" } }, money(c.cash)),
        h("dt", {}, "Income"), h("dd", { dataset: { field: "income" } }, money(c.income)),
        h("dt", {}, "Shares left"), h("dd", {}, `${c.shares_left} / ${c.shares_total}`),
        h("dt", {}, "Locos left"), h("dd", {}, `${c.locomotives_left} / ${c.locomotives_total}`),
        h("dt", { title: "What each share held by a player would pay if dividends were paid now: income ÷ shares held, rounded up" }, "Per share"),
        h("dd", { dataset: { field: "per-share" } }, money(c.dividend_per_share)),
        c.min_bid != null ? [h("dt", {}, "Min bid"), h("dd", {}, money(c.min_bid))] : null,
      ),
      h("p", { class: "holders" }, holders.length ? holders.join(", ") : "no shareholders yet"),
      status ? h("p", { class: "muted" }, status) : null,
    );
  });
}

/**
 * @param {any} view
 * @param {{mySeat: number | null, seats: SeatInfo[]}} ctx
 */
export function players(view, ctx) {
  const active = new Set(view.active_seats);
  const companies = view.companies;
  return h(
    "table",
    { class: "players" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Cash"),
      companies.map((/** @type {any} */ c) => h("th", { scope: "col" }, h("span", { class: "chip", style: swatchStyle(c) }, c.short))))),
    h(
      "tbody",
      {},
      view.players.map((/** @type {any} */ p) => {
        const seat = ctx.seats[p.seat];
        const tags = [];
        if (p.seat === ctx.mySeat) tags.push(h("span", { class: "tag you" }, "you"));
        if (seat?.kind === "bot") tags.push(h("span", { class: "tag bot" }, `bot${seat.level ? ` · ${seat.level}` : ""}`));
        return h(
          "tr",
          { class: active.has(p.seat) ? "to-act" : "", dataset: { seat: p.seat } },
          h("th", { scope: "row" },
            h("span", { class: "swatch", style: { background: PLAYER_COLOURS[p.seat % PLAYER_COLOURS.length] } }),
            active.has(p.seat) ? h("span", { class: "turn-mark", "aria-label": "to act" }, "▶ ") : null,
            p.name, " ", tags),
          h("td", { dataset: { field: "cash" } }, money(p.cash)),
          companies.map((/** @type {any} */ c) => h("td", {}, p.shares[c.id] || "·")),
        );
      }),
    ),
  );
}

/** What a charter's numbers mean, under them. */
export function chartersHelp() {
  return h("p", { class: "explain" }, h("b", {}, "Per share"), ": what each share held by a player would pay if dividends were paid now (income ÷ shares held, rounded up). ",
    h("b", {}, "Min bid"), ": the lowest opening bid for its next share (income ÷ (shares held + 1), rounded up).");
}

/** What the dials mean, under them. */
export function dialsHelp() {
  return h("p", { class: "explain" }, "Each choice of an action moves its dial one step. A full dial is ", h("b", {}, "on red"),
    ": that action cannot be chosen. When two dials are on red, dividends are paid before the next turn, and the dials go back to zero.");
}

/** @param {any} view */
export function dials(view) {
  return view.dials.map((/** @type {any} */ d) =>
    h(
      "div",
      { class: `dial${d.red ? " red" : ""}`, dataset: { action: d.action } },
      h("span", { class: "dial-name" }, d.action),
      h("span", { class: "pips", role: "img", "aria-label": `${d.position} of ${d.length}${d.red ? ", on red" : ""}` },
        Array.from({ length: d.length }, (_, i) => h("span", { class: i < d.position ? "pip on" : "pip" }))),
      h("span", { class: "dial-count" }, `${d.position}/${d.length}`),
      d.red ? h("span", { class: "red-label" }, "on red") : null,
    ),
  );
}

/** @param {any} view */
export function industry(view) {
  return view.industry.map((/** @type {any} */ t) =>
    h(
      "div",
      { class: "track", dataset: { hex: t.hex } },
      h("span", { class: "track-name" }, `${t.name}${t.self_developing ? " (develops itself)" : ""}`),
      h("ol", { class: "track-steps" },
        t.track.map((/** @type {number} */ v, /** @type {number} */ i) => h("li", { class: i === t.position ? "here" : i < t.position ? "past" : "" }, String(v)))),
    ),
  );
}

/**
 * The result screen: ranking, why the game ended, and the cash chart.
 * @param {any} view
 * @param {{mySeat: number | null, width: number}} ctx  `width`: the space the chart gets, in CSS pixels
 */
export function result(view, ctx) {
  const r = view.result;
  const order = view.players.map((/** @type {any} */ p) => p.seat).sort((/** @type {number} */ a, /** @type {number} */ b) => r.ranks[a] - r.ranks[b]);
  const winners = r.winners.map((/** @type {number} */ seat) => playerName(view, seat)).join(" and ");
  return h(
    "section",
    { class: "result", dataset: { testid: "result" }, "aria-live": "polite" },
    h("h2", {}, "Game over"),
    h("p", { class: "winner" }, r.winners.includes(ctx.mySeat) ? `You win${r.winners.length > 1 ? " (shared)" : ""}!` : `${winners} ${r.winners.length > 1 ? "win" : "wins"}.`),
    h("p", { class: "muted" }, `Ended by: ${endReason(r.reason)}`),
    h("ol", { class: "ranking" },
      order.map((/** @type {number} */ seat) => h("li", { dataset: { seat, rank: r.ranks[seat] } },
        h("span", { class: "rank" }, `#${r.ranks[seat]}`), " ", playerName(view, seat), " ", h("strong", {}, money(r.scores[seat]))))),
    cashChart(view, ctx.width),
  );
}

/** "three_companies_out_of_shares, houses_supply_low" as words. @param {string} reason */
export function endReason(reason) {
  return reason ? reason.replaceAll("_", " ") : "the rules";
}
