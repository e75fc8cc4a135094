// @ts-check
// The panels beside the map: players, your baron (your seat only), the operations cards on
// display, the end of game, and the result.
import { h } from "../dom.js";
import { MAJORS } from "./mapdata.js";
import { baronMeasure, baronName, baronText, cardText, cubeColor, dollars, seatColor } from "./names.js";

/**
 * @param {any} view
 * @param {number | null} mySeat
 */
export function players(view, mySeat) {
  const toAct = new Set(view.to_act ?? []);
  const rows = (view.players ?? []).map((/** @type {any} */ p) => h("tr", {
    class: `${p.seat === mySeat ? "me" : ""}${toAct.has(p.seat) ? " acting" : ""}`, dataset: { seat: p.seat, testid: "player" },
  },
  h("td", { class: "who" }, h("span", { class: "swatch", style: { background: seatColor(p.seat) } }),
    p.name, p.seat === view.first ? " ★" : "", toAct.has(p.seat) ? " ◀" : "",
    // The cards held: on the name's line, so the table fits the side column.
    (p.hand ?? []).length ? h("span", { class: "hand muted", dataset: { testid: "hand" } }, (p.hand ?? []).map((/** @type {any} */ c) => c.name).join(", ")) : null),
  h("td", {}, dollars(p.cash)),
  h("td", {}, String(p.shares)),
  h("td", {}, String(p.engine)),
  h("td", {}, `${p.vp} / ${dollars(p.income)}`)));
  return h("table", { class: "players", dataset: { testid: "players" } },
    h("thead", {}, h("tr", {}, h("th", {}, "Player (cards)"), h("th", {}, "Cash"), h("th", {}, "Shares"), h("th", {}, "Engine"),
      h("th", { title: "track position (VP) / income it pays" }, "VP / income"))),
    h("tbody", {}, rows),
    h("caption", { class: "muted" }, "★ first player this turn · ◀ to act · each share: $1,000 a turn and −1 VP at the end"));
}

/**
 * Your baron card: only your seat's view holds it (others see "hidden").
 * @param {any} view
 * @param {number | null} mySeat
 */
