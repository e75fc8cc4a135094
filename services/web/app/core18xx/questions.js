// @ts-check
// The decisions an 18xx title asks outside its usual steps, in words: a concession auction
// (1841), a corporation's founding (home stations, stations bought), and the questions its
// train events and mergers put (1841's secession, Tuscan merge, mergers and transformations:
// the view's `position.event`). Each choice says what it sends.

/**
 * @typedef {import("./actions.js").Names} Names
 */

/**
 * A `choose` answer in words, from what the view says is being asked.
 * @param {any} view
 * @param {unknown} choice
 * @param {Names} n
 */
export function chooseWords(view, choice, n) {
  const pos = view.position ?? {};
  const c = String(choice);
  if (pos.founding?.kind === "tokens") {
    const count = Number(choice);
    const price = pos.founding.token_price;
    return `Buy ${count} station${count === 1 ? "" : "s"} for ${pos.founding.company}${price ? ` (${n.money(price)} each, ${n.money(price * count)})` : ""}`;
  }
  const ev = pos.event;
  if (!ev) return `Choose ${c}`;
  const subject = subjectOf(ev.text);
  switch (ev.topic) {
    case "price": {
      const prices = /\((\d+) or (\d+)\)/.exec(ev.text);
      const price = prices ? Number(prices[c === "first" ? 1 : 2]) : null;
      return price === null ? `Price: ${c}` : `Start ${ev.target ?? "the new corporation"} at ${n.money(price)} a share`;
    }
    case "pick_exchange_pres":
    case "pick_exchange_corp": {
      const corp = ev.labels?.[c] ?? c;
      return ev.topic === "pick_exchange_pres" ? `Take the president's certificate of ${n.company(corp)}` : `Exchange for a share of ${n.company(corp)}`;
    }
    case "share_offer": {
      const price = /for (\d+)$/.exec(ev.text);
      return c === "yes" ? `Buy a share of ${subject}${price ? ` for ${n.money(Number(price[1]))}` : ""}` : `Decline the share of ${subject}`;
    }
    case "offer_again": return c === "y" ? `Offer ${subject}'s treasury shares again` : `No more offers of ${subject}'s shares`;
    case "tokens": {
      const cost = /at (\d+) each/.exec(ev.text);
      return `Buy ${c} more station${c === "1" ? "" : "s"}${cost && Number(c) ? ` (${n.money(Number(cost[1]) * Number(c))})` : ""}`;
    }
    case "upgrade":
      return ({ pres: "Pay to upgrade to the president's certificate", no: "Exchange without an upgrade",
        cash: "Take cash for the odd share", full: "Pay to make the odd share a full share" })[c] ?? `Choose ${c}`;
    default: return `Choose ${c}`;
  }
}

/**
 * The corporation a question is about ("... a share of SFL for 80" -> "SFL").
 * @param {string} text
 */
function subjectOf(text) {
  const m = /(?:of|for) ([A-Z][A-Za-z]{1,5})(?: for \d+|\?|$)/.exec(text);
  return m ? m[1] : "the corporation";
}

/**
 * The question an event asks, as the prompt says it, and what the event has done so far.
 * @param {any} ev   view.position.event
 * @param {Names} n
 */
export function eventLines(ev, n) {
  const lines = [`${n.company(ev.entity)} is asked: ${sentence(ev.text)}`];
  if (ev.log?.length) lines.push(`So far: ${ev.log.slice(-4).map(sentence).join(" ")}`);
  return lines;
}

/**
 * The engine's lines read as sentences: "-- Tuscan Merge: ... --" -> "Tuscan Merge: ...".
 * @param {string} text
 */
function sentence(text) {
  const t = String(text).replace(/^-+\s*|\s*-+$/g, "").replace(/\s+/g, " ").trim();
  const cap = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.?!]$/.test(cap) ? cap : `${cap}.`;
}

/**
 * Where a concession auction stands.
 * @param {any} auction   view.position.concession_auction
 * @param {Names} n
 */
export function auctionLines(auction, n) {
  const lines = [];
  if (auction.auctioning) {
    const bids = (auction.bids ?? []).map((/** @type {any} */ b) => `${n.player(b.player)} ${n.money(b.price)}`).join(", ");
    lines.push(`Auction of the ${auction.auctioning} concession${bids ? `: ${bids}` : ""}.`);
  } else {
    lines.push(`Concession auction: ${auction.unsold.length ? `${auction.unsold.join(", ")} still for sale` : "all sold"}.`);
  }
  if (auction.sold?.length) lines.push(`Sold: ${auction.sold.map((/** @type {any} */ s) => `${s.concession} to ${n.player(s.player)} for ${n.money(s.price)}`).join(", ")}.`);
  if (auction.kind === "blind" && auction.sealed?.length) lines.push(`Sealed bids placed by ${auction.sealed.map(n.player).join(", ")}.`);
  return lines;
}

/**
 * The concession whose only bid is the bidder's own, when he is asked again: 18xx.games asks a
 * nominator no one else can afford to outbid to raise his own bid or pass (which withdraws the
 * bid and leaves the concession unsold). Null in any other auction.
 * @param {any} auction   view.position.concession_auction
 * @returns {string | null}
 */
export function loneBid(auction) {
  return auction?.kind !== "blind" && auction?.auctioning && (auction.bids ?? []).length === 1 ? auction.auctioning : null;
}

/**
 * Why a lone bidder is asked again and what each answer does, for the prompt.
 * @param {string} concession
 * @param {boolean} canRaise   a higher bid is offered (he has the cash for one)
 */
export function loneBidLine(concession, canRaise) {
  return canRaise
    ? `No one else can afford to bid on ${concession}: bid again to raise your own bid, or pass to withdraw it and leave ${concession} unsold.`
    : `No one else can afford to bid on ${concession}, and all your cash is bid: pass to withdraw your bid and leave ${concession} unsold.`;
}

/**
 * The founding step a new corporation is in, in words.
 * @param {any} founding   view.position.founding
 */
export function foundingLine(founding) {
  return ({ home: `${founding.company} places its home station.`, home2: `${founding.company} may place a second home station.`,
    tokens: `${founding.company} buys its stations.` })[String(founding.kind)] ?? `${founding.company} is being founded.`;
}
