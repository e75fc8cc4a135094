// @ts-check
/**
 * Roundhouse JS SDK: the game service's HTTP API and the projection service's live
 * WebSocket protocol (docs/api.md, docs/protocol.md) behind one small ES module.
 *
 * Runs unchanged in browsers and in Node 20+ (`node --experimental-websocket`, or pass a
 * WebSocket constructor). No dependencies, no build step; the types are JSDoc, so editors
 * and `tsc --checkJs` read them straight from this file.
 *
 *   import { RoundhouseClient } from "/sdk/roundhouse.js";
 *   const rh = new RoundhouseClient({ baseUrl: "http://127.0.0.1:8000" });
 *   const live = rh.connect(table, { token });
 *   live.on("view", ({ view, seq }) => render(view, seq));
 *   await live.submit({ type: "pass" });          // expected seq and idempotency key filled in
 */

export const PROTOCOL_VERSION = 1;

// ---------------------------------------------------------------------------------------
// Types (wire shapes; docs/api.md and docs/protocol.md are the reference)

/**
 * @typedef {{type: string, [field: string]: unknown}} Action  A title's action, e.g. `{type: "bid", amount: 7}`.
 * @typedef {{field: string, min: number, max: number, step: number}} AmountRange
 * @typedef {{field: string, values: unknown[], then?: Array<Choice | AmountRange | null> | null, open?: boolean}} Choice
 *            A trie over fields: `then` has one entry per value, or one entry shared by all values; `open`: the
 *            values are suggestions and the engine decides (engine contract v2).
 * @typedef {{action: Action, range?: AmountRange | null, choices?: Choice | null}} LegalAction
 *            With `range`, any value of the range in `range.field` is legal; with `choices`, any path through the trie.
 * @typedef {{name: string, type: "int" | "bool" | "choice" | "str" | "object", default: unknown, label?: string,
 *            help?: string, choices?: unknown[] | null, min?: number | null, max?: number | null,
 *            fields?: OptionSpec[] | null}} OptionSpec  A table option as the lobby renders it (`object`: named sub-options).
 * @typedef {{id: string, name: string, min_players: number, max_players: number, rules_version: string,
 *            summary?: string, options?: OptionSpec[], bot_levels?: string[], web_module?: string | null}} TitleMeta
 * @typedef {{kind: "bot", level?: string} | {kind: "human"}} ControllerRequest
 * @typedef {SeatInfo & {table: string, seq: number, active_seats: number[]}} ControllerChanged
 * @typedef {{scores: number[], ranks: number[], winners: number[], reason: string}} Result
 * @typedef {"open" | "running" | "finished"} TableStatus
 * @typedef {{name: string, kind?: "human" | "bot", level?: string | null}} SeatRequest
 * @typedef {{kind: "none" | "realtime" | "async", bank_s?: number, increment_s?: number, turn_hours?: number,
 *   on_timeout?: "bot" | "abandon", bot_level?: string | null}} ClockSpec  A table's clock (docs/clocks.md).
 * @typedef {{title: string, seats: SeatRequest[], options?: Record<string, unknown>, seed?: number, clock?: ClockSpec}} CreateTableRequest
 * @typedef {{seat: number, kind: "human" | "bot", level: string | null, remaining_ms: number | null, running: boolean,
 *   timed_out: boolean}} SeatClock  `remaining_ms` null: not limited now.
 * @typedef {{delay_s?: number, webhook?: {url: string, format?: "json" | "discord" | "slack"} | null, email?: string | null}} NotifySettings
 * @typedef {{table: string, seat: number, settings: NotifySettings | null, signing_key: string, email_available: boolean}} NotifyReply
 * @typedef {{table: string, kind: "none" | "realtime" | "async", now_ms: number, seq: number, seats: SeatClock[],
 *   spec: ClockSpec | null, deadline_ms: number | null, ended: Result | null}} TableClock  Each seat's time as of `now_ms`.
 * @typedef {{seat: number, name: string, kind: "human" | "bot", level: string | null}} SeatInfo
 * @typedef {SeatInfo & {token: string | null, invite_url: string | null}} SeatGrant
 * @typedef {{table: string, title: string, status: TableStatus, seq: number, active_seats: number[], seats: SeatGrant[]}} TableCreated
 * @typedef {{table: string, title: string, status: TableStatus, options: Record<string, unknown>, seats: SeatInfo[],
 *            last_seq: number, created_ms: number, updated_ms: number}} TableSummary
 * @typedef {TableSummary & {active_seats: number[], result: Result | null}} TableDetail
 * @typedef {{tables: TableSummary[], next_offset: number | null}} TableList
 * @typedef {{table: string, seat: number, seq: number, active: boolean, actions: LegalAction[], undo?: boolean}} LegalActions  `undo`: the seat's undo would be accepted now
 * @typedef {{legal: boolean, error: {code: string, message: string} | null, [fact: string]: any}} Preview  the title's answer (Engine.preview): would the rules accept it, and its facts (18xx: `routes` with revenue, `total`, `part`)
 * @typedef {{table: string, seat: number, seq: number, preview: Preview}} ActionPreview
 * @typedef {{table: string, seq: number, seat: number, status: TableStatus, active_seats: number[],
 *            result: Result | null, replayed: boolean}} ActionAccepted
 *            `replayed`: the answer came from the stored record of an earlier attempt with the same key.
 * @typedef {{expectedSeq: number, idempotencyKey?: string}} SubmitOptions
 * @typedef {{v: number, table: string, title: string, seat: number | null, seq: number, resumed: boolean,
 *            view: any}} Welcome
 * @typedef {{op: "add" | "remove" | "replace", path: string, value?: unknown}} PatchOp  One RFC 6902 operation.
 * @typedef {{seq: number, seat: number, action: Action, t: number, patch: PatchOp[]}} Update
 *            `patch` turns the view at `seq - 1` into the view at `seq`; the LiveTable applies it.
 * @typedef {"connecting" | "live" | "reconnecting" | "closed" | "failed"} LiveStatus
 *            `failed`: a fatal refusal (bad token, unknown table...) that retrying cannot fix.
 * @typedef {{status: LiveStatus, attempt: number, retryInMs: number | null, error: RoundhouseError | null}} StatusEvent
 * @typedef {{seq: number, result: Result, patch: PatchOp[]}} Ended  The table ended outside the rules (a clock ran out,
 *   on_timeout=abandon): `result` holds the standings; the patch (replaces of /result and /active_seats) is applied to the view.
 * @typedef {{view: any, seq: number, update: Update | null}} ViewEvent  `update` is null after a fresh welcome or an end.
 * @typedef {{attempts: number, baseMs: number, maxMs: number}} RetryPolicy
 * @typedef {{id: string, seat: number | null, name: string, text: string, t: number}} ChatLine  Plain text: show it as text.
 * @typedef {{lines: ChatLine[], muted: Array<number | "spectators">}} ChatLog
 * @typedef {{seq: number, seat: number, action: Action, t: number, round: string | null}} HistoryEntry
 * @typedef {{id: unknown, seq: number, last_seq: number, view: any, entries: HistoryEntry[], round: string | null}} PastView
 * @typedef {{new (url: string): WebSocket}} WebSocketConstructor
 */

