import nodeHttp from "node:http";
import nodeHttps from "node:https";
import v8 from "node:v8";
import vm from "node:vm";
import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PostError } from "~/analytics/http-post.server";
import type { OutboxStats } from "~/analytics/outbox.server";
import { createSink, ga4Stamp, type OutboundEvent, statsReporter } from "~/analytics/sink.server";
import type { Visitor } from "~/leads/visitor.server";

const GA_ENDPOINT = "https://www.google-analytics.com/mp/collect";
// The secret has characters that must be encoded in a query string.
const GA = { measurementId: "G-TEST123", apiSecret: "s3cr&t=x y" };
const NOW_MS = 1_700_000_000_123;
const VISITOR: Visitor = { clientId: "1234567.7654321", sessionId: "987654", address: "192.0.2.1" };

type Call = { url: URL; body: GaBody; contentType: string | null; at: number };
type GaBody = {
  client_id: string;
  timestamp_micros: number;
  events: Array<{ name: string; params: Record<string, unknown> }>;
};

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

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
        at: performance.now(),
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
  ...given,
});
const status = (code: number) => () => new HttpResponse("nope", { status: code });

function events(count: number, name = "page_view"): OutboundEvent[] {
  return Array.from({ length: count }, (_, index) => ({ name, params: { index } }));
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

function sinkWithGa() {
  return createSink({ ga: GA, endpoint: GA_ENDPOINT, now: () => NOW_MS });
}

describe("stdout mode (no GA4 configured)", () => {
  it("writes exactly one parseable JSON line per event and makes no HTTP call", () => {
    const outbound = spyOnOutboundHttp();
    const calls = ga4(ok);
    const lines: string[] = [];
    const sink = createSink({
      ga: null,
      endpoint: GA_ENDPOINT,
      writeLine: (line) => lines.push(line),
    });

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
    const sink = createSink({ ga: null, endpoint: GA_ENDPOINT });
    sink.record(VISITOR, events(2));
    write.mockRestore();

    expect(written).toHaveLength(2);
    for (const chunk of written) expect(chunk).toMatch(/^\{[^\n]*\}\n$/);
    expect(written.map((chunk) => JSON.parse(chunk).params.index)).toEqual([0, 1]);
    await sink.flush(100);
    for (const spy of outbound) expect(spy).not.toHaveBeenCalled();
    expect(calls).toHaveLength(0);
  });
});

describe("GA4 Measurement Protocol", () => {
  it("posts the batch with measurement_id and api_secret in the query", async () => {
    const calls = ga4(ok);
    const sink = sinkWithGa();
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
      // Sent as they happen: no timestamp_micros (issue 24: only for events sent late).
      client_id: "1234567.7654321",
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
    const sink = createSink({
      ga: GA,
      endpoint: "https://region1.google-analytics.com/debug/mp/collect?foo=bar",
    });
    sink.record(VISITOR, events(1));
    await until(() => sink.stats().sent === 1);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.searchParams.get("foo")).toBe("bar");
    expect(calls[0]?.searchParams.get("measurement_id")).toBe("G-TEST123");
  });

  it("splits 30 events into requests of 25 and 5, in order", async () => {
    const calls = ga4(ok);
    const sink = sinkWithGa();
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
    const sink = sinkWithGa();
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
});

describe("retries", () => {
  it("retries a 500 after 1 s and then sends", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const calls = ga4((call) => (call === 1 ? status(500)() : ok()));
    const sink = sinkWithGa();
    sink.record(VISITOR, events(3));
    await until(() => sink.stats().retried === 1);
    expect(calls).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => sink.stats().sent === 3);

    expect(calls).toHaveLength(2);
    expect(calls[1]?.body).toEqual(calls[0]?.body);
    expect(sink.stats()).toEqual(counts({ recorded: 3, sent: 3, retried: 1 }));
  });

  it.each([
    ["a 500", status(500)],
    ["a 503", status(503)],
    ["a 429", status(429)],
    ["a network error", () => HttpResponse.error()],
  ])("retries %s after 1 s, 2 s and 4 s, then drops the batch", async (_label, respond) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const calls = ga4(respond);
    const sink = sinkWithGa();
    sink.record(VISITOR, events(2));

    for (const [retry, wait] of [
      [1, 1000],
      [2, 2000],
      [3, 4000],
    ] as const) {
      await until(() => sink.stats().retried === retry);
      expect(calls).toHaveLength(retry);
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(calls).toHaveLength(retry);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => calls.length === retry + 1);
    }
    await until(() => sink.stats().dropped === 2);
    await vi.advanceTimersByTimeAsync(120_000);

    expect(calls).toHaveLength(4);
    expect(sink.stats()).toEqual(counts({ recorded: 2, retried: 3, dropped: 2 }));
  });

  it.each([400, 403, 404, 413])("drops the batch on a %s without retrying", async (code) => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const calls = ga4(status(code));
    const sink = sinkWithGa();
    sink.record(VISITOR, events(4));
    await until(() => sink.stats().dropped === 4);
    await vi.advanceTimersByTimeAsync(120_000);
    await new Promise((resolve) => setImmediate(resolve));

    expect(calls).toHaveLength(1);
    expect(sink.stats()).toEqual(counts({ recorded: 4, dropped: 4 }));
  });
});

