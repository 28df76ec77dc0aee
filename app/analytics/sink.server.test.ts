import nodeHttp from "node:http";
import nodeHttps from "node:https";
import type { AddressInfo } from "node:net";
import { HttpResponse, http, passthrough } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type ChatFacts,
  configure,
  type Destination,
  MOMENTS,
  type Moment,
  type PhoneHashes,
  type TapFacts,
} from "~/analytics/destinations/destination.server";
import { ga4 as ga4Destination } from "~/analytics/destinations/ga4.server";
import { type MetaSettings, meta, metaStamp } from "~/analytics/destinations/meta.server";
import { type OutboxStats, type Post, UNCERTAIN_RESEND_AFTER_MS } from "~/analytics/outbox.server";
import {
  createSink,
  ga4Stamp,
  MAX_BACKDATE_MS,
  type OutboundEvent,
  type Sink,
  statsReporter,
} from "~/analytics/sink.server";
import {
  type ChatRecord,
  createLedger,
  type LeadRecord,
  type NewCall,
} from "~/leads/ledger/ledger.server";
import type { SharedLedger } from "~/leads/ledger/shared-ledger.server";
import type { Visitor } from "~/leads/visitor.server";
import { PostError } from "~/platform/http-post.server";

const GA_ENDPOINT = "https://www.google-analytics.com/mp/collect";
// The secret has characters that must be encoded in a query string.
const GA = { measurementId: "G-TEST123", apiSecret: "s3cr&t=x y" };
const META: MetaSettings = {
  pixelId: "123456789012345",
  accessToken: "EAAB_test_token",
  endpoint: "https://graph.facebook.com/v23.0",
  datasetId: null,
  testEventCode: null,
  moments: new Set(MOMENTS),
};
const META_URL = `${META.endpoint}/${META.pixelId}/events`;
const NOW_MS = 1_700_000_000_123;
const VISITOR: Visitor = { clientId: "1234567.7654321", sessionId: "987654", address: "192.0.2.1" };

type Call = { url: URL; body: GaBody; contentType: string | null; at: number };
type GaBody = {
  client_id: string;
  timestamp_micros?: number;
  events: Array<{ name: string; params: Record<string, unknown> }>;
};

const server = setupServer();
const sinks: Sink[] = [];
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  for (const sink of sinks.splice(0)) sink.close();
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

/** GA4 as the registry turns it on, with these settings (the secret kept as given). */
const gaOn = (endpoint = GA_ENDPOINT) => configure(ga4Destination, { ...GA, endpoint });
const metaOn = () => configure(meta, META);

/** A sink on `ledger` (a fresh one by default) with GA4 unless told, closed after the test. */
function sinkOn(options: Partial<Parameters<typeof createSink>[0]> = {}, ledger = createLedger()) {
  const sink = createSink({ destinations: [gaOn()], ledger, ...options });
  sinks.push(sink);
  return sink;
}

/** The clock and timers of these tests: fake, so backoff and long pauses take no time. */
function fakeTime() {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: NOW_MS });
}

/**
 * Stands in for GA4: records every call, then answers with `respond(callNumber)` (1-based).
 * Returns the list of calls so far.
 */
function ga4(respond: (call: number) => Promise<Response> | Response): Call[] {
  const calls: Call[] = [];
  server.use(
    http.post(GA_ENDPOINT, async ({ request }) => {
      calls.push({
        url: new URL(request.url),
        body: (await request.json()) as GaBody,
        contentType: request.headers.get("content-type"),
        at: Date.now(),
      });
      return respond(calls.length);
    }),
  );
  return calls;
}

const ok = () => new HttpResponse(null, { status: 204 });

/** The sink's counters: the ones given, every other one 0. */
const counts = (given: Partial<OutboxStats>): OutboxStats => ({
  recorded: 0,
  sent: 0,
  retried: 0,
  dropped: 0,
  unconfirmed: 0,
  queued: 0,
  oldest_ms: 0,
  ...given,
});
const status = (code: number) => () => new HttpResponse("nope", { status: code });

function events(count: number, name = "page_view"): OutboundEvent[] {
  return Array.from({ length: count }, (_, index) => ({ name, params: { index } }));
}

/** What the networks are told of a lead's tap. */
function tapOf(record: LeadRecord): TapFacts {
  return {
    id: record.id,
    at: record.at,
    cta: record.cta,
    clientId: record.clientId,
    address: VISITOR.address,
    userAgent: "",
    campaign: record.campaign,
    pageUrl: () => "https://darb.example/",
    details: {},
    value: 0,
  };
}

/** What the networks are told of a chat (of `lead`, if given). */
function chatFacts(chat: ChatRecord, lead?: LeadRecord, phone?: PhoneHashes): ChatFacts {
  return {
    chat,
    ...(lead ? { lead } : {}),
    ...(phone ? { phone } : {}),
    value: 0,
    pageUrl: () => "https://darb.example/",
  };
}

function leadRecord(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: "6f1c2b7e-8a3d-8c59-9b1e-2f4a6d8c0e11",
    at: Date.now(),
    cta: "whatsapp",
    campaign: { source: "instagram" },
    clientId: VISITOR.clientId,
    sessionId: "1700000000",
    ref: "DRB-7K2QX",
    status: "new",
    ...overrides,
  };
}

/**
 * Polls on setImmediate (never faked here) with a real-time limit, so it neither moves fake
 * clocks nor depends on them.
 */
