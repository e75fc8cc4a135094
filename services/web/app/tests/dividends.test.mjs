// Chicago Express payouts grouped from the game log (app/chicago/dividends.js): the log is
// made of the engine's own event structs (shared/games/chicago_express/events.py), encoded
// by Python, so its shape is the engine's. Covers what a browser game rarely reaches: a
// Chicago payout that opens Wabash, followed in the same turn by a dividend phase.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { python } from "../../sdk/tests/helpers.mjs";
import { payoutGroups } from "../chicago/dividends.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

const LOG = `
import sys, msgspec
from shared.games.chicago_express import events as ev
log = [
    ev.Chose(seat=0, action="build"),
    ev.Built(seat=0, company="PRR", hex="B5", cost=2, income_gain=7),
    ev.ChicagoReached(seat=0, company="PRR", first=True),
    ev.DividendPaid(kind="chicago", company="PRR", income=19, shares_out=2, per_share=10, payouts=[10, 0, 10]),
    ev.WabashOpened(hex="D8", income=1),
    ev.AuctionStarted(kind="wabash", company="WAB", opener=0, min_bid=1),
    ev.Passed(seat=1, company="WAB"),
    ev.DividendPhase(round=3),
    ev.DividendPaid(kind="regular", company="PRR", income=19, shares_out=2, per_share=10, payouts=[10, 0, 10]),
    ev.DividendPaid(kind="regular", company="BO", income=7, shares_out=3, per_share=3, payouts=[0, 6, 3]),
    ev.DialsReset(),
    ev.Developed(seat=-1, hex="A2", companies=[], income_gain=0, cash_bonus=0, industry_value=2),
    ev.Chose(seat=1, action="auction"),
    ev.DividendPhase(round=4),
    ev.DividendPaid(kind="regular", company="BO", income=8, shares_out=3, per_share=3, payouts=[0, 6, 3]),
    ev.GameEnded(reasons=["houses_supply_low"]),
]
sys.stdout.buffer.write(msgspec.json.encode(log))
`;

function engineLog() {
  const done = spawnSync(python(), ["-c", LOG], { cwd: REPO, env: { ...process.env, PYTHONPATH: REPO }, encoding: "utf8" });
  assert.equal(done.status, 0, done.stderr);
  return JSON.parse(done.stdout);
}

test("a Chicago payout, then a dividend phase in the same turn, then the last one", () => {
  const view = { players: [{ name: "A" }, { name: "B" }, { name: "C" }], log: engineLog() };
  const groups = payoutGroups(view);
  assert.deepEqual(groups.map((g) => [g.kind, g.round, g.company, g.seat, g.first, g.at]), [
    ["chicago", null, "PRR", 0, true, 2],
    ["phase", 3, null, null, false, 7],
    ["phase", 4, null, null, false, 13],
  ]);
  assert.deepEqual(groups[0].paid.map((p) => [p.company, p.per_share]), [["PRR", 10]]);
  assert.deepEqual(groups[0].totals, [10, 0, 10]);
  assert.deepEqual(groups[1].paid.map((p) => [p.company, p.income, p.shares_out, p.per_share]), [["PRR", 19, 2, 10], ["BO", 7, 3, 3]]);
  assert.deepEqual(groups[1].totals, [10, 6, 13]);
  assert.deepEqual(groups[2].totals, [0, 6, 3]);
  assert.equal(new Set(groups.map((g) => g.key)).size, 3, "each payout has its own key (the OK button closes one)");
});

test("no payout yet: no group", () => {
  const log = engineLog();
  assert.deepEqual(payoutGroups({ players: [{}, {}, {}], log: log.slice(0, 2) }), []);
});
