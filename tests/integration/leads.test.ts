import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { directFetch, startBuiltServer } from "../support/server";
import { GOOGLEBOT, IPHONE_SAFARI_17 } from "../support/user-agents";

const GA = "https://www.google-analytics.com/mp/collect";

type Hit = {
  url: URL;
  body: {
    client_id: string;
    timestamp_micros?: number;
    events: { name: string; params: Record<string, unknown> }[];
  };
};
const hits: Hit[] = [];
let gaMode: "ok" | "fail" | "hang" = "ok";

const ga = setupServer(
  http.post(GA, async ({ request }) => {
    hits.push({ url: new URL(request.url), body: (await request.json()) as Hit["body"] });
    if (gaMode === "hang") await delay("infinite");
    if (gaMode === "fail") return new HttpResponse(null, { status: 500 });
    return new HttpResponse(null, { status: 204 });
  }),
);

let site: Awaited<ReturnType<typeof startBuiltServer>>;
let counter = 0;
/** Each test is its own visitor, behind our one trusted proxy. */
const visitor = () => `198.51.100.${++counter}`;

beforeAll(async () => {
  ga.listen({ onUnhandledRequest: "bypass" });
  site = await startBuiltServer({
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    ANALYTICS_SALT: "integration-test-salt",
    TRUST_PROXY: "1",
    SITE_URL: "https://darb.example",
  });
});
afterEach(() => {
  hits.length = 0;
  gaMode = "ok";
});
afterAll(async () => {
  await site?.close();
  ga.close();
});

function get(path: string, headers: Record<string, string> = {}) {
  return directFetch(`${site.origin}${path}`, {
    headers: { "user-agent": IPHONE_SAFARI_17, ...headers },
    redirect: "manual",
  });
}

