// Leads' fields over real HTTP against the built server (in this process, msw for GA4
// and Meta): what is not a visit records no lead, and the fields GA4 and Meta get for a lead
// mean what a marketer reads them as (the session without JavaScript, timestamp_micros, fbc).
import { HttpResponse, http as mswHttp } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { rawRequest } from "../support/raw-http";
import { directFetch, startBuiltServer } from "../support/server";
import { IPHONE_SAFARI_18 } from "../support/user-agents";

const GA = "https://www.google-analytics.com/mp/collect";
const META_EVENTS = "https://graph.facebook.com/v23.0/123456789012345/events";
const FBCLID = "IwZXh0bgNhZW0BMABhZGlkAasXyZ3Ch2ABHR0cHM6Ly9kYXJiLmV4YW1wbGUv_aem_LeadFields1";

type GaEvent = { name: string; params: Record<string, string | number> };
type GaHit = { client_id: string; timestamp_micros?: number; events: GaEvent[] };
type MetaLead = {
  event_time: number;
  event_id: string;
  user_data: Record<string, string>;
};

const gaHits: { at: number; body: GaHit }[] = [];
const metaLeads: MetaLead[] = [];
/** GA4 answers 500 to this many calls before it takes them again. */
let gaFailures = 0;

const outside = setupServer(
  mswHttp.post(GA, async ({ request }) => {
    gaHits.push({ at: Date.now(), body: (await request.json()) as GaHit });
    if (gaFailures > 0) {
      gaFailures -= 1;
      return new HttpResponse(null, { status: 500 });
    }
    return new HttpResponse(null, { status: 204 });
  }),
  mswHttp.post(META_EVENTS, async ({ request }) => {
    metaLeads.push(...((await request.json()) as { data: MetaLead[] }).data);
    return HttpResponse.json({ events_received: 1 });
  }),
);

let site: Awaited<ReturnType<typeof startBuiltServer>>;
let visitors = 0;
/** Each visitor its own address (behind the one trusted proxy) and phone. */
function visitor() {
  visitors += 1;
  return {
    "x-forwarded-for": `203.0.113.${visitors}`,
    "user-agent": `${IPHONE_SAFARI_18} Fields/${visitors}`,
  };
}

