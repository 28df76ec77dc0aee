// The no-JS landing view over real HTTP: a page's <noscript> image, GET /api/view,
// counted on the server session its visitor's no-JS lead then joins; once per visitor, session
// and page; never for bots, prefetches or Sec-GPC: 1; bounded per address; and a safe answer to
// junk. The built server, with a GA4 stand-in, visitors on distinct loopback addresses.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIEWS_PER_ADDRESS } from "~/leads/limits.server";
import { type ChildServer, freePort, sleep, startChildServer } from "../support/child-server";
import { type Destinations, gaEvents, startDestinations } from "../support/destinations";
import { untilOwedNothing } from "../support/metrics-scrape";
import { phoneNavigation, rawBytes, rawRequest } from "../support/raw-http";
import { GOOGLEBOT, IPHONE_SAFARI_18 } from "../support/user-agents";

const SITE = "https://darb.example";

let destinations: Destinations;
let site: ChildServer;
let metricsPort: number;
/** Once the server owes GA4 nothing, what the stand-in has is all it gets. */
const settled = () => untilOwedNothing(metricsPort);

beforeAll(async () => {
  destinations = await startDestinations();
  metricsPort = await freePort();
  site = await startChildServer({
    METRICS_PORT: String(metricsPort),
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    GA_MP_ENDPOINT: destinations.gaEndpoint,
    SITE_URL: SITE,
    TRUST_PROXY: "0",
  });
});

afterAll(async () => {
  await site?.kill();
  await destinations?.close();
});

/** A phone without JavaScript opens `path` from `address`. */
async function open(path: string, address: string) {
  const answer = await phoneNavigation(site.origin, path, address);
  expect(answer.status, path).toBe(200);
  return answer.body;
}

/** The page's no-JS image, as its src. */
function imageOf(html: string): string {
  const src = /<noscript><img src="([^"]*)" alt="" width="1" height="1"\/><\/noscript>/.exec(
    html,
  )?.[1];
  if (src === undefined) throw new Error("no no-JS view image on the page");
  return src.replaceAll("&amp;", "&");
}

/** The image's request, as the phone's browser makes it from the page at `page` (its Referer). */
function image(
  src: string,
  address: string,
  page: string | null,
  headers: Record<string, string> = {},
) {
  return rawBytes(site.origin, src, {
    localAddress: address,
    agent: false,
    headers: {
      "user-agent": IPHONE_SAFARI_18,
      "sec-fetch-dest": "image",
      "sec-fetch-site": "same-origin",
      "sec-fetch-mode": "no-cors",
      ...(page ? { referer: page } : {}),
      ...headers,
    },
  });
}

const views = () => gaEvents(destinations.ga, "page_view");

async function until<T>(read: () => T | undefined, what: string, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(50);
  }
}

