// @ts-check
// The rules summary panel, in our words, from the title's README
// (shared/games/rotw_england_wales/README.md), which names the sources and the readings.
import { h } from "../dom.js";

/** @param {any} _view */
export function rulesSummary(_view) {
  const li = (/** @type {string} */ t) => h("li", {}, t);
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
