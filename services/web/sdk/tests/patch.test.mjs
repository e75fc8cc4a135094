// applyPatch (RFC 6902: add, remove, replace) and the live table's use of it: every update is
// a patch of the held view; a patch that does not fit brings a fresh welcome.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { ProtocolError, applyPatch } from "../roundhouse.js";
import { humanTable, playOne, python, seeded, useStack } from "./helpers.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
const env = useStack();

/** @param {unknown} value */
const clone = (value) => JSON.parse(JSON.stringify(value));

test("the three ops, JSON Pointer escapes, and nothing of the input changes", () => {
  const doc = { a: [1, 2, 3], b: { c: 1, "x/y": 2, "t~": 3 }, big: { map: [{ id: "A1" }] } };
  const before = clone(doc);
  const ops = [
    { op: "add", path: "/a/1", value: 9 },
    { op: "add", path: "/a/-", value: { log: "line" } },
    { op: "remove", path: "/a/0" },
    { op: "replace", path: "/b/x~1y", value: [true] },
    { op: "add", path: "/b/t~0", value: null },
    { op: "add", path: "/b/new", value: "n" },
    { op: "remove", path: "/b/c" },
  ];
  const opsBefore = clone(ops);
  const out = applyPatch(doc, /** @type {any} */ (ops));
  assert.deepEqual(out, { a: [9, 2, 3, { log: "line" }], b: { "x/y": [true], "t~": null, new: "n" }, big: { map: [{ id: "A1" }] } });
  assert.deepEqual(doc, before, "the document is not changed");
  assert.deepEqual(ops, opsBefore, "nor the ops");
  assert.equal(out.big, doc.big, "what the patch does not touch is shared, not copied");
  assert.notEqual(out.b, doc.b);
  assert.deepEqual(applyPatch(doc, []), doc);
  assert.deepEqual(applyPatch(doc, [{ op: "replace", path: "", value: [1] }]), [1]);
  assert.deepEqual(applyPatch({ a: { b: [0] } }, [{ op: "add", path: "/a/b/1", value: 1 }]), { a: { b: [0, 1] } });
});

test("a member named __proto__ stays a member", () => {
  const out = applyPatch(JSON.parse('{"__proto__": {"x": 1}, "k": 0}'), [
    { op: "add", path: "/__proto__/y", value: 2 },
    { op: "replace", path: "/k", value: 1 },
  ]);
  assert.deepEqual(Object.keys(out), ["__proto__", "k"]);
  assert.deepEqual(Object.getOwnPropertyDescriptor(out, "__proto__")?.value, { x: 1, y: 2 });
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
});

test("an op that does not fit is a bad_patch error and changes nothing", () => {
  const doc = { a: [1, 2, 3], b: { c: 1 } };
  const bad = [
    { op: "replace", path: "/missing", value: 1 },
    { op: "remove", path: "/b/missing" },
    { op: "add", path: "/missing/x", value: 1 },
    { op: "add", path: "/a/4", value: 1 },
    { op: "replace", path: "/a/3", value: 1 },
    { op: "remove", path: "/a/-" },
    { op: "add", path: "/a/01", value: 1 },
    { op: "add", path: "/a/x", value: 1 },
    { op: "add", path: "/a/0/x", value: 1 },
    { op: "add", path: "a", value: 1 },
    { op: "remove", path: "" },
    { op: "add", path: "/b/c" },
    { op: "move", from: "/a", path: "/c" },
    { op: "replace", path: "/toString", value: 1 },
    { path: "/a" },
    "add",
  ];
  for (const op of bad) {
    assert.throws(
      () => applyPatch(doc, /** @type {any} */ ([{ op: "add", path: "/b/d", value: 5 }, op])),
      (error) => error instanceof ProtocolError && error.code === "bad_patch" && error.message.length > 0,
      JSON.stringify(op),
    );
  }
  assert.throws(() => applyPatch(doc, /** @type {any} */ ({ op: "add" })), ProtocolError);
  assert.deepEqual(doc, { a: [1, 2, 3], b: { c: 1 } });
});

