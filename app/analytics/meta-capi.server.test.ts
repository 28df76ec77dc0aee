import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fbcOf, type MetaLead } from "~/analytics/meta-capi.server";
import { createSink } from "~/analytics/sink.server";
import type { Visitor } from "~/leads/visitor.server";

const META = {
  pixelId: "123456789012345",
  accessToken: "EAAB_test_token_0123456789",
  endpoint: "https://graph.facebook.com/v23.0",
};
const EVENTS_URL = `${META.endpoint}/${META.pixelId}/events`;
const VISITOR: Visitor = { clientId: "1.2", sessionId: "3", address: "203.0.113.7" };
const PHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 Safari/604.1";

type MetaBody = {
  data: Array<{
    event_name: string;
    event_time: number;
    event_id: string;
    event_source_url: string;
    action_source: string;
    user_data: Record<string, string>;
    custom_data: Record<string, unknown>;
  }>;
  access_token: string;
};

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

function meta(respond: (call: number) => Promise<Response> | Response) {
  const calls: Array<{ url: URL; body: MetaBody }> = [];
  server.use(
    http.post(EVENTS_URL, async ({ request }) => {
      calls.push({ url: new URL(request.url), body: (await request.json()) as MetaBody });
      return respond(calls.length);
    }),
  );
  return calls;
}

const ok = () => HttpResponse.json({ events_received: 1 });

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs) throw new Error(`not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function lead(overrides: Partial<MetaLead> = {}): MetaLead {
  return {
    id: "6f1c2b7e-8a3d-4c59-9b1e-2f4a6d8c0e11",
    at: 1_764_000_000_123,
    pageUrl: "https://darb.example/?utm_source=instagram&fbclid=IwAR2xyz",
    address: VISITOR.address,
    userAgent: PHONE,
    fbclid: "IwAR2xyz",
    details: { currency: "AED", value: 0, lead_source: "instagram", cta: "whatsapp" },
    ...overrides,
  };
}

/** A sink with Meta only: GA4's side writes its lines nowhere. */
const metaSink = () =>
  createSink({ ga: null, endpoint: "https://ga.invalid/", meta: META, writeLine: () => undefined });

const leadEvents = [{ name: "generate_lead", params: { cta: "whatsapp" } }];

describe("Meta Conversions API", () => {
  it("posts a Lead with its id, time, page, user data and fbc, the token in the body", async () => {
    const calls = meta(ok);
    const sink = metaSink();
    sink.record(VISITOR, leadEvents, { lead: lead() });
    await until(() => sink.stats().meta_sent === 1);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    // The token never in the URL, which ends up in logs.
    expect(call?.url.search).toBe("");
    expect(call?.body).toEqual({
      data: [
        {
          event_name: "Lead",
          event_time: 1_764_000_000,
          event_id: "6f1c2b7e-8a3d-4c59-9b1e-2f4a6d8c0e11",
          event_source_url: "https://darb.example/?utm_source=instagram&fbclid=IwAR2xyz",
          action_source: "website",
          user_data: {
            client_ip_address: "203.0.113.7",
            client_user_agent: PHONE,
            fbc: "fb.1.1764000000123.IwAR2xyz",
          },
          custom_data: { currency: "AED", value: 0, lead_source: "instagram", cta: "whatsapp" },
        },
      ],
      access_token: META.accessToken,
    });
  });

  it("builds fbc as Meta documents it for a server: fb.1.<ms>.<fbclid>, the click id whole", () => {
    const long = `IwZXh0bgNhZW0BMABhZGlkAasX${"a".repeat(200)}`;
    expect(fbcOf(long, 1_700_000_000_000)).toBe(`fb.1.1700000000000.${long}`);
  });

  it("sends no fbc without a click id, and nothing at all for events that are not a lead", async () => {
    const calls = meta(ok);
    const sink = metaSink();
    sink.record(VISITOR, [{ name: "page_view", params: {} }]);
    sink.record(VISITOR, leadEvents, { lead: lead({ fbclid: undefined }) });
    await until(() => sink.stats().meta_sent === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body.data[0]?.user_data).not.toHaveProperty("fbc");
    expect(sink.stats()).toMatchObject({ meta_recorded: 1, meta_sent: 1, recorded: 2, sent: 2 });
  });

  it("sends a timed-out Lead again with the same event_id, which Meta counts once", async () => {
    // Meta takes the first call but answers after the 2 s timeout, then answers at once.
    const calls = meta(async (call) => {
      if (call === 1) await delay(2500);
      return ok();
    });
    const sink = metaSink();
    sink.record(VISITOR, leadEvents, { lead: lead() });
    await until(() => sink.stats().meta_sent === 1, 6000);
    expect(calls).toHaveLength(2);
    expect(new Set(calls.map((call) => call.body.data[0]?.event_id)).size).toBe(1);
    expect(sink.stats()).toMatchObject({
      meta_recorded: 1,
      meta_sent: 1,
      meta_retried: 1,
      meta_unconfirmed: 0,
      meta_dropped: 0,
    });
  }, 10_000);

  it("retries a Lead after a 500 or 429, with the same event_id, and counts it sent", async () => {
    const calls = meta((call) =>
      call === 1
        ? HttpResponse.json({}, { status: 500 })
        : call === 2
          ? HttpResponse.json({}, { status: 429 })
          : ok(),
    );
    const sink = metaSink();
    sink.record(VISITOR, leadEvents, { lead: lead() });
    // Backoff 1 s, then 2 s.
    await until(() => sink.stats().meta_sent === 1, 6000);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.body.data[0]?.event_id)).size).toBe(1);
    expect(sink.stats()).toMatchObject({ meta_retried: 2, meta_dropped: 0 });
  }, 10_000);

  it("drops a Lead Meta refuses (400) without sending it again, and counts it", async () => {
    const calls = meta(() => HttpResponse.json({ error: { message: "bad" } }, { status: 400 }));
    const sink = metaSink();
    sink.record(VISITOR, leadEvents, { lead: lead() });
    await until(() => sink.stats().meta_dropped === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(1);
  });

  it("flushes what is queued on shutdown", async () => {
    const calls = meta(async () => {
      await delay(100);
      return ok();
    });
    const sink = metaSink();
    for (let index = 0; index < 6; index++)
      sink.record(VISITOR, leadEvents, { lead: lead({ id: `lead-${index}` }) });
    await sink.flush(2000);
    expect(calls).toHaveLength(6);
    expect(sink.stats()).toMatchObject({ meta_recorded: 6, meta_sent: 6, meta_queued: 0 });
  });
});
