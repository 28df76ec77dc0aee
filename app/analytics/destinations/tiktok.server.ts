/**
 * TikTok's Events API (1.3), opted into with TIKTOK_PIXEL_CODE and TIKTOK_ACCESS_TOKEN: the tap
 * as a `Contact`, the chat as a `SubmitForm` (the lead's form, which TikTok's newer Events
 * Manager names "Lead"), a qualified lead as an `ApplicationApproval` and an installed one as a
 * `CompletePayment` of its value (docs/decisions/026-chat-and-stage-events.md), each on the
 * lead's own ttclid and, once the chat gives it, its hashed phone. The token travels in the
 * Access-Token header, added when the call is sent. What is sent: docs/analytics.md.
 */
import {
  type ChatFacts,
  type Destination,
  externalId,
  momentId,
  momentsSetting,
  ownCampaign,
  type PhoneHashes,
  type StageFacts,
  type TapFacts,
  userAgentOf,
} from "~/analytics/destinations/destination.server";
import { judgeStatus, platformError, type Verdict } from "~/analytics/verdict.server";
import type { LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import {
  allOrNone,
  ConfigError,
  type Env,
  endpoint,
  read,
  setting,
  shown,
  TOKEN,
  text,
} from "~/platform/setting-readers.server";
import type { Campaign } from "~/shared/campaign";

export type TiktokSettings = {
  pixelCode: string;
  accessToken: string;
  endpoint: string;
  testEventCode: string | null;
  moments: ReadonlySet<"tap" | "chat" | "stages">;
};

/** TikTok's Events API, version 1.3 (the current one); /event/track/ is added to it. */
export const DEFAULT_TIKTOK_ENDPOINT = "https://business-api.tiktok.com/open_api/v1.3";
/** TikTok attributes web events up to 7 days after they happened; older ones are given up. */
export const TIKTOK_MAX_AGE_MS = 7 * 86_400_000;

/** TikTok's standard event for "when a visitor contacts you", one of its Lead objective's. */
export const TIKTOK_LEAD_EVENT = "Contact";
const MOMENT_EVENTS = {
  chat: "SubmitForm",
  qualified: "ApplicationApproval",
  installed: "CompletePayment",
} as const;

/**
 * TikTok answers 200 with `{"code":0,…}` when it took the events, and 200 with another code when
 * it did not: 40100 is its rate limit and 5xxxx its own failures (sent again); 40001, 40002 (no
 * permission), 40102, 40104 and 40105 (a token expired, missing or revoked) the credentials; any
 * other a refusal (a bad field) that sending again cannot change.
 */
export function judgeTiktok(status: number, answer: string): Verdict {
  if (status < 200 || status >= 300) return judgeStatus(status, answer);
  let code: unknown;
  try {
    code = (JSON.parse(answer) as { code?: unknown }).code;
  } catch {
    return { kind: "retry", message: "an answer that is not JSON" };
  }
  if (code === 0) return { kind: "delivered" };
  const error = platformError(answer);
  if (code === 40100 || (typeof code === "number" && code >= 50000)) {
    return { kind: "retry", ...error };
  }
  if (typeof code === "number" && TOKEN_CODES.has(code)) return { kind: "credentials", ...error };
  return { kind: "refused", ...error };
}

const TOKEN_CODES = new Set([40001, 40002, 40102, 40104, 40105]);

/** A value only when there is one (LEAD_VALUE_AED): a tap of no value is sent as it always was. */
const valued = (value: number) => (value > 0 ? { properties: { currency: "AED", value } } : {});

/** The test code joins the body as it is sent, while one is set. */
function tiktokStamp(body: string, testEventCode: string | null): string {
  return testEventCode
    ? `${body.slice(0, -1)},"test_event_code":${JSON.stringify(testEventCode)}}`
    : body;
}

function track(settings: TiktokSettings, event: object, at: number, lead: string): NewCall {
  return {
    destination: "tiktok",
    url: `${settings.endpoint}/event/track/`,
    body: JSON.stringify({
      event_source: "web",
      event_source_id: settings.pixelCode,
      data: [event],
    }),
    events: 1,
    at,
    lead,
  };
}

/** What TikTok matches a lead's later events on: its visit's id, its click, its phone. */
function laterUser(lead: LeadRecord, phone: PhoneHashes | undefined): Record<string, string> {
  const user: Record<string, string> = { external_id: externalId(lead.clientId) };
  const { ttclid } = ownCampaign(lead.campaign, ["ttclid"]);
  if (ttclid) user.ttclid = ttclid;
  if (phone) user.phone = phone.e164;
  return user;
}

function tapCall(settings: TiktokSettings, lead: TapFacts): NewCall[] {
  const campaign = ownCampaign(lead.campaign, ["ttclid"]);
  const user: Record<string, string> = {
    ip: lead.address,
    external_id: externalId(lead.clientId),
  };
  const userAgent = userAgentOf(lead);
  if (userAgent) user.user_agent = userAgent;
  if (campaign.ttclid) user.ttclid = campaign.ttclid;
  const event = {
    event: TIKTOK_LEAD_EVENT,
    event_time: Math.floor(lead.at / 1000),
    event_id: lead.id,
    user,
    page: { url: lead.pageUrl(campaign) },
    ...valued(lead.value),
  };
  return [track(settings, event, lead.at, lead.id)];
}

function later(
  settings: TiktokSettings,
  lead: LeadRecord,
  moment: keyof typeof MOMENT_EVENTS,
  at: number,
  value: number,
  phone: PhoneHashes | undefined,
  pageUrl: (campaign: Campaign) => string,
): NewCall {
  const event = {
    event: MOMENT_EVENTS[moment],
    event_time: Math.floor(at / 1000),
    event_id: momentId(lead.id, moment),
    user: laterUser(lead, phone),
    page: { url: pageUrl(ownCampaign(lead.campaign, ["ttclid"])) },
    ...valued(value),
  };
  return track(settings, event, at, lead.id);
}

const TIKTOK_PIXEL_CODE = setting({
  name: "TIKTOK_PIXEL_CODE",
  description: "TikTok's pixel code, with TIKTOK_ACCESS_TOKEN: the Events API",
  // Events Manager shows pixel codes as about 20 capitals and digits (C4ABCDEF…).
  schema: text([
    (raw) => /^[A-Za-z0-9]{8,64}$/.test(raw),
    (raw) => `must be the pixel code from Events Manager, letters and digits, got ${shown(raw)}`,
  ]),
});

const TIKTOK_ACCESS_TOKEN = setting({
  name: "TIKTOK_ACCESS_TOKEN",
  description: "the Events API's access token, generated in the pixel's settings",
  secret: true,
  schema: text([
    (raw) => TOKEN(16, 512).test(raw),
    "must be 16 to 512 visible characters without spaces (the token the pixel's settings generate)",
  ]),
});

const TIKTOK_ENDPOINT = endpoint(
  {
    name: "TIKTOK_ENDPOINT",
    description: "the Events API base, pinning its version; http: only on loopback, for tests",
    default: DEFAULT_TIKTOK_ENDPOINT,
  },
  true,
);

const TIKTOK_TEST_EVENT_CODE = setting({
  name: "TIKTOK_TEST_EVENT_CODE",
  description: "marks every event for Events Manager's Test events tab (warned about)",
  schema: text([
    (raw) => TOKEN(4, 64).test(raw),
    "must be the code Events Manager's Test events tab shows (such as TEST12345)",
  ]),
});

const TIKTOK_SEND = momentsSetting("TIKTOK_SEND", "TikTok");

function readTiktok(env: Env): TiktokSettings | null {
  const endpoint = TIKTOK_ENDPOINT.read(env);
  const moments = TIKTOK_SEND.read(env);
  const values = allOrNone(env, ["TIKTOK_PIXEL_CODE", "TIKTOK_ACCESS_TOKEN"]);
  if (!values) {
    if (read(env, "TIKTOK_TEST_EVENT_CODE") !== undefined) {
      throw new ConfigError("TIKTOK_PIXEL_CODE", "must be set when TIKTOK_TEST_EVENT_CODE is");
    }
    return null;
  }
  return {
    pixelCode: TIKTOK_PIXEL_CODE.read(env) as string,
    accessToken: TIKTOK_ACCESS_TOKEN.read(env) as string,
    endpoint,
    testEventCode: TIKTOK_TEST_EVENT_CODE.read(env),
    moments,
  };
}

const TIKTOK_SETTINGS = [
  TIKTOK_PIXEL_CODE,
  TIKTOK_ACCESS_TOKEN,
  TIKTOK_ENDPOINT,
  TIKTOK_TEST_EVENT_CODE,
  TIKTOK_SEND,
];

export const tiktok: Destination<TiktokSettings> = {
  name: "tiktok",
  settings: {
    names: TIKTOK_SETTINGS.map(({ name }) => name),
    declared: TIKTOK_SETTINGS,
    read: readTiktok,
  },
  maxAgeMs: TIKTOK_MAX_AGE_MS,
  // TikTok merges events with the same event_id.
  deduplicates: true,
  secrets: (settings) => [settings.accessToken],
  sending: (settings) => ({
    stamp: (call) => tiktokStamp(call.body, settings.testEventCode),
    authorize: async () => ({ "Access-Token": settings.accessToken }),
    judge: judgeTiktok,
  }),
  moments: (settings) => settings.moments,
  warnings: (settings) =>
    settings.testEventCode
      ? ["TIKTOK_TEST_EVENT_CODE is set: TikTok shows every event in Test events, for testing only"]
      : [],
  tap: tapCall,
  chat: (settings, { lead, chat, phone, value, pageUrl }: ChatFacts) =>
    lead ? [later(settings, lead, "chat", chat.at, value, phone, pageUrl)] : [],
  stage: (settings, facts: StageFacts) =>
    facts.stage === "lost"
      ? []
      : [
          later(
            settings,
            facts.lead,
            facts.stage,
            facts.at,
            facts.value,
            facts.phone,
            facts.pageUrl,
          ),
        ],
};
