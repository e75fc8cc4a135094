// @ts-check
// "Tell me elsewhere": a seat's turn notices outside the page (docs/notifications.md): after
// how many minutes of not acting, a webhook (Roundhouse JSON, Discord or Slack) and an e-mail
// (where the server sends e-mail). Saved on the server for this seat, so they work with every
// tab closed; the reply's signing key is shown for a receiver that checks signatures.
import { button } from "./controls.js";
import { h } from "./dom.js";

/**
 * @param {import("../sdk/roundhouse.js").RoundhouseClient} client
 * @param {{table: string, token: string, seat: () => number | null}} ctx
 */
export function mountNotifyForm(client, ctx) {
  const el = h("details", { class: "notify-form card", dataset: { testid: "notify-form" } });
  const minutes = /** @type {HTMLInputElement} */ (h("input", { type: "number", min: 0, step: 1, value: "5", "aria-label": "Minutes", dataset: { testid: "notify-minutes" } }));
  const url = /** @type {HTMLInputElement} */ (h("input", { type: "url", placeholder: "https://… webhook", "aria-label": "Webhook URL", dataset: { testid: "notify-url" } }));
  const format = /** @type {HTMLSelectElement} */ (h("select", { "aria-label": "Webhook format", dataset: { testid: "notify-format" } },
    h("option", { value: "json" }, "JSON"), h("option", { value: "discord" }, "Discord"), h("option", { value: "slack" }, "Slack")));
  const email = /** @type {HTMLInputElement} */ (h("input", { type: "email", placeholder: "you@example.org", "aria-label": "E-mail address", dataset: { testid: "notify-email" } }));
  const status = h("p", { class: "muted", role: "status", dataset: { testid: "notify-status" } });
  // The controls are made once and only updated: a reply that redrew them while a click was
  // half done (pressed on the old button, released on the new) would lose the click.
  const summary = h("summary", {});
  const stopButton = button("Stop", "notify-stop", () => void stop(), { testid: "notify-stop" });
  const emailField = h("label", { class: "field" }, "E-mail ", email);
  const noEmail = h("p", { class: "muted" }, "This server sends no e-mail.");
  const key = h("code", {});
  const keyLine = h("p", { class: "muted small" }, "Signed with key ", key);
  el.append(summary,
    h("label", { class: "field" }, "After ", minutes, " minutes of not acting"),
    h("label", { class: "field" }, "Webhook ", url, format),
    emailField, noEmail,
    h("div", { class: "choices" }, button("Save", "notify-save", () => void save(), { testid: "notify-save" }), stopButton),
    status, keyLine);
  let loaded = false;
  let edited = false;
  let saves = 0;
  el.addEventListener("input", () => { edited = true; });
  /** @type {import("../sdk/roundhouse.js").NotifyReply | null} */
  let reply = null;

  function draw() {
    summary.textContent = reply?.settings ? "Notices elsewhere: on" : "Tell me elsewhere when it is my turn";
    const sendsEmail = !reply || reply.email_available;
    emailField.hidden = !sendsEmail;
    noEmail.hidden = sendsEmail;
    stopButton.hidden = !reply?.settings;
    keyLine.hidden = !reply?.settings?.webhook;
    key.textContent = reply?.signing_key ?? "";
    el.dataset.loaded = String(reply !== null);
  }

  /** @param {import("../sdk/roundhouse.js").NotifyReply} got */
  function show(got) {
    reply = got;
    const s = got.settings;
    // What the person is typing stays: a late first reply must not overwrite it.
    if (s && !edited) {
      minutes.value = String(Math.round((s.delay_s ?? 60) / 60));
      url.value = s.webhook?.url ?? "";
      format.value = s.webhook?.format ?? "json";
      email.value = s.email ?? "";
    }
    draw();
  }

  async function load() {
    const seat = ctx.seat();
    if (loaded || seat === null) return;
    loaded = true;
    const asked = saves;
    try {
      const got = await client.getNotify(ctx.table, ctx.token, seat);
      if (asked === saves) show(got);  // a save's reply since is newer than this one
    } catch (error) {
      loaded = false;
      status.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  async function save() {
    const seat = ctx.seat();
    if (seat === null) return;
    const delay = Number(minutes.value);
    if (!(delay >= 0)) {
      status.textContent = "Give the minutes as a number.";
      return;
    }
    const settings = { delay_s: Math.round(delay * 60), webhook: url.value.trim() ? { url: url.value.trim(), format: /** @type {"json" | "discord" | "slack"} */ (format.value) } : null,
      email: email.value.trim() || null };
    await put(seat, settings, "Saved.");
  }

  async function stop() {
    const seat = ctx.seat();
    if (seat !== null) await put(seat, null, "Stopped.");
  }

  /**
   * @param {number} seat
   * @param {import("../sdk/roundhouse.js").NotifySettings | null} settings  null: stop
   * @param {string} done  what the status line says once the server took it
   */
  async function put(seat, settings, done) {
    saves += 1;
    try {
      const got = await client.setNotify(ctx.table, ctx.token, seat, settings);
      edited = false;
      show(got);
      status.textContent = done;
    } catch (error) {
      status.textContent = error instanceof Error ? error.message : String(error);
    }
  }

  el.addEventListener("toggle", () => void load());
  draw();
  return { el };
}
