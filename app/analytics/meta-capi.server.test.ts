import { createHash } from "node:crypto";
import { delay, HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PostError } from "~/analytics/http-post.server";
import {
  externalId,
  fbcOf,
  type MetaLead,
  metaChatCall,
  metaLeadCall,
  metaStamp,
} from "~/analytics/meta-capi.server";
import type { Post } from "~/analytics/outbox.server";
import { createSink, META_MAX_AGE_MS, type Sink } from "~/analytics/sink.server";
import { createLedger, type LeadRecord, type Ledger } from "~/leads/ledger/ledger.server";
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
    event_source_url?: string;
    action_source: string;
    messaging_channel?: string;
    user_data: Record<string, string>;
    custom_data?: Record<string, unknown>;
  }>;
  access_token: string;
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

/** Polls on setImmediate, which no test fakes, with a real-time limit. */
async function until(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs) throw new Error(`not met in ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** When the lead was counted: now, as /thank-you records it (Meta takes 7 days back). */
const leadAt = () => Date.now();
const LEAD_ID = "6f1c2b7e-8a3d-8c59-9b1e-2f4a6d8c0e11";
/** sha256("1.2"), hex: the visitor's client id as Meta gets it. */
const EXTERNAL_ID = createHash("sha256").update("1.2").digest("hex");

function lead(overrides: Partial<MetaLead> = {}): MetaLead {
  return {
    id: LEAD_ID,
    clientId: VISITOR.clientId,
    at: leadAt(),
    pageUrl: "https://darb.example/?utm_source=instagram&fbclid=IwAR2xyz",
    address: VISITOR.address,
    userAgent: PHONE,
    fbclid: "IwAR2xyz",
    details: { currency: "AED", value: 0, lead_source: "instagram", cta: "whatsapp" },
    ...overrides,
  };
}

/** The ledger's record of the lead `meta` reports. */
function leadRecord(meta: MetaLead, overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: meta.id,
    at: meta.at,
    cta: "whatsapp",
    campaign: { source: "instagram", ...(meta.fbclid ? { fbclid: meta.fbclid } : {}) },
    clientId: meta.clientId,
    sessionId: "1764000000",
    ref: "DRB-7K2QX",
    ...(meta.fbclid ? { fbc: fbcOf(meta.fbclid, meta.at) } : {}),
    status: "new",
    ...overrides,
  };
}

/** What the sink records for a counted lead: its ledger record and Meta's Lead. */
const counted = (meta: MetaLead) => ({ lead: { record: leadRecord(meta), meta } });

/** A sink with Meta only: GA4's side writes its lines nowhere. */
function metaSink(options: { post?: Post; ledger?: Ledger } = {}) {
  const sink = createSink({
    ga: null,
    endpoint: "https://ga.invalid/",
    meta: META,
    writeLine: () => undefined,
    ledger: options.ledger ?? createLedger(),
    post: options.post,
  });
  sinks.push(sink);
  return sink;
}

/** Backoff without the wait: the timers and the clock are Vitest's. */
const fakeTime = () =>
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_764_000_000_123 });

const leadEvents = [{ name: "generate_lead", params: { cta: "whatsapp" } }];

describe("Meta Conversions API", () => {
  it("posts a Lead with its id, time, page, user data and fbc, the token in the body", async () => {
    fakeTime();
    const calls = meta(ok);
    const sink = metaSink();
    sink.record(VISITOR, leadEvents, counted(lead()));
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
          event_id: LEAD_ID,
          event_source_url: "https://darb.example/?utm_source=instagram&fbclid=IwAR2xyz",
          action_source: "website",
          user_data: {
            client_ip_address: "203.0.113.7",
            external_id: EXTERNAL_ID,
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

  it("dates fbc when the click id was first seen, never after the lead", () => {
    const at = 1_764_000_000_000;
    const seen = (fbclidAt?: number) =>
      JSON.parse(metaLeadCall(META, lead({ at, fbclidAt })).body).data[0].user_data.fbc;
    expect(seen(at - 60_000)).toBe(`fb.1.${at - 60_000}.IwAR2xyz`);
    expect(seen(undefined)).toBe(`fb.1.${at}.IwAR2xyz`);
    expect(seen(at + 60_000)).toBe(`fb.1.${at}.IwAR2xyz`);
  });

  it("hashes the client id into external_id, and leaves out a user agent no phone has", () => {
    expect(externalId("1.2")).toBe(EXTERNAL_ID);
    expect(EXTERNAL_ID).toMatch(/^[0-9a-f]{64}$/);
    const call = metaLeadCall(META, lead({ userAgent: "x".repeat(1025) }));
    const userData = JSON.parse(call.body).data[0].user_data;
    expect(userData.external_id).toBe(EXTERNAL_ID);
    expect(JSON.stringify(userData)).not.toContain(VISITOR.clientId);
    expect(userData).not.toHaveProperty("client_user_agent");
    expect(call).toMatchObject({
      destination: "meta",
      url: `${META.endpoint}/${META.pixelId}/events`,
      events: 1,
      lead: LEAD_ID,
    });
  });

  it("sends no fbc without a click id, and nothing at all for events that are not a lead", async () => {
    const calls = meta(ok);
    const sink = metaSink();
    sink.record(VISITOR, [{ name: "page_view", params: {} }]);
    sink.record(VISITOR, leadEvents, counted(lead({ fbclid: undefined })));
    await until(() => sink.stats().meta_sent === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body.data[0]?.user_data).not.toHaveProperty("fbc");
    expect(sink.stats()).toMatchObject({ meta_recorded: 1, meta_sent: 1, recorded: 2, sent: 2 });
  });

  it("tells Meta nothing of a lead recorded without a Lead (a shared link), but keeps it", async () => {
    const calls = meta(ok);
    const ledger = createLedger();
    const sink = metaSink({ ledger });
    const record = leadRecord(lead(), { cta: "link", ref: undefined });
    sink.record(VISITOR, leadEvents, { lead: { record, meta: null } });
    await sink.flush(1000);
    expect(calls).toHaveLength(0);
    expect(ledger.lead(record.id)).toEqual(record);
    expect(sink.stats()).toMatchObject({ meta_recorded: 0, meta_queued: 0 });
  });

  it("sends a Lead that got no answer again with the same event_id, which Meta counts once", async () => {
    fakeTime();
    // Meta takes the first call but answers too late (the body went out), then answers at once.
    const bodies: string[] = [];
    const post: Post = async (_url, body, { onBodySent, timeoutMs }) => {
      bodies.push(body);
      onBodySent?.();
      if (bodies.length === 1) throw new PostError(`no answer within ${timeoutMs} ms`, true);
      return 200;
    };
    const sink = metaSink({ post });
    sink.record(VISITOR, leadEvents, counted(lead()));
    await until(() => sink.stats().meta_retried === 1);
    await vi.advanceTimersByTimeAsync(999);
    expect(bodies).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => sink.stats().meta_sent === 1);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toBe(bodies[0]);
    expect(sink.stats()).toMatchObject({
      meta_recorded: 1,
      meta_sent: 1,
      meta_retried: 1,
      meta_unconfirmed: 0,
      meta_dropped: 0,
    });
  });

  it("retries a Lead after a 500 or 429, with the same event_id, and counts it sent", async () => {
    fakeTime();
    const calls = meta((call) =>
      call === 1
        ? HttpResponse.json({}, { status: 500 })
        : call === 2
          ? HttpResponse.json({}, { status: 429 })
          : ok(),
    );
    const sink = metaSink();
    sink.record(VISITOR, leadEvents, counted(lead()));
    // Backoff 1 s, then 2 s.
    await until(() => sink.stats().meta_retried === 1);
    await vi.advanceTimersByTimeAsync(1000);
    await until(() => sink.stats().meta_retried === 2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    await until(() => sink.stats().meta_sent === 1);
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((call) => call.body.data[0]?.event_id)).size).toBe(1);
    expect(sink.stats()).toMatchObject({ meta_retried: 2, meta_dropped: 0 });
  });

  it("drops a Lead Meta refuses (400) without sending it again, and counts it", async () => {
    const calls = meta(() => HttpResponse.json({ error: { message: "bad" } }, { status: 400 }));
    const sink = metaSink();
    sink.record(VISITOR, leadEvents, counted(lead()));
    await until(() => sink.stats().meta_dropped === 1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toHaveLength(1);
    expect(sink.destinations()).toMatchObject([
      { name: "meta", outcomes: { refused: 1, delivered: 0, given_up: 0, unconfirmed: 0 } },
    ]);
  });

  it("keeps a Lead through an outage, and gives it up once it is 7 days old", async () => {
    fakeTime();
    let down = true;
    const calls = meta(() => (down ? HttpResponse.json({}, { status: 503 }) : ok()));
    const sink = metaSink();
    // Counted 7 days less 2 minutes ago: the outage outlasts what Meta takes.
    sink.record(VISITOR, leadEvents, counted(lead({ at: Date.now() - META_MAX_AGE_MS + 120_000 })));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sink.stats()).toMatchObject({ meta_queued: 1, meta_dropped: 0 });
    expect(calls.length).toBeGreaterThan(5);
    await vi.advanceTimersByTimeAsync(90_000);
    await until(() => sink.stats().meta_dropped === 1);
    down = false;
    const tried = calls.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(tried);
    expect(sink.destinations()[0]?.outcomes).toMatchObject({ given_up: 1, delivered: 0 });
  });

  it("flushes what is queued on shutdown", async () => {
    const calls = meta(async () => {
      await delay(100);
      return ok();
    });
    const sink = metaSink();
    for (let index = 0; index < 6; index++)
      sink.record(VISITOR, leadEvents, counted(lead({ id: `lead-${index}` })));
    await sink.flush(2000);
    expect(calls).toHaveLength(6);
    expect(sink.stats()).toMatchObject({ meta_recorded: 6, meta_sent: 6, meta_queued: 0 });
  });
});

describe("a chat on WhatsApp", () => {
  const ACCOUNT = "102290129340398";
  const chatAt = 1_764_000_600_000;

  it("is a LeadSubmitted from business messaging on WhatsApp, joined to its lead", () => {
    const record = leadRecord(lead({ at: 1_764_000_000_123 }));
    const call = metaChatCall(
      META,
      {
        messageId: "wamid.HBgM",
        at: chatAt,
        lead: record.id,
        ctwaClid: "ARAkLkA",
        account: ACCOUNT,
      },
      record,
    );
    expect(call).toMatchObject({ destination: "meta", events: 1, at: chatAt, lead: record.id });
    expect(JSON.parse(call.body)).toEqual({
      data: [
        {
          event_name: "LeadSubmitted",
          event_time: 1_764_000_600,
          event_id: "chat-wamid.HBgM",
          action_source: "business_messaging",
          messaging_channel: "whatsapp",
          user_data: {
            // The same external_id and fbc as the lead's own Lead.
            external_id: EXTERNAL_ID,
            fbc: "fb.1.1764000000123.IwAR2xyz",
            ctwa_clid: "ARAkLkA",
            whatsapp_business_account_id: ACCOUNT,
          },
          custom_data: { lead_event_id: record.id, cta_type: "whatsapp" },
        },
      ],
    });
    // The token joins the body as it is sent (metaStamp), never the ledger's copy.
    expect(call.body).not.toContain(META.accessToken);
    expect(JSON.parse(metaStamp(call.body, META.accessToken))).toEqual({
      ...JSON.parse(call.body),
      access_token: META.accessToken,
    });
    const leadCall = JSON.parse(metaLeadCall(META, lead()).body).data[0];
    expect(JSON.parse(call.body).data[0].user_data.external_id).toBe(
      leadCall.user_data.external_id,
    );
  });

  it("from a Click-to-WhatsApp ad without a lead carries only the ad's click id", () => {
    const call = metaChatCall(
      META,
      { messageId: "wamid.2", at: chatAt, lead: null, ctwaClid: "ARAkLkA" },
      undefined,
    );
    const [event] = JSON.parse(call.body).data;
    expect(event.user_data).toEqual({ ctwa_clid: "ARAkLkA" });
    expect(event).not.toHaveProperty("custom_data");
    expect(call.lead).toBeUndefined();
  });

  it("is sent through the sink for a lead or an ad's click, and not for a chat with neither", async () => {
    const calls = meta(ok);
    const ledger = createLedger();
    const sink = metaSink({ ledger });
    const record = leadRecord(lead());
    ledger.recordLead(record, []);
    sink.recordChat({ messageId: "wamid.1", at: Date.now(), lead: record.id }, record, []);
    sink.recordChat(
      { messageId: "wamid.2", at: Date.now(), lead: null, ctwaClid: "ARAkLkA" },
      undefined,
      [],
    );
    sink.recordChat({ messageId: "wamid.3", at: Date.now(), lead: null }, undefined, []);
    await sink.flush(2000);
    expect(calls.map((call) => call.body.data[0]?.event_id).sort()).toEqual([
      "chat-wamid.1",
      "chat-wamid.2",
    ]);
    expect(ledger.chatSeen("wamid.3")).toBe(true);
    expect(sink.stats()).toMatchObject({ meta_recorded: 2, meta_sent: 2 });
  });
});
