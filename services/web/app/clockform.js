// @ts-check
// The clock of a new table, in the lobby's form (docs/clocks.md): none, real time (minutes in
// each player's bank, seconds added per move) or async (hours per move), and what running
// out does: a bot of a chosen level plays the seat until its player takes it back, or the
// game ends with the standings at that moment.
import { fill, h } from "./dom.js";

/**
 * @param {() => string[]} levels  the title's bot levels
 * @returns {{element: HTMLElement, read: () => {clock?: import("../sdk/roundhouse.js").ClockSpec, error?: string}, redraw: () => void}}
 */
export function clockForm(levels) {
  const number = (/** @type {string} */ testid, /** @type {string} */ value, /** @type {string} */ label, /** @type {number} */ step) =>
    /** @type {HTMLInputElement} */ (h("input", { type: "number", min: step, step, value, "aria-label": label, dataset: { testid } }));
  const kind = /** @type {HTMLSelectElement} */ (h("select", { id: "clock-kind", dataset: { testid: "clock-kind" }, onchange: () => redraw() },
    h("option", { value: "none" }, "No clock"),
    h("option", { value: "realtime" }, "Real time: a bank per player"),
    h("option", { value: "async" }, "Async: hours per move")));
  const bank = number("clock-bank", "20", "Minutes in each bank", 0.5);
  const increment = number("clock-increment", "10", "Seconds added per move", 1);
  increment.min = "0";
  const hours = number("clock-hours", "24", "Hours per move", 1);
  const outcome = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "When time runs out", dataset: { testid: "clock-outcome" }, onchange: () => redraw() },
    h("option", { value: "bot" }, "a bot plays the seat until its player returns"),
    h("option", { value: "abandon" }, "the game ends with the standings then")));
  const level = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "Bot level on time out", dataset: { testid: "clock-level" } }));
  const rows = h("div", { class: "clock-fields" });
  const element = h("details", { class: "clock-form" }, h("summary", {}, "Clock"),
    h("div", { class: "field" }, h("label", { for: "clock-kind" }, "Clock"), kind), rows);

  function redraw() {
    const keep = level.value;
    fill(level, levels().map((l) => h("option", { value: l, selected: l === (keep || "heuristic") }, l)));
    const k = kind.value;
    fill(rows, k === "none" ? null : [
      k === "realtime"
        ? h("div", { class: "field" }, h("label", {}, "Bank (minutes)", bank), h("label", {}, "Per move (seconds)", increment))
        : h("div", { class: "field" }, h("label", {}, "Hours per move", hours)),
      h("div", { class: "field" }, h("label", {}, "Out of time: ", outcome), outcome.value === "bot" ? h("label", {}, "Bot ", level) : null),
    ]);
  }
  redraw();

  /** @returns {{clock?: import("../sdk/roundhouse.js").ClockSpec, error?: string}} */
  function read() {
    const k = kind.value;
    if (k === "none") return {};
    const on_timeout = /** @type {"bot" | "abandon"} */ (outcome.value);
    const more = on_timeout === "bot" ? { on_timeout, bot_level: level.value || null } : { on_timeout };
    if (k === "realtime") {
      const bank_s = Math.round(Number(bank.value) * 60);
      const increment_s = Math.round(Number(increment.value));
      if (!(bank_s >= 1) || !(increment_s >= 0)) return { error: "The clock needs a bank of some minutes and seconds per move of 0 or more." };
      return { clock: { kind: /** @type {const} */ ("realtime"), bank_s, increment_s, ...more } };
    }
    const turn_hours = Number(hours.value);
    if (!(turn_hours > 0)) return { error: "The clock needs some hours per move." };
    return { clock: { kind: /** @type {const} */ ("async"), turn_hours, ...more } };
  }

  return { element, read, redraw };
}
