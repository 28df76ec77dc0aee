import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createAnalytics,
  createEngagementClock,
  ENDPOINT,
  type QueuedEvent,
  type Transport,
} from "~/analytics/queue.client";

type Response = { ok: boolean; status: number };

/**
 * A transport backed by vitest's fake timers. `fetch` answers with `responses` in turn (the last
 * one repeats); an Error in the list is thrown instead, as a network failure.
 */
function fakeTransport(responses: Array<Response | Error> = [{ ok: true, status: 204 }]) {
  let call = 0;
  const fetch = vi.fn(async (_url: string, _init: RequestInit): Promise<Response> => {
    const next = responses[Math.min(call++, responses.length - 1)];
    if (!next || next instanceof Error) throw next ?? new Error("no response");
    return next;
  });
  const delays: number[] = [];
  const transport: Transport & { fetch: typeof fetch } = {
    fetch,
    setTimeout: (callback, ms) => {
      delays.push(ms);
      return globalThis.setTimeout(callback, ms);
    },
    clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
  return { transport, fetch, delays };
}

function sentEvents(
  fetch: ReturnType<typeof fakeTransport>["fetch"],
  index: number,
): QueuedEvent[] {
  const init = fetch.mock.calls[index]?.[1];
  if (!init) throw new Error(`fetch was not called ${index + 1} times`);
  return (JSON.parse(String(init.body)) as { events: QueuedEvent[] }).events;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("batching", () => {
  it("sends events together one second after the first", async () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    analytics.track("page_view", { page_path: "/" });
    await vi.advanceTimersByTimeAsync(500);
    analytics.track("cta_click", { cta_id: "hero" });
    await vi.advanceTimersByTimeAsync(499);
    expect(fetch).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledOnce();
    expect(sentEvents(fetch, 0)).toEqual([
      { name: "page_view", params: { page_path: "/" } },
      { name: "cta_click", params: { cta_id: "hero" } },
    ]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fetch).toHaveBeenCalledOnce();
  });

  it("posts JSON to /api/events with keepalive and same-origin credentials", async () => {
    const { transport, fetch } = fakeTransport();
    createAnalytics(transport).track("email_click", {}, true);
    expect(fetch).toHaveBeenCalledOnce();
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe(ENDPOINT);
    expect(ENDPOINT).toBe("/api/events");
    expect(init).toMatchObject({
      method: "POST",
      headers: { "content-type": "application/json" },
      keepalive: true,
      credentials: "same-origin",
    });
    expect(JSON.parse(String(init?.body))).toEqual({
      events: [{ name: "email_click", params: {} }],
    });
  });

  it("uses the endpoint it was given", () => {
    const { transport, fetch } = fakeTransport();
    createAnalytics(transport, "/custom/events").track("page_view", {}, true);
    expect(fetch.mock.calls[0]?.[0]).toBe("/custom/events");
  });

  it("sends an urgent event at once, together with what was waiting", async () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    analytics.track("page_view");
    analytics.track("external_link_click", { link_url: "https://wa.me/" }, true);
    expect(fetch).toHaveBeenCalledOnce();
    expect(sentEvents(fetch, 0).map((event) => event.name)).toEqual([
      "page_view",
      "external_link_click",
    ]);
    // The batch timer was cancelled: nothing more goes out.
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledOnce();
  });

  it("starts a fresh one-second batch after an urgent send", async () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    analytics.track("page_view");
    await vi.advanceTimersByTimeAsync(600);
    analytics.track("cta_click", {}, true);
    expect(fetch).toHaveBeenCalledOnce();

    analytics.track("navigation_click", { to: "/faq" });
    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(sentEvents(fetch, 1)).toEqual([{ name: "navigation_click", params: { to: "/faq" } }]);
  });

  it("sends at once when 25 events are waiting, at most 25 a request", async () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    for (let index = 0; index < 24; index++) analytics.track("page_view", { index });
    expect(fetch).not.toHaveBeenCalled();
    analytics.track("page_view", { index: 24 });
    expect(fetch).toHaveBeenCalledOnce();
    expect(sentEvents(fetch, 0)).toHaveLength(25);

    for (let index = 25; index < 60; index++) analytics.track("page_view", { index });
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(fetch).toHaveBeenCalledTimes(3);
    const batches = [0, 1, 2].map((call) => sentEvents(fetch, call));
    expect(batches.map((batch) => batch.length)).toEqual([25, 25, 10]);
    expect(batches.flat().map((event) => event.params.index)).toEqual(
      Array.from({ length: 60 }, (_, index) => index),
    );
  });

  it("keeps no more than 25 events waiting, so the 100-event bound is never reached", () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    for (let index = 0; index < 250; index++) analytics.track("page_view", { index });
    expect(fetch).toHaveBeenCalledTimes(10);
    const all = Array.from({ length: 10 }, (_, call) => sentEvents(fetch, call));
    expect(all.every((batch) => batch.length === 25)).toBe(true);
    // Nothing was dropped on the way.
    expect(all.flat().map((event) => event.params.index)).toEqual(
      Array.from({ length: 250 }, (_, index) => index),
    );
  });

  it("sends urgent events one request each, in order", () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    for (let index = 0; index < 3; index++) analytics.track("cta_click", { index }, true);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect([0, 1, 2].map((call) => sentEvents(fetch, call)[0]?.params.index)).toEqual([0, 1, 2]);
  });
});

