// A visit tagged as a marketer tags an Instagram ad, through to the lead, with JavaScript on (a
// real Chromium) and off: GA4 gets campaign_details, page_view and generate_lead on one session
// with every campaign word intact, Meta one Lead with the click's fbc. The production server
// runs in this process with default settings (no proxy in front); msw stands in for GA4 and Meta.
import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { type Browser, chromium, devices } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_FLAGS, findTestBrowser } from "../../scripts/lib/chromium.mjs";
import { directFetch, startBuiltServer } from "../support/server";
import { BINGBOT, IPHONE_SAFARI_18 } from "../support/user-agents";

const GA = "https://www.google-analytics.com/mp/collect";
const META_EVENTS = "https://graph.facebook.com/v23.0/123456789012345/events";
const FBCLID = "IwZXh0bgNhZW0BMABhZGlkAasXyZ3Ch2ABHR0cHM6Ly9kYXJiLmV4YW1wbGUv_aem_Q1w2E3r4T5y6";
const TAGGED =
  "/?utm_source=instagram&utm_medium=paid&utm_campaign=Ramadan%20Promo%202026" +
  `&utm_content=Reel%20A&fbclid=${FBCLID}`;
/** What GA4's campaign_details must say for TAGGED, word for word. */
const DETAILS = {
  source: "instagram",
  medium: "paid",
  campaign: "Ramadan Promo 2026",
  content: "Reel A",
};

type GaEvent = { name: string; params: Record<string, string | number> };
type GaHit = { client_id: string; timestamp_micros: number; events: GaEvent[] };
type MetaHit = {
  data: Array<{
    event_name: string;
    event_id: string;
    event_time: number;
    event_source_url: string;
    action_source: string;
    user_data: Record<string, string>;
    custom_data: Record<string, unknown>;
  }>;
};

const gaHits: GaHit[] = [];
const metaHits: MetaHit[] = [];
/** How long GA4 takes to answer; it takes the events either way. */
let gaDelayMs = 0;

const outside = setupServer(
  http.post(GA, async ({ request }) => {
    gaHits.push((await request.json()) as GaHit);
    if (gaDelayMs) await delay(gaDelayMs);
    return new HttpResponse(null, { status: 204 });
  }),
  http.post(META_EVENTS, async ({ request }) => {
    metaHits.push((await request.json()) as MetaHit);
    return HttpResponse.json({ events_received: 1 });
  }),
);

let site: Awaited<ReturnType<typeof startBuiltServer>>;
let browser: Browser;

beforeAll(async () => {
  outside.listen({ onUnhandledRequest: "bypass" });
  site = await startBuiltServer({
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    META_PIXEL_ID: "123456789012345",
    META_ACCESS_TOKEN: "EAAB_test_token_0123456789",
    ANALYTICS_SALT: "campaign-attribution-salt",
    SITE_URL: "https://darb.example",
    // The defaults people run: no proxy in front, so the socket's address is the visitor's.
    TRUST_PROXY: "",
  });
  browser = await chromium.launch({ executablePath: findTestBrowser(), args: CHROMIUM_FLAGS });
}, 60_000);
afterEach(() => {
  gaHits.length = 0;
  metaHits.length = 0;
  gaDelayMs = 0;
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  outside.close();
});

