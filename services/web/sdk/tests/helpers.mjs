// Shared by the SDK's Node tests: a real Roundhouse stack, tables, random legal play, and a
// TCP proxy whose connections the tests can kill to simulate a network failure.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { after, before } from "node:test";
import { fileURLToPath } from "node:url";

import { RoundhouseClient, concreteAction } from "../roundhouse.js";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");
export const TITLE = "chicago-express";
// The interpreter with the project's packages: $PYTHON (the pytest run passes its own), else
// the project's .venv. Never a bare `python3` from PATH, which may lack msgspec and aiohttp.
export function python() {
  if (process.env.PYTHON) return process.env.PYTHON;
  const venv = join(REPO, ".venv", "bin", "python");
  if (existsSync(venv)) return venv;
  throw new Error("no Python for Roundhouse: set PYTHON, or run ./roundhouse once to make .venv");
}
// Fast reconnects keep the tests short; the defaults (0.5 s .. 10 s) are for real networks.
export const FAST_BACKOFF = { baseMs: 40, maxMs: 300 };

/**
 * The stack under test: ROUNDHOUSE_URL when the caller runs one (tests/web does), else a
 * `roundhouse dev` of our own on a free port with a throwaway data dir.
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startStack() {
  if (process.env.ROUNDHOUSE_URL) return { url: process.env.ROUNDHOUSE_URL.replace(/\/$/, ""), stop: async () => {} };
  const dataDir = mkdtempSync(join(tmpdir(), "rh-sdk-"));
  const env = { ...process.env };
  delete env.REDIS_URL;
  const child = spawn(python(), ["-m", "services.cli", "dev", "--port", "0", "--data-dir", dataDir], {
    cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const url = await new Promise((resolveUrl, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`roundhouse dev did not start: ${stderr}`)), 30000);
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const match = /Roundhouse running at (http:\/\/\S+?)\/?\n/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`roundhouse dev exited (${code}): ${stderr}`)));
  });
  return {
    url,
    stop: async () => {
      const exited = new Promise((r) => child.on("exit", r));
      child.kill("SIGTERM");
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Start the stack before a file's tests and stop it after them.
 * @returns {{url: string, client: RoundhouseClient}} filled in once the tests run
 */
export function useStack() {
  const env = /** @type {{url: string, client: RoundhouseClient}} */ ({ url: "", client: /** @type {any} */ (null) });
  let stop = async () => {};
  before(async () => {
    const stack = await startStack();
    stop = stack.stop;
    env.url = stack.url;
    env.client = new RoundhouseClient({ baseUrl: stack.url });
  });
  after(() => stop());
  return env;
}

/**
 * A table of `n` human seats; returns the creation reply (tokens included).
 * @param {RoundhouseClient} client
 * @param {number} n
 */
export function humanTable(client, n) {
  const names = ["Ada", "Brunel", "Crewe", "Dora", "Eiffel", "Fulton"];
  return client.createTable({ title: TITLE, seats: names.slice(0, n).map((name) => ({ name })) });
}

/**
 * Play one legal action for whoever must act (lowest amount of a range, otherwise a
 * seeded choice), over HTTP. Returns what was submitted, or null once the game is over.
 * @param {RoundhouseClient} client
 * @param {import("../roundhouse.js").TableCreated} created
 * @param {() => number} random
 */
export async function playOne(client, created, random) {
  const detail = await client.getTable(created.table);
  if (detail.status === "finished") return null;
  const seat = detail.active_seats[0];
  const token = /** @type {string} */ (created.seats[seat].token);
  const legal = await client.legalActions(created.table, token);
  const pick = legal.actions[Math.floor(random() * legal.actions.length)];
  const action = concreteAction(pick, pick.range ? pick.range.min : undefined);
  const accepted = await client.submit(created.table, token, action, { expectedSeq: legal.seq });
  return { seat, action, seq: accepted.seq };
}

/** A small seeded PRNG (mulberry32), so a failing run can be repeated exactly. */
export function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A TCP proxy to `targetUrl`'s host:port. `kill()` resets every connection through it (the
 * peer sees a dead socket, not a close handshake); `refuse(true)` resets new ones at once.
 * @param {string} targetUrl
 */
export async function killableProxy(targetUrl) {
  const target = new URL(targetUrl);
  /** @type {Set<net.Socket>} */
  const sockets = new Set();
  let refusing = false;
  let connections = 0;
  let refused = 0;
  const server = net.createServer((inbound) => {
    if (refusing) {
      refused += 1;
      inbound.resetAndDestroy();
      return;
    }
    connections += 1;
    const outbound = net.connect(Number(target.port), target.hostname);
    for (const [a, b] of [[inbound, outbound], [outbound, inbound]]) {
      sockets.add(a);
      a.on("data", (chunk) => b.write(chunk));
      a.on("end", () => b.end());
      a.on("error", () => b.destroy());
      a.on("close", () => {
        sockets.delete(a);
        b.destroy();
      });
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return connections;
    },
    get refused() {
      return refused;
    },
    kill() {
      for (const socket of sockets) socket.resetAndDestroy();
    },
    /** @param {boolean} on */
    refuse(on) {
      refusing = on;
    },
    close() {
      this.kill();
      return new Promise((r) => server.close(r));
    },
  };
}

/**
 * Resolves when `predicate()` is true, polling; rejects after `timeoutMs`.
 * @param {() => boolean} predicate
 * @param {string} what
 */
export async function until(predicate, what, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
