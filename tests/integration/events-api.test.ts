import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { directFetch, startBuiltServer } from "../support/server";
import { ANDROID_CHROME, CURL } from "../support/user-agents";

const forwarded: string[] = [];
const ga = setupServer(
  http.post("https://www.google-analytics.com/mp/collect", async ({ request }) => {
    const body = (await request.json()) as { events: { name: string }[] };
    forwarded.push(...body.events.map((event) => event.name));
    return new HttpResponse(null, { status: 204 });
  }),
);

let site: Awaited<ReturnType<typeof startBuiltServer>>;
let counter = 0;

beforeAll(async () => {
  ga.listen({ onUnhandledRequest: "bypass" });
  site = await startBuiltServer({
    GA_MEASUREMENT_ID: "G-TEST12345",
    GA_API_SECRET: "test_secret_1",
    TRUST_PROXY: "1",
    SITE_URL: "https://darb.example",
  });
});
afterEach(() => {
  forwarded.length = 0;
});
afterAll(async () => {
  await site?.close();
  ga.close();
});

function post(body: string, headers: Record<string, string> = {}) {
  return directFetch(`${site.origin}/api/events`, {
    method: "POST",
    headers: {
      "user-agent": ANDROID_CHROME,
      "content-type": "application/json",
      "sec-fetch-site": "same-origin",
      "x-forwarded-for": `192.0.2.${++counter}`,
      ...headers,
    },
    body,
  });
}

const batch = (events: unknown[]) => JSON.stringify({ events });
const pageView = { name: "page_view", params: { page_location: "/", source: "direct" } };

describe("POST /api/events", () => {
  it("accepts a batch from our own pages with 204 and forwards it", async () => {
    const response = await post(
      batch([pageView, { name: "cta_click", params: { cta_type: "demo" } }]),
    );
    expect(response.status).toBe(204);
    expect(response.headers.get("cache-control")).toBe("no-store");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(forwarded.sort()).toEqual(["cta_click", "page_view"]);
  });

  it("accepts an Origin of SITE_URL when Sec-Fetch-Site is missing", async () => {
    const response = await post(batch([pageView]), {
      "sec-fetch-site": "",
      origin: "https://darb.example",
    });
    expect(response.status).toBe(204);
  });

  it.each([
    ["another site", { "sec-fetch-site": "cross-site" }],
    ["a foreign Origin", { "sec-fetch-site": "", origin: "https://evil.example" }],
    ["no origin at all", { "sec-fetch-site": "" }],
  ])("refuses %s with 403", async (_, headers) => {
    const response = await post(batch([pageView]), headers);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: "only this site's pages may send events" });
  });

  it.each([
    [
      "a lead from a browser",
      batch([{ name: "generate_lead", params: { value: 1000 } }]),
      /name is not one of/,
    ],
    ["a conversion from a browser", batch([{ name: "conversion" }]), /name is not one of/],
    ["26 events", batch(Array.from({ length: 26 }, () => pageView)), /at most 25 events/],
    ["broken JSON", '{"events": [', /not valid JSON/],
    [
      "a long value",
      batch([{ name: "page_view", params: { label: "x".repeat(101) } }]),
      /longer than 100/,
    ],
    [
      "a title over GA4's 300",
      batch([{ name: "page_view", params: { page_title: "x".repeat(301) } }]),
      /page_title is longer than 300/,
    ],
    [
      "a malformed session id",
      JSON.stringify({ session_id: "12ab", events: [pageView] }),
      /session_id/,
    ],
    [
      "a bad parameter name",
      batch([{ name: "page_view", params: { "1bad": "x" } }]),
      /parameter name/,
    ],
    [
      "a body over 16 KB",
      batch([{ name: "page_view", params: { pad: "x".repeat(17_000) } }]),
      /larger than 16384/,
    ],
  ])("answers %s with 400 and says why", async (_, body, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: string };
    expect(error).toMatch(message);
    expect(forwarded).toEqual([]);
  });

  it("refuses a form post's content type", async () => {
    const response = await post("events=1", {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(response.status).toBe(400);
  });

  it("answers GET with 405", async () => {
    const response = await directFetch(`${site.origin}/api/events`);
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("slows one flooding address down with 429 while another still gets through", async () => {
    const flood = { "x-forwarded-for": "203.0.113.66" };
    const statuses: number[] = [];
    for (let i = 0; i < 70; i++) statuses.push((await post(batch([pageView]), flood)).status);
    expect(statuses.slice(0, 60).every((status) => status === 204)).toBe(true);
    expect(statuses.slice(60)).toContain(429);
    const limited = await post(batch([pageView]), flood);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
    expect((await post(batch([pageView]), { "x-forwarded-for": "203.0.113.67" })).status).toBe(204);
  });

  it("accepts but records nothing for a GPC browser or a bot", async () => {
    expect((await post(batch([pageView]), { "sec-gpc": "1" })).status).toBe(204);
    expect((await post(batch([pageView]), { "user-agent": CURL })).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(forwarded).toEqual([]);
  });
});