async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs)
      throw new Error(`condition not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Every way the sink could reach the network; spied on, still working. */
function spyOnOutboundHttp() {
  return [
    vi.spyOn(globalThis, "fetch"),
    vi.spyOn(nodeHttp, "request"),
    vi.spyOn(nodeHttps, "request"),
  ];
}

/**
 * A destination without the network: every call's body goes out and the call waits until
 * answered (or aborted).
 */
function gatedPost() {
  const pending: Array<{ resolve: (status: number) => void; body: string }> = [];
  const post: Post = (_url, body, { signal, onBodySent }) =>
    new Promise<number>((resolve, reject) => {
      onBodySent?.();
      pending.push({ resolve, body });
      signal?.addEventListener("abort", () => reject(new PostError("aborted", true)), {
        once: true,
      });
    });
  const answer = (status: number) => {
    for (const call of pending.splice(0)) call.resolve(status);
  };
  return { post, pending, answer };
}

/** A destination that answers every call at once with `status`, counting them. */
function answeringPost(status = 204) {
  const bodies: string[] = [];
  const post: Post = async (_url, body, { onBodySent }) => {
    bodies.push(body);
    onBodySent?.();
    return status;
  };
  return { post, bodies };
}

describe("stdout mode (no GA4 configured)", () => {
  it("writes exactly one parseable JSON line per event and makes no HTTP call", () => {
    const outbound = spyOnOutboundHttp();
    const calls = ga4(ok);
    const lines: string[] = [];
    const ledger = createLedger();
    const sink = sinkOn({ destinations: [], writeLine: (line) => lines.push(line) }, ledger);

    sink.record(VISITOR, [
      { name: "page_view", params: { page_path: "/" } },
      { name: "generate_lead", params: { method: "whatsapp", engagement_time_msec: 42 } },
      { name: "cta_click", params: { label: "line\nbreak" } },
    ]);

    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toContain("\n");
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        type: "analytics",
        name: "page_view",
        params: { page_path: "/", session_id: "987654", engagement_time_msec: 1 },
        client_id: "1234567.7654321",
      },
      {
        type: "analytics",
        name: "generate_lead",
        params: { method: "whatsapp", session_id: "987654", engagement_time_msec: 42 },
        client_id: "1234567.7654321",
      },
      {
        type: "analytics",
        name: "cta_click",
        params: { label: "line\nbreak", session_id: "987654", engagement_time_msec: 1 },
        client_id: "1234567.7654321",
      },
    ]);
    expect(sink.stats()).toEqual(counts({ recorded: 3, sent: 3 }));
    // Written is sent: nothing is owed to anyone.
    expect(ledger.pendingSummary("ga4").calls).toBe(0);
    expect(sink.destinations()).toEqual([]);
    for (const spy of outbound) expect(spy).not.toHaveBeenCalled();
    expect(calls).toHaveLength(0);
  });

  it("writes to stdout by default, one newline-terminated line per event", async () => {
    const outbound = spyOnOutboundHttp();
    const calls = ga4(ok);
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const sink = sinkOn({ destinations: [] });
    sink.record(VISITOR, events(2));
    write.mockRestore();

    expect(written).toHaveLength(2);
    for (const chunk of written) expect(chunk).toMatch(/^\{[^\n]*\}\n$/);
    expect(written.map((chunk) => JSON.parse(chunk).params.index)).toEqual([0, 1]);
    await sink.flush(100);
    for (const spy of outbound) expect(spy).not.toHaveBeenCalled();
    expect(calls).toHaveLength(0);
  });

  it("still keeps a lead in the ledger", () => {
    const ledger = createLedger();
    const lines: string[] = [];
    const sink = sinkOn({ destinations: [], writeLine: (line) => lines.push(line) }, ledger);
    const record = leadRecord();
    sink.record(VISITOR, events(2, "conversion"), { lead: { record, tap: null } });
    expect(ledger.lead(record.id)).toEqual(record);
    expect(ledger.leadByRef("DRB-7K2QX")?.id).toBe(record.id);
    expect(lines).toHaveLength(2);
    expect(ledger.pendingSummary("ga4").calls).toBe(0);
  });
});

describe("GA4 Measurement Protocol", () => {
  it("posts the batch with measurement_id and api_secret in the query", async () => {
    const calls = ga4(ok);
    const sink = sinkOn();
    sink.record(VISITOR, [
      { name: "page_view", params: { page_path: "/ar" } },
      { name: "generate_lead", params: { method: "form", engagement_time_msec: 1500 } },
    ]);
    await until(() => sink.stats().sent === 2);

    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url.origin + (call?.url.pathname ?? "")).toBe(GA_ENDPOINT);
    expect(Object.fromEntries(call?.url.searchParams ?? [])).toEqual({
      measurement_id: "G-TEST123",
      api_secret: "s3cr&t=x y",
    });
    expect(call?.url.search).not.toContain("s3cr&t");
    expect(call?.contentType).toBe("application/json");
    expect(call?.body).toEqual({
      // Sent as they happen: no timestamp_micros (only an event sent late carries its own time).
      client_id: "1234567.7654321",
      // The visitor's address, for GA4's location (no user agent here, so no device).
      ip_override: "192.0.2.1",
      events: [
        {
          name: "page_view",
          params: { page_path: "/ar", session_id: "987654", engagement_time_msec: 1 },
        },
        {
          name: "generate_lead",
          params: { method: "form", session_id: "987654", engagement_time_msec: 1500 },
        },
      ],
    });
    expect(sink.stats()).toEqual(counts({ recorded: 2, sent: 2 }));
  });

  it("keeps the endpoint's own query and path", async () => {
    const calls: URL[] = [];
    server.use(
      http.post("https://region1.google-analytics.com/debug/mp/collect", ({ request }) => {
        calls.push(new URL(request.url));
        return ok();
      }),
    );
    const sink = sinkOn({
      destinations: [gaOn("https://region1.google-analytics.com/debug/mp/collect?foo=bar")],
    });
    sink.record(VISITOR, events(1));
    await until(() => sink.stats().sent === 1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.searchParams.get("foo")).toBe("bar");
    expect(calls[0]?.searchParams.get("measurement_id")).toBe("G-TEST123");
  });

  it("splits 30 events into requests of 25 and 5, in order", async () => {
    const calls = ga4(ok);
    const sink = sinkOn();
    sink.record(VISITOR, events(30));
    await until(() => sink.stats().sent === 30);

    expect(calls).toHaveLength(2);
    const sizes = calls.map((call) => call.body.events.length).sort((a, b) => b - a);
    expect(sizes).toEqual([25, 5]);
    const indexes = calls
      .flatMap((call) => call.body.events.map((event) => event.params.index as number))
      .sort((a, b) => a - b);
    expect(indexes).toEqual(Array.from({ length: 30 }, (_, index) => index));
    for (const call of calls) expect(call.body.client_id).toBe("1234567.7654321");
    expect(sink.stats()).toMatchObject({ recorded: 30, sent: 30, dropped: 0 });
  });

  it("sends each visitor's events under that visitor's client_id", async () => {
    const calls = ga4(ok);
    const sink = sinkOn();
    const other: Visitor = { clientId: "1.2", sessionId: "3", address: "unknown" };
    sink.record(VISITOR, events(1));
    sink.record(other, events(1, "cta_click"));
    await until(() => sink.stats().sent === 2);
    const byClient = Object.fromEntries(
      calls.map((call) => [call.body.client_id, call.body.events[0]]),
    );
    expect(byClient["1234567.7654321"]).toMatchObject({
      name: "page_view",
      params: { session_id: "987654" },
    });
    expect(byClient["1.2"]).toMatchObject({ name: "cta_click", params: { session_id: "3" } });
  });

  it("writes a lead and every call reporting it to the ledger before anything is sent", () => {
    const ledger = createLedger();
    const gate = gatedPost();
    const sink = sinkOn({ destinations: [gaOn(), metaOn()], post: gate.post }, ledger);
    // As leads.server.ts records a lead: its calls are dated by the lead, not by the moment after.
    const record = leadRecord({ at: Date.now() - 1000 });
    sink.record(VISITOR, events(2, "generate_lead"), {
      sessionId: "1700000000",
      at: record.at,
      lead: {
        record,
        tap: tapOf(record),
      },
    });
    expect(ledger.lead(record.id)).toEqual(record);
    const [gaCall] = ledger.pendingCalls("ga4");
    const [metaCall] = ledger.pendingCalls("meta");
    expect(gaCall).toMatchObject({ lead: record.id, events: 2, at: record.at });
    expect(metaCall).toMatchObject({ lead: record.id, events: 1, url: META_URL });
    expect(JSON.parse(gaCall?.body ?? "").events[0].params.session_id).toBe("1700000000");
    // The ledger holds no credential: each is added as its call is sent.
    expect(JSON.stringify(ledger.pendingCalls("ga4"))).not.toContain("api_secret");
    expect(JSON.stringify(ledger.pendingCalls("meta"))).not.toContain(META.accessToken);
    // Both went out straight after, from the ledger.
    expect(gate.pending.map((call) => call.body).sort()).toEqual(
      [gaCall?.body, metaStamp(metaCall?.body ?? "", META.accessToken)].sort(),
    );
  });

  it("records calls at the time given, not the time recorded", () => {
    const ledger = createLedger();
    const sink = sinkOn({ post: gatedPost().post }, ledger);
    const at = Date.now() - 60_000;
    sink.record(VISITOR, events(1), { at });
    expect(ledger.pendingCalls("ga4")[0]?.at).toBe(at);
  });
});

describe("whose events GA4 is told: the visitor's address and device", () => {
  const IPHONE =
    "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";
  const phone: Visitor = { ...VISITOR, userAgent: IPHONE };
  const body = (text: string | undefined) => JSON.parse(text ?? "{}") as Record<string, unknown>;

  it("puts ip_override and device at the top of the body, with the page's language, no user_agent", async () => {
    const ga = answeringPost();
    const sink = sinkOn({ post: ga.post });
    sink.record(phone, [{ name: "page_view", params: { page_location: "/ar", language: "ar" } }], {
      browser: true,
    });
    await until(() => sink.stats().sent === 1);
    const sent = body(ga.bodies[0]);
    expect(Object.keys(sent)).toEqual(["client_id", "ip_override", "device", "events"]);
    expect(sent.ip_override).toBe("192.0.2.1");
    expect(sent.device).toEqual({
      category: "mobile",
      operating_system: "iOS",
      operating_system_version: "18.1",
      brand: "Apple",
      model: "iPhone",
      browser: "Safari",
      browser_version: "18.1",
      language: "ar",
    });
    // Never an event's parameter: GA4 reads them only at the top.
    expect(JSON.stringify(sent.events)).not.toMatch(/ip_override|192\.0\.2\.1|device|iPhone/);
  });

  it("gives every call of a long batch the same, an IPv6 address as the server wrote it", async () => {
    const ga = answeringPost();
    const sink = sinkOn({ post: ga.post });
    sink.record({ ...phone, address: "2001:db8::7" }, events(30));
    await until(() => sink.stats().sent === 30);
    expect(ga.bodies).toHaveLength(2);
    for (const sent of ga.bodies.map(body)) {
      expect(sent.ip_override).toBe("2001:db8::7");
      expect(sent.device).toMatchObject({ category: "mobile", operating_system: "iOS" });
      // No language on these events: none guessed.
      expect(sent.device).not.toHaveProperty("language");
    }
  });

  it("keeps the late call's timestamp_micros first, and the rest as it was", () => {
    const ledger = createLedger();
    const sink = sinkOn({ post: gatedPost().post }, ledger);
    const at = Date.now() - 60_000;
    sink.record(phone, events(1), { at });
    const [call] = ledger.pendingCalls("ga4");
    const stamped = body(ga4Stamp(call?.body ?? "", at, Date.now()) ?? "");
    expect(Object.keys(stamped)).toEqual([
      "timestamp_micros",
      "client_id",
      "ip_override",
      "device",
      "events",
    ]);
  });

  it("sends no address it does not have, and a user agent it cannot read for GA4 to read", async () => {
    const ga = answeringPost();
    const sink = sinkOn({ post: ga.post });
    const agent = "Mozilla/5.0 (compatible; SomethingNew/1.0)";
    sink.record({ ...VISITOR, address: "unknown", userAgent: agent }, events(1));
    sink.record({ ...VISITOR, address: "unknown", userAgent: `${IPHONE}\r\n` }, events(1));
    sink.record({ ...VISITOR, address: "unknown", userAgent: "x".repeat(10_000) }, events(1));
    await until(() => sink.stats().sent === 3);
    const [unknown, broken, huge] = ga.bodies.map(body);
    expect(unknown).toEqual({
      client_id: VISITOR.clientId,
      user_agent: agent,
      events: expect.any(Array),
    });
    // Control characters: read for its device, never sent as it is.
    expect(broken).not.toHaveProperty("user_agent");
    expect(broken?.device).toMatchObject({ model: "iPhone" });
    expect(Object.keys(huge ?? {})).toEqual(["client_id", "events"]);
  });

  it("tells GA4 of a chat and a stage with neither: WhatsApp and the team send them, not the visitor", async () => {
    const ledger = createLedger();
    const ga = answeringPost();
    const sink = sinkOn({ post: ga.post }, ledger);
    const record = leadRecord();
    sink.record(phone, events(1, "generate_lead"), { lead: { record, tap: null } });
    const chat = { messageId: "wamid.1", at: Date.now(), lead: record.id };
    sink.recordChat(chat, chatFacts(chat, record), [{ name: "working_lead", params: {} }]);
    sink.recordStage(
      { lead: record, stage: "qualified", at: Date.now(), value: 0, pageUrl: () => "" },
      [{ name: "qualify_lead", params: {} }],
    );
    await until(() => sink.stats().sent === 3);
    const byEvent = new Map(
      ga.bodies.map(body).map((sent) => [(sent.events as GaBody["events"])[0]?.name, sent]),
    );
    expect(byEvent.get("generate_lead")).toMatchObject({ ip_override: "192.0.2.1" });
    for (const name of ["working_lead", "qualify_lead"]) {
      expect(Object.keys(byEvent.get(name) ?? {})).toEqual(["client_id", "events"]);
    }
  });

  it("writes no address or device in the log lines without GA4", () => {
    const lines: string[] = [];
    const sink = sinkOn({ destinations: [], writeLine: (line) => lines.push(line) });
    sink.record(phone, [{ name: "page_view", params: { language: "en" } }]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/192\.0\.2\.1|ip_override|device|iPhone/);
  });
});

describe("retries", () => {
  it("retries a 500 after 1 s and then sends", async () => {
    fakeTime();
    const calls = ga4((call) => (call === 1 ? status(500)() : ok()));
    const sink = sinkOn();
    sink.record(VISITOR, events(3));
    await until(() => sink.stats().retried === 3);
    expect(calls).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => sink.stats().sent === 3);

    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toEqual(calls[0]?.body);
    expect(sink.stats()).toEqual(counts({ recorded: 3, sent: 3, retried: 3 }));
  });

  it.each([
    ["a 500", status(500)],
    ["a 503", status(503)],
    ["a 408", status(408)],
    ["a 429", status(429)],
    ["a network error", () => HttpResponse.error()],
  ])(
    "retries %s after 1 s, 2 s, 4 s and 8 s, and gives the batch up once GA4 would refuse its date",
    async (_label, respond) => {
      fakeTime();
      const calls = ga4(respond);
      const sink = sinkOn();
      // 20 s left of the 72 hours GA4 takes events back.
      const at = NOW_MS - MAX_BACKDATE_MS + 20_000;
      sink.record(VISITOR, events(2), { at });

      for (const [retry, wait] of [
        [1, 1000],
        [2, 2000],
        [3, 4000],
        [4, 8000],
      ] as const) {
        await until(() => sink.stats().retried === retry * 2);
        expect(calls).toHaveLength(retry);
        await vi.advanceTimersByTimeAsync(wait - 1);
        expect(calls).toHaveLength(retry);
        await vi.advanceTimersByTimeAsync(1);
        await until(() => calls.length === retry + 1);
      }
      // The next try would be 16 s later, past GA4's 72 hours.
      await until(() => sink.stats().dropped === 2);
      await vi.advanceTimersByTimeAsync(120_000);

      expect(calls).toHaveLength(5);
      for (const call of calls) expect(call.body.timestamp_micros).toBe(at * 1000);
      expect(sink.stats()).toEqual(counts({ recorded: 2, retried: 8, dropped: 2 }));
      expect(sink.destinations()[0]?.outcomes).toEqual({
        delivered: 0,
        refused: 0,
        unconfirmed: 0,
        given_up: 2,
      });
    },
  );

  it("keeps a batch owed through a long outage instead of dropping it after a few tries", async () => {
    fakeTime();
    let down = true;
    const calls = ga4(() => (down ? status(503)() : ok()));
    const sink = sinkOn();
    sink.record(VISITOR, events(2));
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(calls.length).toBeGreaterThan(20);
    expect(sink.stats()).toMatchObject({ dropped: 0, queued: 2, oldest_ms: 10 * 60_000 });
    down = false;
    await vi.advanceTimersByTimeAsync(30_000);
    await until(() => sink.stats().sent === 2);
    expect(sink.stats()).toMatchObject({ queued: 0, dropped: 0 });
  });

  it("dates a retry sent 2 s or more after its events with timestamp_micros", async () => {
    fakeTime();
    const calls = ga4((call) => (call <= 2 ? status(500)() : ok()));
    const sink = sinkOn();
    sink.record(VISITOR, events(1));
    await until(() => calls.length === 1);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => calls.length === 2);
    await vi.advanceTimersByTimeAsync(2000);
    await until(() => sink.stats().sent === 1);
    expect(calls.map((call) => call.body.timestamp_micros)).toEqual([
      undefined,
      undefined,
      NOW_MS * 1000,
    ]);
  });

  it.each([400, 404, 413])("refuses the batch on a %s without retrying", async (code) => {
    fakeTime();
    const calls = ga4(status(code));
    const sink = sinkOn();
    sink.record(VISITOR, events(4));
    await until(() => sink.stats().dropped === 4);
    await vi.advanceTimersByTimeAsync(120_000);
    await new Promise((resolve) => setImmediate(resolve));

    expect(calls).toHaveLength(1);
    expect(sink.stats()).toEqual(counts({ recorded: 4, dropped: 4 }));
    expect(sink.destinations()[0]?.outcomes).toMatchObject({ refused: 4 });
  });
});

describe("when GA4 hangs", () => {
  let hanging: nodeHttp.Server | undefined;
  afterEach(async () => {
    const open = hanging;
    hanging = undefined;
    if (!open) return;
    open.closeAllConnections();
    await new Promise((resolve) => open.close(resolve));
  });

  /** A GA4 on this machine that takes the first call and never answers it; 204 for the rest. */
  async function hangingGa4() {
    const bodies: string[] = [];
    hanging = nodeHttp.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        bodies.push(Buffer.concat(chunks).toString());
        if (bodies.length > 1) response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hanging?.listen(0, "127.0.0.1", resolve));
    const { port } = hanging.address() as AddressInfo;
    const endpoint = `http://127.0.0.1:${port}/mp/collect`;
    server.use(http.post(endpoint, () => passthrough()));
    return { endpoint, bodies };
  }

  it("gives up after about 2 s without sending again (GA4 may have it), while record() returns at once", async () => {
    const ga = await hangingGa4();
    const sink = sinkOn({ destinations: [gaOn(ga.endpoint)] });
    const firstRecordAt = performance.now();
    sink.record(VISITOR, events(1));
    await until(() => ga.bodies.length === 1);

    // GA4 is hanging now; recording must not wait for it.
    const start = performance.now();
    sink.record(VISITOR, events(30));
    const recordMs = performance.now() - start;
    expect(recordMs).toBeLessThan(50);
    expect(sink.stats().recorded).toBe(31);

    await until(() => sink.stats().unconfirmed === 1, 3000);
    const abortedAfter = performance.now() - firstRecordAt;
    expect(abortedAfter).toBeGreaterThanOrEqual(1950);
    expect(abortedAfter).toBeLessThan(2400);

    // GA4 keeps every copy it is given: a call that may have arrived is not sent again.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(ga.bodies).toHaveLength(3);
    expect(sink.stats()).toEqual(counts({ recorded: 31, sent: 30, unconfirmed: 1 }));
  }, 8000);

  it("sends a lead's call that got no answer once more, 10 minutes later", async () => {
    fakeTime();
    const bodies: string[] = [];
    const post: Post = async (_url, body, { onBodySent }) => {
      bodies.push(body);
      onBodySent?.();
      if (bodies.length === 1) throw new PostError("no answer within 2000 ms", true);
      return 204;
    };
    const sink = sinkOn({ post });
    const record = leadRecord();
    sink.record(VISITOR, events(2, "generate_lead"), { lead: { record, tap: null } });
    await until(() => sink.stats().retried === 2);
    await vi.advanceTimersByTimeAsync(UNCERTAIN_RESEND_AFTER_MS - 1);
    expect(bodies).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => sink.stats().sent === 2);
    expect(bodies).toHaveLength(2);
    expect(JSON.parse(bodies[1] ?? "")).toEqual({
      timestamp_micros: record.at * 1000,
      ...JSON.parse(bodies[0] ?? ""),
    });
    expect(sink.stats()).toMatchObject({ unconfirmed: 0, dropped: 0, queued: 0 });
  });

  it("retries a call refused before its body went out (it certainly did not arrive)", async () => {
    fakeTime();
    let call = 0;
    const post: Post = async () => {
      call += 1;
      if (call === 1) throw new PostError("connect ECONNREFUSED", false);
      return 204;
    };
    const sink = sinkOn({ post });
    sink.record(VISITOR, events(2));
    await until(() => sink.stats().retried === 2);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => sink.stats().sent === 2);
    expect(call).toBe(2);
    expect(sink.stats()).toMatchObject({ unconfirmed: 0, dropped: 0 });
  });
});

