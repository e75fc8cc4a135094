// @ts-check
// Building DOM and SVG without a framework: h("button", {class: "x", onclick}, "text").

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @typedef {Record<string, any>} Attrs
 * @typedef {Node | string | number | null | undefined | false | ChildList} Child
 * @typedef {Array<Node | string | number | null | undefined | false | any[]>} ChildList
 */

/**
 * @param {Element} el
 * @param {Attrs} attrs
 */
function applyAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      for (const [k, v] of Object.entries(value)) /** @type {HTMLElement} */ (el).dataset[k] = String(v);
    } else if (key === "style" && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) /** @type {HTMLElement} */ (el).style.setProperty(k, String(v));
    } else if (key === "value" && "value" in el) {
      /** @type {HTMLInputElement} */ (el).value = String(value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(typeof child === "object" ? child : String(child));
  }
}

/**
 * An HTML element.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * An SVG element.
 * @param {string} tag
 * @param {Attrs} [attrs]
 * @param {...Child} children
 * @returns {SVGElement}
 */
export function s(tag, attrs = {}, ...children) {
  const el = /** @type {SVGElement} */ (document.createElementNS(SVG_NS, tag));
  applyAttrs(el, attrs);
  append(el, children);
  return el;
}

/**
 * Replace an element's children.
 * @param {Element} el
 * @param {...Child} children
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** @param {number} amount */
export const money = (amount) => `$${amount}`;

/**
 * "3 s ago", "5 min ago"...
 * @param {number} ms  a past time, ms since the epoch
 */
export function ago(ms) {
  const sec = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (sec < 60) return `${sec} s ago`;
  if (sec < 3600) return `${Math.round(sec / 60)} min ago`;
  if (sec < 86400) return `${Math.round(sec / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}
