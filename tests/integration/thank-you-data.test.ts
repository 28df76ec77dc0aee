// /thank-you's data requests (`?_data=`) against the real server: Remix answers them with the
// loader's data for a navigation inside the browser, and takes `_data` off the URL the loader
// sees. They count no lead, whatever their headers claim; the same address without it counts one.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildServer, freshDataDir, sleep, startChildServer } from "../support/child-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

let server: ChildServer;
let dataDir: string;
let visitors = 0;

beforeAll(async () => {
  dataDir = freshDataDir();
  // GA4 not configured: every event it would get is a line on stdout.
  server = await startChildServer({ DATA_DIR: dataDir });
});
afterAll(async () => {
  await server?.kill();
});

const leadLines = () =>
  existsSync(join(dataDir, "leads.jsonl"))
    ? readFileSync(join(dataDir, "leads.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line.startsWith('{"t":"lead"'))
    : [];
const generated = () => server.analytics.filter((line) => line.name === "generate_lead").length;

/** A new visitor's GET, as a phone's own navigation says it is one. */
async function get(path: string) {
  visitors += 1;
  const response = await fetch(`${server.origin}${path}`, {
    headers: {
      "user-agent": IPHONE_SAFARI_18,
      "sec-fetch-dest": "document",
      "sec-fetch-mode": "navigate",
      "x-forwarded-for": `198.51.100.${visitors}`,
    },
  });
  await response.arrayBuffer();
  return response.status;
}

describe("a data request for /thank-you", () => {
  it.each([
    "/thank-you?cta=whatsapp&_data=routes%2Fthank-you",
    "/thank-you?_data=routes%2Fthank-you&cta=whatsapp&utm_source=ig",
    // Read as Remix reads the query: the escaped name is _data too.
    "/thank-you?cta=whatsapp&%5Fdata=routes%2Fthank-you",
    "/ar/thank-you?cta=whatsapp&_data=ar%2Fthank-you",
  ])("%s counts no lead", async (path) => {
    expect(await get(path)).toBe(200);
    expect(leadLines()).toEqual([]);
    expect(generated()).toBe(0);
  });

  it("the same address without _data counts one", async () => {
    expect(await get("/thank-you?cta=whatsapp")).toBe(200);
    expect(leadLines()).toHaveLength(1);
    // Its events are printed as the outbox sends them, just after the answer.
    for (let waited = 0; generated() === 0 && waited < 10_000; waited += 50) await sleep(50);
    expect(generated()).toBe(1);
  });
});