/** A distinct phone per test: visitors are told apart by address and user agent. */
let phones = 0;
const phone = () => `${IPHONE_SAFARI_18} Test/${++phones}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => T | undefined, what: string, ms = 8000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

const gaEvents = () => gaHits.flatMap((hit) => hit.events);
const named = (name: string) => gaEvents().filter((event) => event.name === name);

/** The page's first WhatsApp lead link, as the server wrote it. */
function whatsappLead(html: string): string {
  const href = html.match(/href="(\/thank-you\?cta=whatsapp[^"]*)"/)?.[1];
  if (!href) throw new Error("no WhatsApp lead link on the page");
  return href.replaceAll("&amp;", "&");
}

function expectWithinGa4Limits(events: GaEvent[]) {
  const own: Record<string, number> = { page_location: 1000, page_referrer: 420, page_title: 300 };
  for (const event of events) {
    expect(event.name.length).toBeLessThanOrEqual(40);
    expect(Object.keys(event.params).length).toBeLessThanOrEqual(25);
    for (const [name, value] of Object.entries(event.params)) {
      expect(name.length, name).toBeLessThanOrEqual(40);
      if (typeof value === "string")
        expect(value.length, `${event.name}.${name}`).toBeLessThanOrEqual(own[name] ?? 100);
    }
  }
}

function expectOneMetaLead(fromPage: string) {
  expect(metaHits).toHaveLength(1);
  const [lead] = metaHits[0]?.data ?? [];
  expect(lead).toMatchObject({
    event_name: "Lead",
    action_source: "website",
    custom_data: { currency: "AED", value: 0, lead_source: "instagram", cta: "whatsapp" },
  });
  expect(lead?.event_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(lead?.user_data.fbc).toMatch(new RegExp(`^fb\\.1\\.\\d{13}\\.${FBCLID}$`));
  expect(lead?.user_data.client_ip_address).toBe("127.0.0.1");
  expect(lead?.user_data.client_user_agent).toMatch(/iPhone|Android/);
  const source = new URL(lead?.event_source_url ?? "");
  expect(`${source.origin}${source.pathname}`).toBe(fromPage);
  expect(source.searchParams.get("utm_campaign")).toBe("Ramadan Promo 2026");
  expect(source.searchParams.get("fbclid")).toBe(FBCLID);
}

describe("a tagged visit that taps WhatsApp, JavaScript off", () => {
  it("gives GA4 campaign_details before generate_lead on one session, every word intact", async () => {
    const headers = { "user-agent": phone() };
    const landing = await directFetch(`${site.origin}${TAGGED}`, { headers });
    expect(landing.status).toBe(200);
    const lead = whatsappLead(await landing.text());
    // The server-rendered link carries the whole campaign, so no script is needed.
    const carried = new URL(lead, site.origin).searchParams;
    expect(carried.get("utm_campaign")).toBe("Ramadan Promo 2026");
    expect(carried.get("utm_content")).toBe("Reel A");
    expect(carried.get("fbclid")).toBe(FBCLID);

    const thankYou = await directFetch(`${site.origin}${lead}`, { headers, redirect: "manual" });
    expect(thankYou.status).toBe(200);
    const thankYouHtml = await thankYou.text();
    const leadEvent = await until(() => named("generate_lead")[0], "generate_lead");
    const events = gaEvents();
    // No script ran: the server counts /thank-you's view with the lead.
    expect(events.map((event) => event.name)).toEqual([
      "campaign_details",
      "page_view",
      "conversion",
      "generate_lead",
    ]);
    expect(events[0]?.params).toMatchObject(DETAILS);
    expect(events[1]?.params).toMatchObject({
      page_location: `https://darb.example${lead}`,
      page_title: "One step left: send the message · Darb",
      source: "instagram",
      campaign: "Ramadan Promo 2026",
      language: "en",
    });
    expect(leadEvent.params).toMatchObject({
      currency: "AED",
      value: 0,
      lead_source: "instagram",
      cta: "whatsapp",
      language: "en",
      ...DETAILS,
      fbclid: FBCLID,
    });
    expect(new Set(events.map((event) => event.params.session_id)).size).toBe(1);
    expectWithinGa4Limits(events);
    await until(() => metaHits[0], "Meta's Lead");
    expectOneMetaLead("https://darb.example/");
    // A pixel added to /thank-you later would use the same id, so Meta counts the lead once.
    expect(thankYouHtml).toContain(`data-lead-id="${metaHits[0]?.data[0]?.event_id}"`);
  }, 20_000);

  it("an untagged visit sends no campaign_details, and its lead is direct", async () => {
    const headers = { "user-agent": phone() };
    const html = await (await directFetch(`${site.origin}/`, { headers })).text();
    const lead = whatsappLead(html);
    expect(lead).not.toMatch(/source|utm_|fbclid/);
    await directFetch(`${site.origin}${lead}`, { headers, redirect: "manual" });
    const leadEvent = await until(() => named("generate_lead")[0], "generate_lead");
    await sleep(200);
    expect(named("campaign_details")).toEqual([]);
    expect(leadEvent.params.lead_source).toBe("direct");
    expect(leadEvent.params).not.toHaveProperty("campaign");
    const meta = await until(() => metaHits[0]?.data[0], "Meta's Lead");
    expect(meta.user_data).not.toHaveProperty("fbc");
  }, 20_000);
});

