// @ts-check
// Entry point: the fragment picks the page. `#table=...&token=...` plays a seat,
// `#table=...` watches, anything else is the lobby. (Tokens live in the fragment, which
// browsers never send to a server.)
import { parseInvite } from "../sdk/roundhouse.js";
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";

const root = /** @type {HTMLElement} */ (document.getElementById("app"));
/** @type {() => void} */
let teardown = () => {};

function route() {
  teardown();
  const invite = parseInvite(location.hash);
  teardown = invite ? mountTable(root, invite) : mountLobby(root);
  window.scrollTo(0, 0);
}

window.addEventListener("hashchange", route);
route();