describe("a page's view without JavaScript", { timeout: 60_000 }, () => {
  it("starts the visitor's GA4 session where they landed, and their no-JS lead joins it", async () => {
    const address = "127.0.10.1";
    const landing = "/?utm_source=instagram&utm_medium=paid_social&utm_campaign=Eid";
    const html = await open(landing, address);
    const src = imageOf(html);
    // The same for every visitor of the kept page: the path, not the query.
    expect(src).toBe("/api/view?p=/");
    const answer = await image(src, address, `${site.origin}${landing}`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toBe("image/gif");
    expect(answer.headers["cache-control"]).toBe("no-store");
    expect(answer.body.subarray(0, 6).toString()).toBe("GIF89a");

    const [view] = await until(() => (views().length > 0 ? views() : undefined), "the view");
    expect(view?.params).toMatchObject({
      page_location: `${SITE}${landing}`,
      source: "instagram",
      medium: "paid_social",
      campaign: "Eid",
      language: "en",
    });
    const details = gaEvents(destinations.ga, "campaign_details");
    expect(details.map((event) => event.params.session_id)).toEqual([view?.params.session_id]);

    // The tap on the page's own lead link, without JavaScript: no browser session on it.
    const hero = /href="(\/thank-you\?[^"]*pl=hero)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(hero).toBeDefined();
    expect(new URL(hero ?? "", SITE).searchParams.has("sid")).toBe(false);
    await open(hero ?? "", address);
    const lead = await until(() => gaEvents(destinations.ga, "generate_lead")[0], "the no-JS lead");
    expect(lead.client_id).toBe(view?.client_id);
    expect(lead.params.session_id).toBe(view?.params.session_id);
    expect(lead.params.placement).toBe("hero");
  });

  it("counts once per visitor, session and page: a reload or another copy of the image is no new view", async () => {
    const address = "127.0.10.2";
    const page = `${site.origin}/share`;
    const src = imageOf(await open("/share", address));
    expect(src).toBe("/api/view?p=/share");
    const before = views().length;
    for (let n = 0; n < 3; n++) expect((await image(src, address, page)).status).toBe(200);
    // Another page of the same visit is its own view.
    const arabic = imageOf(await open("/ar", address));
    expect((await image(arabic, address, `${site.origin}/ar`)).status).toBe(200);
    await until(() => (views().length >= before + 2 ? true : undefined), "two views");
    await settled();
    const mine = views().slice(before);
    expect(mine.map((event) => event.params.page_location)).toEqual([
      `${SITE}/share`,
      `${SITE}/ar`,
    ]);
    expect(mine[1]?.params.language).toBe("ar");
    expect(new Set(mine.map((event) => event.params.session_id)).size).toBe(1);
  });

  it("counts nothing for bots, prefetches, Sec-GPC: 1, another site's page or a document's request", async () => {
    const before = destinations.ga.length;
    const page = `${site.origin}/`;
    const asks: [string, Record<string, string>, string | null][] = [
      ["127.0.10.10", { "user-agent": GOOGLEBOT }, page],
      ["127.0.10.11", { "sec-purpose": "prefetch" }, page],
      ["127.0.10.12", { "sec-gpc": "1" }, page],
      ["127.0.10.13", { "sec-fetch-site": "cross-site" }, "https://evil.example/"],
      ["127.0.10.14", { "sec-fetch-dest": "document" }, null],
    ];
    for (const [address, headers, referer] of asks) {
      const answer = await image("/api/view?p=/", address, referer, headers);
      // The same pixel either way: whoever asks learns nothing, and no page shows a broken image.
      expect(answer.status).toBe(200);
      expect(answer.headers["content-type"]).toBe("image/gif");
    }
    const head = await rawRequest(site.origin, "/api/view?p=/", {
      method: "HEAD",
      localAddress: "127.0.10.15",
      agent: false,
      headers: { "user-agent": IPHONE_SAFARI_18, "sec-fetch-site": "same-origin" },
    });
    expect(head.status).toBe(200);
    await settled();
    expect(destinations.ga.length).toBe(before);
  });

  it("answers junk with a short 400 that quotes none of it, and a write with a 405", async () => {
    const before = destinations.ga.length;
    for (const src of [
      "/api/view",
      "/api/view?p=",
      "/api/view?p=share",
      "/api/view?p=//evil.example/",
      `/api/view?p=${encodeURIComponent("/<script>alert(1)</script>")}`,
      `/api/view?p=${encodeURIComponent("/\u202Eevil")}`,
      `/api/view?p=/${"a".repeat(600)}`,
      "/api/view?p=%ZZ",
    ]) {
      const answer = await rawRequest(site.origin, src, {
        localAddress: "127.0.10.20",
        agent: false,
        headers: { "user-agent": IPHONE_SAFARI_18, "sec-fetch-dest": "image" },
      });
      expect(answer.status, src).toBe(400);
      expect(answer.body).toBe("Not a page of this site.\n");
      expect(answer.headers["cache-control"]).toBe("no-store");
    }
    const post = await rawRequest(site.origin, "/api/view?p=/", {
      method: "POST",
      localAddress: "127.0.10.21",
      agent: false,
      headers: { "user-agent": IPHONE_SAFARI_18, "content-type": "text/plain" },
      body: "x",
    });
    expect(post.status).toBe(405);
    await settled();
    expect(destinations.ga.length).toBe(before);
  });

  it("bounds what one address counts, however many visitors it poses as", async () => {
    const before = views().length;
    const asked = VIEWS_PER_ADDRESS.capacity + 60;
    const started = Date.now();
    for (let n = 0; n < asked; n++) {
      const answer = await image("/api/view?p=/sitemap", "127.0.10.30", `${site.origin}/sitemap`, {
        "user-agent": `${IPHONE_SAFARI_18} n/${n}`,
      });
      expect(answer.status).toBe(200);
    }
    const seconds = (Date.now() - started) / 1000;
    await until(
      () => (views().length - before >= VIEWS_PER_ADDRESS.capacity ? true : undefined),
      "the burst's views",
    );
    await settled();
    const counted = views().length - before;
    expect(counted).toBeGreaterThanOrEqual(VIEWS_PER_ADDRESS.capacity);
    // The burst, then what refills while the flood lasts: never one view per request.
    expect(counted).toBeLessThanOrEqual(
      VIEWS_PER_ADDRESS.capacity + Math.ceil(seconds * VIEWS_PER_ADDRESS.refillPerSecond) + 1,
    );
    expect(counted).toBeLessThan(asked);
  });
});
