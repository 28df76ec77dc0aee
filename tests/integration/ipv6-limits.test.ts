// IPv6 visitors behind a proxy (TRUST_PROXY=1, as behind deploy/nginx), on the built server: a
// carrier or an ISP gives one phone or one home a whole /64, so the /64's many addresses add
// leads as one IPv4 address does, in memory and in Redis alike; and one address written three
// ways is one visitor. Leads are counted as an operator counts them: the `t:"lead"` lines of the
// ledger in each server's DATA_DIR.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEADS_PER_ADDRESS } from "~/leads/limits.server";
import { type ChildServer, freshDataDir, startChildServer } from "../support/child-server";
import { rawRequest } from "../support/raw-http";
import { type RedisServer, startRedis } from "../support/redis-server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

type Site = { server: ChildServer; dataDir: string };

async function startSite(env: Record<string, string> = {}): Promise<Site> {
  const dataDir = freshDataDir();
  const server = await startChildServer({ TRUST_PROXY: "1", DATA_DIR: dataDir, ...env });
  return { server, dataDir };
}

/** The leads a server's ledger holds from campaign `source`. */
function ledgerLeads(site: Site, source: string) {
  return readFileSync(join(site.dataDir, "leads.jsonl"), "utf8")
    .split("\n")
    .filter(Boolean)
    .map(
      (line) =>
        JSON.parse(line) as {
          t: string;
          lead?: { clientId: string; campaign: { source?: string } };
        },
    )
    .flatMap((line) =>
      line.t === "lead" && line.lead?.campaign.source === source ? [line.lead] : [],
    );
}

/**
 * A phone tapping WhatsApp from each address in turn (20 at a time), each in X-Forwarded-For as
 * the proxy in front appends it, spread over `sites` in turn; checks each got its page, and
 * resolves with how long it took.
 */
async function tapFrom(sites: Site[], addresses: string[], source: string): Promise<number> {
  const started = performance.now();
  for (let n = 0; n < addresses.length; n += 20) {
    const answers = await Promise.all(
      addresses.slice(n, n + 20).map((address, k) =>
        rawRequest(
          (sites[(n + k) % sites.length] as Site).server.origin,
          `/thank-you?cta=whatsapp&source=${source}`,
          {
            headers: { "user-agent": IPHONE_SAFARI_18, "x-forwarded-for": address },
            agent: false,
          },
        ),
      ),
    );
    // Counted or not, every visitor gets the page and its way on to WhatsApp.
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toContain("https://wa.me/");
    }
  }
  return performance.now() - started;
}

/** 100 addresses of one /64, each written as a phone's privacy address would be. */
const oneNetwork = Array.from(
  { length: 100 },
  (_, n) =>
    `2001:db8:4:1:${(0x1000 + n * 613).toString(16)}:${((n * 7919) & 0xffff).toString(16)}:9a:${n + 1}`,
);
/** 100 addresses, each in a /64 of its own. */
const manyNetworks = Array.from({ length: 100 }, (_, n) => `2001:db8:5:${n.toString(16)}::1`);

/** The burst, and what the address earned back while the taps lasted (one a minute). */
const capFor = (ms: number) =>
  LEADS_PER_ADDRESS.capacity + Math.floor((ms / 1000) * LEADS_PER_ADDRESS.refillPerSecond);

