// A visitor who comes back days after the ad's click still brings the ad its lead
// (docs/decisions/027-attribution-cookies.md), on the built server as production runs it: no
// proxy in front, each visitor its own loopback address. The landing server runs on today's
// clock; the one the visitor comes back to runs a day (or eight) later under libfaketime, and
// the browser's cookie jar is played by hand: what Set-Cookie said, sent back as Cookie.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type AdNetworks, startAdNetworks } from "../support/ad-networks";
import { type ChildServer, freePort, startChildServer, until } from "../support/child-server";
import { type Destinations, gaEvents, startDestinations } from "../support/destinations";
import { clockAhead } from "../support/faketime";
import { scrapeMetrics } from "../support/metrics-scrape";
import { rawBytes } from "../support/raw-http";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

let networks: AdNetworks;
let destinations: Destinations;
const servers: ChildServer[] = [];
let visitors = 10;

beforeAll(async () => {
  networks = await startAdNetworks();
  destinations = await startDestinations();
});
afterEach(async () => {
  for (const server of servers.splice(0)) await server.kill();
  networks.reset();
  destinations.ga.length = 0;
  destinations.meta.length = 0;
});
afterAll(async () => {
  await networks?.close();
  await destinations?.close();
});

/** A production server with every destination on, no proxy in front; `ahead`: its clock later. */
async function start(ahead?: string, env: Record<string, string> = {}) {
  const server = await startChildServer(
    networks.env({
      TRUST_PROXY: "0",
      GA_MEASUREMENT_ID: "G-KEPT12345",
      GA_API_SECRET: "kept_secret_1",
      GA_MP_ENDPOINT: destinations.gaEndpoint,
      META_PIXEL_ID: "1234567890",
      META_ACCESS_TOKEN: "kept_access_token_0123456789",
      META_CAPI_ENDPOINT: destinations.metaEndpoint,
      ...(ahead ? clockAhead(ahead) : {}),
      ...env,
    }),
  );
  servers.push(server);
  return server;
}

type Visitor = { address: string; jar: Map<string, string> };

function newVisitor(): Visitor {
  visitors += 1;
  return { address: `127.0.0.${visitors}`, jar: new Map() };
}

