// The 18xx page's hand-edited routes (core18xx/routes.js) on a small flat board: the track
// found between two stops, what it may not cross (another stop, narrow gauge, track another
// train uses), taps that add and take off stops, and the points a route is drawn through.
import assert from "node:assert/strict";
import { test } from "node:test";

import { edgePoint, centre } from "../core18xx/map.js";
import { boardIndex, buildRun, connect, routePoints, tapStop } from "../core18xx/routes.js";

/** Three hexes in a column (south is edge 0): a city, plain track (or `middle`), a city. */
function board(middle = { paths: [{ a: 3, b: 0, track: "broad" }], nodes: [] }) {
  return {
    layout: "flat",
    hexes: [
      { hex: "X1", x: 0, y: 0, paths: [{ a: "n0", b: 0, track: "broad" }], nodes: [{ kind: "city", id: "X1-0", edges: [0] }] },
      { hex: "X2", x: 0, y: 2, ...middle },
      { hex: "X3", x: 0, y: 4, paths: [{ a: 3, b: "n0", track: "broad" }], nodes: [{ kind: "city", id: "X3-0", edges: [3] }] },
    ],
  };
}

test("the track between two stops is found hex by hex", () => {
  const ix = boardIndex(board());
  assert.deepEqual(connect(ix, "X1-0", "X3-0", new Set())?.hexes, ["X1", "X2", "X3"]);
  assert.deepEqual(connect(ix, "X3-0", "X1-0", new Set())?.hexes, ["X3", "X2", "X1"]);
});

test("no track over an edge another train uses, over narrow gauge, or through another stop", () => {
  assert.equal(connect(boardIndex(board()), "X1-0", "X3-0", new Set(["X2:3"])), null);
  assert.equal(connect(boardIndex(board({ paths: [{ a: 3, b: 0, track: "narrow" }], nodes: [] })), "X1-0", "X3-0", new Set()), null);
  const town = { paths: [{ a: 3, b: "n0", track: "broad" }, { a: "n0", b: 0, track: "broad" }], nodes: [{ kind: "town", id: "X2-0", edges: [3, 0] }] };
  const ix = boardIndex(board(town));
  assert.equal(connect(ix, "X1-0", "X3-0", new Set()), null);
  assert.deepEqual(connect(ix, "X1-0", "X2-0", new Set())?.hexes, ["X1", "X2"]);
});

test("taps add a stop where the track reaches and take one off", () => {
  const ix = boardIndex(board());
  let picks = { train: "2-0", plans: {} };
  picks = tapStop(ix, ["2-0"], picks, "X3-0");
  picks = tapStop(ix, ["2-0"], picks, "X1-0");
  assert.deepEqual(picks.plans["2-0"].nodes, ["X3-0", "X1-0"]);
  const run = buildRun(ix, ["2-0"], picks);
  assert.deepEqual(run.routes, [{ train: "2-0", nodes: ["X3-0", "X1-0"], connections: [["X3", "X2", "X1"]] }]);
  assert.deepEqual(run.problems, []);
  assert.deepEqual(tapStop(ix, ["2-0"], picks, "X3-0").plans["2-0"].nodes, ["X1-0"]);
  // A second train over the same track: the page finds none free and says which stops.
  const two = { train: "2-1", plans: { ...picks.plans, "2-1": { nodes: ["X1-0", "X3-0"], connections: null } } };
  assert.deepEqual(buildRun(ix, ["2-0", "2-1"], { ...two, plans: { ...two.plans, "2-0": { ...two.plans["2-0"], connections: [["X3", "X2", "X1"]] } } }).problems,
    [{ train: "2-1", from: "X1-0", to: "X3-0" }]);
});

test("a route is drawn through its stops and the midpoints of the edges its track crosses", () => {
  const ix = boardIndex(board());
  const pts = routePoints(ix, { train: "2-0", nodes: ["X1-0", "X3-0"], connections: [["X3", "X2", "X1"]] });
  assert.deepEqual(pts, [centre("flat", 0, 0), edgePoint("flat", 0, 0, 0), edgePoint("flat", 0, 2, 0), centre("flat", 0, 4)]);
});
