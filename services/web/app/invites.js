// @ts-check
// What a newly created table hands out (lobby, rematch): one private link per human seat,
// a spectator link, copy buttons.
import { inviteUrl } from "../sdk/roundhouse.js";
import { h } from "./dom.js";
import { rememberSeat } from "./storage.js";

/**
 * Keep the seat tokens of a table this browser created (for the lobby's "Play as").
 * @param {import("../sdk/roundhouse.js").TableCreated} reply
 */
export function rememberCreated(reply) {
  for (const seat of reply.seats) {
    if (seat.token) rememberSeat({ table: reply.table, seat: seat.seat, name: seat.name, token: seat.token });
  }
}

/** @param {string} text */
export function copyButton(text) {
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

/**
 * @param {import("../sdk/roundhouse.js").TableCreated} reply
 * @param {string} heading
 */
export function invitesPanel(reply, heading) {
  const spectate = inviteUrl(location.origin, reply.table);
  return [
    h("h2", {}, heading),
    h("p", {}, "Send each player their own link: it lets its holder play that seat, so keep it private."),
    h("ul", { class: "invites", dataset: { table: reply.table } },
      reply.seats.map((seat) => {
        // Without a configured public URL the server gives a relative link: the page's origin
        // is where the player came, so the link to send is made absolute against it.
        const link = seat.invite_url ? new URL(seat.invite_url, location.origin).href : "";
        return h("li", { dataset: { seat: seat.seat } },
          h("strong", {}, seat.name), " ",
          seat.kind === "bot"
            ? h("span", { class: "tag bot" }, `bot · ${seat.level}`)
            : [
              h("a", { href: link || "#", class: "button primary", dataset: { testid: `play-${seat.seat}` } }, "Play this seat"),
              " ",
              copyButton(link),
              h("input", { type: "text", readonly: true, value: link, class: "invite-url", "aria-label": `Invite link for ${seat.name}` }),
            ]);
      })),
    h("p", {}, h("a", { href: spectate, dataset: { testid: "spectate" } }, "Watch as a spectator"), " ", copyButton(spectate)),
  ];
}

/**
 * A new table with the same title, options and seats (names, people and bots) as `table`.
 * @param {import("../sdk/roundhouse.js").RoundhouseClient} client
 * @param {string} table
 */
export async function rematch(client, table) {
  const old = await client.getTable(table);
  const seats = old.seats.map((s) => (s.kind === "bot" ? { name: s.name, kind: s.kind, ...(s.level ? { level: s.level } : {}) } : { name: s.name, kind: s.kind }));
  const reply = await client.createTable({ title: old.title, options: old.options, seats: /** @type {any} */ (seats) });
  rememberCreated(reply);
  return reply;
}
