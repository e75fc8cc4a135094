// @ts-check
// The map's box every table page shows: zoom buttons, the scrolling SVG the page draws into,
// and the page's legend below it.
import { h, s } from "./dom.js";

const ZOOMS = [1, 1.5, 2, 3];
const PHONE = 600; // px: narrower windows start zoomed in

/**
 * A zoomable, scrolling map box. On a phone the whole map is too small to tap, so it starts
 * zoomed in (the page scrolls it to the action).
 * @param {HTMLElement} legend
 * @param {{zooms?: number[], phoneZoom?: number, tools?: HTMLElement[], above?: HTMLElement}} [opts]  a page's
 *   own zoom steps, the step a phone starts at (so its hexes are big enough to tap), more buttons
 *   for the tool bar (a map key's toggle), and what opens between the tool bar and the map
 * @returns {{element: HTMLElement, svg: SVGSVGElement}}
 */
export function mapBox(legend, opts = {}) {
  const zooms = opts.zooms ?? ZOOMS;
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (s("svg", { class: "map", dataset: { testid: "map" } })));
  const label = h("span", { class: "zoom-label" }, "fit");
  let zoom = 0;
  const setZoom = (/** @type {number} */ z) => {
    zoom = Math.max(0, Math.min(zooms.length - 1, z));
    svg.style.width = `${zooms[zoom] * 100}%`;
    label.textContent = zoom === 0 ? "fit" : `${zooms[zoom]}×`;
  };
  setZoom(window.innerWidth < PHONE ? opts.phoneZoom ?? 2 : 0);
  const element = h("section", { class: "map-box", "aria-label": "Map" },
    h("div", { class: "map-tools" }, ...(opts.tools ?? []),
      h("button", { type: "button", "aria-label": "Zoom out", onclick: () => setZoom(zoom - 1) }, "−"),
      label,
      h("button", { type: "button", "aria-label": "Zoom in", onclick: () => setZoom(zoom + 1) }, "+")),
    opts.above ?? null, h("div", { class: "map-scroll", dataset: { scroll: "map" } }, svg), legend);
  return { element, svg };
}
