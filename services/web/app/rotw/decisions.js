// @ts-check
// The advanced share game's decision at hand, built only from the seat's legal families
// (advanced/engine.py legal_actions): choosing a share to auction and the opening bid,
// bidding, a company's turn (building and delivering on the map, as the standard game's
// panel does it), repaying bonds, the dividend with what each amount does to the price,
// proposing a merger and the secret vote. Any other kind gets the generic family control.
import { nextChoice } from "../../sdk/roundhouse.js";
import { amountControl, button } from "../controls.js";
import { h } from "../dom.js";
import { familyControl } from "../legalform.js";
import { hexLedFamilies, hexPanel } from "./actions.js";
import { chip, companyInTurn, companyOf, kilo, nameOf, situation } from "./companies.js";
import { perShare, priceAfter, priceMove, thresholds } from "./dividend.js";
import { companyColor, dollars } from "./names.js";

/**
 * @typedef {import("../pageapi.js").PageContext} PageContext
 * @typedef {import("../../sdk/roundhouse.js").LegalAction} LegalAction
 * @typedef {import("../../sdk/roundhouse.js").Choice} Choice
 * @typedef {import("../../sdk/roundhouse.js").AmountRange} AmountRange
 */

/** @param {any} node @returns {Choice | null} */
const asChoice = (node) => (node && "values" in node ? node : null);

/**
 * @param {any} view
 * @param {PageContext} ctx
 */
export function advancedPanel(view, ctx) {
  const { mySeat, legal, ui, on } = ctx;
  if (view.result) return [h("p", {}, "The game is over.")];
  if (mySeat === null) return [h("p", {}, `Watching as a spectator: ${situation(view)}.`)];
  if (!(view.to_act ?? []).includes(mySeat)) return waiting(view, mySeat);
  if (legal === null) return [h("p", { class: "muted" }, "Loading your options…")];
  /** @type {import("../dom.js").Child[]} */
  const out = [];
  /** @type {HTMLElement[]} */
  const buttons = [];
  const hexLed = hexLedFamilies(legal);
  out.push(h("p", { class: "prompt" }, prompt(view, mySeat)));
  const why = missing(view, legal);
  if (why.length) out.push(h("p", { class: "muted why-missing", dataset: { testid: "why-missing" } }, `Not possible now: ${why.join(" ")}`));
  if (hexLed.length) out.push(...hexPanel(view, ctx, hexLed, /** @type {string | undefined} */ (ui.picks.at)));
  legal.forEach((entry, i) => {
    if (hexLed.includes(entry)) return;
    const type = entry.action.type;
    if (type === "start_auction") out.push(...chooseShare(view, entry, ctx));
    else if (type === "bid" && entry.range) out.push(amountControl(amount(entry.range, ctx, "bid", (a) => `Bid ${dollars(a)}`, (a) => on.act({ type: "bid", amount: a }))));
    else if (type === "pay_dividend" && entry.range) out.push(...dividend(view, entry.range, ctx));
    else if (type === "repay_bonds" && entry.range) out.push(repay(view, entry.range, ctx));
    else if (type === "propose_merger") buttons.push(...proposals(view, entry, ctx));
    else if (type === "vote") {
      buttons.push(button("Vote yes", "vote", () => on.act({ type: "vote", yes: true }), { primary: true, disabled: ui.pending, testid: "vote-yes" }),
        button("Vote no", "vote", () => on.act({ type: "vote", yes: false }), { disabled: ui.pending, testid: "vote-no" }));
    } else if (type === "pass") buttons.push(button(passWords(view), "pass", () => on.act({ type: "pass" }), { disabled: ui.pending }));
    else if (type === "end_build") buttons.push(endBuild(view, ctx));
    else out.push(familyControl(entry, `family-${i}-${type}`, ui, on));
  });
  if (buttons.length) out.push(h("div", { class: "choices" }, buttons));
  return out;
}

/**
 * A company turn's actions the company cannot take, each with the rule that rules it out.
 * @param {any} view @param {LegalAction[]} legal
 */
