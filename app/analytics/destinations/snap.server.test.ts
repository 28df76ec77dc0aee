// Snap's Conversions API: its settings, the tap's SIGN_UP, the chat and the later stages on the
// lead's ScCid with the hashed phone, and the token as a Bearer header added as a call is sent.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type ChatFacts,
  configure,
  type StageFacts,
  type TapFacts,
} from "~/analytics/destinations/destination.server";
import {
  DEFAULT_SNAP_ENDPOINT,
  type SnapSettings,
  snap,
} from "~/analytics/destinations/snap.server";
import type { LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import { phoneHashes } from "~/leads/phone-hashes.server";
import { ConfigError, type Env } from "~/platform/setting-readers.server";
import type { Campaign } from "~/shared/campaign";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

const SECRET = "TOPSECRET1";
const ENV = {
  SNAP_PIXEL_ID: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
  SNAP_ACCESS_TOKEN: `eyJhbGciOi.${SECRET}.sig0123456789`,
};
const SETTINGS: SnapSettings = {
  pixelId: ENV.SNAP_PIXEL_ID,
  accessToken: "snap-token-0123456789abcdef",
  endpoint: DEFAULT_SNAP_ENDPOINT,
  moments: new Set(["tap", "chat", "stages"]),
};
const EVENTS_URL = `${DEFAULT_SNAP_ENDPOINT}/${ENV.SNAP_PIXEL_ID}/events`;

const PHONE_UA =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) Mobile/15E148 Safari/604.1";
const AT = Date.UTC(2026, 10, 26, 20, 30, 15, 400);
const LATER = AT + 3600_000;
const LEAD_ID = "0192f4a0-lead-id";
const EXTERNAL_ID = sha256("111.222");
const WA_ID = "971501234567";
/** What Snap matches a phone on: SHA-256 of the digits with the country code, no "+". */
const PH = sha256("971501234567");

const EVERY_CLICK: Campaign = {
  utm_source: "snapchat",
  utm_campaign: "Eid",
  gclid: "gclid-1",
  fbclid: "fbclid-1",
  ttclid: "E.C.P.ttclid-1",
  ScCid: "sccid-1",
};
const pageUrl = (campaign: Campaign) =>
  `https://darb.example/?${new URLSearchParams(campaign as Record<string, string>)}`;
/** The landing page as Snap is told of it: the campaign's words and its own click id only. */
const OWN_PAGE = "https://darb.example/?utm_source=snapchat&utm_campaign=Eid&ScCid=sccid-1";

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

const configured = (settings: Partial<SnapSettings> = {}) =>
  configure(snap, { ...SETTINGS, ...settings });
const only = (calls: NewCall[] | undefined): NewCall => {
  expect(calls).toHaveLength(1);
  return calls?.[0] as NewCall;
};
const eventOf = (call: NewCall) => JSON.parse(call.body).data[0];

