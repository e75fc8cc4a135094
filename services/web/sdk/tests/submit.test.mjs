// Submitting: a retried submit is applied once, whether the retry is the caller's or the
// SDK's own after a lost answer.
import assert from "node:assert/strict";
import { test } from "node:test";

import { RoundhouseClient, StaleSeqError, UnavailableError, isLegal } from "../roundhouse.js";
import { humanTable, useStack } from "./helpers.mjs";

const env = useStack();

const BID = { type: "bid", amount: 7 };

/** The log entries of a table as a spectator sees them after `seq` updates. */
async function logAt(table, seq) {
  const live = env.client.connect(table);
  const { view } = await live.waitFor((_v, s) => s === seq);
  live.close();
  return view.log;
}

test("the same idempotency key twice: one action, the same answer", async () => {
  const created = await humanTable(env.client, 3);
  const token = created.seats[0].token;
  const first = await env.client.submit(created.table, token, BID, { expectedSeq: 0, idempotencyKey: "ada-bid-1" });
  // The retry even carries a stale seq: the stored answer wins, nothing is checked or appended.
  const again = await env.client.submit(created.table, token, BID, { expectedSeq: 0, idempotencyKey: "ada-bid-1" });
  assert.equal(first.seq, 1);
  assert.equal(first.replayed, false);
  assert.equal(again.replayed, true);
  assert.deepEqual({ ...again, replayed: false }, first);
  assert.equal((await env.client.getTable(created.table)).last_seq, 1);
  const bids = (await logAt(created.table, 1)).filter((e) => e.event === "bid");
  assert.deepEqual(bids, [{ event: "bid", seat: 0, company: "PRR", amount: 7 }]);
});

test("an answer lost on the way back is retried with the same key and applied once", async () => {
  const created = await humanTable(env.client, 3);
  const token = created.seats[0].token;
  const sent = [];
  let dropped = 0;
  // The request reaches the real server and is applied; the client then loses the answer.
  const lossyFetch = async (url, init) => {
    const response = await fetch(url, init);
    if (init?.method === "POST") sent.push(JSON.parse(init.body));
    if (init?.method === "POST" && dropped < 2) {
      dropped += 1;
      await response.arrayBuffer();
      throw new TypeError("fetch failed: socket hang up");
    }
    return response;
  };
  const flaky = new RoundhouseClient({ baseUrl: env.url, fetch: lossyFetch, retry: { baseMs: 10, maxMs: 40 } });
  const accepted = await flaky.submit(created.table, token, BID, { expectedSeq: 0 });
  assert.equal(sent.length, 3, "two lost answers, then the third attempt got one");
  assert.equal(new Set(sent.map((b) => b.idempotency_key)).size, 1, "every attempt carried the same key");
  assert.equal(accepted.seq, 1);
  assert.equal(accepted.replayed, true, "the answer came from the first attempt's record");
  assert.equal((await env.client.getTable(created.table)).last_seq, 1);
  assert.equal((await logAt(created.table, 1)).filter((e) => e.event === "bid").length, 1);
});

test("requests that never reach the server are retried until one does", async () => {
  const created = await humanTable(env.client, 3);
  let refused = 0;
  const downFetch = async (url, init) => {
    if (init?.method === "POST" && refused < 3) {
      refused += 1;
      throw new TypeError("fetch failed: connect ECONNREFUSED");
    }
    return fetch(url, init);
  };
  const flaky = new RoundhouseClient({ baseUrl: env.url, fetch: downFetch, retry: { baseMs: 10, maxMs: 40 } });
  const accepted = await flaky.submit(created.table, created.seats[0].token, BID, { expectedSeq: 0 });
  assert.equal(accepted.replayed, false);
  assert.equal(accepted.seq, 1);
  assert.equal((await env.client.getTable(created.table)).last_seq, 1);
});

test("retries give up after the policy's attempts with an UnavailableError", async () => {
  let calls = 0;
  const deadFetch = async () => {
    calls += 1;
    throw new TypeError("fetch failed");
  };
  const dead = new RoundhouseClient({ baseUrl: env.url, fetch: deadFetch, retry: { attempts: 3, baseMs: 1, maxMs: 2 } });
  await assert.rejects(dead.submit("nosuchtable", "t.0.x", BID, { expectedSeq: 0 }), (error) => {
    assert.ok(error instanceof UnavailableError);
    assert.equal(error.code, "network");
    return true;
  });
  assert.equal(calls, 3);
});

test("two clients racing for one seq: one wins, the other learns the current seq", async () => {
  const created = await humanTable(env.client, 3);
  const token = created.seats[0].token;
  const results = await Promise.allSettled([
    env.client.submit(created.table, token, BID, { expectedSeq: 0 }),
    env.client.submit(created.table, token, { type: "pass" }, { expectedSeq: 0 }),
  ]);
  const won = results.filter((r) => r.status === "fulfilled");
  const lost = results.filter((r) => r.status === "rejected");
  assert.equal(won.length, 1);
  assert.equal(lost.length, 1);
  assert.ok(lost[0].reason instanceof StaleSeqError);
  assert.equal(lost[0].reason.currentSeq, 1);
  assert.equal((await env.client.getTable(created.table)).last_seq, 1);
});

test("a live table submits at the seq it holds and sees its own action come back", async () => {
  const created = await humanTable(env.client, 2);
  const live = env.client.connect(created.table, { token: created.seats[0].token });
  await live.waitFor((_v, seq) => seq === 0);
  const legal = await live.legalActions();
  assert.equal(legal.active, true);
  assert.ok(isLegal(legal.actions, { type: "bid", amount: 9 }));
  assert.ok(!isLegal(legal.actions, { type: "bid", amount: 999 }));
  const accepted = await live.submit({ type: "bid", amount: 9 });
  assert.equal(accepted.seq, 1);
  const { view } = await live.waitFor((_v, seq) => seq === 1);
  assert.equal(view.auction.high_bid, 9);
  assert.equal(view.auction.high_bidder, 0);
  live.close();
});
