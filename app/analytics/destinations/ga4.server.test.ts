// GA4's Measurement Protocol: its settings, 25 events to a call, the late call dated, the
// api_secret only in the address a call is sent to, and a browser's batch marked as such.
import { describe, expect, it } from "vitest";
import { configure } from "~/analytics/destinations/destination.server";
import {
  BACKDATE_AFTER_MS,
  DEFAULT_GA_ENDPOINT,
  type Ga4Settings,
  ga4,
  ga4Calls,
  ga4Stamp,
  ga4Url,
  ga4Visit,
  MAX_BACKDATE_MS,
  pageLanguage,
} from "~/analytics/destinations/ga4.server";
import type { NewCall } from "~/leads/ledger/ledger.server";
import { ConfigError, type Env } from "~/platform/setting-readers.server";
import type { OutboundEvent } from "~/shared/events";
import { SAMSUNG_INTERNET } from "../../../tests/support/user-agents";

const SECRET = "s3cr_t-value";
const GA = { GA_MEASUREMENT_ID: "G-ABC123XYZ9", GA_API_SECRET: SECRET };
const AT = 1_764_000_000_123;

const read = (env: Env) => ga4.settings.read(env);

/** The ConfigError these settings stop start-up with. */
function refusal(env: Env): ConfigError {
  try {
    read(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const events = (count: number): OutboundEvent[] =>
  Array.from({ length: count }, (_, index) => ({ name: "page_view", params: { index } }));

describe("GA4's settings", () => {
  it("are off with neither, and on with both at Google's address", () => {
    expect(read({})).toBeNull();
    expect(read(GA)).toEqual({
      measurementId: "G-ABC123XYZ9",
      apiSecret: SECRET,
      endpoint: DEFAULT_GA_ENDPOINT,
    });
    expect(DEFAULT_GA_ENDPOINT).toBe("https://www.google-analytics.com/mp/collect");
  });

  it.each([
    [{ GA_MEASUREMENT_ID: "G-ABC123" }, "GA_API_SECRET"],
    [{ GA_API_SECRET: SECRET }, "GA_MEASUREMENT_ID"],
  ])("with one of the two, %j names the other", (env, variable) => {
    const error = refusal(env);
    expect(error.variable).toBe(variable);
    expect(error.message).toMatch(/must be set when/);
  });

  it.each([
    [{ ...GA, GA_MEASUREMENT_ID: "UA-1234-1" }, "GA_MEASUREMENT_ID"],
    [{ ...GA, GA_MEASUREMENT_ID: "G-abc" }, "GA_MEASUREMENT_ID"],
    [{ ...GA, GA_API_SECRET: "has spaces in it!" }, "GA_API_SECRET"],
    [{ ...GA, GA_API_SECRET: "short" }, "GA_API_SECRET"],
  ])("refuses a malformed value in %j, naming %s and never the secret", (env, variable) => {
    const error = refusal(env);
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain(env.GA_API_SECRET);
  });

  it("takes GA_MP_ENDPOINT over http only on loopback (a stand-in), else https", () => {
    for (const endpoint of [
      "http://127.0.0.1:9999/mp/collect",
      "http://localhost:9/mp/collect",
      "https://collector.example/mp/collect",
    ]) {
      expect(read({ ...GA, GA_MP_ENDPOINT: endpoint })?.endpoint).toBe(endpoint);
    }
    for (const endpoint of ["http://collector.example/mp", "http://10.0.0.1/mp", "ftp://x/mp"]) {
      expect(refusal({ ...GA, GA_MP_ENDPOINT: endpoint }).variable).toBe("GA_MP_ENDPOINT");
    }
  });

  it("keeps the api_secret among the secrets no log line may show", () => {
    const settings = read(GA) as Ga4Settings;
    expect(configure(ga4, settings).secrets).toEqual([SECRET]);
  });
});

describe("GA4's calls", () => {
  // A secret with characters a query string must encode.
  const settings: Ga4Settings = {
    measurementId: "G-ABC123XYZ9",
    apiSecret: "s3cr&t=x y",
    endpoint: DEFAULT_GA_ENDPOINT,
  };
  const configured = configure(ga4, settings);

  it("carry 25 events each, for the client, with the lead they report", () => {
    const calls = ga4Calls(ga4Url(settings), "111.222", events(60), AT, "lead-1");
    expect(calls.map((call) => call.events)).toEqual([25, 25, 10]);
    const bodies = calls.map((call) => JSON.parse(call.body));
    expect(bodies.map((body) => body.client_id)).toEqual(["111.222", "111.222", "111.222"]);
    expect(bodies.flatMap((body) => body.events)).toEqual(events(60));
    for (const call of calls) {
      expect(call).toMatchObject({ destination: "ga4", at: AT, lead: "lead-1" });
    }
    expect(ga4Calls(ga4Url(settings), "1.2", events(25), AT)).toHaveLength(1);
    expect(ga4Calls(ga4Url(settings), "1.2", events(26), AT)).toHaveLength(2);
  });

  it("are kept with the measurement id, and given the api_secret only as each is sent", () => {
    const [call] = configured.events?.({ clientId: "1.2", events: events(1), at: AT }) ?? [];
    const kept = new URL(call?.url ?? "");
    expect(kept.origin + kept.pathname).toBe(DEFAULT_GA_ENDPOINT);
    expect(kept.searchParams.get("measurement_id")).toBe("G-ABC123XYZ9");
    expect(kept.searchParams.has("api_secret")).toBe(false);
    expect(JSON.stringify(call)).not.toContain("s3cr");
    const sent = configured.sending({}).address?.(call?.url ?? "");
    expect(sent?.searchParams.get("api_secret")).toBe("s3cr&t=x y");
    expect(sent?.searchParams.get("measurement_id")).toBe("G-ABC123XYZ9");
  });

  it("mark a browser's own batch (given up first while GA4 is down), never a lead's or a chat's", () => {
    const browser = configured.events?.({
      clientId: "1.2",
      events: events(30),
      at: AT,
      browser: true,
    });
    expect(browser?.map((call) => call.browser)).toEqual([true, true]);
    const lead = configured.events?.({
      clientId: "1.2",
      events: events(1),
      at: AT,
      lead: "lead-1",
      browser: true,
    });
    expect(lead?.[0]).not.toHaveProperty("browser");
    const chat = configured.events?.({
      clientId: "1.2",
      events: events(1),
      at: AT,
      lead: "lead-1",
    });
    expect(chat?.[0]).not.toHaveProperty("browser");
    expect(chat?.[0]?.lead).toBe("lead-1");
  });

  it("are told of every moment (GA4 is the site's own record)", () => {
    expect([...configured.moments]).toEqual(["tap", "chat", "stages"]);
    expect(configured).toMatchObject({ name: "ga4", deduplicates: false, maxAgeMs: 72 * 3600_000 });
  });
});

describe("whose events a call says they are", () => {
  const configured = configure(ga4, {
    measurementId: "G-ABC123XYZ9",
    apiSecret: SECRET,
    endpoint: DEFAULT_GA_ENDPOINT,
  });
  const from = { address: "94.200.10.20", userAgent: SAMSUNG_INTERNET };

  it("the visitor's address as ip_override and their device, top-level, beside client_id", () => {
    const [call] =
      configured.events?.({
        clientId: "1.2",
        events: [{ name: "page_view", params: { language: "ar" } }],
        at: AT,
        from,
      }) ?? [];
    expect(JSON.parse(call?.body ?? "")).toEqual({
      client_id: "1.2",
      ip_override: "94.200.10.20",
      device: {
        category: "mobile",
        language: "ar",
        operating_system: "Android",
        operating_system_version: "14",
        brand: "Samsung",
        model: "SM-S918B",
        browser: "Samsung Internet",
        browser_version: "26.0",
      },
      events: [{ name: "page_view", params: { language: "ar" } }],
    });
  });

  it("neither, for events no visitor's request recorded (a chat, a stage)", () => {
    const [call] = configured.events?.({ clientId: "1.2", events: events(1), at: AT }) ?? [];
    expect(Object.keys(JSON.parse(call?.body ?? ""))).toEqual(["client_id", "events"]);
    expect(ga4Calls(new URL(DEFAULT_GA_ENDPOINT), "1.2", events(1), AT)[0]?.body).toBe(
      JSON.stringify({ client_id: "1.2", events: events(1) }),
    );
  });

  it("user_agent only when the site reads no device from it (GA4 ignores it beside one)", () => {
    expect(ga4Visit(from)).not.toHaveProperty("user_agent");
    expect(ga4Visit({ address: "::1", userAgent: "NewBrowser/1.0 (SomeOS)" })).toEqual({
      ip_override: "::1",
      user_agent: "NewBrowser/1.0 (SomeOS)",
    });
    expect(ga4Visit({ address: "unknown" })).toEqual({});
    expect(ga4Visit({ address: "not an address", userAgent: "\u0000" })).toEqual({});
  });

  it("the page's language only as the site's own, whatever a browser writes", () => {
    const withLanguage = (language: string | number): OutboundEvent[] => [
      { name: "page_view", params: {} },
      { name: "cta_click", params: { language } },
    ];
    expect(pageLanguage(withLanguage("en"))).toBe("en");
    expect(pageLanguage(withLanguage("ar"))).toBe("ar");
    expect(pageLanguage(withLanguage("fr"))).toBeUndefined();
    expect(pageLanguage(withLanguage("<script>"))).toBeUndefined();
    expect(pageLanguage(withLanguage(7))).toBeUndefined();
    expect(pageLanguage([])).toBeUndefined();
  });
});

describe("ga4Stamp", () => {
  const body = JSON.stringify({ client_id: "1.2", events: events(1) });
  const call: NewCall = { destination: "ga4", url: "https://x/", body, events: 1, at: AT };
  const stamp = configure(ga4, {
    measurementId: "G-ABC123XYZ9",
    apiSecret: SECRET,
    endpoint: DEFAULT_GA_ENDPOINT,
  }).sending({}).stamp;

  it("leaves a call sent at once for GA4 to date", () => {
    expect(ga4Stamp(body, AT, AT)).toBe(body);
    expect(ga4Stamp(body, AT, AT + BACKDATE_AFTER_MS - 1)).toBe(body);
  });

  it("dates a late call with the events' own time, in microseconds, first", () => {
    const late = ga4Stamp(body, AT, AT + BACKDATE_AFTER_MS) ?? "";
    expect(late.startsWith(`{"timestamp_micros":${AT * 1000},`)).toBe(true);
    expect(JSON.parse(late)).toEqual({ timestamp_micros: AT * 1000, ...JSON.parse(body) });
    expect(stamp?.(call, AT + 3600_000)).toBe(late);
  });

  it("gives up a call past GA4's 72 hours rather than misdate it", () => {
    expect(ga4Stamp(body, AT, AT + MAX_BACKDATE_MS)).not.toBeNull();
    expect(ga4Stamp(body, AT, AT + MAX_BACKDATE_MS + 1)).toBeNull();
    expect(stamp?.(call, AT + MAX_BACKDATE_MS + 1)).toBeNull();
  });
});
