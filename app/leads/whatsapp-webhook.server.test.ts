import { createHash, createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { readDestinations } from "~/analytics/destinations/registry.server";
import type { Post } from "~/analytics/outbox.server";
import { createSink, type Sink } from "~/analytics/sink.server";
import type { LeadRecord } from "~/leads/ledger/ledger.server";
import {
  type InboundMessage,
  inboundMessages,
  recordChats,
  validSignature,
  verifySubscription,
} from "~/leads/whatsapp-webhook.server";
import { testContext } from "../../tests/support/request-context";

const SECRET = "0123456789abcdef0123456789abcdef";
const sign = (body: string, secret = SECRET) =>
  `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;

describe("validSignature", () => {
  const body = '{"object":"whatsapp_business_account","entry":[]}';

  it("takes Meta's signature of the raw body, and nothing else", () => {
    expect(validSignature(Buffer.from(body), sign(body), SECRET)).toBe(true);
    expect(validSignature(Buffer.from(body), sign(body).toUpperCase(), SECRET)).toBe(false);
    expect(validSignature(Buffer.from(`${body} `), sign(body), SECRET)).toBe(false);
    expect(validSignature(Buffer.from(body), sign(body, "f".repeat(32)), SECRET)).toBe(false);
    expect(validSignature(Buffer.from(body), null, SECRET)).toBe(false);
    expect(validSignature(Buffer.from(body), "sha256=", SECRET)).toBe(false);
    expect(validSignature(Buffer.from(body), sign(body).replace("sha256=", "sha1="), SECRET)).toBe(
      false,
    );
  });

  it("takes only sha256= and 64 lower-case hex digits, however the rest would decode", () => {
    const good = sign(body);
    const hex = good.slice("sha256=".length);
    // Each decodes (Buffer.from(…, "hex") stops at the first non-hex pair) to the right digest.
    for (const header of [
      `${good}zz`,
      `${good}0`,
      `${good}00`,
      `${good} `,
      `${good}\t`,
      ` ${good}`,
      `sha256=${hex.toUpperCase()}`,
      `SHA256=${hex}`,
      `sha256=${hex},sha256=${hex}`,
      `sha256=${hex.slice(0, 63)}g${hex.slice(63)}`,
    ]) {
      expect(validSignature(Buffer.from(body), header, SECRET), JSON.stringify(header)).toBe(false);
    }
  });

  it("matches the published test vector (key 'secret', message 'test')", () => {
    expect(
      validSignature(
        Buffer.from("test"),
        "sha256=0329a06b62cd16b33eb6792be8c60b158d89a2ee3a876fce9a881ebb488c0914",
        "secret",
      ),
    ).toBe(true);
  });
});

describe("verifySubscription", () => {
  const url = (query: string) => new URL(`https://darb.example/api/whatsapp/webhook?${query}`);

  it("answers the challenge when the token is ours", async () => {
    const answer = verifySubscription(
      url("hub.mode=subscribe&hub.verify_token=tok-123456&hub.challenge=1158201444"),
      "tok-123456",
    );
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe("1158201444");
  });

  it.each([
    "hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1",
    "hub.mode=unsubscribe&hub.verify_token=tok-123456&hub.challenge=1",
    "hub.verify_token=tok-123456&hub.challenge=1",
  ])("refuses %s with 403", (query) => {
    expect(verifySubscription(url(query), "tok-123456").status).toBe(403);
  });

  it("never echoes a challenge that is not a plain token", async () => {
    const answer = verifySubscription(
      url("hub.mode=subscribe&hub.verify_token=tok-123456&hub.challenge=%3Cscript%3E"),
      "tok-123456",
    );
    expect(answer.status).toBe(400);
    expect(await answer.text()).not.toContain("<script>");
  });
});

