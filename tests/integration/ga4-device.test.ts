// GA4 hears where and on what a visitor was, over HTTP against the built server as people run it
// (no proxy in front: each visitor is a loopback address of its own, Node's localAddress), with
// GA4's stand-in on loopback: a lead and a browser's batch carry the visitor's address as
// ip_override and the device their user agent names; a bot or a Global Privacy Control visitor
// is sent nothing; and once GA4 has a call, the ledger's file is rewritten without the address.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type ChildServer,
  freshDataDir,
  sleep,
  startChildServer,
  until,
} from "../support/child-server";
import { type Destinations, type GaHit, startDestinations } from "../support/destinations";
import { rawRequest } from "../support/raw-http";
import { GOOGLEBOT, IPHONE_SAFARI_18_1, SAMSUNG_INTERNET } from "../support/user-agents";

let destinations: Destinations;
const servers: ChildServer[] = [];

beforeAll(async () => {
  destinations = await startDestinations();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  destinations.ga.length = 0;
});
afterAll(async () => {
  await destinations?.close();
});

async function start(dataDir = freshDataDir()) {
  const server = await startChildServer({
    // The default: no proxy trusted, the connection's own address is the visitor's.
    TRUST_PROXY: "",
    DATA_DIR: dataDir,
    GA_MEASUREMENT_ID: "G-DEVICE123",
    GA_API_SECRET: "device_secret_1",
    GA_MP_ENDPOINT: destinations.gaEndpoint,
  });
  servers.push(server);
  return server;
}

/** One request from `address` (127.0.0.2 and up), on a connection of its own. */
const from = (
  server: ChildServer,
  address: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
) => rawRequest(server.origin, path, { ...options, localAddress: address, agent: false });

const lead = (server: ChildServer, address: string, path: string, headers = {}) =>
  from(server, address, path, { headers: { "user-agent": IPHONE_SAFARI_18_1, ...headers } });

/** GA4's calls that say they are from `address`. */
const hitsFrom = (address: string) =>
  destinations.ga.filter((hit: GaHit) => hit.ip_override === address);
const names = (hits: GaHit[]) => hits.flatMap((hit) => hit.events.map((event) => event.name));

const IPHONE_DEVICE = {
  category: "mobile",
  operating_system: "iOS",
  operating_system_version: "18.1",
  brand: "Apple",
  model: "iPhone",
  browser: "Safari",
  browser_version: "18.1",
};

describe("GA4 hears the visitor's address and device", () => {
  it("on every call of a lead from an iPhone, its page_view included, in the page's language", async () => {
    const server = await start();
    const address = "127.0.0.77";
    const answer = await lead(
      server,
      address,
      "/ar/thank-you?cta=whatsapp&utm_source=instagram&utm_campaign=device-iphone",
    );
    expect(answer.status).toBe(200);
    await until(() => names(hitsFrom(address)).includes("generate_lead"), "the lead in GA4");
    const hits = hitsFrom(address);
    expect(names(hits)).toEqual(
      expect.arrayContaining(["campaign_details", "page_view", "conversion", "generate_lead"]),
    );
    // Every call the lead made is the visitor's: none went without the address.
    const clientId = hits[0]?.client_id;
    expect(destinations.ga.filter((hit) => hit.client_id === clientId)).toEqual(hits);
    for (const hit of hits) {
      expect(hit.ip_override).toBe(address);
      expect(hit.device).toEqual({ ...IPHONE_DEVICE, language: "ar" });
      // GA4 ignores user_agent beside a device: it is not sent.
      expect(hit).not.toHaveProperty("user_agent");
      // Top-level only: no event parameter repeats them.
      expect(JSON.stringify(hit.events)).not.toContain(address);
    }
  }, 60_000);

  it("on a browser's batch from a Samsung phone", async () => {
    const server = await start();
    const address = "127.0.0.78";
    const answer = await from(server, address, "/api/events", {
      method: "POST",
      headers: {
        "user-agent": SAMSUNG_INTERNET,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify({
        events: [{ name: "page_view", params: { page_location: "/", language: "en" } }],
      }),
    });
    expect(answer.status).toBe(204);
    await until(() => hitsFrom(address).length > 0, "the batch in GA4");
    const [hit] = hitsFrom(address);
    expect(hit?.events.map((event) => event.name)).toEqual(["page_view"]);
    expect(hit?.device).toEqual({
      category: "mobile",
      language: "en",
      operating_system: "Android",
      operating_system_version: "14",
      brand: "Samsung",
      model: "SM-S918B",
      browser: "Samsung Internet",
      browser_version: "26.0",
    });
  }, 60_000);

  it("of no bot and no visitor who sent Sec-GPC: 1", async () => {
    const server = await start();
    expect(
      (
        await lead(server, "127.0.0.79", "/thank-you?cta=whatsapp&utm_source=gpc", {
          "sec-gpc": "1",
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await lead(server, "127.0.0.80", "/thank-you?cta=whatsapp&utm_source=bot", {
          "user-agent": GOOGLEBOT,
        })
      ).status,
    ).toBe(200);
    // A visitor after them: once their lead is in, anything owed for the first two would be too.
    await lead(server, "127.0.0.81", "/thank-you?cta=whatsapp&utm_source=after");
    await until(() => names(hitsFrom("127.0.0.81")).includes("generate_lead"), "the later lead");
    await sleep(300);
    expect(hitsFrom("127.0.0.79")).toEqual([]);
    expect(hitsFrom("127.0.0.80")).toEqual([]);
    expect(destinations.ga.every((hit) => hit.ip_override === "127.0.0.81")).toBe(true);
  }, 60_000);
});

describe("the visitor's address in the ledger", () => {
  it("is gone from the file once GA4 has the call and the file is rewritten", async () => {
    const dir = freshDataDir();
    const server = await start(dir);
    const address = "127.0.0.82";
    await lead(server, address, "/thank-you?cta=whatsapp&utm_source=ledger");
    const file = () => readFileSync(join(dir, "leads.jsonl"), "utf8");
    await until(() => names(hitsFrom(address)).includes("generate_lead"), "the lead in GA4");
    // GA4's answer written down: the call is settled, not owed.
    await until(() => file().includes('"t":"done"'), "the call settled in the ledger");
    // Written before it was sent, as every call is: the address was on disk until delivered.
    // (The call's body is a string in the line: its quotes escaped.)
    expect(file()).toContain(`\\"ip_override\\":\\"${address}\\"`);
    await server.kill();
    // The next start rewrites the file with what is alive: the lead, not its delivered calls.
    await start(dir);
    const text = file();
    // The lead is kept, with its campaign.
    expect(text).toContain('"utm_source":"ledger"');
    expect(text).not.toContain(address);
    expect(text).not.toContain("ip_override");
    expect(text).not.toContain("iPhone");
  }, 60_000);
});