describe("when GA4 hangs", () => {
  it("gives up after about 2 s without sending again (GA4 may have it), while record() returns at once", async () => {
    const calls = ga4(async (call) => {
      if (call === 1) await delay("infinite");
      return ok();
    });
    const sink = sinkWithGa();
    // The call, and its 2 s timeout, start synchronously inside record().
    const firstRecordAt = performance.now();
    sink.record(VISITOR, events(1));
    await until(() => calls.length === 1);

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
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(calls).toHaveLength(3);
    expect(sink.stats()).toEqual(counts({ recorded: 31, sent: 30, unconfirmed: 1 }));
  }, 8000);

  it("retries a call refused before its body went out (it certainly did not arrive)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let call = 0;
    const post = async () => {
      call += 1;
      if (call === 1) throw new PostError("connect ECONNREFUSED", false);
      return 204;
    };
    const sink = createSink({ ga: GA, endpoint: GA_ENDPOINT, post });
    sink.record(VISITOR, events(2));
    await until(() => sink.stats().retried === 1);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => sink.stats().sent === 2);
    expect(call).toBe(2);
    expect(sink.stats()).toMatchObject({ unconfirmed: 0, dropped: 0 });
  });

  it("flush(deadline) resolves by the deadline and drops what is left", async () => {
    const calls = ga4(async () => {
      await delay("infinite");
      return ok();
    });
    const sink = sinkWithGa();
    // Six batches of 25: four go out at once (and hang), two wait in the queue.
    sink.record(VISITOR, events(150));
    await until(() => calls.length === 4);
    // Queued counts events not settled yet: two calls in line and four out, 25 events each.
    expect(sink.stats()).toMatchObject({ recorded: 150, queued: 150, sent: 0 });

    const start = performance.now();
    await sink.flush(300);
    const flushMs = performance.now() - start;
    expect(flushMs).toBeGreaterThanOrEqual(280);
    expect(flushMs).toBeLessThan(800);
    // The four calls still out are abandoned (GA4 may have them: unconfirmed), the queue is
    // dropped: the shutdown line that follows must add up, recorded = sent + dropped + unconfirmed.
    const after = counts({ recorded: 150, dropped: 50, unconfirmed: 100 });
    expect(sink.stats()).toEqual(after);

    // After a flush that ran out of time the sink is closed: new events are dropped at once,
    // and nothing more is sent.
    sink.record(VISITOR, events(5));
    const closed = { ...after, recorded: 155, dropped: 55 };
    expect(sink.stats()).toEqual(closed);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(calls).toHaveLength(4);
    expect(sink.stats()).toEqual(closed);
  }, 8000);
});

