// @ts-check
// The log lines of moves this tab did not see (made before it opened, or while it was away),
// for titles whose view holds no log (page.logLine): written from the table's history, the
// views at each seq and the entries between them (`view_at`, history.js's source), exactly as
// the lines of moves watched live are written. So the log and the end screen's chart of
// values (page.trackValues) cover the whole game, whenever the tab was opened.

/**
 * @typedef {import("../sdk/roundhouse.js").LiveTable} LiveTable
 * @typedef {import("./pageapi.js").SeenLine} SeenLine
 * @typedef {import("./pageapi.js").TitlePage} TitlePage
 */

// Views asked for at once: the server makes them one at a time; a few in flight hide the
// round trips without flooding the socket.
const IN_FLIGHT = 6;

/**
 * The lines for seqs 1..upto that `seen` lacks, oldest first; `progress` gets each batch.
 * @param {LiveTable} live
 * @param {TitlePage} page
 * @param {SeenLine[]} seen
 * @param {number} upto
 * @param {(lines: SeenLine[]) => void} progress
 * @returns {Promise<SeenLine[]>}
 */
export async function backfill(live, page, seen, upto, progress) {
  const logLine = page.logLine;
  if (!logLine || upto < 1) return [];
  const have = new Set(seen.map((e) => e.seq));
  /** @type {number[]} */
  const missing = [];
  for (let s = 1; s <= upto; s++) if (!have.has(s)) missing.push(s);
  if (!missing.length) return [];
  const index = await live.viewAt(0, 0);
  const entries = new Map(index.entries.map((e) => [e.seq, e]));
  /** @type {Map<number, any>} */
  const views = new Map([[0, index.view]]);
  const wanted = [...new Set(missing.flatMap((s) => [s - 1, s]))].filter((s) => !views.has(s)).sort((a, b) => a - b);
  /** @type {SeenLine[]} */
  const out = [];
  let next = 0;
  let done = 0;
  /** @param {number} s */
  const lineAt = (s) => {
    const before = views.get(s - 1);
    const after = views.get(s);
    const entry = entries.get(s);
    if (before === undefined || after === undefined || !entry) return null;
    const text = logLine(before, after, { seat: entry.seat, action: entry.action, seq: s });
    return text ? { seq: s, text, seat: entry.seat, values: page.trackValues?.(after) ?? undefined } : null;
  };
  // Views are kept only until the lines that need them are written.
  const drop = () => {
    const keepFrom = done < missing.length ? missing[done] - 1 : Infinity;
    for (const s of [...views.keys()]) if (s < keepFrom) views.delete(s);
  };
  const worker = async () => {
    while (next < wanted.length) {
      const s = wanted[next++];
      views.set(s, (await live.viewAt(s)).view);
      const batch = [];
      while (done < missing.length && views.has(missing[done]) && views.has(missing[done] - 1)) {
        const line = lineAt(missing[done]);
        if (line) batch.push(line);
        done++;
      }
      if (batch.length) {
        out.push(...batch);
        progress(batch);
        drop();
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return out;
}

/**
 * Lines merged by seq (a seq's first line wins).
 * @param {SeenLine[]} a
 * @param {SeenLine[]} b
 */
export function mergeLines(a, b) {
  const by = new Map();
  for (const line of [...a, ...b]) if (!by.has(line.seq)) by.set(line.seq, line);
  return [...by.values()].sort((x, y) => x.seq - y.seq);
}
