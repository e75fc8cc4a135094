// @ts-check
// The table page: one live connection (the SDK's LiveTable), the seat's legal actions, and
// the panels drawn from the view. The view from the server and the legal actions from
// GET /legal are the only sources of truth; this module only remembers what the player has
// picked in the decision at hand.
import { RoundhouseClient, RuleError, StaleSeqError, UnavailableError } from "../sdk/roundhouse.js";
import { actionPanel, mapTargets } from "./chicago/actions.js";
import { describeEvent, MILESTONES } from "./chicago/gamelog.js";
import { drawMap } from "./chicago/map.js";
import { playerName } from "./chicago/names.js";
import * as panels from "./chicago/panels.js";
import { fill, h, s } from "./dom.js";
import { loadHeld, rememberSeat, saveHeld } from "./storage.js";

const ZOOMS = [1, 1.5, 2, 3];
const TITLES = { "chicago-express": "Chicago Express" };

/**
 * Explain a refusal to the player: the engine's words for rule refusals.
 * @param {unknown} error
 */
function explain(error) {
  if (error instanceof StaleSeqError) return "Someone else acted first: the table has moved on. Here is the position now.";
  if (error instanceof UnavailableError) return `Cannot reach the server (${error.message}). Try again.`;
  if (error instanceof RuleError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Mount the table page into `root`; returns a function that tears it down.
 * @param {HTMLElement} root
 * @param {{table: string, token: string | null}} invite
 */
export function mountTable(root, invite) {
  const client = new RoundhouseClient();
  const { table, token } = invite;
  const held = loadHeld(table, token);
  const live = client.connect(table, { token, lastSeq: held?.seq, view: held?.view });

  /** @type {import("./chicago/panels.js").SeatInfo[]} */
  let seats = [];
  /** @type {import("../sdk/roundhouse.js").LegalAction[] | null} */
  let legal = null;
  let legalAsked = 0;
  let awaitSeq = 0;
  let zoom = 0;
  /** @type {import("./chicago/actions.js").PanelState} */
  const ui = { company: null, amount: null, message: null, pending: false, canUndo: false };
  let shownSeq = -1;
  let shownTargets = "";

  // --- skeleton -------------------------------------------------------------------------------
  const connection = h("span", { class: "connection", role: "status", dataset: { testid: "connection" } }, "connecting…");
  const turn = h("div", { class: "turn", "aria-live": "polite", dataset: { testid: "turn" } });
  const actions = h("section", { class: "actions", "aria-label": "Your move", dataset: { testid: "actions" } });
  const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ (s("svg", { class: "map", dataset: { testid: "map" } })));
  const mapScroll = h("div", { class: "map-scroll" }, svg);
  const zoomLabel = h("span", { class: "zoom-label" }, "fit");
  const setZoom = (/** @type {number} */ z) => {
    zoom = Math.max(0, Math.min(ZOOMS.length - 1, z));
    svg.style.width = `${ZOOMS[zoom] * 100}%`;
    zoomLabel.textContent = zoom === 0 ? "fit" : `${ZOOMS[zoom]}×`;
  };
  const mapBox = h("section", { class: "map-box", "aria-label": "Map" },
    h("div", { class: "map-tools" },
      h("button", { type: "button", "aria-label": "Zoom out", onclick: () => setZoom(zoom - 1) }, "−"),
      zoomLabel,
      h("button", { type: "button", "aria-label": "Zoom in", onclick: () => setZoom(zoom + 1) }, "+")),
    mapScroll);
  const resultBox = h("div", { class: "result-box" });
  const chartersBox = h("section", { class: "charters", "aria-label": "Companies" });
  const playersBox = h("section", { class: "players-box", "aria-label": "Players" });
  const dialsBox = h("section", { class: "dials", "aria-label": "Action dials" });
  const industryBox = h("section", { class: "industry-box", "aria-label": "Industrial tracks" });
  const logList = h("ol", { class: "log", dataset: { testid: "log" } });
  const info = h("p", { class: "table-info" });
  const page = h("div", { class: "table-page" },
    h("header", { class: "bar" },
      h("a", { href: "#", class: "back" }, "← Lobby"),
      h("h1", {}, "Chicago Express"),
      connection),
    turn,
    resultBox,
    h("div", { class: "board" },
      h("div", { class: "play" }, actions, mapBox),
      h("div", { class: "side" },
        h("h2", {}, "Players"), playersBox,
        h("h2", {}, "Dials"), dialsBox,
        h("h2", {}, "Companies"), chartersBox,
        h("h2", {}, "Industry"), industryBox)),
    h("section", { class: "log-box", "aria-label": "Game log" }, h("h2", {}, "Log"), logList),
    info);
  fill(root, page);
  // On a phone the whole map is too small to tap: start zoomed in, scrolled to the action.
  setZoom(window.innerWidth < 600 ? 2 : 0);
  document.body.dataset.page = "table";

  // --- rendering ------------------------------------------------------------------------------
  const mySeat = () => live.seat;
  const handlers = {
    act: (/** @type {any} */ action) => void act(action),
    undo: () => void act({ type: "undo" }),
    update: (/** @type {Partial<import("./chicago/actions.js").PanelState>} */ patch) => {
      Object.assign(ui, patch);
      render();
    },
  };

  function render() {
    const view = live.view;
    if (!view) return;
    const me = mySeat();
    const myTurn = me !== null && view.active_seats.includes(me) && !view.result;
    const body = document.body.dataset;
    body.seq = String(live.seq);
    body.seat = me === null ? "spectator" : String(me);
    body.phase = view.phase;
    body.myTurn = String(myTurn);
    body.ready = String(!myTurn || (legal !== null && !ui.pending));
    document.title = `${myTurn ? "(Your turn) " : ""}${/** @type {any} */ (TITLES)[view.title] ?? view.title} — Roundhouse`;

    fill(turn, turnText(view, me, myTurn));
    turn.className = `turn${myTurn ? " mine" : ""}${view.result ? " over" : ""}`;
    fill(actions, actionPanel(view, { mySeat: me, legal: myTurn ? legal : null, ui, on: handlers }));
    const targets = myTurn && legal ? mapTargets(view, legal, ui) : new Map();
    const targetKey = [...targets.keys()].join(" ");
    drawMap(svg, view, {
      targets,
      placed: new Set(view.build?.placed ?? []),
      onPick: (hex) => {
        const target = targets.get(hex);
        if (target) void act(target.action);
      },
    });
    if (targetKey && targetKey !== shownTargets) revealTargets();
    shownTargets = targetKey;
    fill(resultBox, view.result ? panels.result(view, { mySeat: me, width: page.clientWidth - 28 }) : null);
    fill(playersBox, panels.players(view, { mySeat: me, seats }));
    fill(dialsBox, panels.dials(view));
    fill(chartersBox, panels.charters(view));
    fill(industryBox, panels.industry(view));
    renderLog(view);
    fill(info, `Table ${table} · seq ${live.seq} · round ${view.round} · ${view.phase}${me === null ? " · spectator" : ""}`);
  }

  /** Scroll the zoomed map so the first clickable hex is in sight. */
  function revealTargets() {
    const first = svg.querySelector(".hex.target");
    if (!first || zoom === 0) return;
    const box = mapScroll.getBoundingClientRect();
    const at = first.getBoundingClientRect();
    mapScroll.scrollLeft += at.left + at.width / 2 - (box.left + box.width / 2);
    mapScroll.scrollTop += at.top + at.height / 2 - (box.top + box.height / 2);
  }

  /**
   * Rewrite the log from the first line that changed (usually only appends; an undo takes
   * lines back), so a long log is not rebuilt on every move.
   * @param {any} view
   */
  function renderLog(view) {
    const atBottom = logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 8;
    const lines = logList.children;
    let same = 0;
    while (same < lines.length && same < view.log.length && lines[same].textContent === describeEvent(view, view.log[same])) same++;
    while (lines.length > same) lines[lines.length - 1].remove();
    for (let i = same; i < view.log.length; i++) {
      const e = view.log[i];
      logList.append(h("li", { class: MILESTONES.has(e.event) ? `milestone ev-${e.event}` : `ev-${e.event}` }, describeEvent(view, e)));
    }
    if (atBottom) logList.scrollTop = logList.scrollHeight;
  }

  /**
   * @param {any} view
   * @param {number | null} me
   * @param {boolean} myTurn
   */
  function turnText(view, me, myTurn) {
    const round = `Round ${view.round} · ${view.phase}`;
    if (view.result) return [h("strong", {}, "Game over"), " · ", panels.endReason(view.result.reason)];
    const names = view.active_seats.map((/** @type {number} */ s) => {
      const seat = seats[s];
      return `${playerName(view, s)}${seat?.kind === "bot" ? " (bot)" : ""}`;
    });
    if (myTurn) return [h("strong", {}, "Your turn"), ` · ${round}`];
    return [me === null ? `${names.join(", ")} to act` : `Waiting for ${names.join(", ")}`, ` · ${round}`];
  }

  // --- legal actions and acting ---------------------------------------------------------------
  async function refreshLegal() {
    const view = live.view;
    const me = mySeat();
    legal = null;
    if (!token || !view || view.result || me === null || !view.active_seats.includes(me)) {
      render();
      return;
    }
    const asked = ++legalAsked;
    render();
    try {
      const reply = await live.legalActions();
      if (asked !== legalAsked) return;
      if (reply.seq === live.seq) {
        legal = reply.actions;
        render();
      } else if (reply.seq < live.seq) {
        void refreshLegal();
      }
      // reply.seq > live.seq: the update is on its way, and its arrival asks again.
    } catch (error) {
      if (asked !== legalAsked) return;
      ui.message = explain(error);
      render();
      setTimeout(() => asked === legalAsked && void refreshLegal(), 1500);
    }
  }

  /** @param {any} action */
  async function act(action) {
    if (ui.pending) return;
    ui.pending = true;
    ui.message = null;
    render();
    try {
      const accepted = await live.submit(action);
      awaitSeq = accepted.seq;
      ui.canUndo = action.type !== "undo";
      if (live.seq >= awaitSeq) ui.pending = false;
      render();
    } catch (error) {
      ui.pending = false;
      ui.message = explain(error);
      void refreshLegal();
    }
  }

  // --- live events ----------------------------------------------------------------------------
  const offs = [
    live.on("view", ({ seq, update }) => {
      saveHeld(table, token, seq, live.view);
      if (update && update.seat !== mySeat()) ui.canUndo = false;
      if (seq !== shownSeq) {
        shownSeq = seq;
        ui.company = null;
        ui.amount = null;
        if (!ui.pending) ui.message = null;
      }
      if (ui.pending && seq >= awaitSeq && awaitSeq > 0) ui.pending = false;
      void refreshLegal();
    }),
    live.on("welcome", (welcome) => {
      document.body.dataset.resumed = String(welcome.resumed);
      if (token && welcome.seat !== null) {
        const name = live.view?.players?.[welcome.seat]?.name ?? `seat ${welcome.seat}`;
        rememberSeat({ table, seat: welcome.seat, name, token });
      }
      // A resumed welcome brings no view event: draw what we hold.
      if (welcome.resumed) void refreshLegal();
    }),
    live.on("status", ({ status, retryInMs, error }) => {
      document.body.dataset.connection = status;
      connection.className = `connection ${status}`;
      const text = {
        connecting: "connecting…",
        live: "● live",
        reconnecting: `reconnecting${retryInMs != null ? ` in ${(retryInMs / 1000).toFixed(1)} s` : ""}…`,
        closed: "closed",
        failed: `cannot watch this table: ${error?.message ?? "refused"}`,
      }[status];
      connection.textContent = text;
      if (status === "failed") {
        fill(turn, h("strong", {}, "This table cannot be opened: "), error?.message ?? "refused", " ", h("a", { href: "#" }, "Back to the lobby"));
      }
    }),
  ];
  const online = () => live.reconnectNow();
  window.addEventListener("online", online);

  client.getTable(table).then(
    (detail) => {
      seats = detail.seats;
      render();
    },
    () => {
      // The live connection reports an unknown table itself; the seat kinds are a nicety.
    },
  );
  if (live.view) render();

  return () => {
    for (const off of offs) off();
    window.removeEventListener("online", online);
    live.close();
  };
}
