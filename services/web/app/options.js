// @ts-check
// A title's table options (META.options) as form fields: int → number field in its range,
// bool → checkbox, choice → select, str → text, object → a group of its fields. Each starts
// at its default and shows its help.
import { h } from "./dom.js";

/**
 * @typedef {import("../sdk/roundhouse.js").OptionSpec} OptionSpec
 * @typedef {{element: HTMLElement, read: () => {value?: unknown, error?: string}}} OptionField
 */

/**
 * @param {OptionSpec} spec
 * @param {string} path  dotted name, for ids and tests
 * @returns {OptionField}
 */
function field(spec, path) {
  const id = `option-${path.replaceAll(".", "-")}`;
  const label = spec.label || spec.name;
  const help = spec.help ? h("small", { class: "help", id: `${id}-help` }, spec.help) : null;
  const described = spec.help ? `${id}-help` : undefined;
  if (spec.type === "object") {
    const fields = (spec.fields ?? []).map((f) => ({ name: f.name, field: field(f, `${path}.${f.name}`) }));
    return {
      element: h("fieldset", { class: "option-group", dataset: { option: path } }, h("legend", {}, label), help, fields.map((f) => f.field.element)),
      read: () => {
        /** @type {Record<string, unknown>} */
        const value = {};
        for (const f of fields) {
          const got = f.field.read();
          if (got.error) return got;
          value[f.name] = got.value;
        }
        return { value };
      },
    };
  }
  if (spec.type === "bool") {
    const input = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", id, checked: spec.default === true, "aria-describedby": described, dataset: { testid: id } }));
    return { element: h("div", { class: "option", dataset: { option: path } }, input, " ", h("label", { for: id }, label), help), read: () => ({ value: input.checked }) };
  }
  if (spec.type === "choice") {
    const choices = spec.choices ?? [];
    const select = /** @type {HTMLSelectElement} */ (h("select", { id, "aria-describedby": described, dataset: { testid: id } },
      choices.map((c, i) => h("option", { value: i, selected: JSON.stringify(c) === JSON.stringify(spec.default) }, String(c)))));
    return { element: h("div", { class: "option", dataset: { option: path } }, h("label", { for: id }, label), " ", select, help), read: () => ({ value: choices[Number(select.value)] }) };
  }
  if (spec.type === "int") {
    const input = /** @type {HTMLInputElement} */ (h("input", { type: "number", id, step: 1, min: spec.min ?? undefined, max: spec.max ?? undefined,
      value: spec.default ?? "", inputmode: "numeric", "aria-describedby": described, dataset: { testid: id } }));
    const range = spec.min != null && spec.max != null ? h("span", { class: "muted" }, ` ${spec.min}–${spec.max}`) : null;
    return {
      element: h("div", { class: "option", dataset: { option: path } }, h("label", { for: id }, label), " ", input, range, help),
      read: () => {
        const v = Number(input.value);
        if (input.value.trim() === "" || !Number.isInteger(v)) return { error: `${label}: enter a whole number` };
        if ((spec.min != null && v < spec.min) || (spec.max != null && v > spec.max)) return { error: `${label}: from ${spec.min} to ${spec.max}` };
        return { value: v };
      },
    };
  }
  const input = /** @type {HTMLInputElement} */ (h("input", { type: "text", id, value: spec.default ?? "", "aria-describedby": described, dataset: { testid: id } }));
  return { element: h("div", { class: "option", dataset: { option: path } }, h("label", { for: id }, label), " ", input, help), read: () => ({ value: input.value }) };
}

/**
 * The options form of a title.
 * @param {OptionSpec[]} specs
 * @returns {{element: HTMLElement | null, read: () => {options?: Record<string, unknown>, error?: string}}}
 */
export function optionsForm(specs) {
  if (!specs.length) return { element: null, read: () => ({ options: {} }) };
  const fields = specs.map((spec) => ({ name: spec.name, field: field(spec, spec.name) }));
  return {
    element: h("details", { class: "options", dataset: { testid: "options" } },
      h("summary", {}, "Options"), fields.map((f) => f.field.element)),
    read: () => {
      /** @type {Record<string, unknown>} */
      const options = {};
      for (const f of fields) {
        const got = f.field.read();
        if (got.error) return { error: got.error };
        options[f.name] = got.value;
      }
      return { options };
    },
  };
}
