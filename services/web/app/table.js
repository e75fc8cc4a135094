// @ts-check
// The table page, the same for every title: one live connection (the SDK's LiveTable), the
// seat's legal actions, acting, the turn line, the seat's controller (a person or a bot),
// undo, refusals, the log, the result and rematch. What needs to know the game comes from
// the title's page module (META.web_module, loaded on demand; see pageapi.js), or the
// generic page when it has none.
//
// The view from the server and the legal actions from GET /legal are the only sources of
// truth; this module only remembers what the player has picked in the decision at hand.
import { RoundhouseClient, RuleError, StaleSeqError, UnavailableError } from "../sdk/roundhouse.js";
import { mountChat } from "./chat.js";
import { mountClock } from "./clock.js";
import { button } from "./controls.js";
import { fill, h } from "./dom.js";
import { mountHistory } from "./history.js";
import { mountTurnNotices } from "./notify.js";
import { mountNotifyForm } from "./notifyform.js";
import { invitesPanel, rematch } from "./invites.js";
import { loadHeld, loadSeenLog, rememberSeat, saveHeld, saveSeenLog } from "./storage.js";
import { backfill, mergeLines } from "./backfill.js";
import { loadPage, titleMeta } from "./titles.js";

/**
 * @typedef {import("./pageapi.js").TitlePage} TitlePage
 * @typedef {import("./pageapi.js").PanelState} PanelState
 * @typedef {import("./pageapi.js").PageContext} PageContext
 * @typedef {import("../sdk/roundhouse.js").TitleMeta} TitleMeta
 * @typedef {import("../sdk/roundhouse.js").SeatInfo} SeatInfo
 */

