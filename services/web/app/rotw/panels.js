// @ts-check
// The panels beside the map: players, your baron (your seat only), the operations cards on
// display, the end of game, and the result.
import { h } from "../dom.js";
import { baronName, baronText, cubeColor, dollars, seatColor } from "./names.js";

/**
 * @param {any} view
 * @param {number | null} mySeat
 */
export function players(view, mySeat) {
  const toAct = new Set(view.to_act ?? []);
  const rows = (view.players ?? []).map((/** @type {any} */ p) => h("tr", {
    class: `${p.seat === mySeat ? "me" : ""}${toAct.has(p.seat) ? " acting" : ""}`, dataset: { seat: p.seat, testid: "player" },
  },
  h("td", {}, h("span", { class: "swatch", style: { background: seatColor(p.seat), display: "inline-block", width: "0.8em", height: "0.8em", marginRight: "0.3em" } }),
    p.name, p.seat === view.first ? " ★" : "", toAct.has(p.seat) ? " ◀" : ""),
  h("td", {}, dollars(p.cash)),
  h("td", {}, String(p.shares)),
  h("td", {}, String(p.engine)),
  h("td", {}, `${p.vp} / ${dollars(p.income)}`),
  h("td", {}, (p.hand ?? []).map((/** @type {any} */ c) => c.name).join(", ") || "—")));
  return h("table", { class: "players", dataset: { testid: "players" } },
    h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Cash"), h("th", {}, "Shares"), h("th", {}, "Engine"),
      h("th", { title: "track position (VP) / income it pays" }, "VP / income"), h("th", {}, "Cards"))),
    h("tbody", {}, rows),
    h("caption", { class: "muted" }, "★ first player this turn · ◀ to act · each share: $1,000 a turn and −1 VP at the end"));
}

/**
 * Your baron card: only your seat's view holds it (others see "hidden").
 * @param {any} view
 * @param {number | null} mySeat
 */
export function baron(view, mySeat) {
  if (mySeat === null) return h("p", { class: "muted", dataset: { testid: "baron" } }, "Spectators do not see any baron card.");
  const me = view.players?.[mySeat];
  if (!me) return null;
  if (me.baron && me.baron !== "hidden") {
    return h("div", { class: "baron", dataset: { testid: "baron", baron: me.baron } },
      h("p", {}, h("b", {}, baronName(me.baron))), h("p", {}, baronText(me.baron)),
      h("p", { class: "muted" }, "Secret: the others see only that you have chosen."));
  }
  const draw = me.baron_draw ?? [];
  if (draw.length) {
    return h("div", { class: "baron", dataset: { testid: "baron-draw" } },
      h("p", {}, "You drew two barons; keep one (secret):"),
      h("ul", {}, draw.map((/** @type {string} */ b) => h("li", {}, baronText(b)))));
  }
  return null;
}

/** @param {any} view */
export function display(view) {
  const cards = view.display ?? [];
  return h("div", { dataset: { testid: "display" } },
    cards.length ? h("ul", { class: "cards" }, cards.map((/** @type {any} */ c) => h("li", { dataset: { card: c.id } }, h("b", {}, c.name), ` (${c.id})`)))
      : h("p", { class: "muted" }, "No cards on display."),
    h("p", { class: "muted" }, `Deck: ${view.deck_size} cards · goods bag: ${view.bag_size} cubes · new city tiles: ${(view.new_cities ?? []).join(", ") || "none"}`));
}

/** @param {any} view */
export function ending(view) {
  const parts = [`Empty cities: ${view.empty_cities} of ${view.empty_needed} (the end is triggered at ${view.empty_needed}; then the turn is finished and one more turn is played).`];
  if (view.ending) parts.push(view.final_turn ? ` The final turn is turn ${view.final_turn}.` : " The end has been triggered.");
  const majors = Object.entries(view.majors ?? {});
  return h("div", { dataset: { testid: "ending" } }, h("p", {}, parts.join("")),
    majors.length ? h("p", { class: "muted" }, `Major lines claimed: ${majors.map(([k, v]) => `${k} (${view.players?.[/** @type {any} */ (v)]?.name ?? v})`).join(", ")}`) : null);
}

/** @param {any} view */
export function pending(view) {
  const pd = view.pending_delivery;
  if (!pd) return null;
  return h("p", { class: "news" }, `${view.players[pd.seat]?.name} is delivering a `, h("b", { style: { color: cubeColor(pd.color) } }, pd.color),
    ` cube from ${cityName(view, pd.city)}; ${view.players[pd.asked]?.name} may play the Railway Inspector.`);
}

/** @param {any} view @param {string} hex */
export function cityName(view, hex) {
  return (view.cities ?? []).find((/** @type {any} */ c) => c.hex === hex)?.name ?? (view.towns ?? []).find((/** @type {any} */ t) => t.hex === hex)?.name ?? hex;
}

/**
 * The final scores: the view's breakdown per seat (track, links, cards, baron, shares), ranked.
 * @param {any} view
 */
export function result(view) {
  const rows = Array.isArray(view.scores) ? view.scores : [];
  const ranks = view.result?.ranks ?? [];
  const order = rows.map((/** @type {any} */ _r, /** @type {number} */ i) => i).sort((/** @type {number} */ a, /** @type {number} */ b) => (ranks[a] ?? 0) - (ranks[b] ?? 0));
  const winners = (view.result?.winners ?? []).map((/** @type {number} */ w) => view.players[w]?.name);
  return h("section", { class: "result card", dataset: { testid: "rotw-result" } },
    h("h2", {}, "Game over"),
    h("p", {}, `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(", ")}`, view.result?.reason ? ` · ${String(view.result.reason).replaceAll("_", " ")}` : ""),
    h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, ["#", "Player", "Track", "Links", "Cards", "Baron", "Shares", "Total"].map((c) => h("th", {}, c)))),
      h("tbody", {}, order.map((/** @type {number} */ i) => {
        const r = rows[i];
        const p = view.players[i];
        return h("tr", { dataset: { seat: i } }, h("td", {}, String(ranks[i] ?? "")), h("td", {}, p?.name ?? `seat ${i}`),
          h("td", {}, String(r.track)), h("td", {}, String(r.links)), h("td", {}, String(r.cards)),
          h("td", { title: p?.baron ? baronText(p.baron) : "" }, `${r.baron}${p?.baron ? ` (${baronName(p.baron)})` : ""}`),
          h("td", {}, String(r.shares)), h("td", {}, h("b", {}, String(r.total))));
      }))));
}