function missing(view, legal) {
  if (view.phase !== "company_turn") return [];
  const c = companyInTurn(view);
  const has = new Set(legal.map((e) => e.action.type));
  const out = [];
  if (!has.has("deliver")) {
    out.push(c.links ? `Deliver — no goods cube can reach a city of its colour on a route that starts on one of the ${c.name}'s links and uses at least as many of its links as of others'.`
      : `Deliver — the ${c.name} has no completed link yet (a delivery's first link must be its own).`);
  }
  if (!has.has("lay_track")) out.push(`Build — the ${c.name} cannot raise the money to complete a link from any city it may start from.`);
  return out;
}

/** @param {any} view @param {number} mySeat */
function waiting(view, mySeat) {
  const m = view.merger;
  const who = (view.to_act ?? []).map((/** @type {number} */ s) => nameOf(view, s)).join(", ");
  const out = [h("p", {}, `Waiting for ${who || "the other players"}: ${situation(view)}.`)];
  if (view.phase === "merger_vote" && m?.my_vote !== null && m?.my_vote !== undefined) {
    out.push(h("p", { dataset: { testid: "my-vote" } }, `You voted ${m.my_vote ? "yes" : "no"}; the votes are shown when everyone has voted.`));
  }
  if (view.auction && view.auction.high_bidder === mySeat) out.push(h("p", {}, `You hold the high bid, ${dollars(view.auction.high_bid)}.`));
  return out;
}

/** @param {any} view @param {number} mySeat */
function prompt(view, mySeat) {
  const me = view.players[mySeat];
  const c = companyInTurn(view);
  const au = view.auction;
  switch (view.phase) {
    case "opening_auction":
    case "share_auction":
      if (au) {
        const co = companyOf(view, au.company);
        return [`Auction of a `, chip(co), ` share (${au.source} box): ${nameOf(view, au.high_bidder)} bids ${dollars(au.high_bid)}. Raise, or drop out of this auction. You have ${dollars(me.cash)}.`];
      }
      return `Choose a share to put up for auction (your opening bid is at least its price), or pass: a pass leaves you out of every auction for the rest of this ${view.phase === "opening_auction" ? "set-up" : "phase"}. You have ${dollars(me.cash)}.`;
    case "company_turn":
      return [chip(c), ` turn ${view.company_turn} of 3: build one or two links (click a highlighted hex), deliver one goods cube (pick its city), or pass. Company cash ${dollars(c.cash)}; if short it issues shares at ${kilo(c.price)}, then takes bonds.`];
    case "company_build": {
      const b = view.build ?? {};
      return [chip(c), ` building: ${b.links} link${b.links === 1 ? "" : "s"} done, ${b.tiles} tile${b.tiles === 1 ? "" : "s"}, ${dollars(b.spent)} spent. Company cash ${dollars(c.cash)}. `,
        b.open_link >= 0 ? [finishWords(b, c), " ", h("span", { dataset: { testid: "take-back-words" } }, takeBackWords(b))]
          : b.links ? "You may build a second link (+$2,000 a hex) or stop. Each tile shows its cost, and the shares it issues, before you build it."
          : "Tap a highlighted hex. Each tile shows its cost, and the shares it issues, before you build it."];
    }
    case "dividend":
      return view.dividend_step === "repay"
        ? [chip(c), ` has ${c.bonds} bond${c.bonds === 1 ? "" : "s"} (each $1,000 interest a round, −$1,000 on every share's worth at the end) and ${dollars(c.cash)}: repay some at $5,000 each?`]
        : [chip(c), ` pays a dividend: from $0 up to its cash (${dollars(c.cash)}) and at most 3 × its price, shared out over its ${c.outstanding} outstanding share${c.outstanding === 1 ? "" : "s"} in whole $1,000s. The amount moves the share price (${kilo(c.price)} now):`];
    case "merger":
      return [chip(c), ` may propose one merger with a company its links meet: it buys every outstanding share of the other at its price + $1,000 (it has ${dollars(c.cash)}; if short it issues shares, then takes bonds) and takes over its links, cash and bonds. Both companies' shareholders vote.`];
    case "merger_vote": {
      // What is voted on, in the panel itself: the round's box above the map may be out of sight.
      const m = view.merger;
      const acq = companyOf(view, m.acquirer);
      const tgt = companyOf(view, m.target);
      const voting = m.stage === "acquirer" ? acq : tgt;
      const votes = voting.held[mySeat] ?? 0;
      return ["Merger vote: ", chip(acq), " proposes to take over ", chip(tgt), ` (buying its ${tgt.outstanding} outstanding share${tgt.outstanding === 1 ? "" : "s"} at ${dollars((tgt.price + 1) * 1000)} each, and its links, cash and bonds). `,
        `As a ${voting.name} shareholder you cast ${votes} vote${votes === 1 ? "" : "s"}, one per share. It stays secret until everyone has voted; a tie goes the controller's way.`];
    }
    default:
      return situation(view);
  }
}

