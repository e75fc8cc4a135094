// @ts-check
// The lobby: create a table (seats human or bot), hand out invite links, list open and
// running tables.
import { RoundhouseClient, inviteUrl } from "../sdk/roundhouse.js";
import { ago, fill, h } from "./dom.js";
import { knownSeats, rememberSeat } from "./storage.js";

const TITLES = [{ id: "chicago-express", name: "Chicago Express", min: 2, max: 6 }];
const BOT_LEVELS = ["random", "heuristic", "mcts"];
const REFRESH_MS = 5000;

/**
 * @param {HTMLElement} root
 * @returns {() => void} teardown
 */
export function mountLobby(root) {
  const client = new RoundhouseClient();
  document.body.dataset.page = "lobby";
  document.title = "Roundhouse";

  // --- create form ----------------------------------------------------------------------------
  const titleSelect = /** @type {HTMLSelectElement} */ (
    h("select", { id: "title", name: "title" }, TITLES.map((t) => h("option", { value: t.id }, t.name)))
  );
  const countSelect = /** @type {HTMLSelectElement} */ (h("select", { id: "players", name: "players" }));
  const seatRows = h("ol", { class: "seat-rows" });
  const formError = h("p", { class: "refusal", role: "alert", hidden: true });
  const created = h("section", { class: "created", "aria-live": "polite", dataset: { testid: "created" } });

  /** @type {{name: string, kind: string, level: string}[]} */
  const seatDrafts = [];
  const draft = (/** @type {number} */ i) =>
    (seatDrafts[i] ??= { name: i === 0 ? "Player 1" : `Bot ${i + 1}`, kind: i === 0 ? "human" : "bot", level: "random" });

  function drawCounts() {
    const t = TITLES.find((x) => x.id === titleSelect.value) ?? TITLES[0];
    const keep = Number(countSelect.value) || Math.min(4, t.max);
    fill(countSelect, Array.from({ length: t.max - t.min + 1 }, (_, i) => {
      const n = t.min + i;
      return h("option", { value: n, selected: n === keep }, String(n));
    }));
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
          BOT_LEVELS.map((l) => h("option", { value: l, selected: d.level === l }, l)))
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
    try {
      const reply = await client.createTable({ title: titleSelect.value, seats: /** @type {any} */ (seats) });
      for (const seat of reply.seats) {
        if (seat.token) rememberSeat({ table: reply.table, seat: seat.seat, name: seat.name, token: seat.token });
      }
      showCreated(reply);
      void refresh();
    } catch (error) {
      formError.hidden = false;
      formError.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  /** @param {import("../sdk/roundhouse.js").TableCreated} reply */
  function showCreated(reply) {
    const spectate = inviteUrl(location.origin, reply.table);
    fill(created,
      h("h2", {}, "Table created"),
      h("p", {}, "Send each player their own link: it lets its holder play that seat, so keep it private."),
      h("ul", { class: "invites" },
        reply.seats.map((seat) => h("li", { dataset: { seat: seat.seat } },
          h("strong", {}, seat.name), " ",
          seat.kind === "bot"
            ? h("span", { class: "tag bot" }, `bot · ${seat.level}`)
            : [
              h("a", { href: seat.invite_url ?? "#", class: "button primary", dataset: { testid: `play-${seat.seat}` } }, "Play this seat"),
              " ",
              copyButton(seat.invite_url ?? ""),
              h("input", { type: "text", readonly: true, value: seat.invite_url ?? "", class: "invite-url", "aria-label": `Invite link for ${seat.name}` }),
            ]))),
      h("p", {}, h("a", { href: spectate, dataset: { testid: "spectate" } }, "Watch as a spectator"), " ", copyButton(spectate)));
  }

  /** @param {string} text */
  function copyButton(text) {
    return h("button", { type: "button", class: "copy", onclick: async (/** @type {Event} */ e) => {
      const btn = /** @type {HTMLButtonElement} */ (e.target);
      try {
        await navigator.clipboard.writeText(text);
        btn.textContent = "Copied";
      } catch {
        btn.textContent = "Select the link and copy it";
      }
    } }, "Copy link");
  }

  // --- table list -----------------------------------------------------------------------------
  const lists = { open: h("ul", { class: "tables", dataset: { testid: "open-tables" } }), running: h("ul", { class: "tables", dataset: { testid: "running-tables" } }) };
  const listError = h("p", { class: "refusal", hidden: true });

  async function refresh() {
    try {
      const [open, running] = await Promise.all([client.listTables({ status: "open" }), client.listTables({ status: "running" })]);
      listError.hidden = true;
      const mine = knownSeats();
      fill(lists.open, tableItems(open.tables, mine, "No open tables."));
      fill(lists.running, tableItems(running.tables, mine, "No running tables."));
    } catch (error) {
      listError.hidden = false;
      listError.textContent = `Cannot list tables: ${error instanceof Error ? error.message : error}`;
    }
  }

  /**
   * @param {import("../sdk/roundhouse.js").TableSummary[]} tables
   * @param {import("./storage.js").KnownSeat[]} mine
   * @param {string} empty
   */
  function tableItems(tables, mine, empty) {
    if (!tables.length) return h("li", { class: "muted" }, empty);
    return tables.map((t) => {
      const seatsHere = mine.filter((m) => m.table === t.table);
      const title = TITLES.find((x) => x.id === t.title)?.name ?? t.title;
      return h("li", { class: "table-item", dataset: { table: t.table } },
        h("div", {},
          h("strong", {}, title), " ",
          h("span", { class: "muted" }, `${t.table.slice(0, 6)} · ${t.last_seq} moves · ${ago(t.updated_ms)}`)),
        h("div", { class: "seat-names" }, t.seats.map((seat) => h("span", { class: seat.kind === "bot" ? "tag bot" : "tag" },
          seat.kind === "bot" ? `${seat.name} (bot)` : seat.name))),
        h("div", { class: "links" },
          seatsHere.map((m) => h("a", { href: inviteUrl(location.origin, t.table, m.token), class: "button primary" }, `Play as ${m.name}`)),
          h("a", { href: inviteUrl(location.origin, t.table), class: "button" }, "Watch")));
    });
  }

  fill(root,
    h("div", { class: "lobby" },
      h("header", { class: "bar" }, h("h1", {}, "Roundhouse"), h("span", { class: "muted" }, "railway games for people and bots")),
      h("form", { class: "create card", onsubmit: create, "aria-labelledby": "create-title" },
        h("h2", { id: "create-title" }, "New table"),
        h("div", { class: "field" }, h("label", { for: "title" }, "Game"), titleSelect),
        h("div", { class: "field" }, h("label", { for: "players" }, "Players"), countSelect),
        seatRows,
        formError,
        h("button", { type: "submit", class: "primary", dataset: { testid: "create" } }, "Create table")),
      created,
      h("section", { class: "card" }, h("h2", {}, "Open tables"), lists.open),
      h("section", { class: "card" }, h("h2", {}, "Running tables"), lists.running),
      listError));

  titleSelect.addEventListener("change", drawCounts);
  countSelect.addEventListener("change", drawSeats);
  drawCounts();
  void refresh();
  const timer = setInterval(refresh, REFRESH_MS);
  return () => clearInterval(timer);
}