// The server's diff (shared/protocol/json_patch.py) on consecutive Chicago Express views of a
// random game with undo and redo, one line per step: the first is the view, then {patch, view}.
const VIEW_STEPS = `
import random, sys
import msgspec
from shared.bots.random_bot import random_action
from shared.engine import Redo, Undo, default_options
from shared.games import get_engine
from shared.protocol.json_patch import diff
from shared.timeline import Timeline

engine = get_engine("chicago-express")
seed, players = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
timeline = Timeline(engine, [f"P{i}" for i in range(players)], default_options(engine), seed)
seat = None if seed % 2 else seed % players
old = engine.view(timeline.state, seat)
out = sys.stdout.buffer
out.write(msgspec.json.encode(old) + b"\\n")
while engine.result(timeline.state) is None:
    roll, state = rng.random(), timeline.state
    if timeline.redo and roll < 0.04:
        timeline.push(timeline.redo[-1][1], Redo())
    elif timeline.effective and roll < 0.08:
        timeline.push(timeline.effective[-1][0], Undo())
    else:
        actor = min(engine.active_seats(state))
        timeline.push(actor, random_action(engine, state, actor, rng))
    new = engine.view(timeline.state, seat)
    out.write(msgspec.json.encode({"patch": diff(old, new), "view": new}) + b"\\n")
    old = new
`;

test("the server's patches of whole random games rebuild every view", () => {
  for (const [seed, players] of [[3, 3], [8, 5]]) {
    const done = spawnSync(python(), ["-c", VIEW_STEPS, String(seed), String(players)], {
      cwd: REPO, env: { ...process.env, PYTHONPATH: REPO }, encoding: "utf8", maxBuffer: 1 << 30,
    });
    assert.equal(done.status, 0, done.stderr);
    const [first, ...steps] = done.stdout.trim().split("\n").map((line) => JSON.parse(line));
    assert.ok(steps.length > 100, `a whole game (${steps.length} steps)`);
    let held = first;
    let patchBytes = 0;
    let viewBytes = 0;
    for (const [i, step] of steps.entries()) {
      const previous = held;
      const previousText = i % 50 === 0 ? JSON.stringify(previous) : null;
      held = applyPatch(held, step.patch);
      assert.deepEqual(held, step.view, `seed ${seed}, step ${i + 1}`);
      if (previousText !== null) assert.equal(JSON.stringify(previous), previousText, "the previous view is left as it was");
      patchBytes += JSON.stringify(step.patch).length;
      viewBytes += JSON.stringify(step.view).length;
    }
    assert.ok(patchBytes * 20 < viewBytes, `patches ${patchBytes} bytes, views ${viewBytes}`);
  }
});

test("a held view the patches do not fit is replaced by a fresh welcome", async (t) => {
  const created = await humanTable(env.client, 2);
  const random = seeded(5);
  for (let i = 0; i < 4; i++) await playOne(env.client, created, random);
  // A stored copy that is not the server's (damaged, or of another seat): the resume is
  // accepted, its first patch cannot apply, and the table starts over from a fresh welcome.
  const live = env.client.connect(created.table, { token: created.seats[0].token, lastSeq: 4, view: { damaged: true } });
  t.after(() => live.close());
  const welcomes = [];
  const errors = [];
  live.on("welcome", (w) => welcomes.push(w.resumed));
  live.on("error", (e) => errors.push(e.code));
  await live.waitFor((_v, seq) => seq === 4);
  for (let i = 0; i < 2; i++) await playOne(env.client, created, random);
  const { view } = await live.waitFor((v, seq) => seq === 6 && !v.damaged);
  assert.deepEqual(welcomes.slice(0, 2), [true, false], "resumed, then a fresh welcome");
  assert.ok(errors.includes("bad_patch"), `errors: ${errors}`);
  assert.equal(live.stats.patchFailures, 1);
  assert.equal(live.stats.gaps, 0);
  const fresh = env.client.connect(created.table, { token: created.seats[0].token });
  assert.deepEqual(view, (await fresh.waitFor((_v, seq) => seq === 6)).view);
  fresh.close();
});
