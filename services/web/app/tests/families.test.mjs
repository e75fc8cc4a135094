// Legal-action families of engine contract v2 on the client: the SDK's isLegal walks a
// `choices` trie (one entry per value, or one shared entry), and the action panel's splitBy
// turns a trie over companies into one family per company, as the one-entry-per-company form.
import assert from "node:assert/strict";
import { test } from "node:test";

import { isLegal, nextChoice } from "../../sdk/roundhouse.js";
import { splitBy } from "../legalform.js";

// The contract's example: lay a tile = hex -> tile -> rotation.
const LAY = {
  action: { type: "lay_tile", hex: "D4", tile: "7", rotation: 0 },
  choices: {
    field: "hex", values: ["D4", "E5"],
    then: [
      { field: "tile", values: ["7", "8"], then: [{ field: "rotation", values: [0, 1] }, { field: "rotation", values: [2] }] },
      { field: "tile", values: ["9"], then: [{ field: "rotation", values: [0, 3] }] },
    ],
  },
};

test("isLegal follows a trie, per value and shared", () => {
  const legal = [LAY, { action: { type: "pass" } }];
  for (const [hex, tile, rotation] of [["D4", "7", 0], ["D4", "7", 1], ["D4", "8", 2], ["E5", "9", 0], ["E5", "9", 3]]) {
    assert.ok(isLegal(legal, { type: "lay_tile", hex, tile, rotation }), `${hex} ${tile} ${rotation}`);
  }
  for (const [hex, tile, rotation] of [["D4", "8", 0], ["E5", "7", 0], ["E5", "9", 1], ["F6", "7", 0]]) {
    assert.ok(!isLegal(legal, { type: "lay_tile", hex, tile, rotation }), `${hex} ${tile} ${rotation}`);
  }
  assert.ok(isLegal(legal, { type: "pass" }));
  assert.ok(!isLegal(legal, { type: "lay_tile", hex: "D4", tile: "7", rotation: 0, extra: 1 }));
  assert.equal(nextChoice(LAY.choices, 1), LAY.choices.then[1]);
  const shared = { field: "company", values: ["PRR", "BO"], then: [{ field: "amount", min: 3, max: 9, step: 2 }] };
  assert.equal(nextChoice(shared, 1), shared.then[0], "one entry is shared by every value");
  const offer = [{ action: { type: "offer", company: "PRR", amount: 3 }, choices: shared }];
  assert.ok(isLegal(offer, { type: "offer", company: "BO", amount: 7 }));
  assert.ok(!isLegal(offer, { type: "offer", company: "BO", amount: 8 }), "off the step");
  assert.ok(!isLegal(offer, { type: "offer", company: "NYC", amount: 3 }));
  const open = [{ action: { type: "run", routes: [] }, choices: { field: "routes", values: [["A1"]], open: true } }];
  assert.ok(isLegal(open, { type: "run", routes: [["B2", "C3"]] }), "an open choice admits any value");
  const openThen = [{ action: { type: "run", routes: [], train: "2" },
    choices: { field: "routes", values: [["A1"]], open: true, then: [{ field: "train", values: ["2"] }] } }];
  assert.ok(isLegal(openThen, { type: "run", routes: [["B2"]], train: "3" }), "and the fields after it are the engine's to judge");
});

test("splitBy: a trie over companies reads like one family per company", () => {
  const trie = [{ action: { type: "offer", company: "PRR", amount: 3 },
    choices: { field: "company", values: ["PRR", "BO"], then: [{ field: "amount", min: 3, max: 9, step: 1 }, { field: "amount", min: 2, max: 9, step: 1 }] } }];
  const perCompany = [
    { action: { type: "offer", company: "PRR", amount: 3 }, range: { field: "amount", min: 3, max: 9, step: 1 }, choices: null },
    { action: { type: "offer", company: "BO", amount: 2 }, range: { field: "amount", min: 2, max: 9, step: 1 }, choices: null },
  ];
  const split = splitBy(trie, "company");
  assert.deepEqual(split.map((e) => [e.action.company, e.range]), perCompany.map((e) => [e.action.company, e.range]));
  assert.deepEqual(splitBy(perCompany, "company"), perCompany, "already one per company: unchanged");
  const deeper = splitBy([{ action: { type: "build", company: "PRR", hex: "A1" },
    choices: { field: "company", values: ["PRR"], then: [{ field: "hex", values: ["A1", "B2"] }] } }], "company");
  assert.deepEqual(splitBy(deeper, "hex").map((e) => [e.action.company, e.action.hex]), [["PRR", "A1"], ["PRR", "B2"]]);
});
