// @ts-check
// Controls any title's action panel can use: buttons and the amount field whose submit
// button always says what it will send.
import { h, money } from "./dom.js";

/**
 * A button of the action panel. `act` becomes data-act (tests and styling).
 * @param {string} label
 * @param {string} act
 * @param {() => void} onclick
 * @param {{primary?: boolean, disabled?: boolean, style?: any, company?: string, title?: string, testid?: string}} [more]
 */
export function button(label, act, onclick, more = {}) {
  /** @type {Record<string, string>} */
  const dataset = { act };
  if (more.company) dataset.company = more.company;
  if (more.testid) dataset.testid = more.testid;
  return h("button", {
    type: "button", class: more.primary ? "primary" : "", dataset, disabled: more.disabled, style: more.style,
    title: more.title, onclick,
  }, label);
}

/**
 * An amount field with − / +, the legal range, and a submit button whose label is computed
 * from the amount in the field as it is typed (so it never shows one amount and sends another).
 * @param {object} spec
 * @param {import("../sdk/roundhouse.js").AmountRange} spec.range
 * @param {number | null} spec.value   the amount picked so far (null: the minimum)
 * @param {(amount: number) => string} spec.label   the submit button's text for an amount
 * @param {(amount: number) => void} spec.submit
 * @param {(amount: number) => void} spec.remember  keep the amount (no redraw: that would take the focus away)
 * @param {(amount: number) => void} spec.step      set the amount and redraw
 * @param {string} spec.act   data-act of the submit button
 * @param {boolean} spec.pending
 * @param {(amount: number) => string} [spec.format]  how the range's ends read (money by default)
 * @param {{label: (amount: number) => string, submit: (amount: number) => void}[]} [spec.also]  more
 *   submit buttons for the same amount (one bid on each of several companies: one field, not one each)
 */
export function amountControl(spec) {
  const { range, pending } = spec;
  const format = spec.format ?? money;
  const step = range.step || 1;
  const start = spec.value ?? range.min;
  const input = /** @type {HTMLInputElement} */ (h("input", {
    type: "number", inputmode: "numeric", min: range.min, max: range.max, step, value: start,
    "aria-label": "Amount", dataset: { testid: "amount" },
  }));
  const read = () => (input.value.trim() === "" ? NaN : Number(input.value));
  const submits = [{ label: spec.label, submit: spec.submit }, ...(spec.also ?? [])].map((t) => ({ ...t,
    el: /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "primary", dataset: { act: spec.act } })) }));
  const less = /** @type {HTMLButtonElement} */ (h("button", { type: "button", dataset: { act: "less" }, "aria-label": "Less" }, "−"));
  const more = /** @type {HTMLButtonElement} */ (h("button", { type: "button", dataset: { act: "more" }, "aria-label": "More" }, "+"));
  const sync = () => {
    const value = read();
    const whole = Number.isInteger(value);
    for (const t of submits) {
      t.el.textContent = whole ? t.label(value) : `Enter a whole amount (${format(range.min)}–${format(range.max)})`;
      t.el.disabled = pending || !whole;
    }
    less.disabled = pending || (whole && value <= range.min);
    more.disabled = pending || (whole && value >= range.max);
  };
  const nudge = (/** @type {number} */ by) => {
    const value = read();
    spec.step(Math.min(range.max, Math.max(range.min, (Number.isInteger(value) ? value : range.min) + by)));
  };
  for (const t of submits) {
    t.el.addEventListener("click", () => {
      const value = read();
      if (Number.isInteger(value)) t.submit(value);
    });
  }
  less.addEventListener("click", () => nudge(-step));
  more.addEventListener("click", () => nudge(step));
  input.addEventListener("input", () => {
    if (Number.isInteger(read())) spec.remember(read());
    sync();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && Number.isInteger(read()) && !pending) spec.submit(read());
  });
  sync();
  return h("div", { class: "amount" },
    h("div", { class: "stepper" }, less, input, more),
    h("span", { class: "range", dataset: { testid: "range" } }, `min ${format(range.min)} · max ${format(range.max)}`),
    ...submits.map((t) => t.el));
}