/** A page request from `visitor`'s phone, its cookies sent and the answer's kept, as a browser does. */
async function visit(
  server: ChildServer,
  visitor: Visitor,
  path: string,
  headers: Record<string, string> = {},
) {
  const cookie = [...visitor.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  const answer = await rawBytes(server.origin, path, {
    localAddress: visitor.address,
    agent: false,
    headers: {
      "user-agent": IPHONE_SAFARI_18,
      "sec-fetch-dest": "document",
      ...(cookie ? { cookie } : {}),
      ...headers,
    },
  });
  const setCookies = [answer.headers["set-cookie"] ?? []].flat();
  for (const line of setCookies) {
    const [pair = ""] = line.split(";", 1);
    const equals = pair.indexOf("=");
    const [name, value] = [pair.slice(0, equals), pair.slice(equals + 1)];
    if (/Max-Age=0/.test(line)) visitor.jar.delete(name);
    else visitor.jar.set(name, value);
  }
  expect(answer.status, path).toBe(200);
  return { setCookies, html: answer.body.toString("utf8") };
}

const CAMPAIGN = "utm_source=google&utm_medium=cpc&utm_campaign=Brand%20Dubai";

describe("a visitor who comes back a day after the ad's click", () => {
  it("brings each network its own click, and GA4 the campaign, on a lead made untagged", async () => {
    const landing = await start();
    const clicks = {
      gclid: "Cj0KCQ-kept-google-click",
      fbclid: "IwAR-kept-meta-click",
      ttclid: "E.C.P.kept-tiktok-click",
      ScCid: "5f4c3b2a-kept-snap-click",
    };
    const people = Object.fromEntries(
      Object.keys(clicks).map((name) => [name, newVisitor()]),
    ) as Record<keyof typeof clicks, Visitor>;
    const landedAt = Date.now();
    for (const [name, id] of Object.entries(clicks)) {
      const visitor = people[name as keyof typeof clicks];
      const { setCookies } = await visit(landing, visitor, `/?${CAMPAIGN}&${name}=${id}`);
      const kept = setCookies.find((line) => line.startsWith("darb_campaign="));
      // HttpOnly, Lax, Secure (SITE_URL is https), for 90 days; Meta's id beside it.
      expect(kept).toMatch(/; Max-Age=7776000; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
      expect(kept).toContain(`${name}=${id}`);
      expect(visitor.jar.get("_fbp")).toMatch(/^fb\.1\.\d{13}\.\d{10}$/);
      // Only the ids and the words: never the visitor's address.
      expect(setCookies.join("\n")).not.toContain(visitor.address);
    }
    await landing.kill();

    // The next day, the same phones, from the site's bare address: the chat link carries no campaign.
    const later = await start("+1d");
    for (const visitor of Object.values(people)) {
      const back = await visit(later, visitor, "/");
      expect(back.setCookies, "an untagged visit changes nothing kept").toEqual([]);
      await visit(later, visitor, "/thank-you?cta=whatsapp");
    }
    await until(() => networks.conversions().length >= 1, "Google's conversion");
    await until(() => networks.tiktokEvents().length >= 1, "TikTok's Contact");
    await until(() => networks.snapEvents().length >= 1, "Snap's SIGN_UP");
    await until(() => destinations.meta.some((e) => e.event_name === "Lead"), "Meta's Lead");
    await until(() => gaEvents(destinations.ga, "generate_lead").length >= 4, "GA4's leads");

    expect(networks.conversions().map((event) => event.adIdentifiers.gclid)).toEqual([
      clicks.gclid,
    ]);
    // TikTok and Snap hear of every lead (matched by address and user agent), each with its own click.
    await until(() => networks.snapEvents().length === 4, "Snap's four");
    await until(() => networks.tiktokEvents().length === 4, "TikTok's four");
    expect(networks.tiktokEvents().flatMap((event) => event.user.ttclid ?? [])).toEqual([
      clicks.ttclid,
    ]);
    expect(networks.snapEvents().flatMap((event) => event.user_data.sc_click_id ?? [])).toEqual([
      clicks.ScCid,
    ]);
    const leads = destinations.meta.filter((event) => event.event_name === "Lead");
    expect(leads).toHaveLength(4);
    const metaLead = leads.find((event) => event.user_data.fbc);
    // fbc dated when the click was first seen, the day before; every Lead with its browser's fbp.
    const [, , seenAt] = (metaLead?.user_data.fbc ?? "").split(".");
    expect(Number(seenAt)).toBeGreaterThanOrEqual(landedAt - 5000);
    expect(Number(seenAt)).toBeLessThan(landedAt + 60_000);
    expect(metaLead?.user_data.fbc).toBe(`fb.1.${seenAt}.${clicks.fbclid}`);
    expect(leads.map((event) => event.user_data.fbp).sort()).toEqual(
      Object.values(people)
        .map((visitor) => visitor.jar.get("_fbp"))
        .sort(),
    );
    for (const event of gaEvents(destinations.ga, "generate_lead")) {
      expect(event.params).toMatchObject({
        lead_source: "google",
        source: "google",
        medium: "cpc",
        campaign: "Brand Dubai",
      });
    }
  }, 120_000);

  it("brings a Meta click no more after Meta's 7 days, but the campaign for 90", async () => {
    const landing = await start();
    const visitor = newVisitor();
    await visit(landing, visitor, `/?${CAMPAIGN}&fbclid=IwAR-old-click`);
    await landing.kill();
    const later = await start("+8d");
    await visit(later, visitor, "/thank-you?cta=whatsapp");
    await until(() => destinations.meta.some((e) => e.event_name === "Lead"), "Meta's Lead");
    await until(() => gaEvents(destinations.ga, "generate_lead").length === 1, "GA4's lead");
    const [lead] = destinations.meta.filter((event) => event.event_name === "Lead");
    expect(lead?.user_data).not.toHaveProperty("fbc");
    expect(lead?.user_data.fbp).toBe(visitor.jar.get("_fbp"));
    expect(gaEvents(destinations.ga, "generate_lead")[0]?.params.campaign).toBe("Brand Dubai");
  }, 120_000);
});

describe("what the browser keeps", () => {
  it("is nothing for Sec-GPC: 1, and what an earlier visit left is cleared", async () => {
    const server = await start();
    const visitor = newVisitor();
    const gpc = await visit(server, visitor, `/?${CAMPAIGN}&gclid=G-gpc`, { "sec-gpc": "1" });
    expect(gpc.setCookies).toEqual([]);
    await visit(server, visitor, `/?${CAMPAIGN}&gclid=G-first`);
    expect(visitor.jar.has("darb_campaign")).toBe(true);
    const cleared = await visit(server, visitor, "/", { "sec-gpc": "1" });
    expect(cleared.setCookies.every((line) => line.includes("Max-Age=0"))).toBe(true);
    expect(visitor.jar.size).toBe(0);
  }, 60_000);

  it("is nothing for a bot, a prefetch or Remix's data request", async () => {
    const server = await start();
    for (const headers of <Array<Record<string, string>>>[
      { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" },
      { "sec-purpose": "prefetch" },
    ]) {
      const { setCookies } = await visit(server, newVisitor(), `/?${CAMPAIGN}&gclid=G`, headers);
      expect(setCookies).toEqual([]);
    }
    const data = await rawBytes(server.origin, `/?${CAMPAIGN}&gclid=G&_data=root`, {
      localAddress: newVisitor().address,
      headers: { "user-agent": IPHONE_SAFARI_18 },
    });
    expect(data.headers["set-cookie"]).toBeUndefined();
  }, 60_000);

  it("changes no kept page: a cached page sets each visitor's own cookie, and reads none", async () => {
    const metricsPort = await freePort();
    const server = await start(undefined, { METRICS_PORT: String(metricsPort) });
    const first = newVisitor();
    const second = newVisitor();
    // A tagged page without a click id is kept for the next visitor with the same campaign.
    const one = await visit(server, first, `/?${CAMPAIGN}`);
    const two = await visit(server, second, `/?${CAMPAIGN}`);
    expect(one.setCookies.some((line) => line.startsWith("darb_campaign="))).toBe(true);
    expect(two.setCookies.some((line) => line.startsWith("darb_campaign="))).toBe(true);
    expect(second.jar.get("_fbp")).not.toBe(first.jar.get("_fbp"));
    // The bare page, with and without what the browser kept: one entry, answered from memory.
    const withCookies = await visit(server, first, "/");
    const without = await visit(server, newVisitor(), "/");
    const noNonce = (html: string) => html.replace(/nonce="[^"]+"/g, "");
    expect(noNonce(withCookies.html)).toBe(noNonce(without.html));
    const values = await scrapeMetrics(metricsPort);
    expect(values.get('darb_render_cache_requests_total{result="hit"}')).toBe(2);
    expect(values.get('darb_render_cache_requests_total{result="miss"}')).toBe(2);
  }, 60_000);
});