describe("flush", () => {
  it("resolves by the deadline and leaves what is unanswered owed, for the next sink on the ledger to send", async () => {
    const ledger = createLedger();
    const ga = gatedPost();
    const sink = sinkOn({ post: ga.post }, ledger);
    // Six batches of 25: four go out at once (and hang), two wait in the ledger.
    sink.record(VISITOR, events(150));
    expect(ga.pending).toHaveLength(4);
    expect(sink.stats()).toMatchObject({ recorded: 150, queued: 150, sent: 0 });

    const start = performance.now();
    await sink.flush(300);
    const flushMs = performance.now() - start;
    expect(flushMs).toBeGreaterThanOrEqual(280);
    expect(flushMs).toBeLessThan(800);
    // Nothing is dropped at shutdown: all of it is still owed.
    expect(sink.stats()).toMatchObject({
      recorded: 150,
      queued: 150,
      sent: 0,
      dropped: 0,
      unconfirmed: 0,
    });
    sink.close();

    // Recorded after the close (a request still being served): kept, not sent.
    sink.record(VISITOR, events(5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ga.pending).toHaveLength(4);
    expect(sink.stats()).toMatchObject({ recorded: 155, queued: 155, sent: 0, dropped: 0 });

    const next = answeringPost();
    const restarted = sinkOn({ post: next.post }, ledger);
    await restarted.flush(1000);
    expect(next.bodies).toHaveLength(7);
    expect(restarted.stats()).toMatchObject({ recorded: 0, sent: 155, queued: 0 });
    expect(ledger.pendingSummary("ga4").calls).toBe(0);
  });

  it("sends retries still waiting at once instead of after their backoff", async () => {
    const calls = ga4((call) => (call === 1 ? status(503)() : ok()));
    const sink = sinkOn();
    sink.record(VISITOR, events(3));
    await until(() => sink.stats().retried === 3);

    const start = performance.now();
    await sink.flush(5000);
    expect(performance.now() - start).toBeLessThan(500);
    expect(calls).toHaveLength(2);
    expect(sink.stats()).toEqual(counts({ recorded: 3, sent: 3, retried: 3 }));
  });

  it("keeps a batch that fails during the flush owed, without waiting for its retry", async () => {
    const calls = ga4(status(500));
    const sink = sinkOn();
    sink.record(VISITOR, events(3));
    await until(() => sink.stats().retried === 3);

    const start = performance.now();
    await sink.flush(5000);
    expect(performance.now() - start).toBeLessThan(500);
    expect(calls).toHaveLength(2);
    expect(sink.stats()).toMatchObject({ recorded: 3, retried: 6, dropped: 0, queued: 3 });
  });

  it("sends everything queued before resolving when GA4 answers", async () => {
    const calls = ga4(ok);
    const sink = sinkOn();
    for (let index = 0; index < 10; index++) sink.record(VISITOR, events(25));
    await sink.flush(5000);
    expect(calls).toHaveLength(10);
    expect(sink.stats()).toEqual(counts({ recorded: 250, sent: 250 }));
  });

  it("resolves at once when there is nothing to send", async () => {
    const sink = sinkOn();
    const start = performance.now();
    await sink.flush(5000);
    expect(performance.now() - start).toBeLessThan(100);
  });
});

describe("shutdown accounting", () => {
  it("close() settles nothing: what is queued and what is out stay owed, and late answers are ignored", async () => {
    const ledger = createLedger();
    const ga = gatedPost();
    const sink = sinkOn({ post: ga.post }, ledger);
    for (let index = 0; index < 6; index++) sink.record(VISITOR, events(1));
    expect(ga.pending).toHaveLength(4);
    sink.close();
    expect(sink.stats()).toMatchObject({
      recorded: 6,
      queued: 6,
      sent: 0,
      dropped: 0,
      unconfirmed: 0,
    });
    ga.answer(204);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sink.stats()).toMatchObject({ recorded: 6, queued: 6, sent: 0 });
    expect(sink.destinations()[0]?.outcomes).toEqual({
      delivered: 0,
      refused: 0,
      unconfirmed: 0,
      given_up: 0,
    });
    expect(ledger.pendingSummary("ga4")).toMatchObject({ calls: 6, events: 6 });
  });

  it("a sink started on the ledger of a closed one sends what it left, as owed from before", async () => {
    const ledger = createLedger();
    const before = sinkOn({ post: gatedPost().post }, ledger);
    before.record(VISITOR, events(2), { at: Date.now() - 5000 });
    before.close();
    const after = answeringPost();
    const sink = sinkOn({ post: after.post }, ledger);
    await until(() => sink.stats().sent === 2);
    // Five seconds late: dated.
    expect(JSON.parse(after.bodies[0] ?? "").timestamp_micros).toBeGreaterThan(0);
    expect(sink.stats()).toEqual(counts({ sent: 2 }));
  });
});

