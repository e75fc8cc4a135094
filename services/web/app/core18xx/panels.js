// @ts-check
// The money side of an 18xx title, from the engine's money view (core18xx/money/view.py):
// players (cash, certificates against the limit, shares, privates), company charters (cash,
// trains, share price, shares in the IPO, treasury and pool, privates), the stock market with
// every company's marker, the bank, the phase and the train roster with what rusts when.
import { h } from "../dom.js";

/**
 * @typedef {import("./actions.js").Names} Names
 * @typedef {object} TitleData
 * @property {Record<string, {name: string, type: string, color: string, text: string, historical?: boolean}>} corporations
 * @property {Record<string, {name: string, value: number, revenue: number, desc: string}>} privates
 * @property {TrainKind[]} trains
 * @property {Record<string, TrainKind[]>} [trains_by_variant]   a data set's own roster (1841's lite)
 * @typedef {{name: string, distance: any, price: number, rusts_on: string | null, num: number | null}} TrainKind
 */

/**
 * The train roster the view's data set plays with.
 * @param {any} view
 * @param {TitleData} data
 * @returns {TrainKind[]}
 */
export function roster(view, data) {
  return data.trains_by_variant?.[view.variant] ?? data.trains;
}

/**
 * Who holds a company's shares, corporations included ("SSFL 20%, pool 10%"), players by name.
 * @param {any} view
 * @param {any} c
 * @param {Names} n
 */
function holdersLine(view, c, n) {
  return Object.entries(c.holders ?? {}).filter(([who]) => who !== c.sym && who !== "pool")
    .map(([who, pct]) => `${/^\d+$/.test(who) ? n.player(who) : who} ${pct}%`).join(", ");
}

/**
 * @param {string} sym
 * @param {TitleData} data
 */
export function chip(sym, data) {
  const c = data.corporations[sym];
  return h("span", { class: "corp-chip", style: { background: c?.color ?? "#888", color: c?.text ?? "#fff" }, title: c?.name ?? sym }, sym);
}

/**
 * @param {any} view
 * @param {Names} n
 * @param {TitleData} data
 * @param {number | null} me
 * @param {string} privates   what the title calls its privates
 */
export function playersPanel(view, n, data, me, privates = "privates") {
  const limit = view.cert_limit;
  return h("section", { class: "card players-18xx", dataset: { testid: "players" } },
    h("h2", {}, "Players"),
    h("table", { class: "grid" },
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Cash"), h("th", {}, `Certs / ${limit}`), h("th", {}, `Shares and ${privates.toLowerCase()}`))),
      h("tbody", {}, (view.players ?? []).map((/** @type {any} */ p, /** @type {number} */ i) => h("tr", { class: `${p.seat === me ? "me" : ""}${p.bankrupt ? " bankrupt" : ""}`, dataset: { seat: p.seat } },
        h("td", {}, i === 0 ? "★ " : "", p.name, p.bankrupt ? " (bankrupt)" : ""),
        h("td", {}, n.money(p.cash)),
        h("td", { class: p.certificates > limit ? "over" : "" }, String(p.certificates)),
        h("td", {}, Object.entries(p.shares ?? {}).map(([sym, pct]) => [h("span", { class: "holding" }, chip(sym, data),
          ` ${pct}%${(p.presidencies ?? []).includes(sym) ? " (president)" : ""}`), " "]),
        (p.privates ?? []).map((/** @type {string} */ c) => [h("span", { class: "holding private", title: data.privates[c]?.desc ?? "" }, c), " "]),
        (p.controls ?? []).length ? h("div", { class: "controls muted", dataset: { testid: `controls-${p.seat}` } },
          "controls through corporations: ", p.controls.map((/** @type {string} */ sym) => [chip(sym, data), " "])) : null))))),
    h("p", { class: "muted" }, "★ has the priority deal (acts first in the next stock round)."));
}

/**
 * @param {any} view
 * @param {Names} n
 * @param {TitleData} data
 */