describe("inboundMessages", () => {
  const change = (value: unknown, field = "messages") => ({ field, value });
  const payload = (...changes: unknown[]) => ({
    object: "whatsapp_business_account",
    entry: [{ id: "102290129340398", changes }],
  });

  it("reads every message of every change and entry, with its text, time and ad click", () => {
    const messages = inboundMessages({
      object: "whatsapp_business_account",
      entry: [
        {
          id: "111",
          changes: [
            change({
              messages: [
                {
                  from: "971501234567",
                  id: "wamid.1",
                  timestamp: "1750000000",
                  type: "text",
                  text: { body: "Ref DRB-7K2QX" },
                },
                {
                  id: "wamid.2",
                  timestamp: "1750000001",
                  type: "button",
                  button: { text: "Yes" },
                  referral: { ctwa_clid: "clid-1" },
                },
              ],
            }),
          ],
        },
        {
          id: "222",
          changes: [
            change({
              messages: [
                {
                  id: "wamid.3",
                  timestamp: "1750000002",
                  type: "interactive",
                  interactive: { button_reply: { title: "Plus" } },
                },
              ],
            }),
          ],
        },
      ],
    });
    expect(messages).toEqual([
      {
        messageId: "wamid.1",
        from: "971501234567",
        account: "111",
        at: 1750000000000,
        text: "Ref DRB-7K2QX",
      },
      { messageId: "wamid.2", account: "111", at: 1750000001000, text: "Yes", ctwaClid: "clid-1" },
      { messageId: "wamid.3", account: "222", at: 1750000002000, text: "Plus" },
    ]);
  });

  it("finds no message in status callbacks, other fields, or anything else", () => {
    expect(
      inboundMessages(payload(change({ statuses: [{ id: "wamid.s", status: "read" }] }))),
    ).toEqual([]);
    expect(inboundMessages(payload(change({ messages: [{ id: "x" }] }, "account_update")))).toEqual(
      [],
    );
    for (const junk of [
      null,
      1,
      "x",
      [],
      {},
      { object: "page", entry: [] },
      payload(null),
      payload({}),
    ]) {
      expect(inboundMessages(junk)).toEqual([]);
    }
    // A message without an id cannot be told apart from a repeat: skipped.
    expect(inboundMessages(payload(change({ messages: [{ text: { body: "hi" } }] })))).toEqual([]);
  });

  it("keeps of a Click-to-WhatsApp ad's referral its id, type and headline, and never its text or media", () => {
    const referral = {
      source_url: "https://fb.me/3cr4Wqqkq",
      source_id: "120226305854810726",
      source_type: "ad",
      body: "Learn to drive in Dubai with a coach in your pocket",
      headline: "  Chat\u202e with\nus ",
      media_type: "image",
      image_url: "https://scontent.xx.fbcdn.net/v/t45.1600-4/ad.jpg",
      video_url: "https://video.xx.fbcdn.net/ad.mp4",
      thumbnail_url: "https://scontent.xx.fbcdn.net/thumb.jpg",
      ctwa_clid:
        "ARAkLkA8rmlFeiCktEJQ-QTwRiyYHAFDLMNDBH0CD3qpjd0HR4irJ6LEkR7JwFF4XvnO2E4Nx0-eM-GABDLOPaOdRMv-_zfUQ2a",
      welcome_message: { text: "Hi there! Let us know how we can help!" },
    };
    const [message] = inboundMessages(
      payload(change({ messages: [{ id: "wamid.ad", text: { body: "Hi" }, referral }] })),
    );
    expect(message).toMatchObject({
      ctwaClid: referral.ctwa_clid,
      referral: { sourceId: "120226305854810726", sourceType: "ad", headline: "Chat with us" },
    });
    expect(Object.keys(message?.referral ?? {})).toEqual(["sourceId", "sourceType", "headline"]);
    const kept = JSON.stringify(message);
    for (const dropped of ["fb.me", "fbcdn", "Learn to drive", "Let us know", "image"]) {
      expect(kept).not.toContain(dropped);
    }
  });

  it("bounds a referral's id and headline, and keeps the ad's click when its id is no id", () => {
    const one = (referral: unknown) =>
      inboundMessages(
        payload(change({ messages: [{ id: "wamid.r", text: { body: "Hi" }, referral }] })),
      )[0];
    expect(one({ source_id: "615533673545722", source_type: "post" })?.referral).toEqual({
      sourceId: "615533673545722",
      sourceType: "post",
    });
    expect(one({ source_id: "1202", source_type: "story", headline: "" })?.referral).toEqual({
      sourceId: "1202",
    });
    expect(one({ source_id: "1202", headline: "h".repeat(300) })?.referral?.headline).toBe(
      "h".repeat(100),
    );
    for (const sourceId of [undefined, 1202, "", "1".repeat(41), "12 02", "<b>1</b>", "١٢٠٢"]) {
      const message = one({ source_id: sourceId, headline: "Chat with us", ctwa_clid: "clid-9" });
      expect(message).not.toHaveProperty("referral");
      expect(message?.ctwaClid).toBe("clid-9");
    }
    expect(one("120226305854810726")).not.toHaveProperty("referral");
  });

  it("reads the sender's number only as the text WhatsApp writes it", () => {
    const one = (from: unknown) =>
      inboundMessages(
        payload(change({ messages: [{ id: "wamid.f", from, text: { body: "hi" } }] })),
      )[0];
    expect(one("971501234567")?.from).toBe("971501234567");
    for (const junk of [971501234567, null, {}, "", "9".repeat(4097)]) {
      expect(one(junk)).not.toHaveProperty("from");
    }
  });
});

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const NUMBER = "971501234567";
/** The hashes each network documents: E.164 with its "+" (Google, TikTok), digits alone (Meta, Snap). */
const HASHED = { e164: sha256(`+${NUMBER}`), digits: sha256(NUMBER) };