describe("chats", () => {
  const chatAt = () => Date.now() - 60_000;

  it("tells GA4 of a lead's chat on the lead's own client and session, dated", async () => {
    const ledger = createLedger();
    const gaBodies = answeringPost();
    const sink = sinkOn({ post: gaBodies.post }, ledger);
    const record = leadRecord({ clientId: "555.666", sessionId: "1699999000" });
    ledger.recordLead(record, []);
    const at = chatAt();
    const chat = { messageId: "wamid.1", at, lead: record.id };
    sink.recordChat(chat, chatFacts(chat, record), [
      { name: "working_lead", params: { lead_status: "chat_started" } },
    ]);
    expect(ledger.chatSeen("wamid.1")).toBe(true);
    expect(ledger.lead(record.id)).toMatchObject({ status: "chat_started", chatAt: at });
    await until(() => sink.stats().sent === 1);
    expect(JSON.parse(gaBodies.bodies[0] ?? "")).toEqual({
      timestamp_micros: at * 1000,
      client_id: "555.666",
      events: [
        {
          name: "working_lead",
          params: {
            lead_status: "chat_started",
            session_id: "1699999000",
            engagement_time_msec: 1,
          },
        },
      ],
    });
  });

  it("writes the lead's chat lines on stdout without GA4", () => {
    const lines: string[] = [];
    const sink = sinkOn({ destinations: [], writeLine: (line) => lines.push(line) });
    const record = leadRecord({ clientId: "555.666" });
    const chat = { messageId: "wamid.1", at: chatAt(), lead: record.id };
    sink.recordChat(chat, chatFacts(chat, record), [{ name: "working_lead", params: {} }]);
    expect(lines.map((line) => JSON.parse(line).client_id)).toEqual(["555.666"]);
  });

  it("keeps a chat without a lead, and tells GA4 nothing of it", async () => {
    const ledger = createLedger();
    const ga = answeringPost();
    const sink = sinkOn({ post: ga.post }, ledger);
    sink.recordChat({ messageId: "wamid.2", at: chatAt(), lead: null }, null, []);
    expect(ledger.chatSeen("wamid.2")).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ga.bodies).toEqual([]);
    expect(sink.stats().recorded).toBe(0);
  });
});