beforeAll(async () => {
  outside.listen({ onUnhandledRequest: "bypass" });
  site = await startBuiltServer({
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    META_PIXEL_ID: "123456789012345",
    META_ACCESS_TOKEN: "EAAB_test_token_0123456789",
    ANALYTICS_SALT: "lead-fields-salt",
    SITE_URL: "https://darb.example",
    TRUST_PROXY: "1",
  });
});
afterEach(() => {
  vi.useRealTimers();
  gaHits.length = 0;
  metaLeads.length = 0;
  gaFailures = 0;
});
afterAll(async () => {
  await site?.close();
  outside.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => T | undefined, what: string, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

const gaEvents = () => gaHits.flatMap((hit) => hit.body.events);
const leads = () => gaEvents().filter((event) => event.name === "generate_lead");

function get(path: string, headers: Record<string, string>, method = "GET") {
  return directFetch(`${site.origin}${path}`, { method, headers, redirect: "manual" });
}

/** A request with headers exactly as given, repeated lines included (fetch would join them). */
const rawGet = (path: string, headers: Record<string, string | string[]>) =>
  rawRequest(site.origin, path, { headers });

/** Nothing reached GA4 or Meta, given time to. */
async function expectNothingSent() {
  await sleep(400);
  expect(gaHits).toEqual([]);
  expect(metaLeads).toEqual([]);
}

const LEAD = `/thank-you?cta=whatsapp&source=ig&fbclid=${FBCLID}`;

describe("only a GET navigation records a lead", () => {
  it("HEAD answers as GET does, without a body, and counts nothing; the GET after it counts", async () => {
    const who = visitor();
    const head = await get(LEAD, who, "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    await expectNothingSent();

    const got = await get(LEAD, who);
    expect(got.status).toBe(200);
    const html = await got.text();
    expect(html).toContain("data-lead-id");
    await until(() => leads()[0], "the GET's lead");
    await until(() => metaLeads[0], "the GET's Meta Lead");
    // The same headers, but for the ones every response makes anew, and the framing of a body
    // (chunked) that a HEAD does not have.
    const fresh = new Set([
      "date",
      "content-security-policy",
      "content-length",
      "transfer-encoding",
      // How the connection is kept: the client's business, not the answer's.
      "connection",
      "keep-alive",
      // What a visitor's browser keeps: a HEAD is no visitor's navigation, and keeps nothing.
      "set-cookie",
    ]);
    const headersOf = (response: Response) =>
      [...response.headers].filter(([name]) => !fresh.has(name));
    expect(headersOf(head)).toEqual(headersOf(got));
  });

  it.each([
    ["Purpose: prefetch", { purpose: "prefetch" }],
    ["Purpose: Prefetch", { Purpose: "Prefetch" }],
    ["Sec-Purpose: prefetch", { "sec-purpose": "prefetch" }],
    [
      "Sec-Purpose: prefetch;anonymous-client-ip",
      { "sec-purpose": "prefetch;anonymous-client-ip" },
    ],
    ["Sec-Purpose: Prefetch; Prerender", { "sec-purpose": "Prefetch; Prerender" }],
    ["X-Purpose: preview", { "x-purpose": "preview" }],
    ["X-Purpose: prefetch", { "x-purpose": "prefetch" }],
    ["X-Purpose: Preview", { "X-Purpose": "Preview" }],
    ["X-Moz: prefetch", { "x-moz": "prefetch" }],
    ["Sec-GPC: 1, 1 (one line)", { "sec-gpc": "1, 1" }],
    ["Sec-GPC: ' 1 '", { "sec-gpc": " 1 " }],
  ])("%s records nothing", async (_, extra) => {
    const response = await get(LEAD, { ...visitor(), ...extra });
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain("data-lead-id");
    await expectNothingSent();
  });

  it("Sec-GPC sent twice, as two header lines, records nothing", async () => {
    const response = await rawGet(LEAD, { ...visitor(), "sec-gpc": ["1", "1"] });
    expect(response.status).toBe(200);
    expect(response.body).not.toContain("data-lead-id");
    await expectNothingSent();
  });
});

/** The session each of a visitor's leads was recorded on, in order. */
const leadSessions = () => leads().map((event) => String(event.params.session_id));

describe("the session of a visit without JavaScript", () => {
  it("is its own: a new campaign, or 30 minutes since the visitor's last lead, starts a new one", async () => {
    // Only Date is faked: the server's timers and sockets run as ever.
    vi.useFakeTimers({ toFake: ["Date"] });
    // Morning in Dubai: the visitor's daily id stays the same throughout.
    const start = Date.parse("2026-03-10T05:00:00Z");
    vi.setSystemTime(start);
    const who = visitor();
    const minutes = (n: number) => vi.setSystemTime(start + n * 60_000);
    const campaignA = "&utm_source=instagram&utm_campaign=Spring%20A";
    const campaignB = "&utm_source=instagram&utm_campaign=Spring%20B";

    await get(`/thank-you?cta=whatsapp${campaignA}`, who);
    await until(() => leads()[0], "the first lead");
    minutes(20);
    await get(`/thank-you?cta=email${campaignA}`, who);
    await until(() => leads()[1], "the second lead");
    // 45 minutes after the first lead, 25 after the last: still the same session.
    minutes(45);
    await get(`/thank-you?cta=demo${campaignA}`, who);
    await until(() => leads()[2], "the third lead");
    // Another campaign the same day: a new session.
    minutes(46);
    await get(`/thank-you?cta=whatsapp${campaignB}`, who);
    await until(() => leads()[3], "the other campaign's lead");
    // 31 minutes since the visitor's last lead: a new session, the campaign as before.
    minutes(77);
    await get(`/thank-you?cta=email${campaignB}`, who);
    await until(() => leads()[4], "the lead after a pause");

    const [first, second, third, other, later] = leadSessions();
    expect(first).toMatch(/^\d+$/);
    expect([second, third]).toEqual([first, first]);
    expect(other).not.toBe(first);
    expect(later).not.toBe(other);
    expect(later).not.toBe(first);
    // Every event of a lead is on its session, campaign_details and page_view included.
    for (const hit of gaHits) {
      expect(new Set(hit.body.events.map((event) => event.params.session_id)).size).toBe(1);
    }
  });

  it("is another visitor's own, even on the same campaign at the same second", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse("2026-03-10T06:00:00Z"));
    await get("/thank-you?cta=whatsapp&source=ig", visitor());
    await get("/thank-you?cta=whatsapp&source=ig", visitor());
    await until(() => leads()[1], "both leads");
    const clients = new Set(gaHits.map((hit) => hit.body.client_id));
    expect(clients.size).toBe(2);
  });
});

describe("timestamp_micros", () => {
  it("is not sent with a lead sent as it happens", async () => {
    await get("/thank-you?cta=whatsapp&source=ig", visitor());
    const hit = await until(() => gaHits[0], "the lead");
    expect(hit.body).not.toHaveProperty("timestamp_micros");
  });

  it("is the lead's own time when GA4 takes it late, after retries", async () => {
    gaFailures = 2;
    const before = Date.now();
    await get("/thank-you?cta=whatsapp&source=ig", visitor());
    const after = Date.now();
    const last = await until(() => gaHits[2], "the second retry", 10_000);
    const [first, retry] = gaHits;
    // At once, and a second later: as it happens, near enough.
    expect(first?.body).not.toHaveProperty("timestamp_micros");
    expect(retry?.body).not.toHaveProperty("timestamp_micros");
    // Three seconds later: when the lead happened, not when it was sent.
    expect(last.at - before).toBeGreaterThanOrEqual(3000);
    expect(last.body.timestamp_micros).toBeGreaterThanOrEqual(before * 1000);
    expect(last.body.timestamp_micros).toBeLessThanOrEqual(after * 1000);
    expect(last.body.events).toEqual(first?.body.events);
  }, 15_000);

  it("is never older than GA4's 72 hours: such a lead is dropped and counted", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const start = Date.parse("2026-03-10T07:00:00Z");
    vi.setSystemTime(start);
    gaFailures = 1;
    const dropped = Number(site.site.services.counters().dropped);
    await get("/thank-you?cta=whatsapp&source=ig", visitor());
    await until(() => gaHits[0], "the first try");
    // The retry comes a second later, by which time the lead is 73 hours old.
    vi.setSystemTime(start + 73 * 3600_000);
    await sleep(2500);
    expect(gaHits).toHaveLength(1);
    expect(Number(site.site.services.counters().dropped)).toBe(dropped + 4);
  });
});

