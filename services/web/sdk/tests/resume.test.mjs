// A live table survives killed sockets and refused reconnects: every update arrives exactly
// once, in order, and the view it ends with is the server's.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RoundhouseClient } from "../roundhouse.js";
import { FAST_BACKOFF, humanTable, killableProxy, playOne, seeded, useStack, until } from "./helpers.mjs";

const env = useStack();

test("resume after killed sockets loses and repeats nothing", async (t) => {
  const created = await humanTable(env.client, 3);
  const proxy = await killableProxy(env.url);
  // Live traffic goes through the proxy we can cut; actions go straight to the server.
  const viaProxy = new RoundhouseClient({ baseUrl: proxy.url });
  const live = viaProxy.connect(created.table, { token: created.seats[1].token, backoff: FAST_BACKOFF, heartbeatMs: 0 });
  t.after(() => {
    live.close();
    return proxy.close();
  });
  const seen = [];
  const statuses = [];
  live.on("update", (u) => seen.push({ seq: u.seq, seat: u.seat, action: u.action }));
  live.on("status", (s) => statuses.push(s.status));
  await live.waitFor((_view, seq) => seq === 0);
  assert.equal(live.seat, 1);

  const random = seeded(7);
  const played = [];
  const total = 60;
  for (let i = 0; i < total; i++) {
    if (i === 15 || i === 30) {
      // a dead socket in the middle of the stream; the next kill waits for the reconnect, or
      // on a busy machine it can land before the handshake and two kills count as one
      const before = live.stats.connects;
      proxy.kill();
      await until(() => live.stats.connects > before, "the reconnect after a killed socket");
    }
    if (i === 40) {
      proxy.kill();
      proxy.refuse(true); // and a network that stays down for a while: reconnects fail and back off
    }
    if (i === 50) {
      await until(() => proxy.refused >= 2, "two refused reconnects");
      proxy.refuse(false);
    }
    const move = await playOne(env.client, created, random);
    assert.ok(move, "the game ended before the test was done");
    played.push(move);
  }
  const { view } = await live.waitFor((_v, seq) => seq === total, 15000);

  assert.deepEqual(seen.map((u) => u.seq), Array.from({ length: total }, (_, i) => i + 1), "every seq once, in order");
  assert.deepEqual(seen.map((u) => [u.seat, u.action]), played.map((m) => [m.seat, m.action]), "the actions as played");
  assert.equal(live.stats.duplicatesDropped, 0);
  assert.equal(live.stats.gaps, 0);
  assert.ok(live.stats.connects >= 4, `reconnected after each kill (${live.stats.connects} handshakes)`);
  assert.equal(live.stats.resumed, live.stats.connects - 1, "every reconnect resumed from the held seq");
  assert.ok(statuses.includes("reconnecting"));

  // The view held after all that is the one a fresh connection gets.
  const fresh = env.client.connect(created.table, { token: created.seats[1].token });
  const check = await fresh.waitFor((_v, seq) => seq === total);
  assert.deepEqual(view, check.view);
  fresh.close();
});

test("a copy held from before (a reloaded page) resumes instead of starting over", async (t) => {
  const created = await humanTable(env.client, 2);
  const random = seeded(11);
  for (let i = 0; i < 5; i++) await playOne(env.client, created, random);
  const first = env.client.connect(created.table);
  const held = await first.waitFor((_v, seq) => seq === 5);
  first.close();
  for (let i = 0; i < 3; i++) await playOne(env.client, created, random);

  const again = env.client.connect(created.table, { lastSeq: held.seq, view: held.view });
  t.after(() => again.close());
  const welcomes = [];
  again.on("welcome", (w) => welcomes.push(w));
  const updates = [];
  again.on("update", (u) => updates.push(u.seq));
  const now = await again.waitFor((_v, seq) => seq === 8);
  assert.equal(welcomes.length, 1);
  assert.equal(welcomes[0].resumed, true);
  assert.equal(welcomes[0].seat, null, "no token: a spectator");
  assert.deepEqual(updates, [6, 7, 8]);
  const fresh = env.client.connect(created.table);
  assert.deepEqual(now.view, (await fresh.waitFor((_v, seq) => seq === 8)).view);
  fresh.close();
});
