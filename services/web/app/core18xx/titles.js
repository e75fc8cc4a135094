// @ts-check
// What differs between the 18xx titles this page plays, as data: the entities (names,
// colours, trains), the currency, and the rules summary in our own words. A new title (1841)
// adds one entry here and its generated entities file.
import { h } from "../dom.js";
import { ENTITIES as IRELAND } from "./g18ireland_data.js";

/**
 * @typedef {object} Title18xx
 * @property {import("./panels.js").TitleData} entities
 * @property {string} currency
 * @property {(amount: number) => string} money
 * @property {() => import("../dom.js").Child} rules
 */

/** @type {Record<string, Title18xx>} */
const TITLES = {
  "18ireland": {
    entities: IRELAND,
    currency: "£",
    money: (amount) => `£${amount}`,
    rules: () => [
      h("h3", {}, "Goal"),
      h("p", {}, "Be the richest player when the game ends: your cash plus your shares at their market price."),
      h("h3", {}, "Private auction"),
      h("p", {}, "The game opens with an auction of the private companies drawn for this game. The cheapest is bought at its price or bid on; bids on others wait until it is sold. Privates pay their owner income every operating round, and some have a one-off power (listed under Private companies)."),
      h("h3", {}, "Stock rounds"),
      h("p", {}, "In turn, sell shares first, then buy one certificate, start a company, or pass. Minors are started by auction: the player who opens it picks the home city, and the minor's share price is the highest par price not above half the winning bid. Majors open for sale only once the first 6H train is bought. Selling drops the price; a company whose shares are all held rises at the end of the round. The certificate limit counts your certificates (shares in the pale cells do not count)."),
      h("h3", {}, "Operating rounds"),
      h("p", {}, "Each company in share-price order: lay or upgrade track (a second yellow lay costs £20), place a token, run its trains (the page draws the best run the engine finds), pay a dividend or withhold it, then buy trains. A company with no train must buy one; if it cannot afford one, its president pays the rest, selling shares if need be, or goes bankrupt."),
      h("h3", {}, "Two gauges"),
      h("p", {}, "Track is broad (black) or narrow (brown, dashed). A tile lay must be reached by the company's network of the same gauge; tiles that carry both gauges join them."),
      h("h3", {}, "Mergers"),
      h("p", {}, "From phase 4 on, a merger round follows each set of operating rounds: a company's president may propose merging it with connected companies into a major; the shareholders vote, and if it passes the minors' shares become shares of the major, which starts on the market in the topmost row and leftmost column among the minors' prices. The first 8H train closes the privates and every minor not yet started."),
      h("h3", {}, "Trains and phases"),
      h("p", {}, "Each new kind of train bought moves the phase on: new tile colours, a new train limit, and older trains rust (the roster beside the map says which train rusts when)."),
      h("h3", {}, "End"),
      h("p", {}, "The game ends after the set of operating rounds in which the bank runs out, at the end of the round in which a share price reaches the end of the market, or when every player but one has gone bankrupt."),
    ],
  },
};

/** @param {string} id */
export function titleData(id) {
  return TITLES[id] ?? TITLES["18ireland"];
}