/**
 * The open link: what finishing it costs at least, and what that raises (the view's
 * finish_cost, finish_shares, finish_bonds from the rules).
 * @param {any} b @param {any} c
 */
function finishWords(b, c) {
  if (b.finish_cost == null) return "This link can no longer reach a city: take it back.";
  const raise = [b.finish_shares ? `issue ${b.finish_shares} share${b.finish_shares > 1 ? "s" : ""} at ${dollars(c.price * 1000)}` : "",
    b.finish_bonds ? `take ${b.finish_bonds} bond${b.finish_bonds > 1 ? "s" : ""}` : ""].filter(Boolean).join(" and ");
  return `Finish this link to a city: at least ${dollars(b.finish_cost)} more${raise ? `, so the ${c.name} must ${raise}` : ", paid from its cash"}.`;
}

/** What taking the open link back returns. @param {any} b */
function takeBackWords(b) {
  const back = [b.open_shares ? `the ${b.open_shares} share${b.open_shares > 1 ? "s" : ""} it issued` : "",
    b.open_bonds ? `the ${b.open_bonds} bond${b.open_bonds > 1 ? "s" : ""} it took` : ""].filter(Boolean).join(" and ");
  return `Or take it back: its tiles come off the map and ${dollars(b.open_spent)} is refunded${back ? `, returning ${back}` : ""}.`;
}

/** "Done building", or, with a link open, taking that link back. @param {any} view @param {PageContext} ctx */
function endBuild(view, ctx) {
  const b = view.build ?? {};
  const act = () => ctx.on.act({ type: "end_build" });
  if (b.open_link >= 0) {
    return button(`Take back this link (${dollars(b.open_spent)} refunded${b.open_shares ? `, ${b.open_shares} share${b.open_shares > 1 ? "s" : ""} returned` : ""})`,
      "end_build", act, { disabled: ctx.ui.pending, testid: "take-back-link" });
  }
  return button(`Done building (${b.links ?? 0} link${b.links === 1 ? "" : "s"} built)`, "end_build", act, { disabled: ctx.ui.pending });
}

/** @param {any} view */
function passWords(view) {
  if (view.auction) return "Drop out of this auction";
  if (view.phase === "opening_auction" || view.phase === "share_auction") return "Pass (no more auctions for me this phase)";
  if (view.phase === "merger") return "Propose no merger";
  const c = companyInTurn(view);
  return `Pass (the ${c?.name ?? "company"} does nothing this turn)`;
}

/**
 * @param {AmountRange} range @param {PageContext} ctx @param {string} act
 * @param {(a: number) => string} label @param {(a: number) => void} submit
 */
function amount(range, ctx, act, label, submit) {
  const { ui, on } = ctx;
  return {
    range, value: ui.amount, act, pending: ui.pending, label, submit,
    format: dollars,
    remember: (/** @type {number} */ a) => (ui.amount = a),
    step: (/** @type {number} */ a) => on.update({ amount: a }),
  };
}

/**
 * One button per share on offer (company and box); the picked one gets the opening bid.
 * @param {any} view @param {LegalAction} entry @param {PageContext} ctx
 */
