// @ts-check
// The rules summary panel, in our words, from the title's README
// (shared/games/rotw_england_wales/README.md), which names the sources and the readings.
import { h } from "../dom.js";

const li = (/** @type {string} */ t) => h("li", {}, t);

/** The summary of the game the table plays (option `game`). @param {any} view */
export function rulesSummary(view) {
  return view?.game === "advanced" ? advancedRules() : standardRules();
}

function standardRules() {
  return h("div", { class: "rules", dataset: { testid: "rules" } },
    h("p", {}, "Build railway links between the cities of England and Wales and carry goods cubes along them. The most victory points at the end wins."),
    h("h3", {}, "Start"),
    h("ul", {}, li("Everyone starts with $0 and a level-1 engine. Cash comes from issuing shares: +$5,000 each, any time you are to act; each share costs $1,000 every turn and −1 VP at the end."),
      li("You draw two baron cards and keep one, secretly: it scores 10 VP at the end if you meet its goal (only you see it on this page).")),
    h("h3", {}, "A turn"),
    h("ul", {}, li("First-player auction: bid in steps of $1,000 or pass; the winner pays and plays first."),
      li("Three rounds: each player in turn takes one action (or passes)."),
      li("Income: each player collects what their space on the VP/income track pays, then $1,000 per share.")),
    h("h3", {}, "The actions"),
    h("ol", {},
      li("Build track: one to four tiles ($2,000 open, $3,000 water, $4,000 mountain). Start at a city or at your own open track; a link is complete when it reaches another city. Red edges are barriers. Open track left at the end of the turn is removed."),
      li("Urbanize ($10,000): turn a grey city (or a town) into a coloured new city with two goods."),
      li("Upgrade engine: one level per action (level n costs $(n+2),000); the level is how many links a delivery may use."),
      li("Deliver one goods cube along complete links to the first city of its colour; each link's owner moves up one space on the VP/income track per link."),
      li("Take an operations card from the display (locomotive upgrade, city growth, Tunnel Engineer, Railway Inspector).")),
    h("h3", {}, "End"),
    h("p", {}, "When enough cities are empty of goods (9/11/13/15 for 2–5 players) the turn is finished and one more turn is played. Score: track position + 1 VP per complete link + cards and major lines + your baron − 1 per share. Ties: fewer shares wins."),
    h("p", { class: "muted" }, "The England & Wales map and cards here are reconstructions; the title's README lists the sources and every reading."));
}

/** The advanced share game (seed part III; the README's "Advanced share game"). */
function advancedRules() {
  return h("div", { class: "rules", dataset: { testid: "rules", game: "advanced" } },
    h("p", {}, "The advanced share game: players buy shares of six railway companies; the companies build links and deliver goods; dividends move the share prices. The most money at the end wins."),
    h("h3", {}, "Start"),
    h("ul", {}, li("Each player has $25,000 (2–3 players) or $20,000 (4–5). Each company has ten shares: five on its available box, five on its card, at its starting price."),
      li("Opening auctions: the chooser puts one share up with a bid of at least its price, or passes (and joins no further auction). The others, clockwise, raise by $1,000 or drop out. The winner pays the company. The first buyer controls the company; control passes only to a player with more shares.")),
    h("h3", {}, "A round"),
    h("ol", {},
      li("Company turns: three turns for each controlled company, highest share price first. Build one or two links (each completed in the same action; the second costs +$2,000 a hex), deliver one goods cube (starting on an own link; own links at least as many as others'; each link used moves its company's income marker one space), or pass. A company short of cash issues shares from its card at the current price, then takes $5,000 bonds (one per link it owns). Then each company earns its income."),
      li("Dividends, highest price first: $1,000 interest per bond, optional repayment at $5,000, then a dividend of $0 up to the cash and at most 3 × the price, shared over the outstanding shares in whole $1,000s. Price: $0 → −2; up to half the price → −1; above half, below the price → no change; the price or more → + dividend ÷ price. Then every player takes $5,000."),
      li("Mergers, lowest price first: a controller may propose taking over a company its links meet, buying every outstanding share at its price + $1,000. Both companies' shareholders vote, one vote per share, secretly; a tie goes the controller's way."),
      li("Share auction: as at the start, from the available box (money to the company) or the issued box (money to the bank), lowest bid the current price.")),
    h("h3", {}, "End"),
    h("p", {}, "The game ends after the round in which the set number of cities is empty (16 by default). Final money: cash + each share × (its price − its company's bonds, not below 0) × $1,000. Most money wins."),
    h("p", { class: "muted" }, "The companies and their starting prices are reconstructed (the seed does not print them); the title's README lists the sources and every reading."));
}
