// @ts-check
// Moves as they land. Every new entry of the log is shown in turn: its line in a bar fixed
// at the bottom of the screen (in sight at any scroll, on a phone too), and, when it
// happened on a hex, a ring on that hex of the map (its scrolling box brought to it). Bots
// answer within a fraction of a second, so entries that arrive together are shown one after
// another, DWELL_MS each (faster when many wait; a move of the player's own skips what
// still waits); the full log stays below. What is already in the log when the page opens is not replayed.
import { h, s } from "../dom.js";
import { centre, hexPoints } from "./map.js";
import { companyColor } from "./names.js";

const DWELL_MS = 900;
const FAST_MS = 300; // when more than BACKLOG entries wait
const BACKLOG = 6;
const DEVELOP_COLOUR = "#7b2cbf";

/**
 * @typedef {{index: number, text: string, hex: string | null, colour: string}} Shown
 * @typedef {{element: HTMLElement, update: (view: any, mySeat: number | null) => void}} MoveFeed
 */

/**
 * The hex an entry happened on, and the colour of its ring.
 * @param {any} view
 * @param {any} e
 * @returns {{hex: string | null, colour: string}}
 */
function placeOf(view, e) {
  switch (e.event) {
    case "built":
      return { hex: e.hex, colour: companyColor(e.company) };
    case "developed":
      return { hex: e.hex, colour: DEVELOP_COLOUR };
    case "wabash_opened":
      return { hex: e.hex, colour: companyColor("WAB") };
    case "chicago_reached":
      return { hex: view.hexes.find((/** @type {any} */ x) => x.chicago)?.id ?? null, colour: companyColor(e.company) };
    default:
      return { hex: null, colour: "#111" };
  }
}

/**
 * @param {SVGSVGElement} svg  the map (the feed keeps its own layer on top of what drawMap draws)
 * @param {(view: any, entry: any) => string} describe
 * @returns {MoveFeed}
 */
export function moveFeed(svg, describe) {
  const text = h("span", { class: "move-text" });
  const more = h("span", { class: "move-more" });
  const element = h("div", { class: "move-feed", role: "status", "aria-live": "polite", dataset: { testid: "latest-move" } },
    h("span", { class: "move-tag" }, "Latest"), text, more,
    h("a", { href: "#", class: "move-log", onclick: (/** @type {Event} */ ev) => {
      ev.preventDefault();
      document.querySelector(".log-box")?.scrollIntoView({ block: "end" });
    } }, "Log ↓"));
  element.hidden = true;
  const layer = /** @type {SVGGElement} */ (/** @type {unknown} */ (s("g", { class: "layer move-mark", "aria-hidden": "true" })));
  /** @type {Shown[]} */
  const queue = [];
  let seen = -1;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let deciding = false; // the player must act
  let acting = false; // the player was to act at the last view: what arrives now is their move

  /** @param {Shown} entry */
  function show(entry) {
    element.hidden = false;
    text.textContent = entry.text;
    element.dataset.index = String(entry.index);
    element.dataset.hex = entry.hex ?? "";
    more.textContent = queue.length ? ` +${queue.length} more` : "";
    element.classList.remove("fresh");
    void element.offsetWidth; // restart the flash
    element.classList.add("fresh");
    if (!layer.isConnected) svg.append(layer);
    if (!entry.hex) {
      layer.replaceChildren();
      return;
    }
    const { x, y } = centre(entry.hex);
    const points = hexPoints(x, y, 0.9);
    // A dark halo under the company's colour: a yellow C&O ring reads on a pale plain too.
    const ring = s("polygon", { class: "move-ring", points, stroke: entry.colour, dataset: { hex: entry.hex, index: entry.index } });
    layer.replaceChildren(s("polygon", { class: "move-halo", points }), ring);
    // The map's box follows the move; the page too while the player waits (it never moves
    // under a player who is deciding, about to click).
    bringIntoBox(ring, element);
    if (!deciding) bringOnScreen(ring, element);
  }

  function next() {
    const entry = queue.shift();
    if (!entry) {
      timer = null;
      layer.replaceChildren(); // the highlight is short; the bar keeps the last line
      element.classList.remove("fresh");
      more.textContent = "";
      return;
    }
    show(entry);
    timer = setTimeout(next, queue.length > BACKLOG ? FAST_MS : DWELL_MS);
  }

  /**
   * @param {any} view
   * @param {number | null} mySeat
   */
  function update(view, mySeat) {
    const log = Array.isArray(view.log) ? view.log : [];
    const wasActing = acting;
    deciding = acting = mySeat !== null && Array.isArray(view.active_seats) && view.active_seats.includes(mySeat);
    if (!layer.isConnected) svg.append(layer);
    if (view.result) {
      // The result panel tells the end; the log below keeps every move.
      queue.length = 0;
      if (timer) clearTimeout(timer);
      timer = null;
      layer.replaceChildren();
      element.hidden = true;
      seen = log.length;
      return;
    }
    if (seen < 0 || log.length < seen) {
      // The page just opened (or an undo took entries back): show where the log stands.
      seen = log.length;
      queue.length = 0;
      if (timer) clearTimeout(timer);
      timer = null;
      layer.replaceChildren();
      if (log.length) {
        element.hidden = false;
        text.textContent = describe(view, log[log.length - 1]);
        element.dataset.index = String(log.length - 1);
        element.dataset.hex = "";
        more.textContent = "";
      }
      return;
    }
    // The player moved while older moves still waited: theirs is the latest, shown now.
    if (wasActing && log.length > seen) queue.length = 0;
    for (let i = seen; i < log.length; i++) queue.push({ index: i, text: describe(view, log[i]), ...placeOf(view, log[i]) });
    seen = log.length;
    if (queue.length && !timer) next();
    else if (timer) more.textContent = queue.length ? ` +${queue.length} more` : "";
  }

  return { element, update };
}