export function companiesPanel(view, n, data) {
  const order = view.operating_order ?? [];
  const companies = [...(view.companies ?? [])].filter((c) => (c.started || c.floated) && !c.closed);
  companies.sort((a, b) => (order.indexOf(a.sym) + 1 || 99) - (order.indexOf(b.sym) + 1 || 99));
  const unstarted = (view.companies ?? []).filter((/** @type {any} */ c) => !c.started && !c.floated && !c.closed);
  const closed = (view.companies ?? []).filter((/** @type {any} */ c) => c.closed);
  return h("section", { class: "card x18-charters", dataset: { testid: "charters" } },
    h("h2", {}, "Companies"),
    companies.length ? null : h("p", { class: "muted" }, "No company has started yet."),
    h("div", { class: "x18-charter-list" }, companies.map((c) => {
      const president = (view.players ?? []).find((/** @type {any} */ p) => p.id === c.president);
      return h("article", { class: "x18-charter", dataset: { corp: c.sym } },
        h("header", { style: { background: data.corporations[c.sym]?.color ?? "#888", color: data.corporations[c.sym]?.text ?? "#fff" } },
          h("strong", {}, c.sym), " ", data.corporations[c.sym]?.name ?? "", c.type === "minor" ? " · minor" : " · major",
          c.historical === undefined ? "" : c.historical ? " · historical" : " · general",
          c.frozen ? h("span", { class: "frozen", dataset: { testid: `frozen-${c.sym}` } }, " · FROZEN") : "",
          c.closed ? " · closed" : ""),
        h("dl", {},
          h("dt", {}, "President"), h("dd", {}, president?.name ?? (c.president && c.president !== c.sym && c.president !== "pool" ? c.president : "—")),
          "controller" in c ? [h("dt", {}, "Controlled by"), h("dd", { dataset: { testid: `controller-${c.sym}` } },
            c.frozen ? "nobody (frozen)" : (c.chain ?? []).length > 1 ? `${n.player(c.controller)} through ${c.chain.slice(0, -1).join(" → ")}` : n.player(c.controller))] : null,
          h("dt", {}, "Cash"), h("dd", {}, c.cash == null ? "—" : n.money(c.cash)),
          h("dt", {}, "Share price"), h("dd", {}, c.price ? n.money(c.price) : "—"),
          h("dt", {}, `Trains (limit ${c.train_limit})`), h("dd", {}, (c.trains ?? []).map((/** @type {string} */ t) => t.replace(/-\d+$/, "")).join(", ") || "none"),
          h("dt", {}, "Shares"), h("dd", {}, `treasury ${c.treasury_percent ?? 0}% · pool ${c.pool_percent ?? 0}%${holdersLine(view, c, n) ? ` · held by ${holdersLine(view, c, n)}` : ""}`),
          Object.keys(c.shares ?? {}).length ? [h("dt", {}, "Owns shares of"), h("dd", { dataset: { testid: `owns-${c.sym}` } },
            Object.entries(c.shares).map(([sym, pct]) => [h("span", { class: "holding" }, chip(sym, data), ` ${pct}%`), " "]))] : null,
          typeof c.tokens === "number" ? [h("dt", {}, "Stations"), h("dd", {}, `${c.tokens_placed ?? 0} placed of ${c.tokens}`)] : null,
          (c.privates ?? []).length ? [h("dt", {}, "Privates"), h("dd", {}, c.privates.join(", "))] : null));
    })),
    unstarted.length ? h("p", { class: "muted" }, "Not started: ", unstarted.map((/** @type {any} */ c) => [chip(c.sym, data), " "])) : null,
    closed.length ? h("p", { class: "muted" }, "Closed or out of the game: ", closed.map((/** @type {any} */ c) => [chip(c.sym, data), " "])) : null);
}

/**
 * @param {any} view
 * @param {TitleData} data
 * @param {Names} n
 */
export function marketPanel(view, data, n) {
  const rows = view.market?.rows ?? [];
  const markers = view.market?.markers ?? {};
  return h("section", { class: "card market", dataset: { testid: "market" } },
    h("h2", {}, "Stock market"),
    h("div", { class: "market-scroll" }, h("table", { class: "market-grid" }, h("tbody", {}, rows.map((/** @type {any[]} */ row, /** @type {number} */ r) =>
      h("tr", {}, row.map((cell, col) => cell === null ? h("td", { class: "none" }) : h("td", {
        class: (cell.kinds ?? []).join(" "), dataset: { cell: `${r},${col}` },
        title: (cell.kinds ?? []).map((/** @type {string} */ k) => ({ par: "a par price", endgame: "the game ends when a company reaches it",
          no_cert_limit: "shares here do not count toward the limit", close: "a company here closes" })[k] ?? k).join("; "),
      }, h("span", { class: "price" }, String(cell.price)), (markers[`${r},${col}`] ?? []).map((/** @type {string} */ sym) => chip(sym, data))))))))),
    h("p", { class: "muted" }, "p: par prices · bold border: the game ends here · pale: outside the certificate limit"),
    h("p", {}, `Bank: ${n.money(view.bank)}`));
}

/**
 * @param {any} view
 * @param {TitleData} data
 * @param {Names} n
 */
export function trainsPanel(view, data, n) {
  const depot = view.depot ?? {};
  const remaining = depot.remaining ?? {};
  return h("section", { class: "card trains", dataset: { testid: "trains" } },
    h("h2", {}, `Phase ${depot.phase ?? "?"} · trains`),
    h("p", {}, `Tiles: ${(depot.tiles ?? []).join(", ")} · ${depot.operating_rounds ?? "?"} operating rounds per set · train limit minor ${depot.train_limits?.minor ?? "?"}, major ${depot.train_limits?.major ?? "?"}`),
    h("p", {}, "For sale now: ", (depot.offer ?? []).map((/** @type {any} */ t) => `${t.name} ${n.money(t.price)} (${t.from === "pool" ? "bank pool" : "depot"})`).join(" · ") || "nothing"),
    h("table", { class: "grid roster" },
      h("thead", {}, h("tr", {}, h("th", {}, "Train"), h("th", {}, "Price"), h("th", {}, "Left"), h("th", {}, "Rusts when"))),
      h("tbody", {}, roster(view, data).map((t) => h("tr", { class: remaining[t.name] ? "" : "gone" },
        h("td", {}, t.name), h("td", {}, n.money(t.price)), h("td", {}, String(remaining[t.name] ?? 0)),
        h("td", {}, t.rusts_on ? `the first ${t.rusts_on} is bought` : "never"))))));
}
