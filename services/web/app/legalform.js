// @ts-check
// Any title's legal actions as a form, read only from the families GET /legal returns
// (engine contract v2): a plain action is a button; a `choices` trie is one select per
// field, each opening the next; an amount (`range`, or a range at the end of a trie) is an
// amount field. Title pages use it for every action kind they do not draw themselves, so a
// new or reshaped action still gets a control.
import { nextChoice } from "../sdk/roundhouse.js";
import { amountControl, button } from "./controls.js";
import { h } from "./dom.js";

/**
 * @typedef {import("../sdk/roundhouse.js").LegalAction} LegalAction
 * @typedef {import("../sdk/roundhouse.js").Action} Action
 * @typedef {import("../sdk/roundhouse.js").AmountRange} AmountRange
 * @typedef {import("../sdk/roundhouse.js").Choice} Choice
 * @typedef {import("./pageapi.js").PanelState} PanelState
 * @typedef {import("./pageapi.js").PanelHandlers} PanelHandlers
 */

/** @param {unknown} value */
function show(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * "bid amount=12", "lay_tile hex=D4 tile=7": an action in words, for titles without a page.
 * @param {Action} action
 */
export function describeAction(action) {
  const fields = Object.entries(action).filter(([k]) => k !== "type").map(([k, v]) => `${k}=${show(v)}`);
  return [action.type, ...fields].join(" ");
}

/**
 * Legal actions by type, in the order the server gave them.
 * @param {LegalAction[]} legal
 * @returns {Map<string, LegalAction[]>}
 */
export function byType(legal) {
  const out = new Map();
  for (const entry of legal) {
    const list = out.get(entry.action.type) ?? [];
    list.push(entry);
    out.set(entry.action.type, list);
  }
  return out;
}

/**
 * One entry per value of `field` when a family's trie starts with it: a family written as
 * `choices: company -> amount range` and one written as one entry per company with a
 * `range` come out the same. Other entries pass through.
 * @param {LegalAction[]} entries
 * @param {string} field
 * @returns {LegalAction[]}
 */
export function splitBy(entries, field) {
  return entries.flatMap((entry) => {
    const node = entry.choices;
    if (!node || node.field !== field) return [entry];
    return node.values.map((value, i) => {
      const next = nextChoice(node, i);
      /** @type {LegalAction} */
      const one = { action: { ...entry.action, [field]: value }, range: entry.range ?? null, choices: null };
      if (next && !("values" in next)) one.range = next;
      else if (next) one.choices = next;
      return one;
    });
  });
}

/**
 * @typedef {{field?: (field: string) => string, value?: (field: string, value: unknown) => string}} FieldWords
 */

/**
 * A form control for one legal family.
 * @param {LegalAction} entry
 * @param {string} key  where this family's picks live in ui.picks
 * @param {PanelState} ui
 * @param {PanelHandlers} on
 * @param {(action: Action) => string} [label]  what the submit button says for a complete action
 * @param {FieldWords} [words]  a field's name and values in words (a page that knows them)
 */
export function familyControl(entry, key, ui, on, label = describeAction, words = {}) {
  const fieldName = words.field ?? ((/** @type {string} */ f) => f);
  const valueName = words.value ?? ((/** @type {string} */ _f, /** @type {unknown} */ v) => show(v));
  const picked = /** @type {Record<string, unknown>} */ (ui.picks[key] ?? {});
  /** @type {Record<string, unknown>} */
  const chosen = {};
  const parts = [];
  /** @type {Choice | AmountRange | null} */
  let node = entry.choices ?? null;
  let complete = true;
  while (node && "values" in node) {
    const choice = node;
    const index = choice.field in picked ? choice.values.findIndex((v) => show(v) === show(picked[choice.field])) : -1;
    const select = h("select", {
      "aria-label": fieldName(choice.field), dataset: { field: choice.field, testid: `pick-${choice.field}` }, disabled: ui.pending,
      onchange: (/** @type {Event} */ e) => {
        const i = Number(/** @type {HTMLSelectElement} */ (e.target).value);
        // A new pick invalidates the picks after it in the trie.
        const keep = Object.fromEntries(Object.entries(picked).filter(([f]) => f in chosen));
        on.update({ picks: { ...ui.picks, [key]: { ...keep, [choice.field]: choice.values[i] } }, amount: null });
      },
    },
      h("option", { value: "", selected: index < 0, disabled: true }, `${fieldName(choice.field)}…`),
      choice.values.map((v, i) => h("option", { value: i, selected: i === index }, valueName(choice.field, v))));
    parts.push(h("label", { class: "pick" }, `${fieldName(choice.field)}${choice.open ? " (suggested)" : ""} `, select));
    if (index < 0) {
      complete = false;
      break;
    }
    chosen[choice.field] = choice.values[index];
    node = nextChoice(choice, index);
  }
  const range = node && !("values" in node) ? node : entry.range ?? null;
  const base = { ...entry.action, ...chosen };
  if (complete && range) {
    parts.push(amountControl({
      range, value: ui.amount, act: entry.action.type, pending: ui.pending, format: String,
      label: (amount) => label({ ...base, [range.field]: amount }),
      submit: (amount) => on.act({ ...base, [range.field]: amount }),
      remember: (amount) => (ui.amount = amount),
      step: (amount) => on.update({ amount }),
    }));
  } else if (complete) {
    parts.push(button(label(base), entry.action.type, () => on.act(base), { primary: true, disabled: ui.pending }));
  }
  return h("div", { class: "family", dataset: { type: entry.action.type } }, parts);
}

/**
 * Every legal family as a control.
 * @param {LegalAction[]} legal
 * @param {PanelState} ui
 * @param {PanelHandlers} on
 * @param {(action: Action) => string} [label]
 */
export function legalForm(legal, ui, on, label) {
  if (!legal.length) return [h("p", { class: "muted" }, "Nothing to do now.")];
  return legal.map((entry, i) => familyControl(entry, `family-${i}-${entry.action.type}`, ui, on, label));
}