// Log lines kept for a title whose view holds no log: a whole long game (18xx: ~800 moves).
const LOG_KEPT = 3000;

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
  const live = client.connect(table, { token, lastSeq: held?.seq, view: held?.view, chat: true });

  /** @type {TitlePage | null} */
  let page = null;
  /** @type {TitleMeta | null} */
  let meta = null;
  /** @type {Promise<void> | null} */
  let loading = null;
  /** @type {SeatInfo[]} */
  let seats = [];
  /** @type {import("../sdk/roundhouse.js").LegalAction[] | null} */
  let legal = null;
  let legalSeq = -1; // the seq `legal` was answered for
  let legalAsked = 0;
  let awaitSeq = 0;
  /** @type {PanelState} */
  const ui = { picks: {}, amount: null, message: null, pending: false, canUndo: false, dismissed: null };
  let shownSeq = -1;
  let shownTargets = "";
  // What the action panel was last drawn from: it is rebuilt only when that changes, so a
  // redraw for an unrelated update (a clock, the log) never swaps a button under a finger.
  let panelDrawn = "";
  /** @type {boolean | null} the game was over at the last render (null: nothing drawn yet) */
  let wasOver = null;
  let rulesOpen = false;
  /** @type {string | null} */
  let seatMessage = null;
  /** @type {import("./dom.js").Child} */
  let rematchNote = null;
  // For titles whose view holds no log: lines the page module writes from each update seen
  // (page.logLine), kept with the held view in this tab.
  /** @type {import("./pageapi.js").SeenLine[]} */
  let seenLog = loadSeenLog(table, token);
  /** @type {any} */
  let lastView = held?.view ?? null;
  let filling = false;

  /** The lines of moves this tab did not see, from the table's history (backfill.js). */
  async function fillLog() {
    if (filling || !page?.logLine || live.seq < 1) return;
    filling = true;
    let shown = 0;
    try {
      const lines = await backfill(live, page, seenLog, live.seq, (batch) => {
        seenLog = mergeLines(seenLog, batch);
        // Only the log while it fills (a whole page drawn per line would slow it to a crawl).
        if (Date.now() - shown > 500 && live.view) {
          shown = Date.now();
          renderLog(live.view);
        }
      });
      if (lines.length) {
        seenLog = seenLog.slice(-LOG_KEPT);
        saveSeenLog(table, token, seenLog);
        render();
      }
    } catch (error) {
      console.warn(`Roundhouse: the log of earlier moves could not be read: ${error}`);
    } finally {
      filling = false;
    }
  }

  // The view the page drew last (live or past), for tools and tests to compare with the engine's.
  const drawn = /** @type {{view: any}} */ (/** @type {any} */ (window).roundhouseDrawn = { view: null });

  // --- skeleton -------------------------------------------------------------------------------
  const connection = h("span", { class: "connection", role: "status", dataset: { testid: "connection" } }, "connecting…");
  const heading = h("h1", {}, "Roundhouse");
  const rulesButton = h("button", { type: "button", class: "rules-toggle", "aria-expanded": "false", "aria-controls": "rules",
    dataset: { testid: "rules-toggle" }, onclick: () => {
      rulesOpen = !rulesOpen;
      render();
      if (rulesOpen) rulesBox.scrollIntoView({ block: "nearest" });
    } }, "Rules");
  const rulesBox = h("section", { id: "rules", class: "rules card", "aria-label": "Rules summary", hidden: true, dataset: { testid: "rules" } });
  const turn = h("div", { class: "turn", "aria-live": "polite", dataset: { testid: "turn" } });
  const newsBox = h("div", { class: "news-box", "aria-live": "polite" });
  const recentBox = h("section", { class: "recent", "aria-label": "Latest moves", dataset: { testid: "recent" } });
  const actions = h("section", { class: "actions", "aria-label": "Your move", dataset: { testid: "actions" } });
  const main = h("div", { class: "title-main" });
  const side = h("div", { class: "title-side" });
  const resultBox = h("div", { class: "result-box" });
  const seatBox = h("section", { class: "seat-box", "aria-label": "Your seat", dataset: { testid: "seat-box" } });
  const logList = h("ol", { class: "log", dataset: { testid: "log" } });
  const info = h("p", { class: "table-info" });
  const history = mountHistory(live, { table, redraw: () => render() });
  const chat = mountChat(live, { seatNames: () => seats.map((s) => s.name) });
  const notices = mountTurnNotices({ title: () => meta?.name ?? "Roundhouse" });
  const elsewhere = token ? mountNotifyForm(client, { table, token, seat: () => live.seat }) : null;
  const clock = mountClock(client, {
    table,
    seatName: (seat) => nameOf(live.view, seat),
    mySeat: () => live.seat,
    // Who plays each seat comes with the clock: a seat that ran out is a bot's now. (A table
    // abandoned on time: its live view holds the standings as its result, as every seat's does.)
    changed: (c) => {
      seats = seats.map((s) => {
        const now = c.seats[s.seat];
        return now ? { ...s, kind: now.kind, level: now.level } : s;
      });
      render();
      void refreshLegal();
    },
  });
  const pageEl = h("div", { class: "table-page" },
    h("header", { class: "bar" }, h("a", { href: "#", class: "back" }, "← Lobby"), heading, rulesButton, chat.opener, connection),
    rulesBox,
    history.el,
    turn,
    clock.el,
    recentBox,
    resultBox,
    h("div", { class: "board" },
      h("div", { class: "play" }, newsBox, actions, main),
      h("div", { class: "side" }, seatBox, token ? notices.el : null, elsewhere?.el ?? null, side)),
    h("section", { class: "log-box", "aria-label": "Game log" }, h("h2", {}, "Log"), logList),
    chat.el,
    info);
  fill(root, pageEl);
  document.body.dataset.page = "table";

  // --- the title's module -----------------------------------------------------------------------
  /** @param {string} title */
  function ensurePage(title) {
    loading ??= (async () => {
      meta = await titleMeta(client, title);
      const loaded = await loadPage(meta);
      page = loaded.page;
      document.body.dataset.pageModule = meta.web_module && !loaded.problem ? meta.web_module : "generic";
      if (loaded.problem) console.warn(`Roundhouse: ${loaded.problem}; showing the generic page`);
      heading.textContent = meta.name;
      render();
      void fillLog();
    })();
    return loading;
  }

  // --- rendering ------------------------------------------------------------------------------
  const mySeat = () => live.seat;
  const botPlaysMe = () => {
    const me = mySeat();
    return me !== null && seats[me]?.kind === "bot";
  };
  /** @type {import("./pageapi.js").PanelHandlers} */
  const handlers = {
    act: (action) => void act(action),
    update: (patch) => {
      Object.assign(ui, patch);
      render();
    },
    dismiss: (key) => {
      ui.dismissed = key;
      render();
    },
    preview: (action) => live.preview(action).then((reply) => reply.preview),
  };

  /**
   * A seat's name from the title's view, or from the table's seats while no view has arrived
   * (the clock asks for names as soon as its own answer comes, which may be first).
   * @param {any} view
   * @param {number} seat
   */
  function nameOf(view, seat) {
    return (view ? page?.playerName?.(view, seat) : undefined) ?? seats[seat]?.name ?? `seat ${seat}`;
  }

  /**
   * Who must act: the projection adds `active_seats` to every seat's view from the engine, the
   * same call the API's /legal answers from, whatever the title's own view holds.
   * @param {any} view
   */
  function activeSeats(view) {
    return Array.isArray(view.active_seats) ? /** @type {number[]} */ (view.active_seats) : [];
  }

  function render() {
    // Looking back (history), the page draws the past view, with nothing to act on.
    const past = history.pastView();
    const view = past ?? live.view;
    if (!view) return;
    const me = mySeat();
    const over = !!view.result;
    const myTurn = !past && me !== null && activeSeats(view).includes(me) && !over && !botPlaysMe();
    // The page's state for tests and tools; `drawn`: the title's page has drawn this seq.
    const body = document.body.dataset;
    body.seq = String(live.seq);
    body.seat = me === null ? "spectator" : String(me);
    body.phase = String(view.phase ?? "");
    body.myTurn = String(myTurn);
    body.ready = String(!!page && (!myTurn || (legal !== null && !ui.pending)));
    body.over = String(over);
    body.drawn = String(!!page && !!meta);
    if (!page || !meta) return;
    document.title = `${myTurn ? "(Your turn) " : ""}${meta.name} — Roundhouse`;
    const mustAct = me !== null && !!live.view && activeSeats(live.view).includes(me) && !live.view.result && !botPlaysMe();
    notices.turn(mustAct, live.seq);
    pageEl.classList.toggle("over", over);

    const targets = myTurn && legal && !ui.pending ? page.mapTargets(view, legal, ui) : new Map();
    /** @type {PageContext} */
    const ctx = { mySeat: me, seq: (past ? history.pastSeq() : null) ?? live.seq, seats, legal: myTurn ? legal : null, ui, on: handlers, targets, width: pageEl.clientWidth, meta, seen: seenLog };

    rulesButton.setAttribute("aria-expanded", String(rulesOpen));
    rulesBox.hidden = !rulesOpen;
    if (rulesOpen && !rulesBox.firstChild) {
      fill(rulesBox, h("h2", {}, `${meta.name}: how to play`), meta.summary ? h("p", { class: "muted" }, meta.summary) : null, page.rules(view),
        button("Close", "close-rules", () => { rulesOpen = false; render(); }));
    }
    fill(turn, past ? [h("strong", {}, `Move ${history.pastSeq()}: `), turnText(view, me, false)] : turnText(view, me, myTurn));
    turn.className = `turn${myTurn ? " mine" : ""}${over ? " over" : ""}${past ? " past" : ""}`;
    // Replaced only when it changes: a screen reader announces it once, and a redraw for
    // an unrelated update does not reset what the player is doing in it.
    const news = h("div", {}, page.news?.(view, ctx) ?? null);
    if (news.textContent !== newsBox.textContent) fill(newsBox, ...news.childNodes);
    const drawnPanel = h("div", {}, past ? [h("p", {}, "You are looking at an earlier position. "), button("Back to the game", "history-back", () => history.back(), { primary: true })] : panel(view, ctx));
    const panelKey = JSON.stringify([live.seq, past ? history.pastSeq() : null, me, ui, ctx.legal, seats]) + drawnPanel.innerHTML;
    if (panelKey !== panelDrawn) {
      panelDrawn = panelKey;
      fill(actions, ...drawnPanel.childNodes);
    }
    actions.hidden = over && !past;
    page.render(view, ctx, { main, side });
    const targetKey = [...targets.keys()].join(" ");
    if (targetKey && targetKey !== shownTargets) revealTargets();
    shownTargets = targetKey;
    fill(resultBox, over ? [page.result ? page.result(view, ctx) : genericResult(view), rematchBlock()] : null);
    // A game that ends while the player watches (scrolled down to the board) shows its result.
    if (!past) {
      if (over && wasOver === false) resultBox.scrollIntoView({ block: "start" });
      wasOver = over;
    }
    const seatKey = JSON.stringify([me, seats[me ?? -1] ?? null, over, seatMessage, !!token, clock.current()?.seats[me ?? -1]?.timed_out]);
    if (seatBox.dataset.key !== seatKey) {
      seatBox.dataset.key = seatKey;
      fill(seatBox, seatControls(view, me, over));
    }
    renderLog(view);
    renderRecent(view, me);
    drawn.view = view;
    fill(info, `Table ${table} · seq ${live.seq}${page.turnInfo ? ` · ${page.turnInfo(view)}` : ""}${me === null ? " · spectator" : ""}`);
  }

  /**
   * The action panel: the title's decision, then what every table has (undo, sending, refusal).
   * @param {any} view
   * @param {PageContext} ctx
   */
  function panel(view, ctx) {
    /** @type {import("./dom.js").Child[]} */
    const out = [];
    if (botPlaysMe() && !view.result) {
      const me = /** @type {number} */ (mySeat());
      out.push(h("p", { class: "bot-plays" }, `A bot (${seats[me]?.level ?? "bot"}) is playing your seat. Take it back under "Your seat" to play yourself.`));
    } else {
      out.push(...page?.actionPanel(view, ctx) ?? []);
    }
    if (ui.canUndo && !view.result && mySeat() !== null && !botPlaysMe()) {
      out.push(h("div", { class: "choices undo" }, button("Undo my last action", "undo", () => void act({ type: "undo" }), { disabled: ui.pending })));
    }
    if (ui.pending) out.push(h("p", { class: "muted", role: "status" }, "Sending…"));
    if (ui.message) out.push(h("p", { class: "refusal", role: "alert", dataset: { testid: "refusal" } }, ui.message));
    return out;
  }

  /**
   * Bring the first clickable board item into sight: inside its scrolling box (a zoomed map),
   * then on the page, clear of the sticky action panel (at the top, or docked at the bottom).
   */
  function revealTargets() {
    const first = /** @type {Element | null} */ (main.querySelector(".target"));
    if (!first) return;
    const scroller = first.closest("[data-scroll]");
    if (scroller) {
      const box = scroller.getBoundingClientRect();
      const at = first.getBoundingClientRect();
      scroller.scrollLeft += at.left + at.width / 2 - (box.left + box.width / 2);
      scroller.scrollTop += at.top + at.height / 2 - (box.top + box.height / 2);
    }
    const at = first.getBoundingClientRect();
    // A sticky panel covers part of the screen: above the board, or docked at its bottom.
    const style = getComputedStyle(actions);
    const panel = actions.getBoundingClientRect();
    const docked = style.position === "sticky" && style.bottom !== "auto";
    const top = style.position === "sticky" && !docked ? Math.max(0, panel.bottom) : 0;
    const bottom = docked ? panel.top : window.innerHeight;
    if (at.top < top || at.bottom > bottom) {
      window.scrollBy({ top: at.top + at.height / 2 - (top + (bottom - top) / 2) });
    }
  }

  /**
   * Rewrite the log from the first line that changed (usually only appends; an undo takes
   * lines back), so a long log is not rebuilt on every move.
   * @param {any} view
   */
  function renderLog(view) {
    const log = Array.isArray(view.log) ? view.log : seenLog.map((e) => e.text);
    const p = /** @type {TitlePage} */ (page);
    const atBottom = logList.scrollTop + logList.clientHeight >= logList.scrollHeight - 8;
    const lines = logList.children;
    let same = 0;
    while (same < lines.length && same < log.length && lines[same].textContent === p.describeEvent(view, log[same])) same++;
    while (lines.length > same) lines[lines.length - 1].remove();
    for (let i = same; i < log.length; i++) {
      const e = log[i];
      const kind = e && typeof e === "object" ? String(e.event ?? e.type ?? "") : "";
      logList.append(h("li", { class: p.milestones.has(kind) ? `milestone ev-${kind}` : `ev-${kind}` }, p.describeEvent(view, e)));
    }
    if (atBottom) logList.scrollTop = logList.scrollHeight;
  }

  /**
   * What happened since this seat last moved (or the last few moves), at the top of the page,
   * so a player coming back need not dig through the log. From the lines this tab wrote.
   * @param {any} view
   * @param {number | null} me
   */
  function renderRecent(view, me) {
    let lines = seenLog;
    const mine = me === null ? -1 : lines.map((e) => e.seat).lastIndexOf(me);
    lines = mine >= 0 ? lines.slice(mine + 1) : lines.slice(-3);
    lines = lines.slice(-6);
    const key = JSON.stringify([lines.map((e) => e.seq), !!view.result]);
    if (recentBox.dataset.key === key) return;
    recentBox.dataset.key = key;
    recentBox.hidden = !lines.length;
    fill(recentBox, lines.length ? [h("strong", {}, mine >= 0 ? "Since your last move: " : "Latest: "),
      h("ul", {}, lines.map((e) => h("li", {}, e.text)))] : null);
  }

  /**
   * @param {any} view
   * @param {number | null} me
   * @param {boolean} myTurn
   */
  function turnText(view, me, myTurn) {
    const where = page?.turnInfo ? ` · ${page.turnInfo(view)}` : "";
    if (view.result) {
      const reason = String(view.result.reason ?? "");
      return [h("strong", {}, "Game over"), " · ", page?.endReason?.(reason) ?? reason.replaceAll("_", " ")];
    }
    const names = activeSeats(view).map((s) => `${nameOf(view, s)}${seats[s]?.kind === "bot" ? " (bot)" : ""}`);
    if (myTurn) return [h("strong", {}, "Your turn"), where];
    // The engine says nobody may act and the game is not over: say so rather than wait forever.
    if (!names.length) return [h("strong", { dataset: { testid: "stuck" } }, "Nobody can act"), ": the game cannot go on from here (please report this table)", where];
    if (me !== null && botPlaysMe() && activeSeats(view).includes(me)) return [`A bot is playing your turn${where}`];
    return [me === null ? `${names.join(", ")} to act` : `Waiting for ${names.join(", ")}`, where];
  }

  /** @param {any} view */
  function genericResult(view) {
    const r = view.result;
    const order = r.ranks.map((/** @type {number} */ _, /** @type {number} */ seat) => seat)
      .sort((/** @type {number} */ a, /** @type {number} */ b) => r.ranks[a] - r.ranks[b]);
    return h("section", { class: "result", dataset: { testid: "result" } },
      h("h2", {}, "Game over"),
      h("p", { class: "winner" }, `${r.winners.map((/** @type {number} */ s) => nameOf(view, s)).join(" and ")} ${r.winners.length > 1 ? "win" : "wins"}.`),
      h("ol", { class: "ranking" }, order.map((/** @type {number} */ seat) => h("li", { dataset: { seat, rank: r.ranks[seat] } },
        h("span", { class: "rank" }, `#${r.ranks[seat]}`), " ", nameOf(view, seat), " ", h("strong", {}, String(r.scores[seat]))))));
  }

  function rematchBlock() {
    return h("section", { class: "rematch card", dataset: { testid: "rematch-box" } },
      rematchNote ?? [
        h("p", {}, "Play again with the same players and bots at a new table: you get a fresh link for every person's seat to send them."),
        button("Rematch", "rematch", () => void startRematch(), { primary: true, testid: "rematch" }),
      ]);
  }

  async function startRematch() {
    rematchNote = h("p", { class: "muted" }, "Creating the new table…");
    render();
    try {
      const reply = await rematch(client, table);
      rematchNote = invitesPanel(reply, "Rematch created");
    } catch (error) {
      rematchNote = [h("p", { class: "refusal", role: "alert" }, `The rematch could not be created: ${explain(error)}`),
        button("Try again", "rematch", () => void startRematch(), { testid: "rematch" })];
    }
    render();
  }

  /**
   * Who plays this seat: the person, or a bot while they are away.
   * @param {any} view
   * @param {number | null} me
   * @param {boolean} over
   */
  function seatControls(view, me, over) {
    if (!token || me === null || over || !meta) return null;
    const seat = seats[me];
    if (!seat) return null;
    /** @type {import("./dom.js").Child[]} */
    const out = [h("h2", {}, "Your seat")];
    if (seat.kind === "bot") {
      const ranOut = clock.current()?.seats[me]?.timed_out;
      out.push(h("p", {}, `${ranOut ? "Your time ran out. " : ""}A bot (${seat.level ?? "default level"}) is playing for ${nameOf(view, me)}. Your link still works: take the seat back at any time.`),
        button("Take my seat back", "take-back", () => void setController({ kind: "human" }), { primary: true, testid: "take-back" }));
    } else {
      const levels = meta.bot_levels ?? [];
      const select = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "Bot level", dataset: { testid: "handover-level" } },
        levels.map((l) => h("option", { value: l, selected: l === "heuristic" }, l))));
      out.push(h("p", { class: "muted" }, "Leaving? A bot can play your seat until you take it back with this same link."),
        h("div", { class: "choices" }, select,
          button("Let a bot play my seat", "handover", () => void setController({ kind: "bot", level: select.value }), { testid: "handover" })));
    }
    if (seatMessage) out.push(h("p", { class: "refusal", role: "alert" }, seatMessage));
    return out;
  }

  /** @param {import("../sdk/roundhouse.js").ControllerRequest} req */
  async function setController(req) {
    const me = mySeat();
    if (!token || me === null) return;
    seatMessage = null;
    try {
      const reply = await client.setController(table, token, me, req);
      seats = seats.map((s) => (s.seat === me ? { ...s, kind: reply.kind, level: reply.level } : s));
      if (reply.kind === "human") void refreshLegal();
      void clock.refresh();
    } catch (error) {
      seatMessage = explain(error);
    }
    render();
  }

  // --- legal actions and acting ---------------------------------------------------------------
  // Asked at every seq, also when the seat waits: the reply says whether the server would
  // accept this seat's undo now (`undo`), the only source the undo button is offered from.
  async function refreshLegal() {
    const view = live.view;
    const me = mySeat();
    // Asked again at the same seq (the clock saw a handover, the socket resumed), the options
    // held stay on the page until the answer: blanking them made the panel flicker to
    // "Loading your options…" under a person's finger.
    const stillGood = legal !== null && legalSeq === live.seq;
    if (!stillGood) {
      legal = null;
      ui.canUndo = false;
    }
    if (!token || !view || view.result || me === null || botPlaysMe()) {
      legal = null;
      ui.canUndo = false;
      render();
      return;
    }
    const asked = ++legalAsked;
    render();
    try {
      const reply = await live.legalActions();
      if (asked !== legalAsked) return;
      if (reply.seq === live.seq) {
        legal = activeSeats(view).includes(me) ? reply.actions : null;
        legalSeq = reply.seq;
        // A bot to act answers within a fraction of a second: an undo clicked now would
        // arrive after its move and be refused, so it is not offered.
        const botNext = activeSeats(view).some((s) => s !== me && seats[s]?.kind === "bot");
        ui.canUndo = reply.undo === true && !botNext;
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

  /** @param {import("../sdk/roundhouse.js").Action} action */
  async function act(action) {
    if (ui.pending) return;
    ui.pending = true;
    // Until this action is accepted, no view may end the wait (the last action's seq would).
    awaitSeq = 0;
    ui.message = null;
    render();
    try {
      const accepted = await live.submit(action);
      awaitSeq = accepted.seq;
      if (live.seq >= awaitSeq) ui.pending = false;
      render();
    } catch (error) {
      ui.pending = false;
      ui.message = explain(error);
      legal = null; // refused: what was offered is asked for anew, not offered again meanwhile
      void refreshLegal();
    }
  }

  // --- live events ----------------------------------------------------------------------------
  const offs = [
    live.on("view", ({ seq, update, view }) => {
      saveHeld(table, token, seq, live.view);
      if (update && lastView && page?.logLine && !seenLog.some((e) => e.seq === seq)) {
        const text = page.logLine(lastView, live.view, { seat: update.seat, action: /** @type {any} */ (update.action), seq });
        if (text) {
          seenLog = mergeLines(seenLog, [{ seq, text, seat: update.seat, values: page.trackValues?.(live.view) ?? undefined }]).slice(-LOG_KEPT);
          saveSeenLog(table, token, seenLog);
        }
      }
      lastView = live.view;
      if (typeof view?.title === "string") void ensurePage(view.title);
      if (!update) void fillLog();  // a fresh welcome: moves may have been made unseen
      if (seq !== shownSeq) {
        shownSeq = seq;
        ui.picks = {};
        ui.amount = null;
        if (!ui.pending) ui.message = null;
      }
      if (ui.pending && seq >= awaitSeq && awaitSeq > 0) ui.pending = false;
      void refreshLegal();
      void clock.refresh();
    }),
    live.on("welcome", (welcome) => {
      document.body.dataset.resumed = String(welcome.resumed);
      void ensurePage(welcome.title);
      if (token && welcome.seat !== null) {
        const name = live.view?.players?.[welcome.seat]?.name ?? seats[welcome.seat]?.name ?? `seat ${welcome.seat}`;
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
      chat.refresh();
      void clock.refresh();
      void ensurePage(detail.title);
      void refreshLegal();
    },
    () => {
      // The live connection reports an unknown table itself; the seat kinds are a nicety.
    },
  );
  if (held?.view?.title) void ensurePage(held.view.title);

  return () => {
    for (const off of offs) off();
    history.off();
    chat.off();
    clock.off();
    window.removeEventListener("online", online);
    live.close();
  };
}