describe("destinations and stats", () => {
  it("lists each configured destination with its counters and outcomes", async () => {
    const ledger = createLedger();
    const ga = answeringPost(204);
    const sink = sinkOn({ destinations: [gaOn(), metaOn()], post: ga.post }, ledger);
    const record = leadRecord();
    sink.record(VISITOR, events(2, "generate_lead"), {
      lead: {
        record,
        tap: tapOf(record),
      },
    });
    await until(() => sink.stats().meta_sent === 1 && sink.stats().sent === 2);
    const delivered = (count: number) => ({
      delivered: count,
      refused: 0,
      unconfirmed: 0,
      given_up: 0,
    });
    expect(sink.destinations()).toEqual([
      {
        name: "ga4",
        ...counts({ recorded: 2, sent: 2 }),
        outcomes: delivered(2),
        troubles: { uncertain: 0, credentialsRefused: 0 },
      },
      {
        name: "meta",
        ...counts({ recorded: 1, sent: 1 }),
        outcomes: delivered(1),
        troubles: { uncertain: 0, credentialsRefused: 0 },
      },
    ]);
    expect(sink.stats()).toEqual({
      ...counts({ recorded: 2, sent: 2 }),
      meta_recorded: 1,
      meta_sent: 1,
      meta_retried: 0,
      meta_dropped: 0,
      meta_unconfirmed: 0,
      meta_queued: 0,
      meta_oldest_ms: 0,
    });
  });

  it("says how long the oldest owed event has waited", async () => {
    fakeTime();
    const sink = sinkOn({ post: gatedPost().post });
    sink.record(VISITOR, events(3));
    await vi.advanceTimersByTimeAsync(4000);
    expect(sink.stats()).toMatchObject({ queued: 3, oldest_ms: 4000 });
  });
});