describe("a tagged visit that taps WhatsApp, JavaScript on", () => {
  it("joins the browser's campaign_details and page_view and the server's lead in one session", async () => {
    const context = await browser.newContext({ ...devices["Pixel 7"], userAgent: phone() });
    // WhatsApp itself is not this test's business: the hand-off goes nowhere.
    await context.route(/^https:\/\/(wa\.me|api\.whatsapp\.com)\//, (route) => route.abort());
    const page = await context.newPage();
    try {
      await page.goto(`${site.origin}${TAGGED}`);
      await until(() => named("page_view")[0], "the landing page_view");
      // The visit's campaign outlives the URL: the tab comes back to a bare / before tapping.
      await page.goto(`${site.origin}/`);
      await until(() => named("page_view")[1], "the second page_view");
      // The lead link's address is read from its request: the page hands off a second later.
      const thankYou = page.waitForRequest(
        (request) => request.isNavigationRequest() && request.url().includes("/thank-you?"),
      );
      await page.locator('a[href^="/thank-you?cta=whatsapp"]:visible').first().click();
      const lead = new URL((await thankYou).url()).searchParams;
      await until(() => named("generate_lead")[0], "generate_lead");
      await until(() => metaHits[0], "Meta's Lead");
      expect(lead.get("utm_campaign")).toBe("Ramadan Promo 2026");
      expect(lead.get("fbclid")).toBe(FBCLID);
      expect(lead.get("sid")).toMatch(/^\d{10}$/);
      await until(() => named("page_view")[2], "the thank-you page_view");
    } finally {
      await context.close();
    }

    const events = gaEvents();
    const names = events.map((event) => event.name);
    // The browser's: campaign_details once for the session, then each page_view; the click;
    // the server's on /thank-you: campaign_details again (it cannot know the browser sent one),
    // conversion and generate_lead.
    expect(names.filter((name) => name === "campaign_details")).toHaveLength(2);
    expect(names.indexOf("campaign_details")).toBeLessThan(names.indexOf("page_view"));
    expect(names).toContain("generate_lead");
    expect(new Set(events.map((event) => event.params.session_id))).toEqual(
      new Set([events[0]?.params.session_id]),
    );
    expect(new Set(gaHits.map((hit) => hit.client_id)).size).toBe(1);
    for (const details of named("campaign_details")) expect(details.params).toMatchObject(DETAILS);
    const [landing, bare, thankYou] = named("page_view");
    expect(landing?.params.page_location).toBe(`${site.origin}${TAGGED}`);
    expect(bare?.params.page_location).toBe(`${site.origin}/`);
    expect(String(thankYou?.params.page_location)).toMatch(/\/thank-you\?cta=whatsapp/);
    expect(thankYou?.params.page_title).toMatch(/\S/);
    // Engagement is the foreground time since the previous event, not a constant.
    const engagement = named("page_view").map((event) => Number(event.params.engagement_time_msec));
    expect(engagement.every((ms) => ms >= 1 && ms < 60_000)).toBe(true);
    expect(new Set(engagement).size).toBeGreaterThan(1);
    expect(named("generate_lead")[0]?.params).toMatchObject({
      lead_source: "instagram",
      ...DETAILS,
      fbclid: FBCLID,
    });
    expectWithinGa4Limits(events);
    expectOneMetaLead(`${"https://darb.example"}/`);
  }, 40_000);
});

describe("who is not counted", () => {
  it.each([
    ["Global Privacy Control", { "sec-gpc": "1" }],
    ["a prefetch", { "sec-purpose": "prefetch" }],
    ["a prerender", { "sec-purpose": "prefetch;prerender" }],
    ["a bot", { "user-agent": BINGBOT }],
  ])("%s: nothing goes to GA4 or to Meta", async (_, extra) => {
    const response = await directFetch(
      `${site.origin}/thank-you?cta=whatsapp&source=ig&fbclid=${FBCLID}`,
      {
        headers: { "user-agent": phone(), ...extra },
        redirect: "manual",
      },
    );
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain("data-lead-id");
    await sleep(400);
    expect(gaHits).toEqual([]);
    expect(metaHits).toEqual([]);
  });
});

describe("/thank-you's own view without JavaScript", () => {
  it("is counted once on a reload (the lead is not), and when the link's sid is malformed", async () => {
    const headers = { "user-agent": phone() };
    const path = "/thank-you?cta=demo&utm_source=newsletter&utm_medium=email";
    await (await directFetch(`${site.origin}${path}`, { headers, redirect: "manual" })).text();
    await until(() => named("generate_lead")[0], "the lead");
    await (await directFetch(`${site.origin}${path}`, { headers, redirect: "manual" })).text();
    await until(() => named("page_view")[1], "the reload's page_view");
    // A sid that is not one: the browser will not count the view, so the server does.
    await directFetch(`${site.origin}/thank-you?cta=email&utm_source=newsletter&sid=12ab`, {
      headers,
      redirect: "manual",
    });
    await until(() => named("page_view")[2], "the page_view for a malformed sid");
    await sleep(300);
    expect(named("generate_lead")).toHaveLength(2);
    expect(named("page_view")).toHaveLength(3);
  }, 20_000);
});

describe("Meta sees only its own click id", () => {
  it("sends no gclid or ttclid to Meta, in the page or the lead's words", async () => {
    await directFetch(
      `${site.origin}/thank-you?cta=whatsapp&utm_source=instagram&gclid=GOOGLECLICK1&ttclid=TIKTOK1&fbclid=${FBCLID}`,
      { headers: { "user-agent": phone() }, redirect: "manual" },
    );
    const lead = await until(() => metaHits[0]?.data[0], "Meta's Lead");
    expect(JSON.stringify(lead)).not.toMatch(/GOOGLECLICK1|TIKTOK1/);
    expect(new URL(lead.event_source_url).searchParams.get("fbclid")).toBe(FBCLID);
    // GA4's lead keeps them, for joining exports.
    expect(await until(() => named("generate_lead")[0], "generate_lead")).toMatchObject({
      params: { gclid: "GOOGLECLICK1", ttclid: "TIKTOK1", fbclid: FBCLID },
    });
  }, 20_000);
});

describe("delivery without duplicates", () => {
  it("GA4 answering after the 2 s timeout still receives each event once", async () => {
    gaDelayMs = 2500;
    const visits = Array.from({ length: 5 }, () => phone());
    for (const [index, agent] of visits.entries()) {
      const response = await directFetch(
        `${site.origin}/thank-you?cta=whatsapp&source=slow-${index}`,
        { headers: { "user-agent": agent }, redirect: "manual" },
      );
      expect(response.status).toBe(200);
      await response.text();
    }
    // 5 leads × campaign_details, page_view, conversion, generate_lead; then long enough for
    // any retry to have come.
    await until(() => (gaEvents().length >= 20 ? true : undefined), "20 events");
    await sleep(5000);
    const received = gaEvents().filter((event) => event.name === "generate_lead");
    expect(received.map((event) => event.params.lead_source).sort()).toEqual(
      visits.map((_, index) => `slow-${index}`),
    );
    expect(gaEvents()).toHaveLength(20);
    // Nothing lost and nothing sent twice: a call that timed out after its body went out waits
    // 10 minutes for a lead's one more try (decision 016), so it is still owed, not dropped.
    const stats = site.site.services.analytics.stats();
    expect(stats.dropped).toBe(0);
    expect(stats.sent + stats.dropped + stats.unconfirmed + stats.queued).toBe(stats.recorded);
  }, 30_000);
});

describe("a click's link_url and Meta's fbc, JavaScript on", () => {
  it("link_url is read and cut at a character, never mid-escape; fbc is the landing's time", async () => {
    // Arabic first: its message is all escapes when not read.
    for (const path of ["/ar", "/"]) {
      // Another phone for each: the same lead again within 30 minutes would be a repeat.
      const context = await browser.newContext({ ...devices["Pixel 7"], userAgent: phone() });
      await context.route(/^https:\/\/(wa\.me|api\.whatsapp\.com)\//, (route) => route.abort());
      const page = await context.newPage();
      try {
        const landedAt = Date.now();
        await page.goto(`${site.origin}${path}${TAGGED.slice(1)}`);
        const landedBy = Date.now();
        await until(() => named("page_view")[0], "the landing page_view");
        // Back to a bare URL in the tab, a while later: the visit still has the click.
        await sleep(1100);
        await page.goto(`${site.origin}${path}`);
        // Hydrated: its page_view is out.
        await until(() => named("page_view")[1], "the bare page_view");
        // A CTA that reports its click (the header's contact link does not). Its address is
        // read from the request: the page hands off a second later, maybe before the checks.
        const thankYou = page.waitForRequest(
          (request) => request.isNavigationRequest() && request.url().includes("/thank-you?"),
        );
        await page.locator('a[href*="thank-you?cta=whatsapp"]:visible').first().click();
        const thankYouUrl = new URL((await thankYou).url());
        await until(() => named("external_link_click")[0], "the click");
        await until(() => metaHits[0], "Meta's Lead");
        const link = String(named("external_link_click")[0]?.params.link_url);
        const lead = metaHits[0]?.data[0];
        const redirect = thankYouUrl.searchParams.get("redirect") ?? "";
        expect(link.length, path).toBeLessThanOrEqual(100);
        expect(link, path).not.toMatch(/%[0-9a-f]?$/i);
        // Read: the message's words, not their escapes, so more of it fits.
        expect(link, path).toMatch(/^https:\/\/wa\.me\/\d+\?text=[^%]/);
        expect(decodeURIComponent(redirect).startsWith(decodeURIComponent(link)), path).toBe(true);
        // All of it when read it fits (English), else as much as fits (Arabic).
        const whole = decodeURIComponent(link) === decodeURIComponent(redirect);
        expect(whole || link.length >= 95, path).toBe(true);
        const fbc = Number(/^fb\.1\.(\d+)\./.exec(lead?.user_data.fbc ?? "")?.[1]);
        expect(fbc, path).toBeGreaterThanOrEqual(landedAt);
        expect(fbc, path).toBeLessThanOrEqual(landedBy);
        expect((lead?.event_time ?? 0) * 1000, path).toBeGreaterThan(landedBy);
      } finally {
        await context.close();
        gaHits.length = 0;
        metaHits.length = 0;
      }
    }
  }, 40_000);
});

describe("hostile campaign values", () => {
  it("are cut or dropped, never a 4xx or 5xx, never reflected raw", async () => {
    const long = "L".repeat(5000);
    const nasty = encodeURIComponent('"><script>alert(1)</script>\u0000\u202e');
    for (const path of [
      `/?utm_campaign=${long}&utm_term=${nasty}`,
      `/?source=${nasty}&utm_content=%zz`,
      `/?fbclid=${long}`,
      `/thank-you?cta=whatsapp&utm_campaign=${long}&source=${nasty}&sid=12ab`,
      `/ar?utm_source=${encodeURIComponent("إنستغرام")}`,
    ]) {
      const response = await directFetch(`${site.origin}${path}`, {
        headers: { "user-agent": phone() },
        redirect: "manual",
      });
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html, path).not.toContain("<script>alert(1)");
      expect(html, path).not.toContain("L".repeat(101));
    }
    await until(() => named("generate_lead")[0], "generate_lead");
    const lead = named("generate_lead")[0];
    expect(String(lead?.params.campaign)).toBe("L".repeat(100));
    expect(String(lead?.params.lead_source)).toBe('"><script>alert(1)</script>');
    expectWithinGa4Limits(gaEvents());
  }, 20_000);
});
