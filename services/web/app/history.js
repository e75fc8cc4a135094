// @ts-check
// Stepping through a table's past, the same on every title's page: first, previous round,
// previous move, next, last (the live game), "since my last move", a replay that plays the
// moves one by one, and a link to any position (`?seq=N`). The views come from the server
// (`view_at`: the engine's view of that seq for this seat, a spectator's for a spectator),
// so a past position shows exactly what this seat could see then.
import { button } from "./controls.js";
import { fill, h } from "./dom.js";

/**
 * @typedef {import("../sdk/roundhouse.js").LiveTable} LiveTable
 * @typedef {import("../sdk/roundhouse.js").HistoryEntry} HistoryEntry
 */

const REPLAY_MS = 900;

/**
 * The seq a link asks for: `?seq=N` in the query, or `seq=N` in the fragment.
 * @returns {number | null}
 */
export function linkedSeq() {
  for (const params of [new URLSearchParams(location.search), new URLSearchParams(location.hash.replace(/^#/, ""))]) {
    const raw = params.get("seq");
    if (raw !== null && /^\d+$/.test(raw)) return Number(raw);
  }
  return null;
}

/**
 * @param {LiveTable} live
 * @param {{redraw: () => void, table: string}} ctx
 */
export function mountHistory(live, ctx) {
  /** @type {number | null} the seq on show; null: the live position */
  let seq = null;
  /** @type {any} */
  let view = null;
  /** @type {HistoryEntry[]} entries[i] is log entry i + 1 */
  let entries = [];
  /** @type {string | null} */
  let setupRound = null;
  let asking = 0;
  let busy = false;
  /** @type {string | null} */
  let problem = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let replayTimer = null;
  /** @type {number | null} a seq asked for before the first welcome */
  let wanted = linkedSeq();

  const el = h("nav", { class: "history", "aria-label": "Game history", dataset: { testid: "history" } });

  const latest = () => live.seq;
  const at = () => seq ?? latest();
  /** @param {number} s */
  const roundAt = (s) => (s === 0 ? setupRound : entries[s - 1]?.round ?? null);

  /** Fetch the entries the index lacks (up to the live seq). */
  async function index() {
    if (entries.length >= latest()) return;
    const reply = await live.viewAt(0, entries.length);
    if (entries.length === 0) setupRound = reply.round;
    for (const e of reply.entries) if (e.seq === entries.length + 1) entries.push(e);
  }

  /** @param {number} target */
  async function go(target) {
    const top = latest();
    target = Math.max(0, Math.min(top, target));
    if (target === top) {
      asking++;  // an older step still on its way must not take the page back
      busy = false;
      seq = null;
      view = null;
      problem = null;
      draw();
      ctx.redraw();
      return;
    }
    const mine = ++asking;
    busy = true;
    try {
      const reply = await live.viewAt(target, entries.length < top ? entries.length : null);
      if (entries.length === 0 && reply.entries.length) setupRound = reply.round;
      for (const e of reply.entries) if (e.seq === entries.length + 1) entries.push(e);
      if (mine !== asking) return;
      seq = target;
      view = reply.view;
      problem = null;
    } catch (error) {
      if (mine !== asking) return;
      problem = error instanceof Error ? error.message : String(error);
      stopReplay();
    } finally {
      if (mine === asking) busy = false;
    }
    draw();
    ctx.redraw();
  }

  /** The first seq of the round that `s` is in. */
  function roundStart(/** @type {number} */ s) {
    const label = roundAt(s);
    while (s > 0 && roundAt(s - 1) === label) s--;
    return s;
  }

  async function previousRound() {
    await index().catch(() => {});
    const here = at();
    const start = roundStart(here);
    void go(start < here ? start : roundStart(Math.max(0, here - 1)));
  }

  async function sinceMine() {
    await index().catch(() => {});
    const me = live.seat;
    const mine = [...entries].reverse().find((e) => e.seat === me && e.action?.type !== "undo" && e.action?.type !== "redo");
    void go(mine ? mine.seq : 0);
  }

  function stopReplay() {
    if (!replayTimer) return;
    clearInterval(replayTimer);
    replayTimer = null;
    // A step on its way when the replay is paused is dropped: the position stays where it was.
    asking++;
    busy = false;
  }

  function replay() {
    if (replayTimer) {
      stopReplay();
      draw();
      return;
    }
    if (seq === null) void go(0);
    replayTimer = setInterval(() => {
      if (seq === null) {
        stopReplay();
        draw();
      } else if (!busy) {
        void go(seq + 1);
      }
    }, REPLAY_MS);
    draw();
  }

  function link() {
    const s = at();
    const url = new URL(location.href);
    url.search = `?seq=${s}`;
    url.hash = `table=${encodeURIComponent(ctx.table)}`;  // no token: a link to share
    return url.toString();
  }

  // The buttons are made once and only updated, so a click or the keyboard focus is never
  // lost to a redraw, and each acts on the position at the moment it is pressed.
  const buttons = {
    first: button("◀◀ First", "history-first", () => void go(0), { title: "The set-up, before the first move" }),
    round: button("◀ Round", "history-round", () => void previousRound(), { title: "The start of this round (again: of the round before)" }),
    prev: button("◀ Move", "history-prev", () => void go(at() - 1), { title: "One move back (←)" }),
    next: button("Move ▶", "history-next", () => void go(at() + 1), { title: "One move on (→)" }),
    last: button("Now ▶▶", "history-last", () => { stopReplay(); void go(latest()); }, { title: "Back to the game as it is now" }),
    mine: button("Since my last move", "history-mine", () => void sinceMine(), { title: "The position right after your last move" }),
    replay: button("Replay ▶", "history-replay", () => replay(), { title: "Play the moves one by one" }),
  };
  const where = h("p", { class: "history-where", dataset: { testid: "history-where" } });
  const problemEl = h("p", { class: "refusal", role: "alert", hidden: true });
  fill(el, h("div", { class: "choices" }, Object.values(buttons)), where, problemEl);

  function draw() {
    const top = latest();
    const here = at();
    const past = seq !== null;
    document.body.dataset.viewSeq = String(here);
    document.body.dataset.history = String(past);
    document.body.dataset.viewRound = roundAt(here) ?? "";
    const set = (/** @type {HTMLButtonElement} */ b, /** @type {boolean} */ disabled) => { b.disabled = disabled; };
    set(/** @type {HTMLButtonElement} */ (buttons.first), here === 0);
    set(/** @type {HTMLButtonElement} */ (buttons.round), here === 0);
    set(/** @type {HTMLButtonElement} */ (buttons.prev), here === 0);
    set(/** @type {HTMLButtonElement} */ (buttons.next), !past);
    set(/** @type {HTMLButtonElement} */ (buttons.last), !past);
    buttons.last.classList.toggle("primary", past);
    buttons.mine.hidden = live.seat === null;
    set(/** @type {HTMLButtonElement} */ (buttons.mine), top === 0);
    set(/** @type {HTMLButtonElement} */ (buttons.replay), top === 0);
    buttons.replay.textContent = replayTimer ? "Pause replay" : "Replay ▶";
    where.className = past ? "history-where past" : "history-where";
    const label = roundAt(here);
    fill(where, past
      ? [h("strong", {}, `Looking back: move ${here} of ${top}`), label ? ` · ${roundLabel(label)}` : "", " · ",
        h("a", { href: link(), dataset: { testid: "history-link" } }, "link to this position")]
      : [`Move ${top}`, " · ", h("a", { href: link(), dataset: { testid: "history-link" } }, "link")]);
    problemEl.hidden = !problem;
    problemEl.textContent = problem ? `History: ${problem}` : "";
  }

  /** @param {string | null} label */
  function roundLabel(label) {
    if (label === null) return "";
    const [round, ...rest] = label.split("/");
    const name = /^\d+$/.test(round) ? `round ${round}` : `${round.replaceAll("_", " ")} round`;
    return [name, ...rest.map((p) => (/^\d+$/.test(p) ? `turn ${p}` : p.replaceAll("_", " ")))].join(", ");
  }

  /** @param {KeyboardEvent} e */
  function onKey(e) {
    const target = /** @type {HTMLElement | null} */ (e.target);
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT" || target.isContentEditable)) return;
    if (e.key === "ArrowLeft") void go(at() - 1);
    else if (e.key === "ArrowRight" && seq !== null) void go(at() + 1);
  }
  window.addEventListener("keydown", onKey);

  const offs = [
    live.on("welcome", () => {
      if (wanted !== null) {
        const target = wanted;
        wanted = null;
        void go(target);
      }
      draw();
    }),
    live.on("view", () => draw()),
  ];
  draw();

  return {
    el,
    /** The view to draw: a past one while looking back, else null (the live one). */
    pastView: () => (seq === null ? null : view),
    /** @returns {number | null} */
    pastSeq: () => seq,
    back: () => { stopReplay(); void go(latest()); },
    off: () => {
      stopReplay();
      window.removeEventListener("keydown", onKey);
      offs.forEach((off) => off());
    },
  };
}