describe("flush", () => {
  it("sends retries still waiting at once instead of after their backoff", async () => {
    const calls = ga4((call) => (call === 1 ? status(503)() : ok()));
    const sink = sinkWithGa();
    sink.record(VISITOR, events(3));
    await until(() => sink.stats().retried === 1);

    const start = performance.now();
    await sink.flush(5000);
    expect(performance.now() - start).toBeLessThan(500);
    expect(calls).toHaveLength(2);
    expect(sink.stats()).toEqual(counts({ recorded: 3, sent: 3, retried: 1 }));
  });

  it("does not retry again while closing: a failure during flush is dropped", async () => {
    const calls = ga4(status(500));
    const sink = sinkWithGa();
    sink.record(VISITOR, events(3));
    await until(() => sink.stats().retried === 1);

    await sink.flush(5000);
    expect(calls).toHaveLength(2);
    expect(sink.stats()).toEqual(counts({ recorded: 3, retried: 1, dropped: 3 }));
  });

  it("sends everything queued before resolving when GA4 answers", async () => {
    const calls = ga4(ok);
    const sink = sinkWithGa();
    for (let index = 0; index < 10; index++) sink.record(VISITOR, events(25));
    await sink.flush(5000);
    expect(calls).toHaveLength(10);
    expect(sink.stats()).toEqual(counts({ recorded: 250, sent: 250 }));
  });

  it("resolves at once when there is nothing to send", async () => {
    const sink = sinkWithGa();
    const start = performance.now();
    await sink.flush(5000);
    expect(performance.now() - start).toBeLessThan(100);
  });
});

describe("bounded queue", () => {
  it("holds at most 2000 batches and drops what does not fit", async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls = ga4(async () => {
      await gate;
      return ok();
    });
    const sink = sinkWithGa();
    // One batch per record: four go out (and wait at the gate), 2000 queue, six are dropped.
    for (let index = 0; index < 2010; index++) sink.record(VISITOR, events(1));
    expect(sink.stats()).toEqual({
      recorded: 2010,
      sent: 0,
      retried: 0,
      dropped: 6,
      unconfirmed: 0,
      // 2000 in line and 4 out.
      queued: 2004,
    });

    await until(() => calls.length === 4);
    await sink.flush(0);
    // Out of time at once: the queue is dropped and the four calls out are unconfirmed, each
    // counted once.
    expect(sink.stats()).toMatchObject({ dropped: 2006, unconfirmed: 4, queued: 0 });
    release();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls).toHaveLength(4);
    expect(sink.stats()).toEqual(counts({ recorded: 2010, dropped: 2006, unconfirmed: 4 }));
  });
});

