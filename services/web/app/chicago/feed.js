// @ts-check
// Moves as they land. Every new entry of the log is shown in turn: its line in a bar fixed
// at the bottom of the screen (in sight at any scroll, on a phone too), and, when it
// happened on a hex, a ring on that hex of the map (its scrolling box brought to it). Bots
// answer within a fraction of a second, so entries that arrive together are shown one after
// another, DWELL_MS each (faster when many wait, or once it is the player's turn: the
// decision comes first; a move of the player's own skips what still waits); the full log
// stays below. What is already in the log when the page opens is not replayed.
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
  let hurry = false; // the player must act: play the rest quickly
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
    bringIntoBox(ring);
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
    timer = setTimeout(next, hurry || queue.length > BACKLOG ? FAST_MS : DWELL_MS);
  }

  /**
   * @param {any} view
   * @param {number | null} mySeat
   */
  function update(view, mySeat) {
    const log = Array.isArray(view.log) ? view.log : [];
    const wasActing = acting;
    hurry = acting = mySeat !== null && Array.isArray(view.active_seats) && view.active_seats.includes(mySeat);
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
 * Scroll the map's own box (never the page) so the ring is inside it.
 * @param {Element} ring
 */
function bringIntoBox(ring) {
  const box = ring.closest("[data-scroll]");
  if (!box) return;
  const outer = box.getBoundingClientRect();
  const at = ring.getBoundingClientRect();
  const margin = 12;
  if (at.left < outer.left + margin || at.right > outer.right - margin) {
    box.scrollLeft += at.left + at.width / 2 - (outer.left + outer.width / 2);
  }
  if (at.top < outer.top + margin || at.bottom > outer.bottom - margin) {
    box.scrollTop += at.top + at.height / 2 - (outer.top + outer.height / 2);
  }
}
