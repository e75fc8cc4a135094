// Every refusal comes back as a typed error carrying the server's code and message.
import assert from "node:assert/strict";
import net from "node:net";
import { test } from "node:test";

import {
  AuthError,
  BadRequestError,
  NotFoundError,
  RoundhouseClient,
  RoundhouseError,
  RuleError,
  StaleSeqError,
  UnavailableError,
  inviteUrl,
  parseInvite,
} from "../roundhouse.js";
import { humanTable, useStack } from "./helpers.mjs";

const env = useStack();

/**
 * @param {Promise<unknown>} promise
 * @param {Function} kind
 * @param {string} code
 */
async function refused(promise, kind, code) {
  let caught;
  await assert.rejects(promise, (error) => {
    caught = error;
    return true;
  });
  assert.ok(caught instanceof kind, `${caught?.name} is not a ${kind.name}: ${caught?.message}`);
  assert.ok(caught instanceof RoundhouseError);
  assert.equal(caught.code, code);
  assert.ok(caught.message.length > 0);
  return caught;
}

test("HTTP refusals are typed by what the caller must do", async () => {
  const created = await humanTable(env.client, 3);
  const { table } = created;
  const ada = created.seats[0].token;
  const brunel = created.seats[1].token;

  const rule = await refused(env.client.submit(table, ada, { type: "bid", amount: 41 }, { expectedSeq: 0 }), RuleError, "insufficient_cash");
  assert.equal(rule.status, 422);
  assert.match(rule.message, /only \$40/, "the engine's own message");
  await refused(env.client.submit(table, brunel, { type: "pass" }, { expectedSeq: 0 }), RuleError, "not_your_turn");
  await refused(env.client.submit(table, ada, { type: "fly" }, { expectedSeq: 0 }), BadRequestError, "bad_action");

  await env.client.submit(table, ada, { type: "bid", amount: 7 }, { expectedSeq: 0 });
  const stale = await refused(env.client.submit(table, brunel, { type: "pass" }, { expectedSeq: 0 }), StaleSeqError, "stale_seq");
  assert.equal(stale.status, 409);
  assert.equal(stale.currentSeq, 1);

  await refused(env.client.submit(table, "not-a-token", { type: "pass" }, { expectedSeq: 1 }), AuthError, "bad_token");
  const other = await humanTable(env.client, 2);
  await refused(env.client.submit(table, other.seats[0].token, { type: "pass" }, { expectedSeq: 1 }), AuthError, "wrong_table");
  await refused(env.client.getTable("nosuchtable00000"), NotFoundError, "unknown_table");
  await refused(env.client.createTable({ title: "chicago-express", seats: [{ name: "Solo" }] }), BadRequestError, "bad_seats");
  await refused(env.client.createTable({ title: "no-such-game", seats: [{ name: "A" }, { name: "B" }] }), BadRequestError, "unknown_title");
  await refused(env.client.listTables({ status: "lost" }), BadRequestError, "bad_query");

  // Nothing refused was written.
  assert.equal((await env.client.getTable(table)).last_seq, 1);
});

test("an unreachable server is an UnavailableError", async () => {
  const nowhere = new RoundhouseClient({ baseUrl: "http://127.0.0.1:9", retry: { attempts: 2, baseMs: 1, maxMs: 2 } });
  const error = await refused(nowhere.getTable("abc"), UnavailableError, "network");
  assert.equal(error.status, null);
});

test("a server that accepts but never answers is an UnavailableError after the timeout", async (t) => {
  const held = [];
  const silent = net.createServer((socket) => held.push(socket));
  await new Promise((r) => silent.listen(0, "127.0.0.1", r));
  t.after(() => {
    for (const socket of held) socket.destroy();
    return new Promise((r) => silent.close(r));
  });
  const mute = new RoundhouseClient({ baseUrl: `http://127.0.0.1:${silent.address().port}`, timeoutMs: 200 });
  const error = await refused(mute.listTables(), UnavailableError, "timeout");
  assert.match(error.message, /within 200 ms/);
});

test("live refusals are typed and a bad token stops reconnecting", async () => {
  const created = await humanTable(env.client, 2);
  const cases = [
    [created.table, "garbage", AuthError, "bad_token"],
    ["nosuchtable00000", null, NotFoundError, "unknown_table"],
  ];
  for (const [table, token, kind, code] of cases) {
    const live = env.client.connect(table, { token, backoff: { baseMs: 10, maxMs: 20 } });
    const errors = [];
    live.on("error", (e) => errors.push(e));
    const failed = await new Promise((resolve) => live.on("status", (s) => s.status === "failed" && resolve(s)));
    assert.ok(failed.error instanceof kind, `${failed.error?.name} for ${code}`);
    assert.equal(failed.error.code, code);
    assert.equal(failed.error.fatal, true);
    assert.equal(live.stats.connects, 0);
    assert.deepEqual(errors.map((e) => e.code), [code], "one error, no retry loop");
    live.close();
  }
});

test("a spectator cannot act, and says so before any request", async () => {
  const created = await humanTable(env.client, 2);
  const live = env.client.connect(created.table);
  await live.waitFor(() => true);
  assert.equal(live.seat, null);
  assert.throws(() => live.submit({ type: "pass" }), (e) => e instanceof AuthError && e.code === "spectator");
  live.close();
});

test("invite links round-trip", () => {
  const url = inviteUrl("http://127.0.0.1:8000/", "abc", "abc.0.sig");
  assert.equal(url, "http://127.0.0.1:8000/#table=abc&token=abc.0.sig");
  assert.deepEqual(parseInvite(new URL(url).hash), { table: "abc", token: "abc.0.sig" });
  assert.deepEqual(parseInvite("#table=abc"), { table: "abc", token: null });
  assert.equal(parseInvite(""), null);
});
