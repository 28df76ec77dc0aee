// The log under hostile requests, on the production server as the container runs it: every line
// of stdout and stderr is one JSON object, none has a `type` a client chose, none carries a
// stack for a client's mistake, and no request writes much. Client text that reaches the log
// (a `_data` value, a path) is a bounded, escaped string field.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildServer, startChildServer } from "../support/child-server";
import { sendBytes } from "../support/raw-http";
import { ANDROID_CHROME } from "../support/user-agents";

/** A record type no server line has: a line with it was written by a client. */
const FORGED = "forged_7a3";
const FORGED_LINE = `{"type":"${FORGED}","dropped":99999}`;

let server: ChildServer;

beforeAll(async () => {
  // LOG_REQUESTS=1 puts a line per request in the log too: paths reach it that way as well.
  server = await startChildServer({ LOG_REQUESTS: "1" });
});
afterAll(async () => {
  await server?.kill();
});

/** Sends one raw request on its own connection; resolves with the status line's code (0: none). */
const send = async (head: string): Promise<number> =>
  (await sendBytes(server.origin, head, 10_000)).status;

const get = (target: string, headers: Record<string, string> = {}) =>
  send(
    `GET ${target} HTTP/1.1\r\nHost: darb.example\r\nUser-Agent: ${ANDROID_CHROME}\r\n${Object.entries(
      headers,
    )
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join("")}Connection: close\r\n\r\n`,
  );

/** A JSON line, escaped every way a log line could be broken: CR, LF, U+2028, U+2029. */
const breaks = ["%0A", "%0D", "%0D%0A", "%E2%80%A8", "%E2%80%A9", "%C2%85"];
const forged = (brk: string) => `${brk}${encodeURIComponent(FORGED_LINE)}${brk}`;

/** What the server wrote to stderr, start-up's warning about the sample settings aside. */
const stderrLines = () =>
  server
    .stderr()
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith('{"type":"config_warning"'));

/** Every stdout and stderr line so far, parsed; a line that does not parse fails the test. */
function everyLine(): Array<Record<string, unknown>> {
  const unparsed = server.lines.filter((line) => line.type === "unparsed");
  expect(unparsed, "stdout lines that are not JSON").toEqual([]);
  const stderr = server
    .stderr()
    .split("\n")
    .filter((line) => line !== "");
  const parsed = stderr.map((line) => {
    try {
      return JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`a stderr line that is not JSON: ${line.slice(0, 300)}`);
    }
  });
  return [...server.lines, ...parsed];
}

/** Bytes the server has logged: stdout's parsed lines re-serialised, and stderr as written. */
const loggedBytes = () =>
  server.lines.reduce((sum, line) => sum + JSON.stringify(line).length + 1, 0) +
  server.stderr().length;

