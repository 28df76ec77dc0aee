// Meta's Conversions API: its settings, the tap's Lead, a chat as Meta's business messaging
// (a Click-to-WhatsApp ad's) or as a website lead's contact, the later stages, the token and
// test code joining the body only as it is sent, and what Meta's error codes mean.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type ChatFacts,
  configure,
  type StageFacts,
  type TapFacts,
} from "~/analytics/destinations/destination.server";
import {
  DEFAULT_META_ENDPOINT,
  type MetaSettings,
  meta,
  metaStamp,
} from "~/analytics/destinations/meta.server";
import { judgeMeta } from "~/analytics/verdict.server";
import { fbcOf } from "~/leads/attribution-cookies.server";
import type { ChatRecord, LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import { phoneHashes } from "~/leads/phone-hashes.server";
import { ConfigError, type Env } from "~/platform/setting-readers.server";
import type { Campaign } from "~/shared/campaign";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const PIXEL = "123456789012345";
const DATASET = "998877665544";
const TOKEN = "EAAB_test_token_0123456789";
const ENV = { META_PIXEL_ID: PIXEL, META_ACCESS_TOKEN: TOKEN };
const SETTINGS: MetaSettings = {
  pixelId: PIXEL,
  accessToken: TOKEN,
  endpoint: DEFAULT_META_ENDPOINT,
  datasetId: DATASET,
  testEventCode: null,
  moments: new Set(["tap", "chat", "stages"]),
};
const PIXEL_URL = `${DEFAULT_META_ENDPOINT}/${PIXEL}/events`;
const DATASET_URL = `${DEFAULT_META_ENDPOINT}/${DATASET}/events`;

const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 Safari/604.1";
const AT = 1_764_000_000_123;
const CHAT_AT = AT + 600_000;
const LEAD_ID = "0192f4a0-lead-id";
const CLIENT_ID = "111.222";
/** sha256("111.222"), hex: the visit's client id as Meta gets it. */
const EXTERNAL_ID = sha256(CLIENT_ID);
const WA_ID = "971501234567";
/** What Meta matches a phone on: SHA-256 of its digits with the country code, no "+". */
const PH = sha256(WA_ID);
const ACCOUNT = "102290129340398";

const EVERY_CLICK: Campaign = {
  utm_source: "instagram",
  utm_campaign: "Eid",
  fbclid: "IwAR2xyz",
  gclid: "g-1",
  ttclid: "tt-1",
  ScCid: "sc-1",
};
const pageUrl = (campaign: Campaign) =>
  `https://darb.example/?${new URLSearchParams(campaign as Record<string, string>)}`;

function tap(overrides: Partial<TapFacts> = {}): TapFacts {
  return {
    id: LEAD_ID,
    at: AT,
    cta: "whatsapp",
    clientId: CLIENT_ID,
    address: "203.0.113.7",
    userAgent: PHONE_UA,
    campaign: EVERY_CLICK,
    pageUrl,
    details: { lead_source: "instagram", cta: "whatsapp" },
    value: 25,
    ...overrides,
  };
}

function lead(overrides: Partial<LeadRecord> = {}): LeadRecord {
  return {
    id: LEAD_ID,
    at: AT,
    cta: "whatsapp",
    campaign: EVERY_CLICK,
    clientId: CLIENT_ID,
    sessionId: "9",
    ref: "DRB-7K2QX",
    fbc: fbcOf("IwAR2xyz", AT),
    status: "chat_started",
    chatAt: CHAT_AT,
    experiment: { id: "hero", variant: "b" },
    ...overrides,
  };
}

function chat(overrides: Partial<ChatRecord> = {}, facts: Partial<ChatFacts> = {}): ChatFacts {
  return {
    chat: { messageId: "wamid.HBgM", at: CHAT_AT, lead: LEAD_ID, ...overrides },
    lead: lead(),
    phone: phoneHashes(WA_ID) ?? undefined,
    value: 10,
    pageUrl,
    ...facts,
  };
}

const stageOf = (stage: StageFacts["stage"], overrides: Partial<StageFacts> = {}): StageFacts => ({
  lead: lead(),
  stage,
  at: CHAT_AT + 86_400_000,
  value: 150,
  phone: phoneHashes(WA_ID) ?? undefined,
  pageUrl,
  ...overrides,
});

const configured = (settings: Partial<MetaSettings> = {}) =>
  configure(meta, { ...SETTINGS, ...settings });
const only = (calls: NewCall[] | undefined): NewCall => {
  expect(calls).toHaveLength(1);
  return calls?.[0] as NewCall;
};
const eventOf = (call: NewCall) => JSON.parse(call.body).data[0];

/** The ConfigError these settings stop start-up with. */
function refusal(env: Env): ConfigError {
  try {
    meta.settings.read(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("Meta's settings", () => {
  it("are off with neither, and on with both at the pinned Graph API version, every moment sent", () => {
    expect(meta.settings.read({})).toBeNull();
    expect(meta.settings.read(ENV)).toEqual({
      pixelId: PIXEL,
      accessToken: TOKEN,
      endpoint: "https://graph.facebook.com/v23.0",
      datasetId: null,
      testEventCode: null,
      moments: new Set(["tap", "chat", "stages"]),
    });
  });

  it.each([
    [{ META_PIXEL_ID: PIXEL }, "META_ACCESS_TOKEN"],
    [{ META_ACCESS_TOKEN: TOKEN }, "META_PIXEL_ID"],
  ])("with one of the two, %j names the other", (env, variable) => {
    expect(refusal(env).variable).toBe(variable);
  });

  it.each([
    [{ ...ENV, META_PIXEL_ID: "pixel-1" }, "META_PIXEL_ID"],
    [{ ...ENV, META_ACCESS_TOKEN: "EAAB secret token 0123456789" }, "META_ACCESS_TOKEN"],
    [{ ...ENV, META_WHATSAPP_DATASET_ID: "dataset" }, "META_WHATSAPP_DATASET_ID"],
    [{ ...ENV, META_TEST_EVENT_CODE: "TE ST" }, "META_TEST_EVENT_CODE"],
    [{ ...ENV, META_TEST_EVENT_CODE: "T1" }, "META_TEST_EVENT_CODE"],
    [{ ...ENV, META_SEND: "tap,purchase" }, "META_SEND"],
    [{ ...ENV, META_CAPI_ENDPOINT: "http://graph.example/v23.0" }, "META_CAPI_ENDPOINT"],
  ])("refuses a malformed value in %j, naming %s and never the token", (env, variable) => {
    const error = refusal(env);
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain("secret token");
  });

  it("takes the WhatsApp account's dataset, a test code and the moments to send", () => {
    const settings = meta.settings.read({
      ...ENV,
      META_WHATSAPP_DATASET_ID: DATASET,
      META_TEST_EVENT_CODE: "TEST12345",
      META_SEND: "chat,stages",
      META_CAPI_ENDPOINT: "http://127.0.0.1:9/meta/",
    });
    expect(settings).toMatchObject({
      datasetId: DATASET,
      testEventCode: "TEST12345",
      moments: new Set(["chat", "stages"]),
      endpoint: "http://127.0.0.1:9/meta",
    });
    const on = configure(meta, settings as MetaSettings);
    // Sent only the chat and the stages: no tap.
    expect(on.tap).toBeUndefined();
    expect(on.chat).toBeTypeOf("function");
    expect(on.secrets).toEqual([TOKEN]);
    expect(on.warnings).toEqual([expect.stringMatching(/^META_TEST_EVENT_CODE is set/)]);
    expect(configured().warnings).toEqual([]);
  });
});

describe("the tap's Lead", () => {
  it("carries its id, time, page with only fbclid, the address, user agent, fbc, hashed client id and value", () => {
    const call = only(configured().tap?.(tap({ fbclidAt: AT - 60_000 })));
    expect(call).toMatchObject({
      destination: "meta",
      url: PIXEL_URL,
      events: 1,
      at: AT,
      lead: LEAD_ID,
    });
    expect(JSON.parse(call.body)).toEqual({
      data: [
        {
          event_name: "Lead",
          event_time: Math.floor(AT / 1000),
          event_id: LEAD_ID,
          event_source_url:
            "https://darb.example/?utm_source=instagram&utm_campaign=Eid&fbclid=IwAR2xyz",
          action_source: "website",
          user_data: {
            client_ip_address: "203.0.113.7",
            external_id: EXTERNAL_ID,
            client_user_agent: PHONE_UA,
            fbc: `fb.1.${AT - 60_000}.IwAR2xyz`,
          },
          custom_data: { lead_source: "instagram", cta: "whatsapp", currency: "AED", value: 25 },
        },
      ],
    });
    // The token joins it as it is sent: never in the ledger's copy, never in the URL.
    expect(JSON.stringify(call)).not.toContain(TOKEN);
  });

  it("builds fbc as Meta documents it for a server: fb.1.<ms>.<fbclid>, the click id whole", () => {
    const long = `IwZXh0bgNhZW0BMABhZGlkAasX${"a".repeat(200)}`;
    expect(fbcOf(long, 1_700_000_000_000)).toBe(`fb.1.1700000000000.${long}`);
  });

  it("dates fbc when the click id was first seen, never after the lead", () => {
    const fbc = (fbclidAt?: number) =>
      eventOf(only(configured().tap?.(tap({ fbclidAt })))).user_data.fbc;
    expect(fbc(AT - 60_000)).toBe(`fb.1.${AT - 60_000}.IwAR2xyz`);
    expect(fbc(undefined)).toBe(`fb.1.${AT}.IwAR2xyz`);
    expect(fbc(AT + 60_000)).toBe(`fb.1.${AT}.IwAR2xyz`);
  });

  it("sends no fbc without a click id, and no user agent too long to be a phone's", () => {
    const userData = eventOf(
      only(
        configured().tap?.(tap({ campaign: { utm_source: "ig" }, userAgent: "x".repeat(1025) })),
      ),
    ).user_data;
    expect(userData).toEqual({ client_ip_address: "203.0.113.7", external_id: EXTERNAL_ID });
    expect(JSON.stringify(userData)).not.toContain(CLIENT_ID);
    expect(
      eventOf(only(configured().tap?.(tap({ userAgent: "x".repeat(1024) })))).user_data
        .client_user_agent,
    ).toBe("x".repeat(1024));
  });
});

describe("Meta's browser id (fbp)", () => {
  const FBP = "fb.1.1764000000000.1098115397";

  it("is on the tap, and on the chat and the stages of a lead that kept one", () => {
    expect(eventOf(only(configured().tap?.(tap({ fbp: FBP })))).user_data.fbp).toBe(FBP);
    expect(eventOf(only(configured().tap?.(tap()))).user_data).not.toHaveProperty("fbp");
    const kept = lead({ fbp: FBP });
    expect(eventOf(only(configured().chat?.(chat({}, { lead: kept })))).user_data.fbp).toBe(FBP);
    expect(
      eventOf(only(configured().stage?.(stageOf("installed", { lead: kept })))).user_data.fbp,
    ).toBe(FBP);
    expect(eventOf(only(configured().chat?.(chat()))).user_data).not.toHaveProperty("fbp");
  });
});

describe("metaStamp", () => {
  it("adds the token and, while one is set, the test code to the body as it is sent", () => {
    const call = only(configured({ testEventCode: "TEST12345" }).tap?.(tap()));
    expect(call.body).not.toContain("TEST12345");
    const stamp = configured({ testEventCode: "TEST12345" }).sending({}).stamp;
    expect(JSON.parse(stamp?.(call, AT) ?? "")).toEqual({
      ...JSON.parse(call.body),
      test_event_code: "TEST12345",
      access_token: TOKEN,
    });
    const plain = JSON.parse(configured().sending({}).stamp?.(call, AT) ?? "");
    expect(plain).toEqual({ ...JSON.parse(call.body), access_token: TOKEN });
    expect(JSON.parse(metaStamp('{"data":[]}', TOKEN, null))).toEqual({
      data: [],
      access_token: TOKEN,
    });
  });
});

describe("a chat on WhatsApp", () => {
  it("from a Click-to-WhatsApp ad is a LeadSubmitted from business messaging, to the WhatsApp account's dataset", () => {
    const facts = chat({ ctwaClid: "ARAkLkA", account: ACCOUNT });
    const call = only(configured().chat?.(facts));
    expect(call).toMatchObject({ url: DATASET_URL, at: CHAT_AT, lead: LEAD_ID, events: 1 });
    expect(JSON.parse(call.body)).toEqual({
      data: [
        {
          event_name: "LeadSubmitted",
          event_time: Math.floor(CHAT_AT / 1000),
          event_id: `${LEAD_ID}.chat`,
          action_source: "business_messaging",
          messaging_channel: "whatsapp",
          user_data: {
            // The same external_id and fbc as the tap's Lead.
            external_id: EXTERNAL_ID,
            fbc: `fb.1.${AT}.IwAR2xyz`,
            ph: PH,
            ctwa_clid: "ARAkLkA",
            whatsapp_business_account_id: ACCOUNT,
          },
          custom_data: {
            lead_event_id: LEAD_ID,
            cta_type: "whatsapp",
            exp_variant_string: "DRB-hero-b",
            currency: "AED",
            value: 10,
          },
        },
      ],
    });
    // The number itself never leaves: only its hash.
    expect(call.body).not.toContain(WA_ID);
    expect(JSON.stringify(call)).not.toContain(TOKEN);
  });

  it("from a Click-to-WhatsApp ad goes to the pixel while no dataset is set", () => {
    const call = only(configured({ datasetId: null }).chat?.(chat({ ctwaClid: "ARAkLkA" })));
    expect(call.url).toBe(PIXEL_URL);
    expect(eventOf(call)).toMatchObject({
      event_name: "LeadSubmitted",
      action_source: "business_messaging",
    });
  });

  it("from a Click-to-WhatsApp ad without a lead carries the ad's click, the account and the phone", () => {
    const facts = chat({ lead: null, ctwaClid: "ARAkLkA", account: ACCOUNT }, { lead: undefined });
    const call = only(configured().chat?.(facts));
    expect(call.lead).toBeUndefined();
    expect(eventOf(call)).toMatchObject({
      event_id: "chat-wamid.HBgM",
      user_data: { ctwa_clid: "ARAkLkA", whatsapp_business_account_id: ACCOUNT, ph: PH },
      custom_data: { currency: "AED", value: 10 },
    });
    expect(eventOf(call).user_data).not.toHaveProperty("external_id");
  });

  it("of a website lead is a Contact from chat, to the pixel, joined to its tap", () => {
    const call = only(configured().chat?.(chat()));
    expect(call.url).toBe(PIXEL_URL);
    const event = eventOf(call);
    expect(event).toEqual({
      event_name: "Contact",
      event_time: Math.floor(CHAT_AT / 1000),
      event_id: `${LEAD_ID}.chat`,
      action_source: "chat",
      user_data: { external_id: EXTERNAL_ID, fbc: `fb.1.${AT}.IwAR2xyz`, ph: PH },
      custom_data: {
        lead_event_id: LEAD_ID,
        cta_type: "whatsapp",
        exp_variant_string: "DRB-hero-b",
        currency: "AED",
        value: 10,
      },
    });
    // Not a business-messaging event: those need an ad's ctwa_clid.
    expect(event).not.toHaveProperty("messaging_channel");
  });

  it("sends no ph when the chat gave no number", () => {
    const call = only(configured().chat?.(chat({}, { phone: undefined })));
    expect(eventOf(call).user_data).not.toHaveProperty("ph");
  });

  it("with neither a lead nor an ad's click sends nothing", () => {
    expect(configured().chat?.(chat({ lead: null }, { lead: undefined }))).toEqual([]);
  });
});

describe("a lead's later stages", () => {
  it("qualified is a QualifiedLead, on the same keys as its chat", () => {
    const call = only(configured().stage?.(stageOf("qualified")));
    expect(call).toMatchObject({ url: PIXEL_URL, lead: LEAD_ID, at: CHAT_AT + 86_400_000 });
    expect(eventOf(call)).toEqual({
      event_name: "QualifiedLead",
      event_time: Math.floor((CHAT_AT + 86_400_000) / 1000),
      event_id: `${LEAD_ID}.qualified`,
      action_source: "chat",
      user_data: { external_id: EXTERNAL_ID, fbc: `fb.1.${AT}.IwAR2xyz`, ph: PH },
      custom_data: {
        lead_event_id: LEAD_ID,
        cta_type: "whatsapp",
        exp_variant_string: "DRB-hero-b",
        currency: "AED",
        value: 150,
      },
    });
  });

  it("installed is a Purchase of its value in AED", () => {
    const event = eventOf(only(configured().stage?.(stageOf("installed", { value: 150 }))));
    expect(event).toMatchObject({
      event_name: "Purchase",
      event_id: `${LEAD_ID}.installed`,
      custom_data: { currency: "AED", value: 150 },
    });
  });

  it("of a Click-to-WhatsApp lead go to the dataset as business messaging, with its click", () => {
    const facts = stageOf("installed", { lead: lead({ ctwaClid: "ARAkLkA", account: ACCOUNT }) });
    const call = only(configured().stage?.(facts));
    expect(call.url).toBe(DATASET_URL);
    expect(eventOf(call)).toMatchObject({
      event_name: "Purchase",
      action_source: "business_messaging",
      messaging_channel: "whatsapp",
      user_data: { ctwa_clid: "ARAkLkA", whatsapp_business_account_id: ACCOUNT, ph: PH },
    });
  });

  it("lost sends nothing", () => {
    expect(configured().stage?.(stageOf("lost"))).toEqual([]);
  });
});

describe("judgeMeta", () => {
  const answer = (code: number, subcode?: number) =>
    JSON.stringify({
      error: { message: "m", type: "OAuthException", code, error_subcode: subcode },
    });

  it.each([190, 102, 10, 200, 250, 299])("reads code %i as the site's credentials", (code) => {
    expect(judgeMeta(400, answer(code))).toMatchObject({ kind: "credentials", code: String(code) });
  });

  it.each([1, 2, 4, 17, 32, 341, 613])("reads code %i as passing: sent again", (code) => {
    expect(judgeMeta(400, answer(code)).kind).toBe("retry");
  });

  it("reads a bad parameter (100) as refused for good, with Meta's subcode", () => {
    expect(judgeMeta(400, answer(100, 2804066))).toEqual({
      kind: "refused",
      code: "100/2804066",
      message: "m",
    });
  });

  it("reads the status first: 2xx delivered, 5xx and 429 sent again, 401 the credentials", () => {
    expect(judgeMeta(200, '{"events_received":1}')).toEqual({ kind: "delivered" });
    expect(judgeMeta(500, "").kind).toBe("retry");
    expect(judgeMeta(429, answer(100)).kind).toBe("retry");
    expect(judgeMeta(401, "").kind).toBe("credentials");
  });

  it("is the verdict Meta's calls are judged by", () => {
    expect(configured().sending({}).judge).toBe(judgeMeta);
  });
});
