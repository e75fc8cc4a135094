// @ts-check
// What differs between the 18xx titles this page plays, as data: the entities (names,
// colours, trains), the currency, and the rules summary in our own words. A new title (1841)
// adds one entry here and its generated entities file.
import { h } from "../dom.js";
import { ENTITIES as IRELAND } from "./g18ireland_data.js";
import { ENTITIES as G1841 } from "./g1841_data.js";

/**
 * @typedef {object} Title18xx
 * @property {import("./panels.js").TitleData} entities
 * @property {string} currency
 * @property {(amount: number) => string} money
 * @property {() => import("../dom.js").Child} rules
 * @property {string} privatesTitle   what the title calls its privates ("Private companies", "Concessions")
 */

/** @type {Record<string, Title18xx>} */
const TITLES = {
  "18ireland": {
    entities: IRELAND,
    currency: "£",
    money: (amount) => `£${amount}`,
    privatesTitle: "Private companies",
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
  "1841": {
    entities: G1841,
    currency: "L.",
    money: (amount) => `L.${amount}`,
    privatesTitle: "Concessions",
    rules: () => [
      h("h3", {}, "Goal"),
      h("p", {}, "Be the richest player when the game ends: your cash plus your shares at their market price, less any bankruptcy loan."),
      h("h3", {}, "Concessions"),
      h("p", {}, "The game opens with an auction of eight concessions worth L.50 each. Seven give the right to found one of the historical corporations (until phase 4); Bayard only pays its owner L.20 after every stock round. A player nominates a concession with a bid, the others raise or drop out in turn. The first stock round is played by the player with the least money first. Concessions close when the first 4-train is bought. (First edition: sealed bids, then the rest by auction.)"),
      h("h3", {}, "Stock rounds"),
      h("p", {}, "On your turn sell first (each share sold moves the price down), then buy one certificate, buy a concession from the bank, or found a corporation. Founding: pick a par price and buy the president's certificate (20% of a major, 40% of a minor, which may be parred at most at half your cash); you may take it up to 40% in the same turn. A new corporation then places its home station and buys its stations. General corporations may be founded from phase 3. You may hold at most 60% of a corporation, counting what you control through other corporations."),
      h("h3", {}, "Corporations own corporations"),
      h("p", {}, "A corporation is paid for each share that leaves its treasury (incremental capitalization). In its operating turn it may buy and sell shares of other corporations (up to five certificates) and even found one. The player at the top of the chain of presidents decides for every corporation below; the Players panel lists whom each player controls. A corporation whose chain ends in the pool, its own treasury or a loop has nobody in charge: it is frozen, does not operate, and its price moves left twice each operating round."),
      h("h3", {}, "Operating rounds"),
      h("p", {}, "Corporations operate from the highest share price: lay track (in phase 2 one tile per station and never across a border; up to two per station in phases 3–4), place a station, run trains, pay or withhold (the price moves right only when the revenue beats the share price, left when nothing is paid), buy trains (a corporation without one must; its chain of control and its president pay if it cannot), trade shares of other corporations, then merge or transform."),
      h("h3", {}, "The map"),
      h("p", {}, "Northern Italy is split into regions whose borders move: in phase 2 no track may cross them, and stations are placed only where the corporation's network reaches inside a region. The first 4-train and 5-train redraw the borders. Mountain passes take a station but pay nothing; towns do not count toward a train's length. Off-boards pay more in later phases."),
      h("h3", {}, "Wars and mergers"),
      h("p", {}, "With the first 4-train, if the Ferdinandea (IRSFF) has floated and no network joins its Milano and Venezia, it secedes: it splits into SB (Austria) and SFL, which share its assets and shareholders. The same train merges the Tuscan corporations (SFLP, SFMA, SSFL) into SFLi, unless fewer than two have floated. From then, two connected corporations of the same kind may merge into a general major, and a minor may transform into a major, in their operating turn; the page says what each choice sends before you tap it."),
      h("h3", {}, "Trains and phases"),
      h("p", {}, "Phases 2 to 8 follow the trains bought: new tile colours, train limits and operating rounds per set; older trains rust (the roster says which train rusts when)."),
      h("h3", {}, "End"),
      h("p", {}, "The game ends at the end of the operating round in which the bank breaks, at the end of the turn in which a share price reaches the last cell of the market or every off-board exit is connected by track, or when all players but one are bankrupt (a bankrupt player's corporations are sold off and the game goes on)."),
    ],
  },
};

/** @param {string} id */
export function titleData(id) {
  return TITLES[id] ?? TITLES["18ireland"];
}
