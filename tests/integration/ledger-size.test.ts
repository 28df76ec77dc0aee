// A ledger of any size and any damage is read at start (docs/decisions/016-lead-ledger.md): 600 MB
// of what a long outage leaves behind (browser events owed, then settled), with a line of every
// kind that cannot be believed among them. It starts, says each line it skipped once, and keeps
// every lead. Run alone (the `load` project): it writes and reads 600 MB.
import { closeSync, openSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ChildServer, freshDataDir, startChildServer } from "../support/child-server";

const MB = 1024 * 1024;
let server: ChildServer | undefined;
afterAll(async () => {
  await server?.kill();
});

/** What an outage leaves: leads, and browser events owed by the hundred then settled. */
function writeLedger(path: string, bytes: number) {
  const fd = openSync(path, "w");
  const now = Date.now();
  let written = 0;
  let line = 0;
  const bad = new Map<number, string>();
  const put = (text: string) => {
    const buffer = Buffer.from(`${text}\n`);
    writeSync(fd, buffer);
    written += buffer.length;
    line += 1;
  };
  const call = (id: string, n: number) => ({
    id,
    destination: "ga4",
    url: "https://www.google-analytics.com/mp/collect?measurement_id=G-BIG",
    body: JSON.stringify({
      client_id: `${n}.1`,
      events: Array.from({ length: 25 }, (_, e) => ({
        name: "page_view",
        params: { page_location: `https://darb.example/?n=${n}&e=${e}`, session_id: "1764000000" },
      })),
    }),
    events: 25,
    at: now - 60_000,
    browser: true,
    attempt: 3,
    dueAt: 0,
    uncertain: 0,
  });
  let leads = 0;
  let batch = 0;
  while (written < bytes) {
    leads += 1;
    put(
      JSON.stringify({
        t: "lead",
        lead: {
          id: `lead-${leads}`,
          at: now - 3_600_000,
          cta: "whatsapp",
          campaign: { source: "ig" },
          clientId: `${leads}.2`,
          sessionId: "1764000000",
          status: "new",
        },
      }),
    );
    const ids = Array.from({ length: 100 }, (_, n) => `c${batch + n}`);
    batch += ids.length;
    put(JSON.stringify({ t: "calls", calls: ids.map((id, n) => call(id, n)) }));
    for (const id of ids) put(JSON.stringify({ t: "done", id, outcome: "delivered" }));
    // Now and then, one line of each kind that cannot be believed.
    if (leads % 400 === 1 && bad.size < 5) {
      const kinds = [
        ["null", "not an entry (an object with a type)"],
        ['{"t":"lead","lead":null}', "its lead is not an object"],
        ['{"t":"status"}', "a status without its lead or time"],
        [
          '{"t":"lead","lead":{"id":"lea',
          "not JSON (a line cut short, or written by something else)",
        ],
        ['{"t":"calls","calls":[{"id":"x"}]}', "call 1 skipped: no destination"],
      ];
      const [text, reason] = kinds[bad.size] as [string, string];
      put(text);
      bad.set(line, reason);
    }
  }
  // A call a rollback left behind, for a destination this build does not know: kept.
  put(JSON.stringify({ t: "calls", calls: [{ ...call("later", 0), destination: "pinterest" }] }));
  closeSync(fd);
  return { leads, bad };
}

describe("a ledger of 600 MB with damaged lines", () => {
  it("starts, says each skipped line once with its number, and keeps every lead", async () => {
    const dir = freshDataDir();
    const path = join(dir, "leads.jsonl");
    const { leads, bad } = writeLedger(path, 600 * MB);
    expect(statSync(path).size).toBeGreaterThan(600 * MB);
    expect(bad.size).toBe(5);
    server = await startChildServer({ DATA_DIR: dir }, { startWithinMs: 240_000 });
    const skipped = server.lines.filter((line) => line.type === "ledger_line_skipped");
    expect(skipped.map((line) => [line.line, line.reason])).toEqual([...bad]);
    // Rewritten at start: every lead, the unknown destination's call, and little else.
    const kept = readFileSync(path, "utf8").split("\n").filter(Boolean);
    expect(kept.filter((line) => line.startsWith('{"t":"lead"'))).toHaveLength(leads);
    expect(kept.some((line) => line.includes('"destination":"pinterest"'))).toBe(true);
    expect(statSync(path).size).toBeLessThan(10 * MB);
    expect((await fetch(`${server.origin}/`)).status).toBe(200);
  }, 300_000);
});