describe("the registry's destinations", () => {
  const PHONE: PhoneHashes = { e164: "a".repeat(64), digits: "b".repeat(64) };
  const STANDIN_URL = "https://standin.example/events";

  /** A network only these tests have, telling each moment as one call of its own. */
  function standIn(moments: readonly Moment[] = MOMENTS) {
    const call = (body: object, at: number, lead?: string): NewCall => ({
      destination: "standin",
      url: STANDIN_URL,
      body: JSON.stringify(body),
      events: 1,
      at,
      ...(lead ? { lead } : {}),
    });
    const destination: Destination<{ moments: ReadonlySet<Moment> }> = {
      name: "standin",
      settings: { names: [], read: () => null },
      maxAgeMs: 86_400_000,
      deduplicates: true,
      secrets: () => [],
      moments: (settings) => settings.moments,
      tap: (_settings, facts) => [
        call({ moment: "tap", id: facts.id, value: facts.value }, facts.at, facts.id),
      ],
      chat: (_settings, { chat, lead, phone, value }) => [
        call(
          { moment: "chat", lead: lead?.id ?? null, ctwa: chat.ctwaClid, phone, value },
          chat.at,
          lead?.id,
        ),
      ],
      stage: (_settings, { lead, stage, at, value, phone }) => [
        call({ moment: stage, lead: lead.id, phone, value }, at, lead.id),
      ],
    };
    return configure(destination, { moments: new Set(moments) });
  }

  /** A stand-in for every destination: what each was sent, by address. */
  function recordingPost() {
    const sent: Array<{ url: string; body: string }> = [];
    const post: Post = async (url, body, { onBodySent }) => {
      sent.push({ url: url.href, body });
      onBodySent?.();
      return 204;
    };
    const to = (prefix: string) =>
      sent.filter((call) => call.url.startsWith(prefix)).map((call) => JSON.parse(call.body));
    return { post, sent, to };
  }

  /** A shared ledger whose copies are only kept here (the sink uses only its post). */
  function sharedStandIn() {
    const copies: Array<{ url: string; body: Record<string, unknown> }> = [];
    const ledger: SharedLedger = {
      post: async (url, body, { onBodySent }) => {
        copies.push({ url: url.href, body: JSON.parse(body) });
        onBodySent?.();
        return 204;
      },
      leadByRef: async () => undefined,
      claimChat: async () => null,
      claimStage: async () => null,
      all: async () => ({ leads: [], chats: [] }),
      exposures: async () => [],
    };
    return { shared: { ledger, retentionDays: 90 }, copies };
  }

  it("tells each network of a lead's tap once, and none of a shared link's", async () => {
    const ledger = createLedger();
    const network = recordingPost();
    const sink = sinkOn({ destinations: [gaOn(), standIn()], post: network.post }, ledger);
    const record = leadRecord();
    sink.record(VISITOR, events(2, "generate_lead"), {
      lead: { record, tap: { ...tapOf(record), value: 25 } },
    });
    const link = leadRecord({ id: "link-lead", cta: "link", ref: undefined });
    sink.record(VISITOR, events(1, "conversion"), { lead: { record: link, tap: null } });
    await sink.flush(1000);
    expect(network.to(STANDIN_URL)).toEqual([{ moment: "tap", id: record.id, value: 25 }]);
    expect(network.to(GA_ENDPOINT)).toHaveLength(2);
    expect(ledger.lead(link.id)).toEqual(link);
    expect(sink.stats()).toMatchObject({
      recorded: 3,
      sent: 3,
      standin_recorded: 1,
      standin_sent: 1,
    });
    expect(sink.destinations().map((destination) => destination.name)).toEqual(["ga4", "standin"]);
  });

  it("tells a network only the moments its settings name", async () => {
    const network = recordingPost();
    const sink = sinkOn({ destinations: [standIn(["chat"])], post: network.post });
    const record = leadRecord();
    sink.record(VISITOR, [], { lead: { record, tap: tapOf(record) } });
    const chat = { messageId: "wamid.1", at: Date.now(), lead: record.id };
    sink.recordChat(chat, chatFacts(chat, record), []);
    sink.recordStage(
      { lead: record, stage: "qualified", at: Date.now(), value: 0, pageUrl: () => "" },
      [],
    );
    await sink.flush(1000);
    expect(network.to(STANDIN_URL).map((body) => body.moment)).toEqual(["chat"]);
  });

  it("tells GA4 and each network of a lead's chat, with the phone's hashes, and keeps them on the lead", async () => {
    const ledger = createLedger();
    const network = recordingPost();
    const sink = sinkOn({ destinations: [gaOn(), standIn()], post: network.post }, ledger);
    const record = leadRecord({ clientId: "555.666", sessionId: "1699999000" });
    ledger.recordLead(record, []);
    const chat = { messageId: "wamid.1", at: Date.now(), lead: record.id, ctwaClid: "ARAkLkA" };
    sink.recordChat(chat, { ...chatFacts(chat, record, PHONE), value: 12 }, [
      { name: "working_lead", params: { value: 12 } },
    ]);
    await sink.flush(1000);
    expect(network.to(STANDIN_URL)).toEqual([
      { moment: "chat", lead: record.id, ctwa: "ARAkLkA", phone: PHONE, value: 12 },
    ]);
    const [ga] = network.to(GA_ENDPOINT);
    expect(ga).toMatchObject({
      client_id: "555.666",
      events: [{ name: "working_lead", params: { value: 12, session_id: "1699999000" } }],
    });
    expect(ledger.lead(record.id)).toMatchObject({
      status: "chat_started",
      ctwaClid: "ARAkLkA",
      phone: PHONE,
    });
  });

  it("tells the networks of an ad's chat without a lead, and GA4 nothing", async () => {
    const ledger = createLedger();
    const network = recordingPost();
    const sink = sinkOn({ destinations: [gaOn(), standIn()], post: network.post }, ledger);
    const chat = { messageId: "wamid.ad", at: Date.now(), lead: null, ctwaClid: "ARAkLkA" };
    sink.recordChat(chat, chatFacts(chat, undefined, PHONE), []);
    await sink.flush(1000);
    expect(network.to(STANDIN_URL)).toEqual([
      { moment: "chat", lead: null, ctwa: "ARAkLkA", phone: PHONE, value: 0 },
    ]);
    expect(network.to(GA_ENDPOINT)).toEqual([]);
    expect(ledger.chatSeen("wamid.ad")).toBe(true);
  });

  it("only keeps a chat it is told nothing of", async () => {
    const ledger = createLedger();
    const network = recordingPost();
    const sink = sinkOn({ destinations: [gaOn(), standIn()], post: network.post }, ledger);
    const record = leadRecord();
    ledger.recordLead(record, []);
    sink.recordChat({ messageId: "wamid.9", at: Date.now(), lead: record.id }, null, []);
    await sink.flush(1000);
    expect(network.sent).toEqual([]);
    expect(ledger.chatSeen("wamid.9")).toBe(true);
    expect(ledger.lead(record.id)).not.toHaveProperty("phone");
  });

  it("keeps a stage once in the ledger and tells GA4, on the lead's ids at the stage's time, and each network", async () => {
    fakeTime();
    const ledger = createLedger();
    const network = recordingPost();
    const sink = sinkOn({ destinations: [gaOn(), standIn()], post: network.post }, ledger);
    const record = leadRecord({ clientId: "555.666", sessionId: "1699999000" });
    ledger.recordLead(record, []);
    ledger.recordChat({ messageId: "wamid.1", at: NOW_MS - 60_000, lead: record.id }, [], PHONE);
    const lead = ledger.lead(record.id) as LeadRecord;
    const at = NOW_MS - 10_000;
    sink.recordStage({ lead, stage: "qualified", at, value: 40, phone: PHONE, pageUrl: () => "" }, [
      { name: "qualify_lead", params: { value: 40 } },
    ]);
    await sink.flush(1000);
    expect(network.to(STANDIN_URL)).toEqual([
      { moment: "qualified", lead: record.id, phone: PHONE, value: 40 },
    ]);
    expect(network.to(GA_ENDPOINT)).toEqual([
      {
        // Ten seconds late: dated.
        timestamp_micros: at * 1000,
        client_id: "555.666",
        events: [
          {
            name: "qualify_lead",
            params: { value: 40, session_id: "1699999000", engagement_time_msec: 1 },
          },
        ],
      },
    ]);
    expect(ledger.lead(record.id)).toMatchObject({
      stages: { qualified: { at, value: 40 } },
      phone: PHONE,
    });
    expect(ledger.counted().stages).toEqual({ qualified: 1 });

    const installed = ledger.lead(record.id) as LeadRecord;
    sink.recordStage(
      {
        lead: installed,
        stage: "installed",
        at: NOW_MS,
        value: 150,
        phone: PHONE,
        pageUrl: () => "",
      },
      [{ name: "close_convert_lead", params: { value: 150 } }],
    );
    await sink.flush(1000);
    expect(network.to(STANDIN_URL).map((body) => body.moment)).toEqual(["qualified", "installed"]);
    // The last stage: the phone's hashes are no longer kept.
    expect(ledger.lead(record.id)).not.toHaveProperty("phone");
    expect(ledger.lead(record.id)?.stages?.installed).toEqual({ at: NOW_MS, value: 150 });
  });

  it("writes a chat's and a stage's events on stdout without GA4, on the lead's client", () => {
    const lines: string[] = [];
    const ledger = createLedger();
    const sink = sinkOn({ destinations: [], writeLine: (line) => lines.push(line) }, ledger);
    const record = leadRecord({ clientId: "555.666" });
    ledger.recordLead(record, []);
    sink.recordStage({ lead: record, stage: "lost", at: Date.now(), value: 0, pageUrl: () => "" }, [
      { name: "disqualify_lead", params: {} },
    ]);
    expect(lines.map((line) => [JSON.parse(line).name, JSON.parse(line).client_id])).toEqual([
      ["disqualify_lead", "555.666"],
    ]);
    expect(ledger.lead(record.id)?.stages).toHaveProperty("lost");
  });

  it("copies a lead, its first chat (with what the chat told of it) and its stages to Redis for every replica", async () => {
    const ledger = createLedger();
    const redis = sharedStandIn();
    const sink = sinkOn({ destinations: [], shared: redis.shared, writeLine: () => {} }, ledger);
    const record = leadRecord();
    sink.record(VISITOR, [], { lead: { record, tap: null } });
    const chat = {
      messageId: "wamid.1",
      at: record.at + 60_000,
      lead: record.id,
      ctwaClid: "ARAkLkA",
      account: "111",
    };
    sink.recordChat(chat, chatFacts(chat, record, PHONE), []);
    const chatted = ledger.lead(record.id) as LeadRecord;
    sink.recordStage(
      {
        lead: chatted,
        stage: "qualified",
        at: record.at + 120_000,
        value: 40,
        phone: PHONE,
        pageUrl: () => "",
      },
      [],
    );
    const qualified = ledger.lead(record.id) as LeadRecord;
    sink.recordStage(
      {
        lead: qualified,
        stage: "installed",
        at: record.at + 180_000,
        value: 150,
        phone: PHONE,
        pageUrl: () => "",
      },
      [],
    );
    await sink.flush(1000);
    const leadCopies = redis.copies.map((copy) => copy.body.lead as LeadRecord);
    expect(redis.copies.map((copy) => copy.url)).toEqual([
      "redis:lead",
      "redis:chat",
      "redis:lead",
      "redis:lead",
    ]);
    expect(leadCopies[0]).toEqual(record);
    // Another replica may be told this lead's stage: it finds the phone's hashes and the ad's click.
    expect(leadCopies[1]).toEqual({
      ...record,
      status: "chat_started",
      chatAt: chat.at,
      ctwaClid: "ARAkLkA",
      account: "111",
      phone: PHONE,
    });
    expect(leadCopies[2]).toMatchObject({
      stages: { qualified: { at: record.at + 120_000, value: 40 } },
      phone: PHONE,
    });
    expect(leadCopies[3]?.stages?.installed).toEqual({ at: record.at + 180_000, value: 150 });
    expect(leadCopies[3]).not.toHaveProperty("phone");
  });
});

