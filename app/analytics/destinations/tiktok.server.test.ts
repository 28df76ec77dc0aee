// TikTok's Events API: its settings, the tap's Contact, the chat and the later stages on the
// lead's own ttclid with the hashed phone, the token in a header and the test code in the body
// only as a call is sent, and what TikTok's 200s mean.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type ChatFacts,
  configure,
  type StageFacts,
  type TapFacts,
} from "~/analytics/destinations/destination.server";
import {
  DEFAULT_TIKTOK_ENDPOINT,
  judgeTiktok,
  type TiktokSettings,
  tiktok,
} from "~/analytics/destinations/tiktok.server";
import type { LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import { phoneHashes } from "~/leads/phone-hashes.server";
import { ConfigError, type Env } from "~/platform/setting-readers.server";
import type { Campaign } from "~/shared/campaign";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const SECRET = "TOPSECRET1";
const ENV = {
  TIKTOK_PIXEL_CODE: "C4ABCDEFGH12345678",
  TIKTOK_ACCESS_TOKEN: `tt_${SECRET}_0123456789`,
};
const SETTINGS: TiktokSettings = {
  pixelCode: "C4TESTPIXEL0123456789",
  accessToken: "tiktok-token-0123456789abcdef",
  endpoint: DEFAULT_TIKTOK_ENDPOINT,
  testEventCode: null,
  moments: new Set(["tap", "chat", "stages"]),
};
const TRACK_URL = `${DEFAULT_TIKTOK_ENDPOINT}/event/track/`;

const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 Safari/604.1";
const AT = Date.UTC(2026, 10, 26, 20, 30, 15, 400);
const LATER = AT + 3600_000;
const LEAD_ID = "0192f4a0-lead-id";
const EXTERNAL_ID = sha256("111.222");
const WA_ID = "971501234567";
/** What TikTok matches a phone on: SHA-256 of E.164, its "+" included. */
const PHONE = sha256("+971501234567");

const EVERY_CLICK: Campaign = {
  utm_source: "tiktok",
  utm_campaign: "Eid",
  gclid: "gclid-1",
  gbraid: "gbraid-1",
  fbclid: "fbclid-1",
  ttclid: "E.C.P.ttclid-1",
  ScCid: "sccid-1",
};
const pageUrl = (campaign: Campaign) =>
  `https://darb.example/?${new URLSearchParams(campaign as Record<string, string>)}`;
/** The landing page as TikTok is told of it: the campaign's words and its own click id only. */
const OWN_PAGE = "https://darb.example/?utm_source=tiktok&utm_campaign=Eid&ttclid=E.C.P.ttclid-1";

function tap(overrides: Partial<TapFacts> = {}): TapFacts {
  return {
    id: LEAD_ID,
    at: AT,
    cta: "whatsapp",
    clientId: "111.222",
    address: "203.0.113.9",
    userAgent: PHONE_UA,
    campaign: EVERY_CLICK,
    pageUrl,
    details: { cta: "whatsapp" },
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
    clientId: "111.222",
    sessionId: "9",
    ref: "DRB-7K2QX",
    status: "chat_started",
    ...overrides,
  };
}

const phone = phoneHashes(WA_ID) ?? undefined;

function chat(facts: Partial<ChatFacts> = {}): ChatFacts {
  return {
    chat: { messageId: "wamid.1", at: LATER, lead: LEAD_ID },
    lead: lead(),
    phone,
    value: 10,
    pageUrl,
    ...facts,
  };
}

const stageOf = (stage: StageFacts["stage"], overrides: Partial<StageFacts> = {}): StageFacts => ({
  lead: lead(),
  stage,
  at: LATER,
  value: 150,
  phone,
  pageUrl,
  ...overrides,
});

const configured = (settings: Partial<TiktokSettings> = {}) =>
  configure(tiktok, { ...SETTINGS, ...settings });
const only = (calls: NewCall[] | undefined): NewCall => {
  expect(calls).toHaveLength(1);
  return calls?.[0] as NewCall;
};
const eventOf = (call: NewCall) => JSON.parse(call.body).data[0];

function refusal(env: Env): ConfigError {
  try {
    tiktok.settings.read(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("TikTok's settings", () => {
  it("are off when unset, and on with the real host and every moment when set", () => {
    expect(tiktok.settings.read({})).toBeNull();
    expect(tiktok.settings.read(ENV)).toEqual({
      pixelCode: ENV.TIKTOK_PIXEL_CODE,
      accessToken: ENV.TIKTOK_ACCESS_TOKEN,
      endpoint: "https://business-api.tiktok.com/open_api/v1.3",
      testEventCode: null,
      moments: new Set(["tap", "chat", "stages"]),
    });
  });

  it("take a loopback stand-in over http, a test code and the moments to send", () => {
    const settings = tiktok.settings.read({
      ...ENV,
      TIKTOK_ENDPOINT: "http://127.0.0.1:9/tt/",
      TIKTOK_TEST_EVENT_CODE: "TEST12345",
      TIKTOK_SEND: "stages",
    });
    expect(settings).toMatchObject({
      endpoint: "http://127.0.0.1:9/tt",
      testEventCode: "TEST12345",
      moments: new Set(["stages"]),
    });
    const on = configure(tiktok, settings as TiktokSettings);
    expect(on.tap).toBeUndefined();
    expect(on.chat).toBeUndefined();
    expect(on.warnings).toEqual([expect.stringMatching(/^TIKTOK_TEST_EVENT_CODE is set/)]);
    expect(on.secrets).toEqual([ENV.TIKTOK_ACCESS_TOKEN]);
    expect(configured().warnings).toEqual([]);
  });

  it.each([
    [{ TIKTOK_ACCESS_TOKEN: ENV.TIKTOK_ACCESS_TOKEN }, "TIKTOK_PIXEL_CODE"],
    [{ TIKTOK_PIXEL_CODE: ENV.TIKTOK_PIXEL_CODE }, "TIKTOK_ACCESS_TOKEN"],
    [{ ...ENV, TIKTOK_PIXEL_CODE: "C4-ABC DEF" }, "TIKTOK_PIXEL_CODE"],
    [{ ...ENV, TIKTOK_ACCESS_TOKEN: `tt ${SECRET} 0123456789` }, "TIKTOK_ACCESS_TOKEN"],
    [{ ...ENV, TIKTOK_TEST_EVENT_CODE: "TE ST" }, "TIKTOK_TEST_EVENT_CODE"],
    [{ ...ENV, TIKTOK_SEND: "tap,lead" }, "TIKTOK_SEND"],
    [{ ...ENV, TIKTOK_ENDPOINT: "http://tiktok.example/v1.3" }, "TIKTOK_ENDPOINT"],
  ])("refuse %j, naming %s without showing a secret", (env, variable) => {
    const error = refusal(env);
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain(SECRET);
  });
});

describe("the tap's Contact", () => {
  it("carries the event id and time, the page with only ttclid, the address, user agent, ttclid and value", () => {
    const call = only(configured().tap?.(tap()));
    expect(call).toMatchObject({ destination: "tiktok", url: TRACK_URL, at: AT, lead: LEAD_ID });
    expect(JSON.parse(call.body)).toEqual({
      event_source: "web",
      event_source_id: SETTINGS.pixelCode,
      data: [
        {
          event: "Contact",
          event_time: Math.floor(AT / 1000),
          event_id: LEAD_ID,
          user: {
            ip: "203.0.113.9",
            user_agent: PHONE_UA,
            ttclid: "E.C.P.ttclid-1",
            external_id: EXTERNAL_ID,
          },
          page: { url: OWN_PAGE },
          properties: { currency: "AED", value: 25 },
        },
      ],
    });
    // The token travels in a header at send time, never in the ledger.
    expect(JSON.stringify(call)).not.toContain(SETTINGS.accessToken);
  });

  it("is sent without a click id too, matched by address and user agent", () => {
    const user = eventOf(only(configured().tap?.(tap({ campaign: { utm_source: "x" } })))).user;
    expect(user).not.toHaveProperty("ttclid");
    expect(user.ip).toBe("203.0.113.9");
  });

  it("leaves out a user agent too long to be a browser's", () => {
    const user = eventOf(only(configured().tap?.(tap({ userAgent: "x".repeat(2000) })))).user;
    expect(user).not.toHaveProperty("user_agent");
  });
});

describe("the chat and the later stages", () => {
  it("a chat is a SubmitForm on the lead's ttclid, with the hashed phone and its value", () => {
    const call = only(configured().chat?.(chat()));
    expect(call).toMatchObject({ url: TRACK_URL, at: LATER, lead: LEAD_ID });
    expect(JSON.parse(call.body)).toEqual({
      event_source: "web",
      event_source_id: SETTINGS.pixelCode,
      data: [
        {
          event: "SubmitForm",
          event_time: Math.floor(LATER / 1000),
          event_id: `${LEAD_ID}.chat`,
          user: { external_id: EXTERNAL_ID, ttclid: "E.C.P.ttclid-1", phone: PHONE },
          page: { url: OWN_PAGE },
          properties: { currency: "AED", value: 10 },
        },
      ],
    });
    expect(call.body).not.toContain(WA_ID);
  });

  it.each([
    ["qualified", "ApplicationApproval"],
    ["installed", "CompletePayment"],
  ] as const)("%s is sent as %s, with the stage's time and value", (stage, event) => {
    expect(eventOf(only(configured().stage?.(stageOf(stage))))).toEqual({
      event,
      event_time: Math.floor(LATER / 1000),
      event_id: `${LEAD_ID}.${stage}`,
      user: { external_id: EXTERNAL_ID, ttclid: "E.C.P.ttclid-1", phone: PHONE },
      page: { url: OWN_PAGE },
      properties: { currency: "AED", value: 150 },
    });
  });

  it("carry only TikTok's click id, and no phone before a chat gave one", () => {
    const facts = stageOf("qualified", {
      lead: lead({ campaign: { utm_source: "google", gclid: "g-1", fbclid: "f-1", ScCid: "s-1" } }),
      phone: undefined,
    });
    const event = eventOf(only(configured().stage?.(facts)));
    expect(event.user).toEqual({ external_id: EXTERNAL_ID });
    expect(event.page.url).toBe("https://darb.example/?utm_source=google");
  });

  it("send nothing for a chat without a lead, or a lost lead", () => {
    expect(configured().chat?.(chat({ lead: undefined }))).toEqual([]);
    expect(configured().stage?.(stageOf("lost"))).toEqual([]);
  });
});

describe("sending", () => {
  it("adds the test code beside data as a call is sent, and only while one is set", () => {
    const call = only(configured({ testEventCode: "TEST12345" }).tap?.(tap()));
    expect(call.body).not.toContain("TEST12345");
    const stamped = configured({ testEventCode: "TEST12345" }).sending({}).stamp?.(call, AT);
    expect(JSON.parse(stamped ?? "")).toEqual({
      ...JSON.parse(call.body),
      test_event_code: "TEST12345",
    });
    expect(configured().sending({}).stamp?.(call, AT)).toBe(call.body);
  });

  it("puts the token in the Access-Token header", async () => {
    expect(await configured().sending({}).authorize?.()).toEqual({
      "Access-Token": SETTINGS.accessToken,
    });
  });

  it("judges by judgeTiktok", () => {
    expect(configured().sending({}).judge).toBe(judgeTiktok);
  });
});

describe("judgeTiktok", () => {
  it("reads TikTok's 200s: code 0 taken, 40100 rate limited, 5xxxx sent again, a token's codes held, others refused", () => {
    const kind = (status: number, answer: string) => judgeTiktok(status, answer).kind;
    expect(kind(200, '{"code":0,"message":"OK"}')).toBe("delivered");
    expect(kind(200, '{"code":40100,"message":"Too many requests"}')).toBe("retry");
    expect(kind(200, '{"code":50002,"message":"internal"}')).toBe("retry");
    for (const code of [40001, 40002, 40102, 40104, 40105]) {
      expect(kind(200, `{"code":${code},"message":"token"}`)).toBe("credentials");
    }
    expect(judgeTiktok(200, '{"code":40002,"message":"no permission"}')).toEqual({
      kind: "credentials",
      code: "40002",
      message: "no permission",
    });
    expect(kind(200, '{"code":40006,"message":"bad field"}')).toBe("refused");
    expect(kind(200, "<html>")).toBe("retry");
    expect(kind(500, "")).toBe("retry");
    expect(kind(401, "")).toBe("credentials");
    expect(kind(400, "")).toBe("refused");
  });
});