describe("IPv6 visitors, limits in the server's memory", () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  }, 30_000);
  afterAll(async () => {
    await site?.server.kill();
  });

  it("counts 100 addresses of one /64 as one address: 60 leads", async () => {
    const ms = await tapFrom([site], oneNetwork, "one-64");
    const leads = ledgerLeads(site, "one-64");
    console.log(`one /64, memory: ${leads.length} of 100 taps counted in ${Math.round(ms)} ms`);
    expect(leads.length).toBeGreaterThanOrEqual(LEADS_PER_ADDRESS.capacity);
    expect(leads.length).toBeLessThanOrEqual(capFor(ms));
    // Each one counted is its own visitor: the /64 is one address to the caps alone.
    expect(new Set(leads.map((lead) => lead.clientId)).size).toBe(leads.length);
  }, 30_000);

  it("counts 100 addresses in 100 /64s as 100 leads", async () => {
    await tapFrom([site], manyNetworks, "many-64");
    expect(ledgerLeads(site, "many-64")).toHaveLength(100);
  }, 30_000);

  it("counts one address written three ways as one visitor's one lead", async () => {
    await tapFrom(
      [site],
      ["3fff:6:1::a1", "3FFF:6:1:0:0:0:0:A1", "3fff:0006:0001:0000:0000:0000:0000:00a1"],
      "three-ways",
    );
    await tapFrom(
      [site],
      ["::ffff:198.51.100.23", "::FFFF:C633:6417", "0:0:0:0:0:ffff:198.51.100.23"],
      "three-ways-mapped",
    );
    expect(ledgerLeads(site, "three-ways")).toHaveLength(1);
    expect(ledgerLeads(site, "three-ways-mapped")).toHaveLength(1);
    // And it is the IPv4 visitor that address is.
    await tapFrom([site], ["198.51.100.23"], "three-ways-mapped");
    expect(ledgerLeads(site, "three-ways-mapped")).toHaveLength(1);
  }, 30_000);

  it("tells the operator how many it refused", async () => {
    process.kill(site.server.pid, "SIGTERM");
    const line = await site.server.waitForLine((entry) => entry.type === "analytics_shutdown");
    expect(line.leads_capped).toBe(100 - ledgerLeads(site, "one-64").length);
    // The two spellings after the first, and the IPv4 after its mapped spellings.
    expect(line.leads_repeated).toBe(2 + 2 + 1);
  });
});

describe("IPv6 visitors, limits in Redis shared by two replicas", () => {
  let redis: RedisServer;
  let sites: Site[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    sites = await Promise.all([1, 2].map(() => startSite({ REDIS_URL: redis.url })));
    const states = await Promise.all(
      sites.map(({ server }) => server.waitForLine((line) => line.type === "shared_state")),
    );
    expect(states.map((line) => line.state)).toEqual(["up", "up"]);
  }, 30_000);
  afterAll(async () => {
    await Promise.all(sites.map(({ server }) => server.kill()));
    await redis?.close();
  });

  it("counts 100 addresses of one /64, spread over both replicas, as one address: 60 leads", async () => {
    const ms = await tapFrom(sites, oneNetwork, "one-64-redis");
    const counted = sites.map((site) => ledgerLeads(site, "one-64-redis").length);
    // Both replicas counted some: the cap is the one they share.
    expect(counted.every((count) => count > 0)).toBe(true);
    const total = counted.reduce((sum, count) => sum + count, 0);
    console.log(
      `one /64, Redis: ${counted.join(" + ")} of 100 taps counted in ${Math.round(ms)} ms`,
    );
    expect(total).toBeGreaterThanOrEqual(LEADS_PER_ADDRESS.capacity);
    expect(total).toBeLessThanOrEqual(capFor(ms));
    await tapFrom(sites, manyNetworks, "many-64-redis");
    const many = sites.map((site) => ledgerLeads(site, "many-64-redis").length);
    expect(many.reduce((sum, count) => sum + count, 0)).toBe(100);
    // Redis decided every one: none was counted in a replica's memory alone.
    for (const { server } of sites) process.kill(server.pid, "SIGTERM");
    const lines = await Promise.all(
      sites.map(({ server }) => server.waitForLine((line) => line.type === "analytics_shutdown")),
    );
    expect(lines.map((line) => line.unconfirmed_dedupe)).toEqual([0, 0]);
    expect(lines.reduce((sum, line) => sum + Number(line.leads_capped), 0)).toBe(100 - total);
  }, 30_000);
});