function refusal(env: Env): ConfigError {
  try {
    snap.settings.read(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

describe("Snap's settings", () => {
  it("are off when unset, and on with the real host and every moment when set", () => {
    expect(snap.settings.read({})).toBeNull();
    expect(snap.settings.read(ENV)).toEqual({
      pixelId: ENV.SNAP_PIXEL_ID,
      accessToken: ENV.SNAP_ACCESS_TOKEN,
      endpoint: "https://tr.snapchat.com/v3",
      moments: new Set(["tap", "chat", "stages"]),
    });
    const chatOnly = snap.settings.read({ ...ENV, SNAP_SEND: "chat" }) as SnapSettings;
    expect(configure(snap, chatOnly).tap).toBeUndefined();
    expect(configure(snap, chatOnly).secrets).toEqual([ENV.SNAP_ACCESS_TOKEN]);
  });

  it.each([
    [{ SNAP_ACCESS_TOKEN: ENV.SNAP_ACCESS_TOKEN }, "SNAP_PIXEL_ID"],
    [{ SNAP_PIXEL_ID: ENV.SNAP_PIXEL_ID }, "SNAP_ACCESS_TOKEN"],
    [{ ...ENV, SNAP_PIXEL_ID: "123456" }, "SNAP_PIXEL_ID"],
    [{ ...ENV, SNAP_ACCESS_TOKEN: `${SECRET} x` }, "SNAP_ACCESS_TOKEN"],
    [{ ...ENV, SNAP_SEND: "signup" }, "SNAP_SEND"],
    [{ ...ENV, SNAP_ENDPOINT: "http://snap.example/v3" }, "SNAP_ENDPOINT"],
  ])("refuse %j, naming %s without showing a secret", (env, variable) => {
    const error = refusal(env);
    expect(error.variable).toBe(variable);
    expect(error.message).not.toContain(SECRET);
  });
});

describe("the tap's SIGN_UP", () => {
  it("carries event id and time, WEB, the page with only ScCid, the address, user agent, sc_click_id and value", () => {
    const call = only(configured().tap?.(tap()));
    expect(call).toMatchObject({ destination: "snap", url: EVENTS_URL, at: AT, lead: LEAD_ID });
    expect(JSON.parse(call.body)).toEqual({
      data: [
        {
          event_name: "SIGN_UP",
          event_time: Math.floor(AT / 1000),
          event_id: LEAD_ID,
          action_source: "WEB",
          event_source_url: OWN_PAGE,
          user_data: {
            client_ip_address: "203.0.113.9",
            client_user_agent: PHONE_UA,
            sc_click_id: "sccid-1",
            external_id: EXTERNAL_ID,
          },
          custom_data: { currency: "AED", value: 25 },
        },
      ],
    });
    expect(JSON.stringify(call)).not.toContain(SETTINGS.accessToken);
  });

  it("leaves out a user agent too long to be a browser's, and a click id Snap did not give", () => {
    const userData = eventOf(
      only(configured().tap?.(tap({ userAgent: "x".repeat(2000), campaign: { gclid: "g-1" } }))),
    ).user_data;
    expect(userData).toEqual({ client_ip_address: "203.0.113.9", external_id: EXTERNAL_ID });
  });
});

describe("the chat and the later stages", () => {
  it.each([
    ["the chat", "CUSTOM_EVENT_1", `${LEAD_ID}.chat`, 10, () => configured().chat?.(chat())],
    [
      "a qualified lead",
      "CUSTOM_EVENT_2",
      `${LEAD_ID}.qualified`,
      150,
      () => configured().stage?.(stageOf("qualified")),
    ],
    [
      "an installed lead",
      "PURCHASE",
      `${LEAD_ID}.installed`,
      150,
      () => configured().stage?.(stageOf("installed")),
    ],
  ])(
    "%s is a %s on the lead's ScCid, with the hashed phone and its value",
    (_what, name, id, value, calls) => {
      const call = only(calls());
      expect(call).toMatchObject({ url: EVENTS_URL, at: LATER, lead: LEAD_ID });
      expect(JSON.parse(call.body)).toEqual({
        data: [
          {
            event_name: name,
            event_time: Math.floor(LATER / 1000),
            event_id: id,
            action_source: "WEB",
            event_source_url: OWN_PAGE,
            user_data: { external_id: EXTERNAL_ID, sc_click_id: "sccid-1", ph: PH },
            custom_data: { currency: "AED", value },
          },
        ],
      });
      expect(call.body).not.toContain(WA_ID);
    },
  );

  it("carry only Snap's click id, and no phone before a chat gave one", () => {
    const facts = chat({
      lead: lead({ campaign: { utm_source: "tiktok", ttclid: "t-1", fbclid: "f-1" } }),
      phone: undefined,
    });
    const event = eventOf(only(configured().chat?.(facts)));
    expect(event.user_data).toEqual({ external_id: EXTERNAL_ID });
    expect(event.event_source_url).toBe("https://darb.example/?utm_source=tiktok");
  });

  it("send nothing for a chat without a lead, or a lost lead", () => {
    expect(configured().chat?.(chat({ lead: undefined }))).toEqual([]);
    expect(configured().stage?.(stageOf("lost"))).toEqual([]);
  });
});

describe("sending", () => {
  it("puts the token in a Bearer header, and sends the body as the ledger keeps it", async () => {
    const sending = configured().sending({});
    expect(await sending.authorize?.()).toEqual({
      Authorization: `Bearer ${SETTINGS.accessToken}`,
    });
    // Snap has no test code: nothing joins the body.
    expect(sending.stamp).toBeUndefined();
    expect(sending.address).toBeUndefined();
  });
});