describe("statsReporter", () => {
  it("writes the counters when they changed since the last line, else nothing", () => {
    const lines: string[] = [];
    const sink = sinkOn({ destinations: [], writeLine: () => undefined });
    const report = statsReporter(sink.stats, (line) => lines.push(line));
    report();
    report();
    sink.record(VISITOR, events(2));
    report();
    report();
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { type: "analytics_stats", ...counts({}) },
      { type: "analytics_stats", ...counts({ recorded: 2, sent: 2 }) },
    ]);
  });
});

describe("ga4Stamp: timestamp_micros only for events sent late", () => {
  const body = '{"client_id":"1.2","events":[]}';
  it("leaves a body sent within 2 s as it is, stamps a later one, refuses one past 72 hours", () => {
    expect(ga4Stamp(body, NOW_MS, NOW_MS)).toBe(body);
    expect(ga4Stamp(body, NOW_MS, NOW_MS + 1999)).toBe(body);
    expect(JSON.parse(ga4Stamp(body, NOW_MS, NOW_MS + 2000) ?? "")).toEqual({
      timestamp_micros: NOW_MS * 1000,
      client_id: "1.2",
      events: [],
    });
    expect(ga4Stamp(body, NOW_MS, NOW_MS + 2000)?.startsWith('{"timestamp_micros":')).toBe(true);
    expect(ga4Stamp(body, NOW_MS, NOW_MS + MAX_BACKDATE_MS)).not.toBeNull();
    expect(ga4Stamp(body, NOW_MS, NOW_MS + MAX_BACKDATE_MS + 1)).toBeNull();
  });
});