/** The lead links on a page, as the server wrote them. */
function leadLinks(html: string): URL[] {
  return [...html.matchAll(/href="(\/thank-you\?[^"]*)"/g)].map(
    (match) => new URL((match[1] ?? "").replaceAll("&amp;", "&"), "https://darb.example"),
  );
}

/** fbc's creation time, in ms. */
const fbcTime = (lead: MetaLead | undefined) =>
  Number(/^fb\.1\.(\d+)\./.exec(lead?.user_data.fbc ?? "")?.[1]);

describe("Meta's fbc, without JavaScript", () => {
  it("is created when the landing request first carried the fbclid, not at the lead", async () => {
    const who = visitor();
    const before = Date.now();
    const landing = await get(`/?utm_source=instagram&fbclid=${FBCLID}`, who);
    const after = Date.now();
    const links = leadLinks(await landing.text());
    expect(links.length).toBeGreaterThan(0);
    await sleep(1200);
    const link = links.find((url) => url.searchParams.get("cta") === "whatsapp");
    await get(`${link?.pathname}${link?.search}`, who);
    const lead = await until(() => metaLeads[0], "Meta's Lead");
    expect(lead.user_data.fbc).toMatch(new RegExp(`^fb\\.1\\.\\d{13}\\.${FBCLID}$`));
    expect(fbcTime(lead)).toBeGreaterThanOrEqual(before);
    expect(fbcTime(lead)).toBeLessThanOrEqual(after);
    expect(lead.event_time * 1000).toBeGreaterThan(after);
  });

  it("is the lead's time when the link's time is not one to trust, and never a 5xx", async () => {
    for (const at of ["99999999999999", "abc", "1", "-5", "1e12", String(Date.now() + 3600_000)]) {
      metaLeads.length = 0;
      const before = Date.now();
      const response = await get(
        `/thank-you?cta=whatsapp&fbclid=${FBCLID}&fbclid_at=${encodeURIComponent(at)}`,
        visitor(),
      );
      expect(response.status, at).toBe(200);
      expect(await response.text(), at).not.toContain(`fbclid_at=${at}"`);
      const lead = await until(() => metaLeads[0], `Meta's Lead for ${at}`);
      expect(fbcTime(lead), at).toBeGreaterThanOrEqual(before);
      expect(fbcTime(lead), at).toBeLessThanOrEqual(Date.now());
    }
  });

  it("puts no time on the links of a page without an fbclid, which other visitors are served too", async () => {
    const html = await (await get("/?utm_source=instagram", visitor())).text();
    for (const link of leadLinks(html)) expect(link.searchParams.has("fbclid_at")).toBe(false);
  });
});