// ---------------------------------------------------------------------------------------
// Errors: one class per way a caller must react, each carrying the server's code and message.

export class RoundhouseError extends Error {
  /**
   * @param {string} code  stable, machine-readable (docs/api.md "Errors", docs/protocol.md "Errors")
   * @param {string} message  for people; for rule refusals, the engine's own words
   * @param {{status?: number | null, fatal?: boolean, currentSeq?: number | null, cause?: unknown}} [more]
   */
  constructor(code, message, more = {}) {
    super(message, more.cause === undefined ? undefined : { cause: more.cause });
    this.name = new.target.name;
    this.code = code;
    /** HTTP status, or null for WebSocket and network errors */
    this.status = more.status ?? null;
    /** a WebSocket error after which the server closes the socket */
    this.fatal = more.fatal ?? false;
    /** with `stale_seq`: the table's seq now */
    this.currentSeq = more.currentSeq ?? null;
  }
}

/** The rules refused the action (422 with the engine's code: not_your_turn, insufficient_cash, ...). */
export class RuleError extends RoundhouseError {}
/** The table moved on since `expectedSeq` (409). Catch up, decide again, submit with a new key. */
export class StaleSeqError extends RoundhouseError {}
/** The request itself is malformed (400, 413, or 422 bad_request/bad_action/bad_seats/...). */
export class BadRequestError extends RoundhouseError {}
/** Missing, malformed or foreign seat token (401, 403; WebSocket bad_token/wrong_table). */
export class AuthError extends RoundhouseError {}
/** No such table (404; WebSocket unknown_table). */
export class NotFoundError extends RoundhouseError {}
/** The server or the network cannot answer now (503, network failure); retrying with the same key is safe. */
export class UnavailableError extends RoundhouseError {}
/** A server bug (500). */
export class ServerError extends RoundhouseError {}
/** The live protocol refused something this client sent (bad_hello, unsupported_version, ...). */
export class ProtocolError extends RoundhouseError {}

// 422 codes that describe the request's shape, not a rule of the game.
const REQUEST_SHAPE_CODES = new Set(["bad_request", "bad_action", "bad_json", "unknown_title", "bad_seats", "bad_options"]);

/**
 * The typed error for an HTTP refusal body `{"error": {code, message, current_seq?}}`.
 * @param {number} status
 * @param {any} body
 * @returns {RoundhouseError}
 */
export function httpError(status, body) {
  const detail = body && typeof body === "object" && body.error ? body.error : {};
  const code = typeof detail.code === "string" ? detail.code : `http_${status}`;
  const message = typeof detail.message === "string" ? detail.message : `HTTP ${status}`;
  const more = { status, currentSeq: typeof detail.current_seq === "number" ? detail.current_seq : null };
  if (status === 409) return new StaleSeqError(code, message, more);
  if (status === 401 || status === 403) return new AuthError(code, message, more);
  if (status === 404) return new NotFoundError(code, message, more);
  if (status === 503 || status === 502 || status === 504) return new UnavailableError(code, message, more);
  if (status >= 500) return new ServerError(code, message, more);
  if (status === 422 && !REQUEST_SHAPE_CODES.has(code)) return new RuleError(code, message, more);
  return new BadRequestError(code, message, more);
}

/**
 * The typed error for a WebSocket `error` frame.
 * @param {{code: string, message: string, fatal?: boolean}} frame
 * @returns {RoundhouseError}
 */
export function liveError(frame) {
  const more = { fatal: Boolean(frame.fatal) };
  switch (frame.code) {
    case "bad_token":
    case "wrong_table":
      return new AuthError(frame.code, frame.message, more);
    case "unknown_table":
      return new NotFoundError(frame.code, frame.message, more);
    case "unavailable":
      return new UnavailableError(frame.code, frame.message, more);
    default:
      return new ProtocolError(frame.code, frame.message, more);
  }
}

// Fatal live errors that a reconnect cannot cure; the others (unavailable, hello_timeout) can.
const PERMANENT_LIVE_CODES = new Set([
  "bad_hello", "unsupported_version", "bad_token", "wrong_table", "unknown_table", "frame_too_large",
]);

