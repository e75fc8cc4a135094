// @ts-check
// The advanced share game's table page (view.game === "advanced"; page.js hands it over):
// the round above the map; the players, the companies and the end beside it; the decision
// from decisions.js; the final ranking.
import { fill, h } from "../dom.js";
import { companyCards, endingBox, playersTable, resultPanel, roundBox, situation } from "./companies.js";
import { companyColor } from "./names.js";
import { mapBox } from "../mapbox.js";
import { buildPreview, pickOnMap, showChoices } from "./actions.js";
import { MAP_ZOOM, centreOnce, drawMap, mapLegend } from "./map.js";

export { advancedPanel as actionPanel } from "./decisions.js";

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../pageapi.js").Slots} Slots
 * @typedef {{svg: SVGSVGElement, round: HTMLElement, companies: HTMLElement, players: HTMLElement, ending: HTMLElement}} Parts
 */

/** @type {WeakMap<HTMLElement, Parts>} */
const mounted = new WeakMap();

/** @param {Slots} slots @returns {Parts} */
function mount(slots) {
  const known = mounted.get(slots.main);
  if (known) return known;
  const map = mapBox(mapLegend(), MAP_ZOOM);
  const parts = {
    svg: map.svg,
    round: h("div", {}),
    companies: h("section", { "aria-label": "Companies" }),
    players: h("section", { class: "players-box", "aria-label": "Players" }),
    ending: h("section", { class: "ending-box", "aria-label": "End of the game" }),
  };
  // The board in the middle, the players' and companies' panels beside it (below on a phone).
  fill(slots.main, parts.round, map.element);
  fill(slots.side, h("h2", {}, "Players"), parts.players, h("h2", {}, "Companies"), parts.companies, h("h2", {}, "End of the game"), parts.ending);
  mounted.set(slots.main, parts);
  return parts;
}

/**
 * @param {any} view
 * @param {PageContext} ctx
 * @param {Slots} slots
 */
export function render(view, ctx, slots) {
  const parts = mount(slots);
  const at = ctx.ui.picks.at;
  drawMap(parts.svg, view, {
    targets: ctx.targets,
    picked: typeof at === "string" ? at : null,
    onPick: (hex) => {
      pickOnMap(ctx, hex);
      showChoices();
    },
    preview: buildPreview(ctx.legal, ctx.ui),
    trackColor: (owner) => companyColor(String(owner)),
  });
  centreOnce(parts.svg, view);
  fill(parts.round, view.result ? null : roundBox(view, ctx.mySeat));
  fill(parts.companies, companyCards(view));
  fill(parts.players, playersTable(view, ctx.mySeat));
  fill(parts.ending, endingBox(view));
}

/** "Round 2 · company turns (2 of 3) · the Red Company's turn…" @param {any} view */
export function turnInfo(view) {
  if (view.phase === "opening_auction") return `Set-up · ${situation(view)}`;
  return `Round ${view.round} · ${situation(view)}`;
}

/** @param {any} view */
export function result(view) {
  return resultPanel(view);
}
