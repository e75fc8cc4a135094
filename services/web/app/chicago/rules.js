// @ts-check
// The rules of Chicago Express in short, our own summary of the rule book (the Czech
// edition, shared/seeds/000). Where this table differs from the printed game (dial
// lengths are a table option) the summary reads the view.
import { h } from "../dom.js";

/**
 * @param {string} heading
 * @param {...import("../dom.js").Child} body
 */
function part(heading, ...body) {
  return h("section", { class: "rules-part" }, h("h3", {}, heading), ...body);
}

/** @param {...import("../dom.js").Child} items */
const list = (...items) => h("ul", {}, items.map((i) => h("li", {}, i)));

/**
 * @param {any} view  the view on screen, or null
 */
export function rulesSummary(view) {
  const dials = view?.dials
    ? view.dials.map((/** @type {any} */ d) => `${d.action} ${d.length}`).join(", ")
    : "auction 3, build 5, develop 4";
  return h("div", { class: "rules-text" },
    part("Goal",
      h("p", {}, "You are investors. Buy shares of four railroad companies (and later Wabash), help them grow, and collect dividends. Whoever has the most cash when the game ends wins; shares are worth nothing at the end. Ties share the win.")),
    part("Start",
      h("p", {}, "The players share $120 (2 players $60 each, 3: $40, 4: $30, 5: $24, 6: $20). One share of each company is auctioned in order: PRR from $7, B&O from $6, C&O from $5, NYC from $8. Whoever buys the PRR share starts the game; whoever wins an auction opens the next one. A share nobody bids on goes free to the player who opened its auction.")),
    part("Your turn: choose an action",
      h("p", {}, `Three dials count the actions of a round (this table: ${dials}). Choose one action whose dial is not on red (full): its dial moves one step, then you carry it out or forgo it. Forgoing is a real move: the dial still moved, so it brings the dividends closer (choosing Auction and offering nothing means one auction fewer this round).`),
      h("p", {}, "The buttons show each dial, e.g. Auction (2/3): chosen twice this round, once more puts it on red.")),
    part("Auction",
      list(
        "Offer one share of any company with shares left (Wabash only once it is open) with an opening bid of at least its minimum: the company's income ÷ (shares held by players + 1), rounded up.",
        "Then clockwise each player bids higher or passes; a player who passes is out of this auction. The last bidder pays the company (not the bank) and takes the share.",
        "A share's price is the company's money to build with: a cheap share means a poor company.",
      )),
    part("Build",
      list(
        "Only for a company you hold a share of. Place up to 3 of its locomotives, each on a hex connected to its network from its start hex. Never next to another company's start hex.",
        "The company pays for each locomotive: the hex's cost ($ in the top left) × the number of locomotives on the hex, the new one included. Players cannot add money.",
        "Cities, industrial cities and plains can hold one locomotive of every company; forests and mountains only one in all.",
        "Arriving raises the company's income: a city or mountain by the number in its circle (plus the house value if it has a house), an industrial city by its current track value. Forests and plains add nothing.",
      )),
    part("Develop",
      list(
        "Develop one hex that has at least one locomotive: a house on a city, mountain or forest (once per hex, from the common supply), or one step up the track of an industrial city (Pittsburgh, Wheeling; Detroit develops itself).",
        "City or mountain: every company there gains the house value (+N in the top right) in income. Forest: every company there gets $2 from the bank. Industrial city: every company there gains the difference between the new and the old track value.",
        "Start hexes, plains and Chicago cannot be developed; Fort Wayne (Wabash's start) can.",
      )),
    part("Dividends",
      h("p", {}, "When the next player would take a turn and two dials are on red, the dividend phase comes first:"),
      list(
        "Every company pays each share held by a player its income ÷ the shares held by players, rounded up (each share on its own). The bank pays. Example: income $16, 3 shares held → $6 a share.",
        "If an end condition holds now, the game ends. Otherwise the dials go back to zero, and Detroit develops itself one step (its companies gain 1 income; at most 8).",
      ),
      h("p", {}, "\"Per share\" on a company's card is what each share would pay if dividends were paid now.")),
    part("Chicago",
      h("p", {}, "Whenever a company places a locomotive in Chicago, its shareholders are paid an extra dividend at once (computed the same way). The first company to arrive opens Wabash: a free Wabash locomotive goes to Fort Wayne (income 1, or 3 if Fort Wayne has a house), and the player who reached Chicago opens the auction of the first Wabash share. A dividend phase due the same turn comes after the Chicago payout.")),
    part("End",
      h("p", {}, "The game ends right after the dividends of a dividend phase if: 3 or more companies have no locomotives left, or 3 or more have no shares left, or 3 or fewer houses are left in the supply, or Detroit is at its top value. Most cash wins.")));
}
