// @ts-check
// Telling a player it is their turn while they look elsewhere: when the seat becomes one
// that must act and the tab is hidden, a short chime and (if the player allowed it) a
// browser notification; clicking it brings the tab back. The tab title says it too
// (table.js). Nothing is sent while the player is looking at the page.
import { button } from "./controls.js";
import { fill, h } from "./dom.js";

const CHIME_HZ = [660, 880];

function chime() {
  try {
    const Ctx = window.AudioContext ?? /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return;
    const audio = new Ctx();
    CHIME_HZ.forEach((hz, i) => {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.15, audio.currentTime + i * 0.18);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + i * 0.18 + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(audio.currentTime + i * 0.18);
      osc.stop(audio.currentTime + i * 0.18 + 0.17);
    });
    setTimeout(() => void audio.close(), 800);
  } catch {
    // No sound available (autoplay rules, no audio device): the notification still goes.
  }
}

/**
 * @param {{title: () => string}} ctx  what the notification says the game is
 * @returns {{el: HTMLElement, turn: (mine: boolean, seq: number) => void}}
 */
export function mountTurnNotices(ctx) {
  const el = h("div", { class: "notify", dataset: { testid: "notify" } });
  let wasMine = false;
  let notifiedSeq = -1;

  function draw() {
    const supported = typeof Notification !== "undefined";
    const state = supported ? Notification.permission : "unsupported";
    fill(el, state === "default"
      ? button("Notify me when it is my turn", "notify-allow", () => {
        void Notification.requestPermission().then(draw, draw);
      }, { testid: "notify-allow" })
      : h("span", { class: "muted" }, state === "granted" ? "Turn notices on (when this tab is hidden)"
        : state === "denied" ? "Notifications blocked in this browser" : ""));
  }

  /**
   * @param {boolean} mine  this seat must act now
   * @param {number} seq
   */
  function turn(mine, seq) {
    const became = mine && !wasMine;
    wasMine = mine;
    if (!became || !document.hidden || seq === notifiedSeq) return;
    notifiedSeq = seq;
    chime();
    document.body.dataset.notifiedSeq = String(seq);
    if (typeof Notification !== "undefined" && Notification.permission === "granted") {
      const note = new Notification(`Your turn — ${ctx.title()}`, { body: "It is your move at the table.", tag: `roundhouse-turn-${location.hash}` });
      note.onclick = () => {
        window.focus();
        note.close();
      };
    }
  }

  draw();
  return { el, turn };
}