export function baron(view, mySeat) {
  if (view.result) return barons(view, mySeat);
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

/** The face-up cards, each with what it does. @param {any} view */
export function display(view) {
  const cards = view.display ?? [];
  return h("div", { dataset: { testid: "display" } },
    cards.length ? h("ul", { class: "cards" }, cards.map((/** @type {any} */ c) => h("li", { dataset: { card: c.id } }, h("b", {}, c.name), `: ${cardText(c.kind)}`)))
      : h("p", { class: "muted" }, "No cards on display."),
    h("p", { class: "muted" }, `Deck: ${view.deck_size} cards · goods bag: ${view.bag_size} cubes · new city tiles: ${(view.new_cities ?? []).join(", ") || "none"}`));
}

/** @param {any} view */
export function ending(view) {
  const parts = [`Empty cities: ${view.empty_cities} of ${view.empty_needed} (the end is triggered at ${view.empty_needed}; then the turn is finished and one more turn is played).`];
  if (view.ending) parts.push(view.final_turn ? ` The final turn is turn ${view.final_turn}.` : " The end has been triggered.");
  return h("div", { dataset: { testid: "ending" } }, h("p", {}, parts.join("")), majors(view));
}

/**
 * The major lines: the first to connect a line's cities with their own links wins its VP.
 * Names and VP come from mapdata.js for this map; a line it does not know shows its id.
 * @param {any} view
 */
function majors(view) {
  const claimed = /** @type {Record<string, number>} */ (view.majors ?? {});
  const known = new Map(MAJORS.map((m) => [m.id, m]));
  const lines = view.map === "England and Wales" || Object.keys(claimed).every((id) => known.has(id))
    ? MAJORS : Object.keys(claimed).map((id) => ({ id, name: id, vp: 0 }));
  const holder = (/** @type {string} */ id) => (id in claimed ? view.players?.[claimed[id]]?.name ?? `seat ${claimed[id]}` : null);
  return h("details", { class: "majors", dataset: { testid: "majors" } },
    h("summary", {}, `Major lines: ${Object.keys(claimed).length} of ${lines.length} claimed`),
    h("ul", {}, lines.map((m) => h("li", { class: holder(m.id) ? "claimed" : "" },
      `${m.name}${m.vp ? ` (${m.vp} VP)` : ""}: `, holder(m.id) ? h("b", {}, holder(m.id)) : h("span", { class: "muted" }, "open")))));
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
 * Every baron, revealed at the end (the view carries them only then), with its standing.
 * @param {any} view
 * @param {number | null} mySeat
 */
function barons(view, mySeat) {
  const rows = Array.isArray(view.scores) ? view.scores : [];
  return h("ul", { class: "barons", dataset: { testid: "barons" } }, (view.players ?? []).map((/** @type {any} */ p) => {
    const st = rows[p.seat]?.baron_standing;
    return h("li", { dataset: { seat: p.seat, baron: p.baron ?? "" } },
      h("b", {}, p.seat === mySeat ? "You" : p.name), ": ", p.baron ? baronName(p.baron) : "no baron",
      st ? standing(st) : null);
  }));
}

/** " — engine level 4, best of the others 3: met, +10 VP" @param {any} st */
function standing(st) {
  return h("span", { class: st.met ? "met" : "unmet" },
    ` — ${baronMeasure(st.id)} ${st.count}, best of the others ${st.best_other}: `,
    h("b", {}, st.met ? `met, +${st.vp} VP` : "not met, 0 VP"));
}

/**
 * Why tied totals are ranked as they are (end.py: fewer shares issued ranks higher; equal
 * shares too, the rank is shared), one sentence per tied total.
 * @param {any} view @param {any[]} rows @param {number[]} ranks
 */
function ties(view, rows, ranks) {
  /** @type {Map<number, number[]>} */
  const byTotal = new Map();
  rows.forEach((r, seat) => byTotal.set(r.total, [...(byTotal.get(r.total) ?? []), seat]));
  const name = (/** @type {number} */ s) => view.players[s]?.name ?? `seat ${s}`;
  const notes = [...byTotal].filter(([, seats]) => seats.length > 1).map(([total, seats]) => {
    const byRank = [...new Set(seats.map((s) => ranks[s]))].sort((a, b) => a - b)
      .map((rank) => seats.filter((s) => ranks[s] === rank));
    const groups = byRank.map((g) => {
      const shares = view.players[g[0]]?.shares ?? 0;
      return `${g.map(name).join(" and ")} (${shares} share${shares === 1 ? "" : "s"}) ${g.length > 1 ? "share" : "take"} #${ranks[g[0]]}`;
    });
    return `${seats.map(name).join(", ")} tie on ${total} VP; ${byRank.length > 1 ? "fewer shares issued ranks higher" : "they issued as many shares"}: ${groups.join(", ")}.`;
  });
  return notes.length ? h("p", { class: "ties", dataset: { testid: "ties" } }, notes.join(" ")) : null;
}

/**
 * The result screen: the ranking as the engine ranks it, each score broken down as end.py
 * counts it (track + links + cards and major lines + baron − shares), and every baron.
 * @param {any} view
 * @param {number | null} mySeat
 */
export function result(view, mySeat) {
  const r = view.result;
  const rows = Array.isArray(view.scores) ? view.scores : [];
  const ranks = r.ranks;
  const order = ranks.map((/** @type {number} */ _, /** @type {number} */ i) => i).sort((/** @type {number} */ a, /** @type {number} */ b) => ranks[a] - ranks[b] || a - b);
  const names = r.winners.map((/** @type {number} */ w) => view.players[w]?.name);
  const headline = mySeat !== null && r.winners.includes(mySeat)
    ? `You win${r.winners.length > 1 ? " (shared)" : ""}!` : `${names.join(" and ")} ${r.winners.length > 1 ? "win" : "wins"}.`;
  const part = (/** @type {string} */ name, /** @type {number} */ value, /** @type {string} */ key, /** @type {any} */ detail = null) =>
    h("span", { class: "part", dataset: { part: key } }, h("span", { class: "muted" }, name), " ", h("b", {}, value > 0 && key !== "track" ? `+${value}` : String(value)), detail);
  return h("section", { class: "result rotw-result", dataset: { testid: "result" }, "aria-live": "polite" },
    h("h2", {}, "Game over"),
    h("p", { class: "winner" }, headline),
    h("p", { class: "muted" }, `Ended by: ${String(r.reason ?? "the rules").replaceAll("_", " ")}. Score = track position + 1 per completed link + cards and major lines + baron − 1 per share.`),
    h("ol", { class: "ranking" }, order.map((/** @type {number} */ seat) => {
      const row = rows[seat] ?? {};
      const p = view.players[seat] ?? {};
      const bonus = (row.bonus ?? []).map((/** @type {any[]} */ [name, vp]) => `${name} ${vp}`).join(", ");
      return h("li", { class: seat === mySeat ? "me" : "", dataset: { seat, rank: ranks[seat], total: r.scores[seat] } },
        h("div", { class: "who" }, h("span", { class: "rank" }, `#${ranks[seat]}`), " ",
          h("span", { class: "swatch", style: { background: seatColor(seat) } }), " ",
          h("b", {}, p.name ?? `seat ${seat}`), " ", h("strong", { class: "total" }, `${r.scores[seat]} VP`)),
        h("div", { class: "parts" },
          part("track", row.track, "track"),
          part("links", row.links, "links"),
          part("cards & major lines", row.cards, "cards", bonus ? h("span", { class: "muted" }, ` (${bonus})`) : null),
          part("baron", row.baron, "baron", p.baron ? h("span", { class: "muted" }, ` (${baronName(p.baron)}${row.baron_standing ? `, ${row.baron_standing.met ? "met" : "not met"}` : ""})`) : null),
          part("shares", row.shares, "shares")));
    })),
    ties(view, rows, ranks),
    h("h3", {}, "The barons"),
    barons(view, mySeat));
}
