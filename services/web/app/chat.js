// @ts-check
// The table's chat, the same on every title's page: seats and spectators, lines shown as
// text only (never HTML), the server's refusals (too long, too fast) in words, and a seat's
// mutes (a muted seat's lines are left out by the server for this seat only).
import { button } from "./controls.js";
import { fill, h } from "./dom.js";

/**
 * @typedef {import("../sdk/roundhouse.js").LiveTable} LiveTable
 * @typedef {import("../sdk/roundhouse.js").ChatLine} ChatLine
 */

export const CHAT_MAX_CHARS = 500;
const CHAT_ERRORS = new Set(["chat_empty", "chat_too_long", "chat_rate_limited", "bad_mute"]);

/**
 * @param {LiveTable} live
 * @param {{seatNames: () => string[]}} ctx  the seats' names, for the mute controls
 * @returns {{el: HTMLElement, opener: HTMLElement, refresh: () => void, off: () => void}}
 *   `opener`: a button for the page's header that brings the chat into view (on a phone it
 *   sits far below the board) and counts the lines that came while it was out of sight.
 */
export function mountChat(live, ctx) {
  /** @type {ChatLine[]} */
  let lines = [];
  /** @type {Array<number | "spectators">} */
  let muted = [];
  let note = "";
  const list = h("ol", { class: "chat-lines", dataset: { testid: "chat-lines" }, "aria-live": "polite" });
  const input = /** @type {HTMLInputElement} */ (h("input", {
    type: "text", maxlength: CHAT_MAX_CHARS, placeholder: "Say something to the table", "aria-label": "Chat message",
    dataset: { testid: "chat-input" }, autocomplete: "off",
  }));
  const nameInput = /** @type {HTMLInputElement} */ (h("input", {
    type: "text", maxlength: 40, placeholder: "Your name", "aria-label": "Your name in the chat", class: "chat-name",
    dataset: { testid: "chat-name" },
  }));
  const noteEl = h("p", { class: "refusal", role: "alert", dataset: { testid: "chat-note" }, hidden: true });
  const muteBox = h("details", { class: "chat-mutes", dataset: { testid: "chat-mutes" } });
  const form = h("form", { class: "chat-form", onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); send(); } },
    nameInput, input, button("Send", "chat-send", () => send(), { testid: "chat-send" }));
  const el = h("section", { class: "chat card", id: "chat", "aria-label": "Table chat", dataset: { testid: "chat" } },
    h("h2", {}, "Chat"), list, noteEl, form, muteBox);
  let unread = 0;
  let inSight = false;
  const badge = h("span", { class: "chat-unread", dataset: { testid: "chat-unread" }, hidden: true });
  const opener = h("button", { type: "button", class: "chat-open", "aria-controls": "chat", dataset: { testid: "chat-open" },
    onclick: () => {
      el.scrollIntoView({ block: "end" });
      input.focus({ preventScroll: true });
      setUnread(0);
    } }, "Chat", badge);
  /** @param {number} n */
  function setUnread(n) {
    unread = n;
    badge.hidden = !n;
    badge.textContent = String(n);
    opener.setAttribute("aria-label", n ? `Chat, ${n} new` : "Chat");
  }
  const sight = typeof IntersectionObserver === "function" ? new IntersectionObserver((seen) => {
    inSight = seen.some((e) => e.isIntersecting);
    if (inSight) setUnread(0);
  }) : null;
  sight?.observe(el);

  function send() {
    const text = input.value.trim();
    if (!text) return;
    try {
      live.sendChat(text, live.seat === null ? nameInput.value.trim() : undefined);
      input.value = "";
      setNote("");
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    }
  }

  /** @param {string} text */
  function setNote(text) {
    note = text;
    noteEl.hidden = !note;
    noteEl.textContent = note;
  }

  /** @param {ChatLine} line */
  function lineEl(line) {
    const when = new Date(line.t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    // Text nodes only: whatever a line holds, it is shown as typed.
    return h("li", { dataset: { seat: line.seat ?? "spectator" }, class: line.seat === live.seat && line.seat !== null ? "mine" : "" },
      h("span", { class: "chat-who" }, line.name, line.seat === null ? " (watching)" : ""),
      h("span", { class: "chat-text" }, line.text),
      h("time", { class: "chat-time", datetime: new Date(line.t).toISOString() }, when));
  }

  function drawLines() {
    const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    fill(list, lines.length ? lines.map(lineEl) : h("li", { class: "muted empty" }, "No messages yet."));
    if (atBottom || lines.length <= 1) list.scrollTop = list.scrollHeight;
  }

  function drawMutes() {
    const me = live.seat;
    nameInput.hidden = me !== null;
    if (me === null) {
      muteBox.hidden = true;
      return;
    }
    muteBox.hidden = false;
    const names = ctx.seatNames();
    /** @type {Array<number | "spectators">} */
    const targets = [...names.keys()].filter((s) => s !== me);
    targets.push("spectators");
    fill(muteBox, h("summary", {}, muted.length ? `Muted: ${muted.map((t) => t === "spectators" ? "spectators" : names[t] ?? `seat ${t}`).join(", ")}` : "Mute…"),
      h("div", { class: "choices" }, targets.map((t) => {
        const on = muted.includes(t);
        const who = t === "spectators" ? "spectators" : names[t] ?? `seat ${t}`;
        return button(on ? `Unmute ${who}` : `Mute ${who}`, on ? "unmute" : "mute", () => {
          try {
            live.mute(t, !on);
          } catch (error) {
            setNote(error instanceof Error ? error.message : String(error));
          }
        }, { testid: `mute-${t}` });
      })));
  }

  const offs = [
    live.on("chat_log", (log) => {
      lines = log.lines;
      muted = log.muted;
      drawLines();
      drawMutes();
    }),
    live.on("chat_line", (line) => {
      lines.push(line);
      if (lines.length > 200) lines = lines.slice(-200);
      drawLines();
      if (!inSight && line.seat !== live.seat) setUnread(unread + 1);
    }),
    live.on("mutes", ({ muted: now }) => {
      muted = now;
      // Lines already shown from a seat just muted go too (the server sends no more of them).
      lines = lines.filter((l) => !muted.includes(l.seat === null ? "spectators" : l.seat));
      drawLines();
      drawMutes();
    }),
    live.on("error", (error) => {
      if (CHAT_ERRORS.has(error.code)) setNote(error.message);
    }),
  ];
  drawLines();
  return { el, opener, refresh: drawMutes, off: () => { offs.forEach((off) => off()); sight?.disconnect(); } };
}
