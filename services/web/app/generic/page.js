// @ts-check
// The page of a title without a page module of its own: its legal actions as a form, and
// the raw view. Playable, if plain; see pageapi.js for the interface.
import { fill, h } from "../dom.js";
import { describeAction, legalForm } from "../legalform.js";

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../pageapi.js").Slots} Slots
 */

/**
 * @param {any} view
 * @param {PageContext} _ctx
 * @param {Slots} slots
 */
export function render(view, _ctx, slots) {
  fill(slots.main, h("section", { class: "raw-view card", dataset: { testid: "raw-view" } },
    h("h2", {}, "The table as the server describes it"),
    h("pre", {}, JSON.stringify(view, null, 2))));
  fill(slots.side);
}

/**
 * @param {any} view
 * @param {PageContext} ctx
 */
export function actionPanel(view, ctx) {
  const { mySeat, legal, ui, on } = ctx;
  const active = Array.isArray(view.active_seats) ? view.active_seats : [];
  if (view.result) return [h("p", {}, "The game is over.")];
  if (mySeat === null) return [h("p", {}, "Watching as a spectator.")];
  if (!active.length) return [h("p", {}, "Nobody can act: the game cannot go on from here.")];
  if (!active.includes(mySeat)) return [h("p", {}, "Waiting for the other players…")];
  if (legal === null) return [h("p", { class: "muted" }, "Loading your options…")];
  return [h("p", {}, "Your turn. This game has no page of its own here: pick one of your legal actions."),
    ...legalForm(legal, ui, on, (action) => `Send: ${describeAction(action)}`)];
}

export function mapTargets() {
  return new Map();
}

/**
 * @param {any} _view
 * @param {any} entry
 */
export function describeEvent(_view, entry) {
  return typeof entry === "string" ? entry : JSON.stringify(entry);
}

export const milestones = new Set();

/** @param {any} _view */
export function rules(_view) {
  return h("p", {}, "This game has no rules summary here yet.");
}