// ---------------------------------------------------------------------------------------
// Small helpers

/**
 * A fresh idempotency key (32 hex characters). Uses getRandomValues, which, unlike
 * randomUUID, also exists on pages served over plain http from a LAN address.
 */
export function newIdempotencyKey() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Exponential backoff with jitter: attempt 0 waits about `baseMs`, doubling up to `maxMs`,
 * each wait drawn from its upper half so many clients do not retry in step.
 * @param {number} attempt
 * @param {number} baseMs
 * @param {number} maxMs
 */
export function backoffMs(attempt, baseMs, maxMs) {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The table and seat token an invite link carries in its fragment
 * (`#table=...&token=...`; no token = spectator), or null when it names no table.
 * @param {string} fragment  `location.hash`, with or without the leading `#`
 * @returns {{table: string, token: string | null} | null}
 */
export function parseInvite(fragment) {
  const params = new URLSearchParams(fragment.replace(/^#/, ""));
  const table = params.get("table");
  if (!table) return null;
  return { table, token: params.get("token") || null };
}

/**
 * The link that opens the web client at `table` as the token's seat (spectator without one).
 * @param {string} baseUrl
 * @param {string} table
 * @param {string | null} [token]
 */
export function inviteUrl(baseUrl, table, token = null) {
  const params = new URLSearchParams({ table });
  if (token) params.set("token", token);
  return `${baseUrl.replace(/\/$/, "")}/#${params}`;
}

/**
 * The concrete action of a legal action, with its ranged field set to `value`.
 * @param {LegalAction} legal
 * @param {number} [value]
 * @returns {Action}
 */
export function concreteAction(legal, value) {
  if (!legal.range || value === undefined) return legal.action;
  return { ...legal.action, [legal.range.field]: value };
}

/**
 * Whether `action` is one of `legal` (a ranged entry admits any in-range value of its field).
 * @param {LegalAction[]} legal
 * @param {Action} action
 */
export function isLegal(legal, action) {
  return legal.some((entry) => {
    if (entry.action.type !== action.type) return false;
    const varying = new Map();
    if (entry.range) varying.set(entry.range.field, entry.range);
    if (entry.choices) {
      const path = choicePath(entry.choices, action);
      if (!path) return false;
      for (const field of path) varying.set(field, null);
    }
    const keys = new Set([...Object.keys(entry.action), ...Object.keys(action)]);
    for (const key of keys) {
      if (varying.has(key)) {
        const range = varying.get(key);
        if (range && !inRange(range, action[key])) return false;
      } else if (entry.action[key] !== action[key]) {
        return false;
      }
    }
    return true;
  });
}

/**
 * @param {AmountRange} range
 * @param {unknown} v
 */
function inRange(range, v) {
  const { min, max, step } = range;
  return typeof v === "number" && Number.isInteger(v) && v >= min && v <= max && (v - min) % (step || 1) === 0;
}

/**
 * The next node of a trie after its `index`-th value (`then` per value, or one shared entry).
 * @param {Choice} node
 * @param {number} index
 * @returns {Choice | AmountRange | null}
 */
export function nextChoice(node, index) {
  if (!node.then || node.then.length === 0) return null;
  return (node.then.length === 1 ? node.then[0] : node.then[index]) ?? null;
}

/**
 * Every field named in a trie.
 * @param {Choice | AmountRange | null} node
 * @returns {string[]}
 */
function allFields(node) {
  if (!node) return [];
  if (!("values" in node)) return [node.field];
  const out = new Set([node.field]);
  node.values.forEach((_, i) => allFields(nextChoice(node, i)).forEach((f) => out.add(f)));
  return [...out];
}

/**
 * The fields a trie fixes along `action`'s path, or null when the action leaves the trie.
 * @param {Choice | AmountRange | null} node
 * @param {Action} action
 * @returns {string[] | null}
 */
function choicePath(node, action) {
  if (!node) return [];
  const value = action[node.field];
  if (!("values" in node)) return inRange(node, value) ? [node.field] : null;
  const index = node.values.findIndex((v) => JSON.stringify(v) === JSON.stringify(value));
  // An open choice: any value, and the fields after it are the engine's to judge.
  if (index < 0) return node.open ? allFields(node) : null;
  const rest = choicePath(nextChoice(node, index), action);
  return rest && [node.field, ...rest];
}

// ---------------------------------------------------------------------------------------
// JSON Patch: each live update carries one (docs/protocol.md)

/**
 * `doc` with an RFC 6902 JSON Patch applied, as a new document: the containers on the way
 * to each change are copied, everything else is shared with `doc`, and neither `doc` nor
 * `ops` is changed. Supports the ops the server sends: `add`, `remove`, `replace`.
 * Throws a ProtocolError (`bad_patch`) when an op does not fit the document.
 * @param {any} doc
 * @param {PatchOp[]} ops
 * @returns {any}
 */
export function applyPatch(doc, ops) {
  if (!Array.isArray(ops)) throw badPatch(`a patch is an array of operations, not ${JSON.stringify(ops)}`);
  let root = doc;
  /** containers this call copied, so safe to change @type {Set<object>} */
  const owned = new Set();
  for (const op of ops) {
    const { kind, path, tokens } = readOp(op);
    if (tokens.length === 0) {
      if (kind === "remove") throw badPatch("cannot remove the whole document");
      root = op.value;
      continue;
    }
    root = ownCopy(root, owned, path);
    let parent = root;
    for (const token of tokens.slice(0, -1)) {
      const key = patchKey(parent, token, path, false);
      const child = ownCopy(parent[key], owned, path);
      setMember(parent, key, child);
      parent = child;
    }
    const key = patchKey(parent, tokens[tokens.length - 1], path, kind === "add");
    if (Array.isArray(parent)) {
      const index = /** @type {number} */ (key);
      if (kind === "remove") parent.splice(index, 1);
      else if (kind === "add") parent.splice(index, 0, op.value);
      else parent[index] = op.value;
    } else if (kind === "remove") {
      delete parent[key];
    } else {
      setMember(parent, key, op.value);
    }
  }
  return root;
}

/** @param {string} message */
const badPatch = (message) => new ProtocolError("bad_patch", message);

/**
 * @param {unknown} op
 * @returns {{kind: string, path: string, tokens: string[]}}
 */
function readOp(op) {
  const o = /** @type {any} */ (op);
  if (!o || typeof o !== "object" || typeof o.op !== "string" || typeof o.path !== "string") {
    throw badPatch(`not a patch operation: ${JSON.stringify(op)}`);
  }
  if (o.op !== "add" && o.op !== "remove" && o.op !== "replace") {
    throw badPatch(`unsupported op ${JSON.stringify(o.op)} (the server sends add, remove and replace)`);
  }
  if (o.op !== "remove" && !("value" in o)) throw badPatch(`${o.op} at ${JSON.stringify(o.path)} has no value`);
  if (o.path !== "" && !o.path.startsWith("/")) throw badPatch(`path ${JSON.stringify(o.path)} must be empty or start with /`);
  const tokens = o.path === "" ? [] : o.path.slice(1).split("/").map((/** @type {string} */ t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  return { kind: o.op, path: o.path, tokens };
}

/**
 * `value` itself if this call copied it already, else a shallow copy it may change.
 * @param {any} value
 * @param {Set<object>} owned
 * @param {string} path
 * @returns {any}
 */
function ownCopy(value, owned, path) {
  if (owned.has(value)) return value;
  let copy;
  if (Array.isArray(value)) copy = value.slice();
  else if (value !== null && typeof value === "object") copy = { ...value }; // spread, not assign: keeps a "__proto__" member a member
  else throw badPatch(`${JSON.stringify(path)}: cannot step into ${JSON.stringify(value)}`);
  owned.add(copy);
  return copy;
}

/**
 * The member or index `token` names in `container`; it must exist, except that with
 * `pastEnd` (add) an array index may be the length or `-`, and a member may be new.
 * @param {any} container
 * @param {string} token
 * @param {string} path
 * @param {boolean} pastEnd
 * @returns {string | number}
 */
function patchKey(container, token, path, pastEnd) {
  if (!Array.isArray(container)) {
    if (!pastEnd && !Object.hasOwn(container, token)) throw badPatch(`${JSON.stringify(path)}: no member ${JSON.stringify(token)}`);
    return token;
  }
  if (token === "-" && pastEnd) return container.length;
  if (!/^(0|[1-9][0-9]*)$/.test(token)) throw badPatch(`${JSON.stringify(path)}: ${JSON.stringify(token)} is not an array index`);
  const index = Number(token);
  if (index > container.length || (index === container.length && !pastEnd)) {
    throw badPatch(`${JSON.stringify(path)}: index ${index} is out of range (length ${container.length})`);
  }
  return index;
}

/**
 * Set an own member, even one named `__proto__` (plain assignment would change the prototype).
 * @param {any} target
 * @param {string | number} key
 * @param {unknown} value
 */
function setMember(target, key, value) {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

// ---------------------------------------------------------------------------------------
// HTTP

const DEFAULT_RETRY = /** @type {RetryPolicy} */ ({ attempts: 6, baseMs: 200, maxMs: 4000 });

export class RoundhouseClient {
  /**
   * @param {{baseUrl?: string, fetch?: typeof fetch, WebSocket?: WebSocketConstructor, retry?: Partial<RetryPolicy>,
   *          timeoutMs?: number}} [options]
   *   `baseUrl`: where `roundhouse dev` (or the load balancer) answers; in a browser it defaults to the page's origin.
   *   `retry`: how `submit` retries a request whose answer was lost (same idempotency key each time).
   *   `timeoutMs`: a request without an answer by then counts as lost (an UnavailableError; `submit` retries it).
   */
  constructor(options = {}) {
    const origin = typeof location === "undefined" ? undefined : location.origin;
    const baseUrl = options.baseUrl ?? origin;
    if (!baseUrl) throw new TypeError("RoundhouseClient needs a baseUrl outside a browser");
    this.baseUrl = baseUrl.replace(/\/$/, "");
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    /** @type {WebSocketConstructor | undefined} */
    this.WebSocket = options.WebSocket ?? globalThis.WebSocket;
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 15000;
  }

  /** The WebSocket URL of the projection service (same host, `/ws`). */
  get liveUrl() {
    return this.baseUrl.replace(/^http/, "ws") + "/ws";
  }

  /**
   * One request; the parsed JSON body, or a typed error. A network failure is an UnavailableError.
   * @param {string} method
   * @param {string} path
   * @param {{body?: unknown, token?: string | null}} [more]
   * @returns {Promise<{status: number, body: any, headers: Headers}>}
   */
  async request(method, path, more = {}) {
    /** @type {Record<string, string>} */
    const headers = { Accept: "application/json" };
    if (more.body !== undefined) headers["Content-Type"] = "application/json";
    if (more.token) headers.Authorization = `Bearer ${more.token}`;
    const body = more.body === undefined ? undefined : JSON.stringify(more.body);
    const { response, text } = await this.exchange(this.baseUrl + path, { method, headers, body });
    let parsed = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!response.ok) throw httpError(response.status, parsed);
    return { status: response.status, body: parsed, headers: response.headers };
  }

  /**
   * One fetch and its whole body; an UnavailableError when either never arrives.
   * @param {string} url
   * @param {RequestInit} init
   * @returns {Promise<{response: Response, text: string}>}
   */
  async exchange(url, init) {
    // A timer we clear ourselves: AbortSignal.timeout would keep Node's event loop alive.
    const abort = new AbortController();
    const timer = this.timeoutMs ? setTimeout(() => abort.abort(), this.timeoutMs) : null;
    let stage = "cannot reach";
    try {
      const response = await this.fetch(url, { ...init, signal: abort.signal });
      // Past this point the server may have acted: a lost body is a lost answer (retry with the same key).
      stage = "the answer was cut off from";
      return { response, text: await response.text() };
    } catch (cause) {
      if (abort.signal.aborted) {
        throw new UnavailableError("timeout", `no answer from ${this.baseUrl} within ${this.timeoutMs} ms`, { cause });
      }
      throw new UnavailableError("network", `${stage} ${this.baseUrl}: ${errorText(cause)}`, { cause });
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  /**
   * @param {CreateTableRequest} req
   * @returns {Promise<TableCreated>}
   */
  async createTable(req) {
    return (await this.request("POST", "/api/tables", { body: req })).body;
  }

  /**
   * Newest first; pass `next_offset` back as `offset` for the next page.
   * @param {{status?: TableStatus, limit?: number, offset?: number}} [query]
   * @returns {Promise<TableList>}
   */
  async listTables(query = {}) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
    const qs = params.toString();
    return (await this.request("GET", `/api/tables${qs ? `?${qs}` : ""}`)).body;
  }

  /**
   * @param {string} table
   * @returns {Promise<TableDetail>}
   */
  async getTable(table) {
    return (await this.request("GET", `/api/tables/${encodeURIComponent(table)}`)).body;
  }

  /**
   * Each seat's time left as of the server's `now_ms` (count down the `running` ones), who
   * plays each seat, and the standings if the table ended because a seat ran out.
   * @param {string} table
   * @returns {Promise<TableClock>}
   */
  async getClock(table) {
    return (await this.request("GET", `/api/tables/${encodeURIComponent(table)}/clock`)).body;
  }

  /**
   * The seat's turn notices (webhook, e-mail, delay) and the key its webhook bodies are signed with.
   * @param {string} table
   * @param {string} token
   * @param {number} seat
   * @returns {Promise<NotifyReply>}
   */
  async getNotify(table, token, seat) {
    return (await this.request("GET", `/api/tables/${encodeURIComponent(table)}/seats/${seat}/notify`, { token })).body;
  }

  /**
   * Set the seat's turn notices; `null` stops them.
   * @param {string} table
   * @param {string} token
   * @param {number} seat
   * @param {NotifySettings | null} settings
   * @returns {Promise<NotifyReply>}
   */
  async setNotify(table, token, seat, settings) {
    const path = `/api/tables/${encodeURIComponent(table)}/seats/${seat}/notify`;
    return (await this.request(settings ? "PUT" : "DELETE", path, { body: settings ?? {}, token })).body;
  }

  /**
   * The titles this server plays, with what a lobby needs to offer them (players, options,
   * bot levels, the web client's page module).
   * @returns {Promise<{titles: TitleMeta[]}>}
   */
  async listTitles() {
    return (await this.request("GET", "/api/titles")).body;
  }

  /**
   * Hand the token's seat to a bot (`{kind: "bot", level}`), or take it back (`{kind: "human"}`).
   * The token stays valid either way.
   * @param {string} table
   * @param {string} token
   * @param {number} seat
   * @param {ControllerRequest} req
   * @returns {Promise<ControllerChanged>}
   */
  async setController(table, token, seat, req) {
    const path = `/api/tables/${encodeURIComponent(table)}/seats/${seat}/controller`;
    return (await this.request("POST", path, { body: req, token })).body;
  }

  /**
   * What the token's seat may do now (empty unless it must act).
   * @param {string} table
   * @param {string} token
   * @returns {Promise<LegalActions>}
   */
  async legalActions(table, token) {
    return (await this.request("GET", `/api/tables/${encodeURIComponent(table)}/legal`, { token })).body;
  }

  /**
   * What `action` would do if the token's seat sent it now, nothing changed (a hand-edited run
   * of trains: each route's revenue as the rules count it, or the first route refused and why).
   * Whether the rules would accept it is in the answer (`preview.legal`, `preview.error`); a
   * title that previews no such action answers RuleError `no_preview`.
   * @param {string} table
   * @param {string} token
   * @param {Action} action
   * @returns {Promise<ActionPreview>}
   * @throws {RuleError | AuthError | BadRequestError | NotFoundError | UnavailableError | ServerError}
   */
  async preview(table, token, action) {
    return (await this.request("POST", `/api/tables/${encodeURIComponent(table)}/preview`, { body: { action }, token })).body;
  }

  /**
   * Submit one action as the token's seat. When the answer is lost (network failure, 502,
   * 503, 504) the same request, with the same idempotency key, is sent again with backoff:
   * the server either logged the first attempt and returns its answer, or decides this one.
   * So however often it retries, the action is applied at most once.
   * @param {string} table
   * @param {string} token
   * @param {Action} action
   * @param {SubmitOptions} options
   * @returns {Promise<ActionAccepted>}
   * @throws {RuleError | StaleSeqError | AuthError | BadRequestError | NotFoundError | UnavailableError | ServerError}
   */
  async submit(table, token, action, options) {
    const body = {
      expected_seq: options.expectedSeq,
      idempotency_key: options.idempotencyKey ?? newIdempotencyKey(),
      action,
    };
    const path = `/api/tables/${encodeURIComponent(table)}/actions`;
    for (let attempt = 0; ; attempt++) {
      try {
        const { body: reply, headers } = await this.request("POST", path, { body, token });
        return { ...reply, replayed: headers.get("Idempotent-Replayed") === "true" };
      } catch (error) {
        if (!(error instanceof UnavailableError) || attempt + 1 >= this.retry.attempts) throw error;
        await sleep(backoffMs(attempt, this.retry.baseMs, this.retry.maxMs));
      }
    }
  }

  /**
   * Take back the seat's own last action (allowed while nobody else has acted since).
   * @param {string} table
   * @param {string} token
   * @param {SubmitOptions} options
   */
  async undo(table, token, options) {
    return this.submit(table, token, { type: "undo" }, options);
  }

  /**
   * Watch a table live, as the token's seat or (without a token) as a spectator.
   * `lastSeq` and `view` resume from a copy held before (say, across a page reload); `chat`
   * asks for the table's chat lines too.
   * @param {string} table
   * @param {{token?: string | null, lastSeq?: number, view?: any, heartbeatMs?: number,
   *          backoff?: {baseMs: number, maxMs: number}, chat?: boolean}} [options]
   */
  connect(table, options = {}) {
    return new LiveTable(this, table, options);
  }
}

/** @param {unknown} error */
function errorText(error) {
  if (error instanceof Error) {
    const cause = /** @type {any} */ (error).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

// ---------------------------------------------------------------------------------------
// Live table

/**
 * @typedef {{welcome: Welcome, update: Update, ended: Ended, view: ViewEvent, status: StatusEvent, error: RoundhouseError,
 *            chat_log: ChatLog, chat_line: ChatLine, mutes: {muted: Array<number | "spectators">}}} LiveEvents
 */

/**
 * One table watched over the live protocol: holds the latest view and its seq, applies
 * every update exactly once in order, and reconnects by itself (backoff with jitter)
 * resuming from the seq it holds, so nothing is lost or applied twice.
 *
 * Events (`on(name, fn)` returns an unsubscribe function):
 * - `view` `{view, seq, update}`: the held view changed (fresh welcome, an update, or the end)
 * - `update`: one log entry as received (after it was applied)
 * - `ended`: the table ended outside the rules (after its patch was applied; the view's
 *   `result` holds the standings)
 * - `welcome`: every handshake, fresh or resumed
 * - `status` `{status, attempt, retryInMs, error}`: connecting / live / reconnecting / closed / failed
 * - `error`: any error frame or connection problem, typed
 * - with `chat: true`: `chat_log` after every welcome (the recent lines, what this seat mutes),
 *   then `chat_line` per line and `mutes` when this seat's mutes change
 */
export class LiveTable {
  /**
   * @param {RoundhouseClient} client
   * @param {string} table
   * @param {{token?: string | null, lastSeq?: number, view?: any, heartbeatMs?: number,
   *          backoff?: {baseMs: number, maxMs: number}, chat?: boolean}} options
   */
  constructor(client, table, options) {
    if (!client.WebSocket) {
      throw new TypeError("no WebSocket implementation: pass {WebSocket} to RoundhouseClient (Node 20: --experimental-websocket)");
    }
    this.client = client;
    this.table = table;
    this.token = options.token ?? null;
    // A held view without its seq (or the reverse) cannot be resumed from; start fresh then.
    const resumable = options.view != null && (options.lastSeq ?? 0) > 0;
    /** highest seq applied; the view below is the view at this seq */
    this.seq = resumable ? /** @type {number} */ (options.lastSeq) : 0;
    /** @type {any} the latest complete view (null until the first welcome) */
    this.view = resumable ? options.view : null;
    /** @type {number | null} the seat this connection acts as (null for a spectator), known after welcome */
    this.seat = null;
    /** @type {string | null} */
    this.title = null;
    /** @type {LiveStatus} */
    this.status = "connecting";
    this.heartbeatMs = options.heartbeatMs ?? 15000;
    this.backoff = options.backoff ?? { baseMs: 500, maxMs: 10000 };
    /** how many handshakes; `resumed` counts those that continued from the held seq */
    this.stats = { connects: 0, resumed: 0, updates: 0, duplicatesDropped: 0, gaps: 0, patchFailures: 0 };
    /** a patch did not fit the held view: the next hello asks for a fresh one (last_seq 0) */
    this.needFresh = false;
    /** @type {Map<string, Set<(payload: any) => void>>} */
    this.listeners = new Map();
    /** @type {WebSocket | null} */
    this.socket = null;
    this.attempt = 0;
    this.closedByUser = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.retryTimer = null;
    /** @type {ReturnType<typeof setInterval> | null} */
    this.heartbeatTimer = null;
    this.lastFrameAt = 0;
    /** ends the current socket's life (set per socket by `open`) */
    this.endSocket = (/** @type {number} */ _code) => {};
    this.chat = options.chat ?? false;
    /** @type {Map<number, {resolve: (v: PastView) => void, reject: (e: RoundhouseError) => void}>} view_at asked, by id */
    this.asked = new Map();
    this.askedId = 0;
    this.open();
  }

  /**
   * @template {keyof LiveEvents} K
   * @param {K} name
   * @param {(payload: LiveEvents[K]) => void} fn
   * @returns {() => void} unsubscribe
   */
  on(name, fn) {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  /**
   * @template {keyof LiveEvents} K
   * @param {K} name
   * @param {LiveEvents[K]} payload
   */
  emit(name, payload) {
    for (const fn of [...(this.listeners.get(name) ?? [])]) {
      try {
        fn(payload);
      } catch (error) {
        // A listener's bug must not break the stream for the others; surface it asynchronously.
        setTimeout(() => {
          throw error;
        });
      }
    }
  }

  /**
   * @param {LiveStatus} status
   * @param {{retryInMs?: number | null, error?: RoundhouseError | null}} [more]
   */
  setStatus(status, more = {}) {
    this.status = status;
    this.emit("status", { status, attempt: this.attempt, retryInMs: more.retryInMs ?? null, error: more.error ?? null });
  }

  open() {
    this.retryTimer = null;
    const Ctor = /** @type {WebSocketConstructor} */ (this.client.WebSocket);
    let socket;
    try {
      socket = new Ctor(this.client.liveUrl);
    } catch (cause) {
      this.scheduleReconnect(new UnavailableError("network", `cannot open ${this.client.liveUrl}: ${errorText(cause)}`));
      return;
    }
    this.socket = socket;
    /** @type {RoundhouseError | null} */
    let fatal = null;
    socket.onopen = () => {
      this.lastFrameAt = Date.now();
      const lastSeq = this.needFresh ? 0 : this.seq;
      socket.send(JSON.stringify({ type: "hello", v: PROTOCOL_VERSION, table: this.table, token: this.token, last_seq: lastSeq,
        ...(this.chat ? { chat: true } : {}) }));
      this.startHeartbeat(socket);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.lastFrameAt = Date.now();
      let frame;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        this.emit("error", new ProtocolError("bad_frame", "the server sent a frame that is not JSON"));
        return;
      }
      if (frame.type === "error") {
        const error = liveError(frame);
        if (error.fatal) fatal = error;
        if (error.code === "bad_seq") this.failAsked(error);
        this.emit("error", error);
      } else if (frame.type === "welcome") {
        this.onWelcome(frame);
      } else if (frame.type === "update") {
        this.onUpdate(frame);
      } else if (frame.type === "ended") {
        this.onEnded(frame);
      } else if (frame.type === "chat_log" || frame.type === "chat_line" || frame.type === "mutes") {
        this.emit(frame.type, frame);
      } else if (frame.type === "past_view") {
        const asked = this.asked.get(frame.id);
        this.asked.delete(frame.id);
        asked?.resolve(frame);
      }
    };
    let ended = false;
    /** Runs once per socket, whichever of close, error or the heartbeat notices the end first. */
    const end = (/** @type {number} */ code) => {
      if (ended || socket !== this.socket) return;
      ended = true;
      this.stopHeartbeat();
      this.socket = null;
      this.failAsked(new UnavailableError("disconnected", "the connection closed before the answer came"));
      if (this.closedByUser) return;
      if (fatal && PERMANENT_LIVE_CODES.has(fatal.code)) {
        this.setStatus("failed", { error: fatal });
        return;
      }
      const error = fatal ?? new UnavailableError("disconnected", `connection closed (code ${code})`);
      // 1001: the server is going away on purpose (restart, scale-down): come straight back.
      this.scheduleReconnect(error, code === 1001 ? 0 : undefined);
    };
    this.endSocket = end;
    socket.onclose = (event) => end(event.code);
    // Browsers follow an error with a close event; Node's WebSocket does not when the
    // handshake fails, so an error ends the socket too (`end` runs once either way).
    socket.onerror = () => {
      try {
        socket.close();
      } catch {
        // already closing
      }
      setTimeout(() => end(1006), 0);
    };
  }

  /** @param {Welcome} frame */
  onWelcome(frame) {
    this.stats.connects += 1;
    this.attempt = 0;
    this.seat = frame.seat;
    this.title = frame.title;
    if (frame.resumed) {
      // The server continues after our seq: keep the view we hold.
      this.stats.resumed += 1;
    } else {
      this.seq = frame.seq;
      this.view = frame.view;
      this.needFresh = false;
    }
    this.emit("welcome", frame);
    this.setStatus("live");
    if (!frame.resumed) this.emit("view", { view: this.view, seq: this.seq, update: null });
  }

  /** @param {Update} frame */
  onUpdate(frame) {
    if (this.needFresh) return; // a patch failed on this socket: nothing more applies until the fresh welcome
    if (frame.seq <= this.seq) {
      // Already applied (should not happen: the protocol promises no repeats).
      this.stats.duplicatesDropped += 1;
      return;
    }
    if (frame.seq !== this.seq + 1) {
      // A gap (should not happen either): reconnect from what we hold; the server replays the rest.
      this.stats.gaps += 1;
      this.socket?.close(4000, "gap");
      return;
    }
    const view = this.patched(frame.patch);
    if (view === undefined) return;
    this.seq = frame.seq;
    this.view = view;
    this.stats.updates += 1;
    this.emit("update", frame);
    this.emit("view", { view: this.view, seq: this.seq, update: frame });
  }

  /**
   * The held view with `patch` applied; undefined if it does not apply.
   * @param {PatchOp[]} patch
   */
  patched(patch) {
    try {
      return applyPatch(this.view, patch);
    } catch (error) {
      // The held view is not the server's (say, a damaged stored copy): start over from a
      // fresh welcome; until it comes, the last good view stays on show.
      this.stats.patchFailures += 1;
      this.needFresh = true;
      this.emit("error", error instanceof RoundhouseError ? error : badPatch(errorText(error)));
      this.socket?.close(4002, "bad patch");
      return undefined;
    }
  }

  /** @param {Ended} frame */
  onEnded(frame) {
    // Waiting for a fresh welcome (its view holds the result), or not at the end's seq (a
    // gap the next update would show): nothing to apply to.
    if (this.needFresh || frame.seq !== this.seq || !this.view) return;
    const view = this.patched(frame.patch);
    if (view === undefined) return;
    this.view = view;
    this.emit("ended", frame);
    this.emit("view", { view: this.view, seq: this.seq, update: null });
  }

  /**
   * @param {RoundhouseError} error
   * @param {number} [delayMs]
   */
  scheduleReconnect(error, delayMs) {
    const wait = delayMs ?? backoffMs(this.attempt, this.backoff.baseMs, this.backoff.maxMs);
    this.attempt += 1;
    this.emit("error", error);
    this.setStatus("reconnecting", { retryInMs: wait, error });
    this.retryTimer = setTimeout(() => this.open(), wait);
  }

  /** Reconnect now (say, when the browser comes back online) instead of waiting out the backoff. */
  reconnectNow() {
    if (this.closedByUser || this.status === "failed") return;
    if (this.retryTimer) {
      clearTimeout(this.retryTimer);
      this.open();
    } else if (this.socket && this.status !== "live") {
      this.socket.close();
    }
  }

  /**
   * A socket can die without a close event (a laptop lid, a dropped Wi-Fi); the server
   * answers every ping, so a silence twice the interval means the connection is gone.
   * @param {WebSocket} socket
   */
  startHeartbeat(socket) {
    this.stopHeartbeat();
    if (!this.heartbeatMs) return;
    this.heartbeatTimer = setInterval(() => {
      if (Date.now() - this.lastFrameAt > 2 * this.heartbeatMs) {
        socket.close(4001, "heartbeat timeout");
        // The close handshake will not complete on a dead link: do not wait for it.
        this.endSocket(4001);
        return;
      }
      if (socket.readyState === 1) socket.send(JSON.stringify({ type: "ping", id: Date.now() }));
    }, this.heartbeatMs);
  }

  stopHeartbeat() {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  /** Stop watching for good. */
  close() {
    this.closedByUser = true;
    this.stopHeartbeat();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000, "bye");
    this.setStatus("closed");
  }

  /**
   * Resolves once the held view satisfies `predicate` (checked now and after every change).
   * @param {(view: any, seq: number) => boolean} predicate
   * @param {number} [timeoutMs]
   * @returns {Promise<{view: any, seq: number}>}
   */
  waitFor(predicate, timeoutMs = 10000) {
    return new Promise((resolve, reject) => {
      if (this.view != null && predicate(this.view, this.seq)) {
        resolve({ view: this.view, seq: this.seq });
        return;
      }
      const timer = setTimeout(() => {
        off();
        reject(new Error(`waitFor: condition not met within ${timeoutMs} ms (held seq ${this.seq})`));
      }, timeoutMs);
      const off = this.on("view", ({ view, seq }) => {
        if (predicate(view, seq)) {
          clearTimeout(timer);
          off();
          resolve({ view, seq });
        }
      });
    });
  }

  requireToken() {
    if (!this.token) throw new AuthError("spectator", "a spectator cannot act: connect with a seat token");
    return this.token;
  }

  /**
   * What this seat may do now.
   * @returns {Promise<LegalActions>}
   */
  legalActions() {
    return this.client.legalActions(this.table, this.requireToken());
  }

  /**
   * What `action` would do if this seat sent it now (see RoundhouseClient.preview).
   * @param {Action} action
   * @returns {Promise<ActionPreview>}
   */
  preview(action) {
    return this.client.preview(this.table, this.requireToken(), action);
  }

  /**
   * Submit an action based on the held view: `expectedSeq` defaults to the held seq.
   * @param {Action} action
   * @param {Partial<SubmitOptions>} [options]
   */
  submit(action, options = {}) {
    return this.client.submit(this.table, this.requireToken(), action, {
      expectedSeq: options.expectedSeq ?? this.seq,
      idempotencyKey: options.idempotencyKey,
    });
  }

  /** @param {Partial<SubmitOptions>} [options] */
  undo(options = {}) {
    return this.submit({ type: "undo" }, options);
  }

  /** @param {object} message */
  sendFrame(message) {
    if (!this.socket || this.socket.readyState !== 1) {
      throw new UnavailableError("not_live", "not connected right now; try again in a moment");
    }
    this.socket.send(JSON.stringify(message));
  }

  /**
   * Say something at the table's chat (a spectator may give a name). Refusals (too long,
   * too fast) come back as `error` events with codes chat_empty, chat_too_long, chat_rate_limited.
   * @param {string} text
   * @param {string} [name]
   */
  sendChat(text, name) {
    this.sendFrame({ type: "chat", text, ...(name ? { name } : {}) });
  }

  /**
   * Hide (or show again) a seat's chat lines, or every spectator's, for this seat.
   * @param {number | "spectators"} target
   * @param {boolean} muted
   */
  mute(target, muted = true) {
    this.sendFrame({ type: "mute", target, muted });
  }

  /**
   * This connection's view at a past seq (history), and with `entriesAfter` the log entries after it.
   * @param {number} seq
   * @param {number | null} [entriesAfter]
   * @returns {Promise<PastView>}
   */
  viewAt(seq, entriesAfter = null) {
    return new Promise((resolve, reject) => {
      const id = ++this.askedId;
      try {
        this.sendFrame({ type: "view_at", seq, id, entries_after: entriesAfter });
      } catch (error) {
        reject(error);
        return;
      }
      this.asked.set(id, { resolve, reject });
    });
  }

  /** @param {RoundhouseError} error */
  failAsked(error) {
    const asked = [...this.asked.values()];
    this.asked.clear();
    for (const a of asked) a.reject(error);
  }
}
