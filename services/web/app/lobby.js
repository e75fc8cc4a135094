// @ts-check
// The lobby: create a table of any title the server plays (GET /api/titles: players, options,
// bot levels), hand out invite links, list tables not started yet, being played, and
// finished (with their results, the final position and a rematch).
import { RoundhouseClient, inviteUrl } from "../sdk/roundhouse.js";
import { ago, fill, h } from "./dom.js";
import { invitesPanel, rematch, rememberCreated } from "./invites.js";
import { clockForm } from "./clockform.js";
import { optionsForm } from "./options.js";
import { knownSeats } from "./storage.js";
import { loadTitles } from "./titles.js";

const REFRESH_MS = 5000;
const FINISHED_SHOWN = 10;

/**
 * @typedef {import("../sdk/roundhouse.js").TitleMeta} TitleMeta
 * @typedef {import("../sdk/roundhouse.js").TableSummary} TableSummary
 * @typedef {import("../sdk/roundhouse.js").TableDetail} TableDetail
 */

/**
 * @param {HTMLElement} root
 * @returns {() => void} teardown
 */
export function mountLobby(root) {
  const client = new RoundhouseClient();
  document.body.dataset.page = "lobby";
  document.title = "Roundhouse";
  /** @type {TitleMeta[]} */
  let titles = [];
  const titleName = (/** @type {string} */ id) => titles.find((t) => t.id === id)?.name ?? id;

  // --- create form ----------------------------------------------------------------------------
  const titleSelect = /** @type {HTMLSelectElement} */ (h("select", { id: "title", name: "title" }));
  const summary = h("p", { class: "muted title-summary", dataset: { testid: "title-summary" } });
  const countSelect = /** @type {HTMLSelectElement} */ (h("select", { id: "players", name: "players" }));
  const seatRows = h("ol", { class: "seat-rows" });
  const optionsBox = h("div", { class: "options-box" });
  const formError = h("p", { class: "refusal", role: "alert", hidden: true });
  const created = h("section", { class: "created", "aria-live": "polite", dataset: { testid: "created" } });
  /** @type {ReturnType<typeof optionsForm>} */
  let options = optionsForm([]);

  /** @type {{name: string, kind: string, level: string}[]} */
  const seatDrafts = [];
  const current = () => titles.find((x) => x.id === titleSelect.value) ?? titles[0];
  const levels = () => current()?.bot_levels ?? [];
  const clock = clockForm(levels);
  const draft = (/** @type {number} */ i) =>
    (seatDrafts[i] ??= { name: i === 0 ? "Player 1" : `Bot ${i + 1}`, kind: i === 0 ? "human" : "bot", level: levels()[0] ?? "random" });

  function drawTitle() {
    const t = current();
    if (!t) return;
    summary.textContent = t.summary ?? "";
    const keep = Number(countSelect.value) || Math.min(4, t.max_players);
    fill(countSelect, Array.from({ length: t.max_players - t.min_players + 1 }, (_, i) => {
      const n = t.min_players + i;
      return h("option", { value: n, selected: n === Math.max(t.min_players, Math.min(t.max_players, keep)) }, String(n));
    }));
    for (const d of seatDrafts) if (d && !levels().includes(d.level)) d.level = levels()[0] ?? d.level;
    options = optionsForm(t.options ?? []);
    fill(optionsBox, options.element);
    clock.redraw();
    drawSeats();
  }

  function drawSeats() {
    const n = Number(countSelect.value);
    fill(seatRows, Array.from({ length: n }, (_, i) => {
      const d = draft(i);
      const name = h("input", { type: "text", value: d.name, maxlength: 40, required: true, "aria-label": `Seat ${i + 1} name`,
        dataset: { testid: `seat-name-${i}` }, oninput: (/** @type {Event} */ e) => (d.name = /** @type {HTMLInputElement} */ (e.target).value) });
      const kind = h("select", { "aria-label": `Seat ${i + 1} kind`, dataset: { testid: `seat-kind-${i}` },
        onchange: (/** @type {Event} */ e) => {
          d.kind = /** @type {HTMLSelectElement} */ (e.target).value;
          // Default names follow the kind; a name the player typed stays.
          if (/^(Player|Bot) \d$/.test(d.name)) d.name = `${d.kind === "bot" ? "Bot" : "Player"} ${i + 1}`;
          drawSeats();
        } },
        h("option", { value: "human", selected: d.kind === "human" }, "Human"),
        h("option", { value: "bot", selected: d.kind === "bot" }, "Bot"));
      const level = d.kind === "bot"
        ? h("select", { class: "level", "aria-label": `Seat ${i + 1} bot level`, dataset: { testid: `seat-level-${i}` },
          onchange: (/** @type {Event} */ e) => (d.level = /** @type {HTMLSelectElement} */ (e.target).value) },
          levels().map((l) => h("option", { value: l, selected: d.level === l }, l)))
        : null;
      return h("li", { class: "seat-row" }, h("span", { class: "seat-no" }, `Seat ${i + 1}`), name, kind, level);
    }));
  }

  async function create(/** @type {Event} */ event) {
    event.preventDefault();
    formError.hidden = true;
    const n = Number(countSelect.value);
    const seats = Array.from({ length: n }, (_, i) => {
      const d = draft(i);
      return d.kind === "bot" ? { name: d.name.trim(), kind: "bot", level: d.level } : { name: d.name.trim(), kind: "human" };
    });
    const chosen = options.read();
    const timing = clock.read();
    if (chosen.error || timing.error) {
      formError.hidden = false;
      formError.textContent = chosen.error ?? timing.error ?? "";
      return;
    }
    try {
      const reply = await client.createTable({ title: titleSelect.value, seats: /** @type {any} */ (seats), options: chosen.options,
        ...(timing.clock ? { clock: timing.clock } : {}) });
      rememberCreated(reply);
      fill(created, invitesPanel(reply, "Table created"));
      void refresh();
    } catch (error) {
      formError.hidden = false;
      formError.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  // --- table lists ----------------------------------------------------------------------------
  const lists = {
    open: h("ul", { class: "tables", dataset: { testid: "open-tables" } }),
    running: h("ul", { class: "tables", dataset: { testid: "running-tables" } }),
    finished: h("ul", { class: "tables", dataset: { testid: "finished-tables" } }),
  };
  const listError = h("p", { class: "refusal", hidden: true });
  /** @type {Map<string, TableDetail>} finished tables never change: asked once */
  const finishedDetail = new Map();
  /** @type {Map<string, import("./dom.js").Child>} a rematch made from the finished list, by old table */
  const rematches = new Map();
  /** @type {TableSummary[]} */
  let finishedShown = [];

  async function refresh() {
    try {
      const [open, running, finished] = await Promise.all([
        client.listTables({ status: "open" }), client.listTables({ status: "running" }),
        client.listTables({ status: "finished", limit: FINISHED_SHOWN })]);
      await Promise.all(finished.tables.filter((t) => !finishedDetail.has(t.table)).map(async (t) => {
        finishedDetail.set(t.table, await client.getTable(t.table));
      }));
      listError.hidden = true;
      const mine = knownSeats();
      fill(lists.open, tableItems(open.tables, mine, "No table is waiting for its first move."));
      fill(lists.running, tableItems(running.tables, mine, "No game is being played."));
      finishedShown = finished.tables;
      drawFinished();
    } catch (error) {
      listError.hidden = false;
      listError.textContent = `Cannot list tables: ${error instanceof Error ? error.message : error}`;
    }
  }

  /**
   * @param {TableSummary[]} tables
   * @param {import("./storage.js").KnownSeat[]} mine
   * @param {string} empty
   */
  function tableItems(tables, mine, empty) {
    if (!tables.length) return h("li", { class: "muted" }, empty);
    return tables.map((t) => {
      const seatsHere = mine.filter((m) => m.table === t.table);
      return h("li", { class: "table-item", dataset: { table: t.table } },
        h("div", {},
          h("strong", {}, titleName(t.title)), " ",
          h("span", { class: "muted" }, `${t.table.slice(0, 6)} · ${t.last_seq} moves · ${ago(t.updated_ms)}`)),
        seatTags(t),
        h("div", { class: "links" },
          seatsHere.map((m) => h("a", { href: inviteUrl(location.origin, t.table, m.token), class: "button primary" }, `Play as ${m.name}`)),
          h("a", { href: inviteUrl(location.origin, t.table), class: "button" }, "Watch")));
    });
  }

  /** @param {TableSummary} t */
  function seatTags(t) {
    return h("div", { class: "seat-names" }, t.seats.map((seat) => h("span", { class: seat.kind === "bot" ? "tag bot" : "tag" },
      seat.kind === "bot" ? `${seat.name} (bot)` : seat.name)));
  }

  function drawFinished() {
    if (!finishedShown.length) {
      fill(lists.finished, h("li", { class: "muted" }, "No game has finished yet."));
      return;
    }
    const mine = knownSeats();
    fill(lists.finished, finishedShown.map((t) => {
      const detail = finishedDetail.get(t.table);
      const r = detail?.result;
      const name = (/** @type {number} */ seat) => t.seats[seat]?.name ?? `seat ${seat}`;
      const mySeat = mine.find((m) => m.table === t.table);
      const outcome = r
        ? h("p", { class: "outcome", dataset: { testid: "outcome" } },
          h("strong", { class: "winners" }, `${r.winners.map(name).join(" and ")} ${r.winners.length > 1 ? "win" : "wins"}`),
          " · scores: ",
          r.ranks.map((_, seat) => seat).sort((a, b) => r.ranks[a] - r.ranks[b]).map((seat) => `${name(seat)} ${r.scores[seat]}`).join(", "),
          r.reason ? h("span", { class: "muted" }, ` · ended by ${r.reason.replaceAll("_", " ")}`) : null)
        : h("p", { class: "muted" }, "result not known");
      return h("li", { class: "table-item", dataset: { table: t.table } },
        h("div", {}, h("strong", {}, titleName(t.title)), " ",
          h("span", { class: "muted" }, `${t.table.slice(0, 6)} · ${t.last_seq} moves · finished ${ago(t.updated_ms)}`)),
        seatTags(t),
        outcome,
        h("div", { class: "links" },
          h("a", { href: inviteUrl(location.origin, t.table, mySeat?.token ?? null), class: "button", dataset: { testid: "final-position" } }, "Final position"),
          h("button", { type: "button", dataset: { testid: "rematch" }, onclick: () => void makeRematch(t.table) }, "Rematch")),
        h("div", { class: "rematch-made", dataset: { testid: "rematch-made" } }, rematches.get(t.table) ?? null));
    }));
  }

  /** @param {string} table */
  async function makeRematch(table) {
    rematches.set(table, h("p", { class: "muted" }, "Creating the new table…"));
    drawFinished();
    try {
      const reply = await rematch(client, table);
      rematches.set(table, h("div", { class: "created" }, invitesPanel(reply, "Rematch created: same seats, new table")));
      void refresh();
    } catch (error) {
      rematches.set(table, h("p", { class: "refusal", role: "alert" }, `The rematch could not be created: ${error instanceof Error ? error.message : error}`));
    }
    drawFinished();
  }

  fill(root,
    h("div", { class: "lobby" },
      h("header", { class: "bar" }, h("h1", {}, "Roundhouse"), h("span", { class: "muted" }, "railway games for people and bots")),
      h("form", { class: "create card", onsubmit: create, "aria-labelledby": "create-title" },
        h("h2", { id: "create-title" }, "New table"),
        h("div", { class: "field" }, h("label", { for: "title" }, "Game"), titleSelect),
        summary,
        h("div", { class: "field" }, h("label", { for: "players" }, "Players"), countSelect),
        seatRows,
        optionsBox,
        clock.element,
        formError,
        h("button", { type: "submit", class: "primary", dataset: { testid: "create" } }, "Create table")),
      created,
      h("section", { class: "card" }, h("h2", {}, "Waiting for the first move"),
        h("p", { class: "muted explain" }, "Seats are given out with private links when a table is created, so these tables cannot be joined from here: you can watch them, or play a seat this browser holds."),
        lists.open),
      h("section", { class: "card" }, h("h2", {}, "Being played"),
        h("p", { class: "muted explain" }, "Watch any game live."),
        lists.running),
      h("section", { class: "card finished" }, h("h2", {}, "Finished"), lists.finished),
      listError));

  titleSelect.addEventListener("change", drawTitle);
  countSelect.addEventListener("change", drawSeats);
  loadTitles(client).then(
    (list) => {
      titles = list;
      fill(titleSelect, titles.map((t) => h("option", { value: t.id }, t.name)));
      drawTitle();
      document.body.dataset.titles = String(titles.length);
      void refresh();
    },
    (error) => {
      formError.hidden = false;
      formError.textContent = `Cannot load the games this server plays: ${error instanceof Error ? error.message : error}`;
    },
  );
  const timer = setInterval(refresh, REFRESH_MS);
  return () => clearInterval(timer);
}
