// The advanced game's dividend arithmetic the table page shows (app/rotw/dividend.js) against
// the engine's own (shared/games/rotw_england_wales/advanced: move_for_dividend, the per-share
// split of dividends._pay, end.share_value), over every price and amount a game can reach.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { python } from "../../sdk/tests/helpers.mjs";
import { perShare, priceAfter, priceMove, shareValue, thresholds } from "../rotw/dividend.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

const ENGINE = `
import json
from shared.games.rotw_england_wales.advanced.shares import move_for_dividend
out = {"moves": [[p, a, move_for_dividend(p, a)] for p in range(1, 16) for a in range(0, 3 * p * 1000 + 1, 1000)],
       "per": [[a, n, a // n // 1000 * 1000] for a in range(0, 40001, 1000) for n in range(1, 11)]}
print(json.dumps(out))
`;

function engine() {
  const done = spawnSync(python(), ["-c", ENGINE], { cwd: REPO, env: { ...process.env, PYTHONPATH: REPO }, encoding: "utf8" });
  assert.equal(done.status, 0, done.stderr);
  return JSON.parse(done.stdout);
}

test("the price move for every dividend is the engine's", () => {
  const { moves } = engine();
  assert.equal(moves.length, 375, "prices 1-15, every amount up to 3x");
  for (const [price, paid, move] of moves) assert.equal(priceMove(price, paid), move, `price ${price}, paid ${paid}`);
  assert.equal(priceAfter(1, 0), 1, "never below 1");
  assert.equal(priceAfter(6, 17000), 8, "the seed's example: 17 at 6 -> +2");
});

test("the per-share part is the engine's, in whole $1,000s", () => {
  const { per } = engine();
  for (const [amount, outstanding, part] of per) assert.equal(perShare(amount, outstanding), part, `${amount} over ${outstanding}`);
});

test("the table's rows: each threshold amount changes the move, none above the maximum", () => {
  const rows = thresholds(8, 20000);
  assert.deepEqual(rows, [0, 4000, 5000, 8000, 16000, 20000]);
  assert.deepEqual(rows.map((a) => priceMove(8, a)), [-2, -1, 0, 1, 2, 2]);
  assert.deepEqual(thresholds(5, 3000), [0, 2000, 3000]);
  assert.equal(shareValue({ price: 5, bonds: 7 }), 0);
  assert.equal(shareValue({ price: 9, bonds: 2 }), 7000);
});