function chooseShare(view, entry, ctx) {
  const { ui, on } = ctx;
  const root = asChoice(entry.choices);
  if (!root) return [];
  const picked = ui.picks.share;
  const offers = root.values.flatMap((id, i) => {
    const sources = asChoice(nextChoice(root, i));
    return (sources?.values ?? []).map((src, j) => ({ id: String(id), source: String(src), range: /** @type {AmountRange} */ (nextChoice(/** @type {Choice} */ (sources), j)) }));
  });
  const rows = offers.map((o) => {
    const c = companyOf(view, o.id);
    const chosenHere = picked && picked.id === o.id && picked.source === o.source;
    return button(`${c.name} · ${o.source === "available" ? "available box (to the company)" : "issued box (to the bank)"} · from ${dollars(o.range.min)}`, "pick-share",
      () => on.update({ picks: { ...ui.picks, share: { id: o.id, source: o.source } }, amount: null }),
      { company: o.id, disabled: ui.pending, primary: !!chosenHere, style: { "border-left": `8px solid ${companyColor(o.id)}` } });
  });
  const out = [h("div", { class: "choices", dataset: { testid: "shares-on-offer" } }, rows)];
  const chosen = picked && offers.find((o) => o.id === picked.id && o.source === picked.source);
  if (chosen) {
    const c = companyOf(view, chosen.id);
    out.push(amountControl(amount(chosen.range, ctx, "start_auction", (a) => `Auction a ${c.name} share, opening at ${dollars(a)}`,
      (a) => on.act({ type: "start_auction", company: chosen.id, source: chosen.source, amount: a }))));
  } else if (offers.length) {
    out.push(h("p", { class: "muted" }, "Pick a share above to set your opening bid."));
  }
  return out;
}

/**
 * The dividend: a button per row of the seed's table (what the price does), and any amount.
 * @param {any} view @param {AmountRange} range @param {PageContext} ctx
 */
function dividend(view, range, ctx) {
  const { ui, on, mySeat } = ctx;
  const c = companyInTurn(view);
  const mine = c.held[mySeat ?? -1] ?? 0;
  const words = (/** @type {number} */ a) => {
    const per = perShare(a, c.outstanding);
    const move = priceMove(c.price, a);
    return `Pay ${dollars(a)}: ${dollars(per)} a share (you get ${dollars(per * mine)}), price ${kilo(c.price)} → ${kilo(priceAfter(c.price, a))} (${move > 0 ? "+" : ""}${move})`;
  };
  const presets = thresholds(c.price, range.max).map((a) => button(words(a), "pay_dividend", () => on.act({ type: "pay_dividend", amount: a }),
    { disabled: ui.pending, primary: priceMove(c.price, a) > 0, testid: "dividend-preset" }));
  return [
    h("ul", { class: "explain" },
      h("li", {}, "$0: price −2"), h("li", {}, `up to half the price (${dollars(Math.floor(c.price / 2) * 1000)}): −1`),
      h("li", {}, `above half, below the price: no change`), h("li", {}, `the price (${kilo(c.price)}) or more: + dividend ÷ price (max 3 × price)`)),
    h("div", { class: "choices dividend-presets", dataset: { testid: "dividend-presets" } }, presets),
    h("p", { class: "muted" }, "Or any amount:"),
    amountControl(amount(range, ctx, "pay_dividend", words, (a) => on.act({ type: "pay_dividend", amount: a }))),
  ];
}

/** @param {any} view @param {AmountRange} range @param {PageContext} ctx */
function repay(view, range, ctx) {
  const spec = amount(range, ctx, "repay_bonds", (k) => (k ? `Repay ${k} bond${k === 1 ? "" : "s"} (${dollars(k * 5000)})` : "Repay no bonds"),
    (k) => ctx.on.act({ type: "repay_bonds", count: k }));
  return amountControl({ ...spec, format: String });
}

/** @param {any} view @param {LegalAction} entry @param {PageContext} ctx */
function proposals(view, entry, ctx) {
  const acq = companyInTurn(view);
  const root = asChoice(entry.choices);
  return (root?.values ?? []).map((id) => {
    const t = companyOf(view, String(id));
    const per = (t.price + 1) * 1000;
    return button(`Propose: the ${acq.name} takes over the ${t.name} (${t.outstanding} × ${dollars(per)} = ${dollars(t.outstanding * per)})`,
      "propose_merger", () => ctx.on.act({ type: "propose_merger", target: t.id }), { company: t.id, disabled: ctx.ui.pending });
  });
}