describe("retries", () => {
  it("retries a network error after 1 s, 2 s and 4 s, then gives up: 4 calls", async () => {
    const { transport, fetch, delays } = fakeTransport([new TypeError("Failed to fetch")]);
    createAnalytics(transport).track("cta_click", { cta_id: "hero" }, true);
    expect(fetch).toHaveBeenCalledTimes(1);

    await vi.advanceTimersByTimeAsync(999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(2);

    await vi.advanceTimersByTimeAsync(1999);
    expect(fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(3);

    await vi.advanceTimersByTimeAsync(3999);
    expect(fetch).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetch).toHaveBeenCalledTimes(4);

    await vi.advanceTimersByTimeAsync(120_000);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(delays).toEqual([1000, 2000, 4000]);
    expect(vi.getTimerCount()).toBe(0);
    // Every attempt carries the same batch.
    const bodies = fetch.mock.calls.map(([, init]) => init.body);
    expect(new Set(bodies).size).toBe(1);
  });

  it.each([500, 502, 503])("retries a %s and stops once it is delivered", async (status) => {
    const { transport, fetch, delays } = fakeTransport([
      { ok: false, status },
      { ok: false, status },
      { ok: true, status: 204 },
    ]);
    createAnalytics(transport).track("cta_click", {}, true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(delays).toEqual([1000, 2000]);
  });

  it("retries a 429 too", async () => {
    const { transport, fetch, delays } = fakeTransport([{ ok: false, status: 429 }]);
    createAnalytics(transport).track("cta_click", {}, true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(4);
    expect(delays).toEqual([1000, 2000, 4000]);
  });

  it.each([400, 403, 404, 413])("does not retry a %s", async (status) => {
    const { transport, fetch, delays } = fakeTransport([{ ok: false, status }]);
    createAnalytics(transport).track("cta_click", {}, true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledOnce();
    expect(delays).toEqual([]);
  });

  it("does not retry a success", async () => {
    const { transport, fetch } = fakeTransport([{ ok: true, status: 204 }]);
    createAnalytics(transport).track("cta_click", {}, true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledOnce();
  });

  it("never throws into the page, even when fetch throws synchronously", async () => {
    const transport = fakeTransport().transport;
    transport.fetch = vi.fn(() => {
      throw new Error("sync");
    });
    const analytics = createAnalytics(transport);
    expect(() => analytics.track("cta_click", {}, true)).not.toThrow();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(transport.fetch).toHaveBeenCalledTimes(4);
  });
});

describe("params", () => {
  it("merges the context into every event, the event's own params winning", () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    analytics.setContext({ page_path: "/ar", language: "ar", source: "context" });
    analytics.track("cta_click", { cta_id: "hero", source: "event" });
    analytics.track("page_view", undefined, true);
    expect(sentEvents(fetch, 0)).toEqual([
      {
        name: "cta_click",
        params: { page_path: "/ar", language: "ar", source: "event", cta_id: "hero" },
      },
      { name: "page_view", params: { page_path: "/ar", language: "ar", source: "context" } },
    ]);
  });

  it("replaces the context rather than merging contexts", () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    analytics.setContext({ a: 1 });
    analytics.setContext({ b: 2 });
    analytics.track("page_view", {}, true);
    expect(sentEvents(fetch, 0)[0]?.params).toEqual({ b: 2 });
  });

  it("trims params to GA4's limits before sending", () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    analytics.setContext({
      ga_session_id: "ctx",
      page_title: "t".repeat(350),
      medium: "m".repeat(150),
    });
    analytics.track(
      "cta_click",
      {
        label: "x".repeat(101),
        "bad-name": "x",
        "9lives": 1,
        ga_x: 1,
        google_x: 1,
        firebase_x: 1,
        session_id: "mine",
        value: NaN,
        missing: undefined,
        ok: true,
      },
      true,
    );
    const params = sentEvents(fetch, 0)[0]?.params;
    // page_title has GA4's own limit, 300; everything else 100.
    expect(params).toEqual({
      page_title: "t".repeat(300),
      medium: "m".repeat(100),
      label: "x".repeat(100),
      ok: true,
    });
  });
});

describe("flushOnExit", () => {
  it("hands the waiting events to sendBeacon as an application/json Blob", async () => {
    const { transport, fetch } = fakeTransport();
    const sendBeacon = vi.fn((_url: string, _data: Blob) => true);
    transport.sendBeacon = sendBeacon;
    const analytics = createAnalytics(transport);
    analytics.track("page_view", { page_path: "/" });
    analytics.track("cta_click", { cta_id: "hero" });

    analytics.flushOnExit();
    expect(sendBeacon).toHaveBeenCalledOnce();
    const [url, blob] = sendBeacon.mock.calls[0] ?? [];
    expect(url).toBe("/api/events");
    expect(blob).toBeInstanceOf(Blob);
    expect(blob?.type).toBe("application/json");
    expect(JSON.parse((await blob?.text()) ?? "")).toEqual({
      events: [
        { name: "page_view", params: { page_path: "/" } },
        { name: "cta_click", params: { cta_id: "hero" } },
      ],
    });
    // The batch timer was cancelled and nothing went through fetch.
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).not.toHaveBeenCalled();
    expect(sendBeacon).toHaveBeenCalledOnce();
  });

  it("does nothing when nothing is waiting", () => {
    const { transport, fetch } = fakeTransport();
    const sendBeacon = vi.fn(() => true);
    transport.sendBeacon = sendBeacon;
    createAnalytics(transport).flushOnExit();
    expect(sendBeacon).not.toHaveBeenCalled();
    expect(fetch).not.toHaveBeenCalled();
  });

  it("falls back to a single fetch, without retries, when sendBeacon refuses", async () => {
    const { transport, fetch } = fakeTransport([{ ok: false, status: 503 }]);
    const sendBeacon = vi.fn(() => false);
    transport.sendBeacon = sendBeacon;
    const analytics = createAnalytics(transport);
    analytics.track("page_view", { page_path: "/" });

    analytics.flushOnExit();
    expect(sendBeacon).toHaveBeenCalledOnce();
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[1]).toMatchObject({ keepalive: true, method: "POST" });
    expect(sentEvents(fetch, 0)).toEqual([{ name: "page_view", params: { page_path: "/" } }]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledOnce();
  });

  it("falls back to fetch where the browser has no sendBeacon", () => {
    const { transport, fetch } = fakeTransport();
    const analytics = createAnalytics(transport);
    analytics.track("page_view");
    analytics.flushOnExit();
    expect(fetch).toHaveBeenCalledOnce();
  });

  it("puts every waiting event, in order, into the beacon", async () => {
    const { transport, fetch } = fakeTransport();
    const sendBeacon = vi.fn((_url: string, _data: Blob) => true);
    transport.sendBeacon = sendBeacon;
    const analytics = createAnalytics(transport);
    // 24 wait (a 25th would have been sent at once).
    for (let index = 0; index < 24; index++) analytics.track("page_view", { index });
    expect(fetch).not.toHaveBeenCalled();
    analytics.flushOnExit();
    expect(sendBeacon).toHaveBeenCalledOnce();
    const blob = sendBeacon.mock.calls[0]?.[1];
    const { events } = JSON.parse((await blob?.text()) ?? "") as { events: QueuedEvent[] };
    expect(events.map((event) => event.params.index)).toEqual(
      Array.from({ length: 24 }, (_, index) => index),
    );
  });

  it("sends only once: a second flushOnExit has nothing left", () => {
    const { transport } = fakeTransport();
    const sendBeacon = vi.fn(() => true);
    transport.sendBeacon = sendBeacon;
    const analytics = createAnalytics(transport);
    analytics.track("page_view");
    analytics.flushOnExit();
    analytics.flushOnExit();
    expect(sendBeacon).toHaveBeenCalledOnce();
  });
});

describe("batches the server will accept", () => {
  it("splits 25 long events so that no request body passes the 16 KB limit", async () => {
    vi.useFakeTimers();
    try {
      const bodies: string[] = [];
      const analytics = createAnalytics({
        fetch: async (_url, init) => {
          bodies.push(String(init.body));
          return { ok: true, status: 204 };
        },
        setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
        clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
      });
      const long = "x".repeat(100);
      analytics.setContext({
        page_location: long,
        page_title: long,
        page_referrer: long,
        source: "a",
        campaign: long,
        language: "en",
      });
      for (let i = 0; i < 25; i++) analytics.track("cta_click", { cta_id: long, link_url: long });
      await vi.advanceTimersByTimeAsync(1000);
      const sent = bodies.flatMap((body) => (JSON.parse(body) as { events: unknown[] }).events);
      expect(bodies.length).toBeGreaterThan(1);
      expect(sent).toHaveLength(25);
      for (const body of bodies)
        expect(new TextEncoder().encode(body).byteLength).toBeLessThanOrEqual(16 * 1024);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("the GA4 session and engagement time", () => {
  it("sends each batch with its session's id, one session a batch", async () => {
    const { transport, fetch } = fakeTransport();
    let session = "1764000000";
    const analytics = createAnalytics({ ...transport, session: () => session });
    analytics.track("page_view", {});
    analytics.track("cta_click", {});
    session = "1764003600";
    analytics.track("navigation_click", {});
    await vi.advanceTimersByTimeAsync(1000);
    const bodies = fetch.mock.calls.map(
      ([, init]) => JSON.parse(String(init.body)) as { session_id?: string; events: QueuedEvent[] },
    );
    expect(bodies.map((body) => [body.session_id, body.events.map((event) => event.name)])).toEqual(
      [
        ["1764000000", ["page_view", "cta_click"]],
        ["1764003600", ["navigation_click"]],
      ],
    );
  });

  it("puts the engagement clock's reading on every event", async () => {
    const { transport, fetch } = fakeTransport();
    const readings = [812, 1];
    const analytics = createAnalytics({ ...transport, engagement: () => readings.shift() ?? 0 });
    analytics.track("campaign_details", { source: "instagram" });
    analytics.track("page_view", {});
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentEvents(fetch, 0).map((event) => event.params.engagement_time_msec)).toEqual([
      812, 1,
    ]);
  });
});

describe("createEngagementClock", () => {
  it("counts foreground time since the previous reading, not time hidden", () => {
    let now = 0;
    let visible = true;
    const clock = createEngagementClock(
      () => now,
      () => visible,
    );
    now = 1200;
    expect(clock.take()).toBe(1200);
    now = 1500;
    visible = false;
    clock.update();
    now = 60_000;
    visible = true;
    clock.update();
    now = 60_250;
    // 300 ms before it was hidden and 250 ms since it came back; the hidden minute is not counted.
    expect(clock.take()).toBe(550);
  });

  it("reads at least 1 ms (GA4 counts only engagement above 0) and at most an hour", () => {
    let now = 0;
    const clock = createEngagementClock(
      () => now,
      () => true,
    );
    now = 0;
    expect(clock.take()).toBe(1);
    now = 5 * 60 * 60 * 1000;
    expect(clock.take()).toBe(60 * 60 * 1000);
  });

  it("starts at zero for a page that opened hidden", () => {
    let now = 0;
    let visible = false;
    const clock = createEngagementClock(
      () => now,
      () => visible,
    );
    now = 10_000;
    visible = true;
    clock.update();
    now = 10_400;
    expect(clock.take()).toBe(400);
  });
});