describe("the log under hostile requests", { timeout: 120_000 }, () => {
  it("a `_data` naming no route, with a line break and a forged line, is one line of the log", async () => {
    const before = server.lines.length;
    const status = await get(`/?_data=x${forged("%0A")}`);
    expect([403, 404]).toContain(status);
    // The request line and the refusal's line; the refusal carries the value as a string.
    await server.waitForLine((line) => line.type === "bad_request");
    const lines = server.lines.slice(before);
    const refusal = lines.filter((line) => line.type === "bad_request");
    expect(refusal).toHaveLength(1);
    expect(refusal[0]).toMatchObject({ method: "GET", path: "/", status: 403 });
    expect(String(refusal[0]?.reason)).toContain(FORGED_LINE);
    expect(everyLine().filter((line) => line.type === FORGED)).toEqual([]);
    expect(stderrLines()).toEqual([]);
  });

  it("paths, queries and headers with every kind of line break forge nothing", async () => {
    const targets = breaks.flatMap((brk) => [
      `/?_data=${forged(brk)}`,
      `/thank-you?_data=routes%2Fnothing${forged(brk)}`,
      `/ar?_data=root${forged(brk)}`,
      `/${forged(brk)}`,
      `/x${brk}y`,
      `/ar/${forged(brk)}?cta=${forged(brk)}`,
      `/thank-you?cta=whatsapp&source=${forged(brk)}&returnUrl=${forged(brk)}`,
      `/api/events?_data=${forged(brk)}`,
      `/sitemap.xml?_data=x${forged(brk)}`,
      `/app-screens/${forged(brk)}.svg`,
    ]);
    for (const target of targets) {
      const status = await get(target, { Referer: `https://x.example/${FORGED_LINE}` });
      expect(status, target).toBeGreaterThan(0);
      expect(status, target).toBeLessThan(500);
    }
    const lines = everyLine();
    expect(lines.filter((line) => line.type === FORGED)).toEqual([]);
    expect(lines.filter((line) => line.type === "server_error")).toEqual([]);
    // No stack anywhere: a client's mistake is a short line.
    expect(JSON.stringify(lines)).not.toMatch(/\bat [^"]*\.js:\d+/);
    expect(stderrLines()).toEqual([]);
  });

  it("a fuzz of hostile targets and headers keeps every line JSON and every type the server's", async () => {
    const piece = fc.oneof(
      fc.constantFrom(...breaks, "%22", "%5C", "%7B", "%7D", "%00", "%FF", "%F0%9F%98%80", "%D8"),
      fc.constantFrom(encodeURIComponent(FORGED_LINE), "_data=", "&", "?", "/", "ar", "root"),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const target = fc
      .array(piece, { minLength: 1, maxLength: 12 })
      .map((parts) => `/${parts.join("")}`);
    const header = fc.constantFrom(
      ["X-Forwarded-For", `1.2.3.4, ${FORGED_LINE}`],
      ["Referer", `https://x.example/?${FORGED_LINE}`],
      ["Accept-Language", `ar;q=0.9, ${FORGED_LINE}`],
      ["Sec-Fetch-Dest", FORGED_LINE],
      ["X-Remix-Response", FORGED_LINE],
      ["Purpose", "prefetch"],
    );
    const samples = fc.sample(fc.tuple(target, header), { numRuns: 300, seed: 24_2026 });
    for (const [path, [name, value]] of samples) {
      const status = await get(path, { [name]: value });
      expect(status, path).toBeLessThan(500);
    }
    const lines = everyLine();
    const types = new Set(lines.map((line) => String(line.type)));
    expect(types.has(FORGED)).toBe(false);
    // Every type is one the server writes, whatever the requests asked for.
    for (const type of types) {
      expect(["config_warning", "listening", "request", "bad_request"]).toContain(type);
    }
  });

  it("a `_data` of 15 kB writes a bounded line, not the value", async () => {
    const refusals = () => server.lines.filter((line) => line.type === "bad_request").length;
    const [before, refusedBefore] = [loggedBytes(), refusals()];
    const requests = 200;
    const value = `x${forged("%0A")}${"y".repeat(15_000)}`;
    for (let n = 0; n < requests; n++) await get(`/?_data=${value}`);
    await server.waitForLine(() => refusals() - refusedBefore >= requests);
    const perRequest = (loggedBytes() - before) / requests;
    // The request line and the refusal, each field cut to a few hundred characters.
    expect(perRequest).toBeLessThan(1_000);
    expect(stderrLines()).toEqual([]);
  });
});

describe("what every line says", () => {
  it("when, which replica, and with LOG_LEADS=1 each lead counted once, never who tapped", async () => {
    const leads = await startChildServer({ LOG_LEADS: "1", REPLICA_ID: "site-7" });
    try {
      const tap = (n: number) =>
        fetch(`${leads.origin}/thank-you?cta=whatsapp&utm_source=ig&utm_campaign=Eid`, {
          headers: { "user-agent": ANDROID_CHROME, "x-forwarded-for": `203.0.113.${n}` },
        });
      for (const n of [41, 42, 41]) expect((await tap(n)).status).toBe(200);
      await leads.waitForLine((line) => line.type === "lead");
      await new Promise((resolve) => setTimeout(resolve, 500));
      const lines = leads.lines.filter((line) => line.type === "lead");
      // The third tap is the first visitor's again: one lead, one line.
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(line).toMatchObject({
          cta: "whatsapp",
          source: "ig",
          campaign: "Eid",
          ref: expect.stringMatching(/^DRB-/),
          replica: "site-7",
        });
        expect(Number.isNaN(Date.parse(String(line.time)))).toBe(false);
        const text = JSON.stringify(line);
        expect(text).not.toContain("203.0.113");
        expect(text).not.toContain("Android");
      }
      // Every line the server wrote says when and where.
      for (const line of leads.lines)
        expect(line).toMatchObject({ time: expect.any(String), replica: "site-7" });
      // Off by default: the other server here writes none.
      expect(server.lines.filter((line) => line.type === "lead")).toEqual([]);
    } finally {
      await leads.kill();
    }
  });
});