/** Every network on, each with its own stand-in answer, none of them reached over the network. */
const NETWORKS = {
  GA_MEASUREMENT_ID: "G-TEST12345",
  GA_API_SECRET: "test_secret_1",
  META_PIXEL_ID: "123456789012345",
  META_ACCESS_TOKEN: "EAAB_test_token_0123456789",
  TIKTOK_PIXEL_CODE: "C4ABCDEF0123456789",
  TIKTOK_ACCESS_TOKEN: "tiktok_token_0123456789",
  SNAP_PIXEL_ID: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d",
  SNAP_ACCESS_TOKEN: "snap_token_0123456789",
  GOOGLE_ADS_CUSTOMER_ID: "123-456-7890",
  GOOGLE_ADS_CHAT_CONVERSION_ACTION: "987654321",
  GOOGLE_ADS_CLIENT_ID: "123-abc.apps.googleusercontent.com",
  GOOGLE_ADS_CLIENT_SECRET: "client_secret_1",
  GOOGLE_ADS_REFRESH_TOKEN: "1//refresh-token-0123",
};

const sinks: Sink[] = [];
afterEach(() => {
  for (const sink of sinks.splice(0)) sink.close();
});

/** A request context whose sink sends every network's calls to a stand-in that records them. */
function chatContext(chatValue = 0) {
  const base = testContext();
  const posted: Array<{ url: string; body: string }> = [];
  const post: Post = async (url, body, options) => {
    posted.push({ url: url.href, body });
    options.onBodySent?.();
    const oauth = url.href.startsWith("https://oauth2.googleapis.com/");
    options.onAnswer?.(
      oauth ? JSON.stringify({ access_token: "ya29.test", expires_in: 3600 }) : '{"code":0}',
    );
    return 200;
  };
  const lines: string[] = [];
  const analytics = createSink({
    destinations: readDestinations(NETWORKS),
    ledger: base.services.ledger,
    post,
    writeLine: (line) => lines.push(line),
  });
  sinks.push(analytics);
  const context = {
    ...base,
    config: { ...base.config, leadValues: { ...base.config.leadValues, chat: chatValue } },
    services: { ...base.services, analytics, log: (line: string) => lines.push(line) },
  };
  return { context, posted, lines, analytics, ledger: base.services.ledger };
}