describe("shutdown accounting", () => {
  /** A GA4 stand-in without the network: every call waits until released, then answers. */
  function gatedPost() {
    const pending: Array<{ resolve: (status: number) => void; signal?: AbortSignal }> = [];
    const post = (_url: URL, _body: string, _timeoutMs: number, signal?: AbortSignal) =>
      new Promise<number>((resolve, reject) => {
        pending.push({ resolve, signal });
        signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      });
    const answer = (status: number) => {
      for (const call of pending.splice(0)) call.resolve(status);
    };
    return { post, pending, answer };
  }

  it("sends what is recorded while a flush runs, and waits for it", async () => {
    const ga = gatedPost();
    const sink = createSink({ ga: GA, endpoint: GA_ENDPOINT, post: ga.post });
    sink.record(VISITOR, events(1));
    const flushed = sink.flush(5000);
    // A request still being served records a lead after the signal.
    sink.record(VISITOR, events(2, "generate_lead"));
    await until(() => ga.pending.length === 2);
    let done = false;
    void flushed.then(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(done).toBe(false);
    ga.answer(204);
    await flushed;
    expect(sink.stats()).toEqual(counts({ recorded: 3, sent: 3 }));
  });

  it("close() counts what is queued as dropped and what is out as unconfirmed, once, and ignores late answers", async () => {
    const ga = gatedPost();
    const sink = createSink({ ga: GA, endpoint: GA_ENDPOINT, post: ga.post });
    for (let index = 0; index < 6; index++) sink.record(VISITOR, events(1));
    expect(ga.pending).toHaveLength(4);
    sink.close();
    const closed = counts({ recorded: 6, dropped: 2, unconfirmed: 4 });
    expect(sink.stats()).toEqual(closed);
    ga.answer(204);
    sink.record(VISITOR, events(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(sink.stats()).toEqual({ ...closed, recorded: 7, dropped: 3 });
  });

  it("counts retries waiting for their backoff against the 2000-batch bound", async () => {
    // GA4 fails every call at once: each batch then waits a second for its retry.
    const sink = createSink({ ga: GA, endpoint: GA_ENDPOINT, post: async () => 500 });
    for (let index = 0; index < 2004; index++) sink.record(VISITOR, events(1));
    await until(() => sink.stats().retried === 2004);
    // All waiting for their retry: not settled yet.
    expect(sink.stats()).toMatchObject({
      recorded: 2004,
      dropped: 0,
      unconfirmed: 0,
      queued: 2004,
    });
    // 2004 batches wait for a retry: nothing new fits until some leave.
    sink.record(VISITOR, events(3));
    expect(sink.stats()).toMatchObject({ recorded: 2007, dropped: 3 });
    sink.close();
    expect(sink.stats()).toMatchObject({
      recorded: 2007,
      sent: 0,
      dropped: 2007,
      unconfirmed: 0,
      queued: 0,
    });
  });

  it("bounds the queue by size too: full batches fill 4 MB, not 2000 × 16 KB", async () => {
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as () => void;
    const heapMb = () => {
      gc();
      gc();
      return process.memoryUsage().heapUsed / 1024 / 1024;
    };
    const ga = gatedPost();
    const sink = createSink({ ga: GA, endpoint: GA_ENDPOINT, post: ga.post });
    const before = heapMb();
    for (let index = 0; index < 2000; index++) {
      // As /api/events hands them over: 25 events of GA4's longest values, about 12 KB.
      const batch = JSON.parse(
        JSON.stringify(
          Array.from({ length: 25 }, (_, event) => ({
            name: "page_view",
            params: Object.fromEntries(
              Array.from({ length: 4 }, (_, param) => [
                `p${param}`,
                `${index}.${event}`.padEnd(100, "x"),
              ]),
            ),
          })),
        ),
      ) as OutboundEvent[];
      sink.record(VISITOR, batch);
    }
    const grown = heapMb() - before;
    const { queued, dropped } = sink.stats();
    // 4 MB of JSON is about 300 of these (four of them out); the rest are dropped and counted.
    const held = queued / 25;
    expect(held).toBeGreaterThan(250);
    expect(held).toBeLessThan(400);
    expect(dropped).toBe((2000 - held) * 25);
    // Kept as objects, 2000 of them took 44 MB of heap; as JSON strings, capped at 4 MB.
    expect(grown).toBeLessThan(10);
    sink.close();
  });
});

describe("statsReporter", () => {
  it("writes the counters when they changed since the last line, else nothing", () => {
    const lines: string[] = [];
    const sink = createSink({ ga: null, endpoint: GA_ENDPOINT, writeLine: () => undefined });
    const report = statsReporter(sink.stats, (line) => lines.push(line));
    report();
    report();
    sink.record(VISITOR, events(2));
    report();
    report();
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        type: "analytics_stats",
        recorded: 0,
        sent: 0,
        retried: 0,
        dropped: 0,
        unconfirmed: 0,
        queued: 0,
      },
      {
        type: "analytics_stats",
        recorded: 2,
        sent: 2,
        retried: 0,
        dropped: 0,
        unconfirmed: 0,
        queued: 0,
      },
    ]);
  });
});

describe("ga4Stamp: timestamp_micros only for events sent late", () => {
  const body = '{"client_id":"1.2","events":[]}';
  it("leaves a body sent within 2 s as it is, stamps a later one, drops one past 72 hours", () => {
    const stamp = ga4Stamp(NOW_MS);
    expect(stamp(body, NOW_MS + 1999)).toBe(body);
    expect(JSON.parse(stamp(body, NOW_MS + 2000) ?? "")).toEqual({
      timestamp_micros: NOW_MS * 1000,
      client_id: "1.2",
      events: [],
    });
    expect(stamp(body, NOW_MS + 72 * 3600_000)).not.toBeNull();
    expect(stamp(body, NOW_MS + 72 * 3600_000 + 1)).toBeNull();
  });
});
