// @ts-check
// The table's clock on every title's page: each seat's time left, counting down for the
// seats whose time runs. The server owns the clock (GET /api/tables/{t}/clock, docs/clocks.md):
// the page asks at every move and counts down from the answer between moves. When a running
// seat reaches zero it asks again until the server has carried out the timeout (a bot takes
// the seat, or the table ends), and tells the page so it can redraw the seats and the result.
import { fill, h } from "./dom.js";

const TICK_MS = 250;
const RECHECK_MS = 1500; // asking again while a running seat shows zero
const IDLE_CHECK_MS = 30_000; // handovers on another tab change who runs: asked now and then

/**
 * `m:ss` under an hour, `h:mm:ss` under a day, else days and hours (async clocks).
 * @param {number} ms
 */
export function formatClock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(s / 86400);
  if (days >= 1) return `${days} d ${Math.floor((s % 86400) / 3600)} h`;
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/**
 * @param {import("../sdk/roundhouse.js").RoundhouseClient} client
 * @param {{table: string, seatName: (seat: number) => string, mySeat: () => number | null,
 *          changed: (clock: import("../sdk/roundhouse.js").TableClock) => void}} ctx
 */
export function mountClock(client, ctx) {
  const el = h("section", { class: "clock", "aria-label": "Clock", hidden: true, dataset: { testid: "clock" } });
  /** @type {import("../sdk/roundhouse.js").TableClock | null} */
  let clock = null;
  let fetchedAt = 0; // performance.now() when `clock` arrived
  let asking = false;
  let again = false;
  let lastAsk = 0;
  let lastKey = "";

  async function refresh() {
    if (asking) {
      again = true;
      return;
    }
    asking = true;
    lastAsk = performance.now();
    try {
      const reply = await client.getClock(ctx.table);
      // Only who plays each seat and an early end matter to the page around the clock: a
      // change of seq alone must not make it ask for its legal actions again (that raced the
      // page's own refresh after each move and left a page that said it was ready without
      // its options).
      const key = JSON.stringify([reply.seats.map((s) => [s.kind, s.level, s.timed_out]), reply.ended]);
      clock = reply;
      fetchedAt = performance.now();
      if (key !== lastKey) {
        lastKey = key;
        ctx.changed(reply);
      }
    } catch {
      // Unreachable for a moment: keep counting from the last answer; asked again soon.
    } finally {
      asking = false;
    }
    if (again) {
      again = false;
      void refresh();
    }
    draw();
  }

  /** @param {import("../sdk/roundhouse.js").SeatClock} s */
  function left(s) {
    if (s.remaining_ms === null) return null;
    return s.running ? s.remaining_ms - (performance.now() - fetchedAt) : s.remaining_ms;
  }

  function draw() {
    if (!clock || clock.kind === "none") {
      el.hidden = true;
      return;
    }
    el.hidden = false;
    const me = ctx.mySeat();
    const label = clock.kind === "realtime"
      ? `Clock: ${formatClock((clock.spec?.bank_s ?? 0) * 1000)} + ${clock.spec?.increment_s ?? 0} s a move`
      : `Clock: ${clock.spec?.turn_hours ?? 0} h a move`;
    const outcome = clock.spec?.on_timeout === "abandon" ? "out of time ends the game" : "out of time: a bot plays on";
    fill(el, h("span", { class: "clock-label muted" }, `${label} · ${outcome}`),
      h("ul", { class: "clock-seats" }, clock.seats.map((s) => {
        const ms = left(s);
        const cls = ["clock-seat", s.running ? "running" : "", s.seat === me ? "me" : "", ms !== null && ms <= 10_000 && s.running ? "low" : "",
          s.timed_out ? "out" : ""].filter(Boolean).join(" ");
        const time = s.timed_out ? (clock?.ended ? "out of time" : "out of time · bot") : ms === null ? "—" : formatClock(ms);
        return h("li", { class: cls, dataset: { testid: `clock-${s.seat}`, running: String(s.running) } },
          h("span", { class: "clock-name" }, s.running ? "▶ " : "", ctx.seatName(s.seat)),
          h("span", { class: "clock-time", dataset: { testid: `clock-time-${s.seat}` } }, time));
      })));
  }

  const timer = setInterval(() => {
    if (!clock || clock.kind === "none") return;
    draw();
    const now = performance.now();
    const zero = clock.seats.some((s) => s.running && (left(s) ?? 1) <= 0);
    if ((zero && now - lastAsk > RECHECK_MS) || now - lastAsk > IDLE_CHECK_MS) void refresh();
  }, TICK_MS);

  return {
    el,
    refresh,
    /** @returns {import("../sdk/roundhouse.js").TableClock | null} */
    current: () => clock,
    off: () => clearInterval(timer),
  };
}