/**
 * Scroll the map's own box (never the page) so the ring lies in the part of the box that is
 * on screen (above the fixed bar), or in the box when too little of it is on screen.
 * @param {Element} ring
 * @param {Element} bar
 */
function bringIntoBox(ring, bar) {
  const box = ring.closest("[data-scroll]");
  if (!box) return;
  const outer = box.getBoundingClientRect();
  const floor = bar.getBoundingClientRect().top || window.innerHeight;
  let area = { left: outer.left, right: outer.right, top: Math.max(outer.top, 0), bottom: Math.min(outer.bottom, floor) };
  if (area.bottom - area.top < 120) area = outer;
  const at = ring.getBoundingClientRect();
  const margin = 12;
  if (at.left < area.left + margin || at.right > area.right - margin) {
    box.scrollLeft += at.left + at.width / 2 - (area.left + area.right) / 2;
  }
  if (at.top < area.top + margin || at.bottom > area.bottom - margin) {
    box.scrollTop += at.top + at.height / 2 - (area.top + area.bottom) / 2;
  }
}

/**
 * Scroll the page by the least amount that shows the ring between a sticky action panel
 * and the fixed bar.
 * @param {Element} ring
 * @param {Element} bar
 */
function bringOnScreen(ring, bar) {
  const panel = document.querySelector("[data-testid=actions]");
  const top = panel && panelSticky() ? Math.max(0, panel.getBoundingClientRect().bottom) : 0;
  const bottom = bar.getBoundingClientRect().top || window.innerHeight;
  const at = ring.getBoundingClientRect();
  const margin = 12;
  if (bottom - top < at.height + 2 * margin) return;
  if (at.bottom > bottom - margin) window.scrollBy({ top: at.bottom - bottom + margin });
  else if (at.top < top + margin) window.scrollBy({ top: at.top - top - margin });
}

/** Whether the action panel stays at the top of the screen (wide screens). */
function panelSticky() {
  const panel = document.querySelector("[data-testid=actions]");
  return !!panel && getComputedStyle(panel).position === "sticky";
}
