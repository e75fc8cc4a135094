// @ts-check
// Railways of England and Wales's table page (META.web_module "rotw/page.js"): the interface
// of app/pageapi.js, put together from the map, the action panel, the panels and the rules.
import { fill, h } from "../dom.js";
import { actionPanel as standardPanel, buildPreview, deliveryRoutes, mapTargets, pickOnMap, showChoices } from "./actions.js";
import * as advanced from "./advanced.js";
import { mapBox } from "../mapbox.js";
import { MAP_ZOOM, centreOnce, drawMap, mapLegend } from "./map.js";
import * as panels from "./panels.js";
import { rulesSummary } from "./rules.js";

export { mapTargets };
export const rules = rulesSummary;
export const milestones = new Set();

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../pageapi.js").Slots} Slots
 * @typedef {{svg: SVGSVGElement, pending: HTMLElement, players: HTMLElement, baronTitle: HTMLElement, baron: HTMLElement, display: HTMLElement, ending: HTMLElement}} Parts
 */

/** @type {WeakMap<HTMLElement, Parts>} */
const mounted = new WeakMap();

/** @param {Slots} slots @returns {Parts} */
function mount(slots) {
  const known = mounted.get(slots.main);
  if (known) return known;
  const box = mapBox(mapLegend(), MAP_ZOOM);
  const parts = {
    svg: box.svg,
    pending: h("div", {}),
    players: h("section", { class: "players-box", "aria-label": "Players" }),
    baronTitle: h("h2", {}, "Your baron"),
    baron: h("section", { class: "baron-box", "aria-label": "Your baron" }),
    display: h("section", { class: "display-box", "aria-label": "Operations cards" }),
    ending: h("section", { class: "ending-box", "aria-label": "End of the game" }),
  };
  fill(slots.main, parts.pending, box.element);
  fill(slots.side,
    h("h2", {}, "Players"), parts.players,
    parts.baronTitle, parts.baron,
    h("h2", {}, "Operations cards"), parts.display,
    h("h2", {}, "End of the game"), parts.ending);
  mounted.set(slots.main, parts);
  return parts;
}

/**
 * @param {any} view
 * @param {PageContext} ctx
 * @param {Slots} slots
 */
export function render(view, ctx, slots) {
  if (view.game === "advanced") return advanced.render(view, ctx, slots);
  const parts = mount(slots);
  const at = ctx.ui.picks.at;
  // The deliveries from the picked city, or the one announced (waiting on the Railway Inspector).
  const pd = view.pending_delivery;
  drawMap(parts.svg, view, {
    targets: ctx.targets,
    picked: typeof at === "string" ? at : null,
    onPick: (hex) => {
      pickOnMap(ctx, hex);
      showChoices();
    },
    preview: buildPreview(ctx.legal, ctx.ui),
    routes: pd ? [{ city: pd.city, color: pd.color, path: pd.path }] : deliveryRoutes(ctx.legal, at),
  });
  centreOnce(parts.svg, view);
  fill(parts.pending, panels.pending(view));
  fill(parts.players, panels.players(view, ctx.mySeat));
  parts.baronTitle.textContent = view.result ? "Barons (revealed)" : "Your baron";
  fill(parts.baron, panels.baron(view, ctx.mySeat));
  fill(parts.display, panels.display(view));
  fill(parts.ending, panels.ending(view));
}

/** The advanced share game has its own decisions (advanced.js). @param {any} view @param {PageContext} ctx */
export function actionPanel(view, ctx) {
  return view.game === "advanced" ? advanced.actionPanel(view, ctx) : standardPanel(view, ctx);
}

/** @param {any} _view @param {any} entry */
export function describeEvent(_view, entry) {
  return typeof entry === "string" ? entry : JSON.stringify(entry);
}

/** @param {any} view */
export function turnInfo(view) {
  if (view.game === "advanced") return advanced.turnInfo(view);
  return `Turn ${view.turn}${view.phase === "action" || view.phase === "build" ? ` · round ${view.round}` : ""} · ${view.phase}`;
}

/** @param {any} view @param {number} seat */
export function playerName(view, seat) {
  return view.players?.[seat]?.name ?? `seat ${seat}`;
}

/** @param {any} view @param {PageContext} ctx */
export function result(view, ctx) {
  if (view.game === "advanced") return advanced.result(view);
  return panels.result(view, ctx.mySeat);
}
