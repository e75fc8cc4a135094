// @ts-check
// Chicago Express's table page (META.web_module "chicago/page.js"): the interface of
// app/pageapi.js, put together from the map, the action panel, the panels, the log's
// words, the rules summary and the dividend news.
import { fill, h } from "../dom.js";
import { mapBox } from "../mapbox.js";
import { actionPanel, mapTargets } from "./actions.js";
import { dividendNews, payoutHistory } from "./dividends.js";
import { moveFeed } from "./feed.js";
import { describeEvent, MILESTONES } from "./gamelog.js";
import { drawMap, mapLegend } from "./map.js";
import { playerName } from "./names.js";
import * as panels from "./panels.js";
import { rulesSummary } from "./rules.js";

export { actionPanel, describeEvent, mapTargets, playerName };
export const milestones = MILESTONES;
export const rules = rulesSummary;
export const news = dividendNews;

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../pageapi.js").Slots} Slots
 * @typedef {{svg: SVGSVGElement, feed: import("./feed.js").MoveFeed, players: HTMLElement, payouts: HTMLElement, dials: HTMLElement, charters: HTMLElement, industry: HTMLElement}} Parts
 */

/** @type {WeakMap<HTMLElement, Parts>} */
const mounted = new WeakMap();

/**
 * The map box (zoomable, scrolling) in `main`, the panels in `side`; made once per page.
 * @param {Slots} slots
 * @returns {Parts}
 */
function mount(slots) {
  const known = mounted.get(slots.main);
  if (known) return known;
  const box = mapBox(mapLegend());
  const feed = moveFeed(box.svg, describeEvent);
  fill(slots.main, box.element, feed.element);
  const parts = {
    svg: box.svg,
    feed,
    players: h("section", { class: "players-box", "aria-label": "Players" }),
    payouts: h("section", { class: "payouts-box", "aria-label": "Dividends paid" }),
    dials: h("section", { class: "dials", "aria-label": "Action dials" }),
    charters: h("section", { class: "charters", "aria-label": "Companies" }),
    industry: h("section", { class: "industry-box", "aria-label": "Industrial tracks" }),
  };
  fill(slots.side,
    h("h2", {}, "Players"), parts.players,
    h("h2", {}, "Dividends paid"), parts.payouts,
    h("h2", {}, "Dials"), parts.dials, panels.dialsHelp(),
    h("h2", {}, "Companies"), parts.charters, panels.chartersHelp(),
    h("h2", {}, "Industry"), parts.industry);
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
  drawMap(parts.svg, view, {
    targets: ctx.targets,
    placed: new Set(view.build?.placed ?? []),
    onPick: (hex) => {
      const target = ctx.targets.get(hex);
      if (target) ctx.on.act(target.action);
    },
  });
  parts.feed.update(view, ctx.mySeat);
  fill(parts.players, panels.players(view, { mySeat: ctx.mySeat, seats: ctx.seats }));
  fill(parts.payouts, payoutHistory(view, ctx.mySeat));
  fill(parts.dials, panels.dials(view));
  fill(parts.charters, panels.charters(view));
  fill(parts.industry, panels.industry(view));
}

/** @param {any} view */
export function turnInfo(view) {
  return `Round ${view.round} · ${view.phase}`;
}

/**
 * @param {any} view
 * @param {PageContext} ctx
 */
export function result(view, ctx) {
  return panels.result(view, { mySeat: ctx.mySeat, width: ctx.width - 28 });
}