async function waitForHits(count: number, ms = 3000): Promise<Hit[]> {
  const end = Date.now() + ms;
  while (hits.length < count && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  return [...hits];
}

/** Long enough for a forward the server should not have made to show up. */
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("a lead from /thank-you reaches GA4 in its payload shape", () => {
  it("records campaign_details, then conversion and generate_lead with AED 0, the CTA and the campaign", async () => {
    const ip = visitor();
    const response = await get(
      "/thank-you?cta=whatsapp&source=instagram&utm_campaign=Eid%20Offer",
      {
        "x-forwarded-for": ip,
      },
    );
    expect(response.status).toBe(200);
    const [hit] = await waitForHits(1);
    expect(hit?.url.searchParams.get("measurement_id")).toBe("G-TEST12345");
    expect(hit?.url.searchParams.get("api_secret")).toBe("test_secret_1");
    expect(hit?.body.client_id).toMatch(/^\d+\.\d+$/);
    // Sent as it happened: GA4 times it (timestamp_micros is only for events sent late).
    expect(hit?.body).not.toHaveProperty("timestamp_micros");
    // No session id on the link (no JavaScript): the visitor's own, the same on every event.
    const session = { session_id: expect.stringMatching(/^\d+$/), engagement_time_msec: 1 };
    const params = {
      currency: "AED",
      value: 0,
      lead_source: "instagram",
      cta: "whatsapp",
      // The page's language: this lead came through the English /thank-you.
      language: "en",
      source: "instagram",
      campaign: "Eid Offer",
      ...session,
    };
    expect(hit?.body.events).toEqual([
      {
        name: "campaign_details",
        params: { source: "instagram", campaign: "Eid Offer", language: "en", ...session },
      },
      {
        // No session on the link, so no script followed it: the server counts the page's view.
        name: "page_view",
        params: {
          page_location: expect.stringMatching(
            /^https:\/\/darb\.example\/thank-you\?cta=whatsapp&/,
          ),
          page_title: expect.any(String),
          source: "instagram",
          campaign: "Eid Offer",
          language: "en",
          ...session,
        },
      },
      { name: "conversion", params },
      { name: "generate_lead", params },
    ]);
    const sessions = new Set(hit?.body.events.map((event) => event.params.session_id));
    expect(sessions.size).toBe(1);
    await settle();
    expect(hits).toHaveLength(1);
  });

  it("records the lead on the session the lead link carries (sid), when it is well formed", async () => {
    const ip = visitor();
    await get("/thank-you?cta=demo&source=ig&sid=1764000000", { "x-forwarded-for": ip });
    const [hit] = await waitForHits(1);
    for (const event of hit?.body.events ?? []) expect(event.params.session_id).toBe("1764000000");
    hits.length = 0;
    await get("/thank-you?cta=email&source=ig&sid=17640x", { "x-forwarded-for": ip });
    const [other] = await waitForHits(1);
    for (const event of other?.body.events ?? []) expect(event.params.session_id).toMatch(/^\d+$/);
    expect(other?.body.events[0]?.params.session_id).not.toBe("1764000000");
  });

  it("takes the source from utm_source when the link has no source, as the landing page does", async () => {
    await get("/thank-you?cta=whatsapp&utm_source=facebook&utm_medium=cpc", {
      "x-forwarded-for": visitor(),
    });
    const [hit] = await waitForHits(1);
    const lead = hit?.body.events.find((event) => event.name === "generate_lead");
    expect(lead?.params).toMatchObject({
      lead_source: "facebook",
      source: "facebook",
      medium: "cpc",
      cta: "whatsapp",
    });
  });

  it("counts a reload as the same lead", async () => {
    const headers = { "x-forwarded-for": visitor() };
    await get("/thank-you?cta=demo&source=tiktok", headers);
    await get("/thank-you?cta=demo&source=tiktok", headers);
    await settle();
    // The reload is a view of the page again, not a lead again.
    const batches = hits.map((hit) => hit.body.events.map((event) => event.name));
    expect(batches.sort((a, b) => b.length - a.length)).toEqual([
      ["campaign_details", "page_view", "conversion", "generate_lead"],
      ["page_view"],
    ]);
  });

  it("records only a conversion for a plain link", async () => {
    await get("/thank-you?cta=link&source=x", { "x-forwarded-for": visitor() });
    const [hit] = await waitForHits(1);
    expect(hit?.body.events.map((event) => event.name)).toEqual([
      "campaign_details",
      "page_view",
      "conversion",
    ]);
  });

  it.each([
    ["a prefetch", { "sec-purpose": "prefetch" }],
    ["a bot", { "user-agent": GOOGLEBOT }],
    ["Global Privacy Control", { "sec-gpc": "1" }],
  ])("records nothing for %s", async (_, headers) => {
    const response = await get("/thank-you?cta=whatsapp&source=quiet", {
      "x-forwarded-for": visitor(),
      ...headers,
    });
    expect(response.status).toBe(200);
    await settle();
    expect(hits).toHaveLength(0);
  });

  it("records nothing for a client-side data request or an invalid cta", async () => {
    const ip = visitor();
    await get("/thank-you?cta=whatsapp&source=data&_data=routes%2Fthank-you", {
      "x-forwarded-for": ip,
      "sec-fetch-dest": "empty",
      "sec-fetch-mode": "cors",
    });
    await get("/thank-you?cta=sms&source=data", { "x-forwarded-for": ip });
    await settle();
    expect(hits).toHaveLength(0);
  });
});

describe("the browser's events join the lead", () => {
  it("forwards a valid batch under the same client_id as the visitor's lead", async () => {
    const ip = visitor();
    const events = await directFetch(`${site.origin}/api/events`, {
      method: "POST",
      headers: {
        "user-agent": IPHONE_SAFARI_17,
        "x-forwarded-for": ip,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify({
        session_id: "1764000123",
        events: [
          { name: "external_link_click", params: { cta_type: "whatsapp", source: "instagram" } },
        ],
      }),
    });
    expect(events.status).toBe(204);
    await get("/thank-you?cta=whatsapp&source=instagram&sid=1764000123", { "x-forwarded-for": ip });
    const received = await waitForHits(2);
    expect(received).toHaveLength(2);
    expect(received[0]?.body.client_id).toBe(received[1]?.body.client_id);
    const all = received.flatMap((hit) => hit.body.events);
    expect(all.map((event) => event.name).sort()).toEqual([
      "campaign_details",
      "conversion",
      "external_link_click",
      "generate_lead",
      // /thank-you's own view, counted with the lead: the page may leave before its script runs.
      "page_view",
    ]);
    // The browser's batch and the server's lead share the browser's session.
    expect(new Set(all.map((event) => event.params.session_id))).toEqual(new Set(["1764000123"]));
  });
});

describe("GA4 having a bad day never slows or breaks a page", () => {
  async function timed(path: string, ip: string) {
    const started = performance.now();
    const response = await get(path, { "x-forwarded-for": ip });
    await response.text();
    return { status: response.status, ms: performance.now() - started };
  }

  it.each(["fail", "hang"] as const)("GA4 %s: /thank-you answers at once", async (mode) => {
    gaMode = mode;
    const results = [];
    for (let i = 0; i < 5; i++)
      results.push(await timed(`/thank-you?cta=whatsapp&source=${mode}${i}`, visitor()));
    expect(results.every((result) => result.status === 200)).toBe(true);
    // GA4's own timeout is 2 s: a page that waited for it would take at least that long.
    expect(Math.max(...results.map((result) => result.ms))).toBeLessThan(1000);
    // Every lead reached GA4's door: all 5 when it fails at once; at least the 4 that go out at a
    // time when it hangs (msw holds the body until its answer, which never comes).
    const reached = mode === "fail" ? 5 : 4;
    await waitForHits(reached);
    expect(hits.length).toBeGreaterThanOrEqual(reached);
  });
});