function leadRecord(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: "6f1c2b7e-8a3d-8c59-9b1e-2f4a6d8c0e11",
    at: Date.now() - 60_000,
    cta: "whatsapp",
    campaign: {
      source: "ads",
      fbclid: "IwAR2xyz",
      ttclid: "E.C.P.tt",
      ScCid: "sc-1",
      gclid: "Cj0KCQ",
    },
    clientId: "1234567.7654321",
    sessionId: "1700000000",
    ref: "DRB-7K2QX",
    status: "new",
    ...overrides,
  };
}

const message = (overrides: Partial<InboundMessage> = {}): InboundMessage => ({
  messageId: "wamid.1",
  at: Date.now(),
  text: "Hello\n\nRef DRB-7K2QX",
  from: NUMBER,
  account: "102290129340398",
  ...overrides,
});

/** The calls posted to each network, by the first part of its address. */
const to = (posted: Array<{ url: string; body: string }>, host: string) =>
  posted.filter((call) => new URL(call.url).hostname === host).map((call) => call.body);

describe("recordChats", () => {
  it("hands the sink a lead's first chat with the sender's number hashed (in clear only for the reply to seal), and keeps only the hashes", async () => {
    const { context, ledger, analytics } = chatContext(7);
    const lead = leadRecord();
    ledger.recordLead(lead, []);
    const recordChat = vi.spyOn(analytics, "recordChat");
    const outcome = await recordChats(context, [message()]);
    expect(outcome).toEqual({ seen: 1, matched: 1, unmatched: 0, repeated: 0 });
    expect(recordChat).toHaveBeenCalledTimes(1);
    const [chat, facts, events] = recordChat.mock.calls[0] ?? [];
    expect(chat).toEqual({
      messageId: "wamid.1",
      at: expect.any(Number),
      lead: lead.id,
      account: "102290129340398",
    });
    expect(facts).toMatchObject({ chat, lead, phone: HASHED, value: 7 });
    expect(facts?.pageUrl({ ttclid: "x" })).toBe(
      new URL("/?ttclid=x", context.config.siteUrl).href,
    );
    expect(events).toEqual([
      {
        name: "working_lead",
        params: expect.objectContaining({ currency: "AED", value: 7, lead_status: "chat_started" }),
      },
    ]);
    // The number is in memory for the automatic reply, which seals it; nothing else has it.
    expect(facts?.sender).toBe(NUMBER);
    expect(JSON.stringify([chat, { ...facts, sender: undefined }, events])).not.toContain(NUMBER);
    expect(ledger.lead(lead.id)).toMatchObject({ status: "chat_started", phone: HASHED });
    expect(JSON.stringify([...ledger.live()])).not.toContain(NUMBER);
  });

  it("tells every network of the chat once, on the lead's own click, with the hash each documents and never the number", async () => {
    const { context, ledger, analytics, posted, lines } = chatContext();
    ledger.recordLead(leadRecord(), []);
    await recordChats(context, [message()]);
    await analytics.flush(2000);
    const [meta] = to(posted, "graph.facebook.com");
    const [tiktok] = to(posted, "business-api.tiktok.com");
    const [snap] = to(posted, "tr.snapchat.com");
    const [google] = to(posted, "datamanager.googleapis.com");
    expect(JSON.parse(meta ?? "").data[0]).toMatchObject({
      event_name: "Contact",
      event_id: `${leadRecord().id}.chat`,
      user_data: { ph: HASHED.digits },
    });
    expect(JSON.parse(tiktok ?? "").data[0].user).toMatchObject({
      phone: HASHED.e164,
      ttclid: "E.C.P.tt",
    });
    expect(JSON.parse(snap ?? "").data[0].user_data).toMatchObject({
      ph: HASHED.digits,
      sc_click_id: "sc-1",
    });
    const googleBody = JSON.parse(google ?? "");
    expect(googleBody.events[0].userData.userIdentifiers).toEqual([{ phoneNumber: HASHED.e164 }]);
    expect(googleBody.events[0].adIdentifiers).toEqual({ gclid: "Cj0KCQ" });
    const ga4 = to(posted, "www.google-analytics.com");
    expect(ga4.map((body) => JSON.parse(body).events[0].name)).toEqual(["working_lead"]);
    for (const call of posted) expect(call.body).not.toContain(NUMBER);
    for (const line of lines) expect(line).not.toContain(NUMBER);

    // Meta sends the delivery again: nothing more is told.
    const before = posted.length;
    expect(await recordChats(context, [message()])).toMatchObject({ seen: 0, repeated: 1 });
    await analytics.flush(2000);
    expect(posted).toHaveLength(before);
  });

  it("tells no one of a lead's later chat, and keeps no number from it", async () => {
    const { context, ledger, analytics } = chatContext();
    const lead = leadRecord();
    ledger.recordLead(lead, []);
    await recordChats(context, [message({ from: undefined })]);
    const recordChat = vi.spyOn(analytics, "recordChat");
    await recordChats(context, [message({ messageId: "wamid.2" })]);
    expect(recordChat.mock.calls[0]?.[1]).toBeNull();
    expect(recordChat.mock.calls[0]?.[2]).toEqual([]);
    expect(ledger.lead(lead.id)).not.toHaveProperty("phone");
  });

  it("tells the networks of a Click-to-WhatsApp ad's chat without a lead, and GA4 nothing", async () => {
    const { context, ledger, analytics, posted } = chatContext();
    const recordChat = vi.spyOn(analytics, "recordChat");
    const outcome = await recordChats(context, [
      message({ text: "Is this available?", ctwaClid: "ARAkLkA" }),
    ]);
    expect(outcome).toEqual({ seen: 1, matched: 0, unmatched: 1, repeated: 0 });
    const [, facts, events] = recordChat.mock.calls[0] ?? [];
    expect(facts).toMatchObject({ phone: HASHED });
    expect(facts).not.toHaveProperty("lead");
    expect(events).toEqual([]);
    await analytics.flush(2000);
    const [meta] = to(posted, "graph.facebook.com");
    expect(JSON.parse(meta ?? "").data[0]).toMatchObject({
      event_name: "LeadSubmitted",
      action_source: "business_messaging",
      user_data: { ctwa_clid: "ARAkLkA", ph: HASHED.digits },
    });
    expect(to(posted, "www.google-analytics.com")).toEqual([]);
    expect(ledger.chatSeen("wamid.1")).toBe(true);
    for (const call of posted) expect(call.body).not.toContain(NUMBER);
  });

  it("keeps a Click-to-WhatsApp ad's chat with its ad, in the ledger, and tells no network the headline", async () => {
    const { context, ledger, analytics, posted } = chatContext();
    const referral = {
      sourceId: "120226305854810726",
      sourceType: "ad" as const,
      headline: "Chat with us",
    };
    await recordChats(context, [
      message({ text: "Is this available?", ctwaClid: "ARAkLkA", referral }),
    ]);
    expect(ledger.chats()).toEqual([
      expect.objectContaining({ messageId: "wamid.1", lead: null, ctwaClid: "ARAkLkA", referral }),
    ]);
    await analytics.flush(2000);
    expect(posted.length).toBeGreaterThan(0);
    for (const call of posted) expect(call.body).not.toContain("Chat with us");
  });

  it("tells no one of a chat with neither a lead nor an ad's click", async () => {
    const { context, analytics } = chatContext();
    const recordChat = vi.spyOn(analytics, "recordChat");
    await recordChats(context, [message({ text: "hi" })]);
    expect(recordChat.mock.calls[0]?.[1]).toBeNull();
  });

  it("sends no phone for a sender that is no number", async () => {
    const { context, ledger, analytics } = chatContext();
    ledger.recordLead(leadRecord(), []);
    const recordChat = vi.spyOn(analytics, "recordChat");
    await recordChats(context, [message({ from: "not-a-number" })]);
    const facts = recordChat.mock.calls[0]?.[1];
    expect(facts?.lead).toBeDefined();
    expect(facts).not.toHaveProperty("phone");
  });
});
