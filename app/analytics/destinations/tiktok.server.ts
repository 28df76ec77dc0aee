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
  ownCampaign,
  type PhoneHashes,
  readMoments,
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
  parseEndpoint,
  read,
  shown,
  TOKEN,
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

function readTiktok(env: Env): TiktokSettings | null {
  const endpoint = parseEndpoint(env, "TIKTOK_ENDPOINT", DEFAULT_TIKTOK_ENDPOINT, true);
  const moments = readMoments(env, "TIKTOK_SEND");
  const values = allOrNone(env, ["TIKTOK_PIXEL_CODE", "TIKTOK_ACCESS_TOKEN"]);
  if (!values) {
    if (read(env, "TIKTOK_TEST_EVENT_CODE") !== undefined) {
      throw new ConfigError("TIKTOK_PIXEL_CODE", "must be set when TIKTOK_TEST_EVENT_CODE is");
    }
    return null;
  }
  const pixelCode = values.TIKTOK_PIXEL_CODE as string;
  const accessToken = values.TIKTOK_ACCESS_TOKEN as string;
  // Events Manager shows pixel codes as about 20 capitals and digits (C4ABCDEF…).
  if (!/^[A-Za-z0-9]{8,64}$/.test(pixelCode)) {
    throw new ConfigError(
      "TIKTOK_PIXEL_CODE",
      `must be the pixel code from Events Manager, letters and digits, got ${shown(pixelCode)}`,
    );
  }
  if (!TOKEN(16, 512).test(accessToken)) {
    throw new ConfigError(
      "TIKTOK_ACCESS_TOKEN",
      "must be 16 to 512 visible characters without spaces (the token the pixel's settings generate)",
    );
  }
  const testEventCode = read(env, "TIKTOK_TEST_EVENT_CODE") ?? null;
  if (testEventCode !== null && !TOKEN(4, 64).test(testEventCode)) {
    throw new ConfigError(
      "TIKTOK_TEST_EVENT_CODE",
      "must be the code Events Manager's Test events tab shows (such as TEST12345)",
    );
  }
  return { pixelCode, accessToken, endpoint, testEventCode, moments };
}

export const tiktok: Destination<TiktokSettings> = {
  name: "tiktok",
  settings: {
    names: [
      "TIKTOK_PIXEL_CODE",
      "TIKTOK_ACCESS_TOKEN",
      "TIKTOK_ENDPOINT",
      "TIKTOK_TEST_EVENT_CODE",
      "TIKTOK_SEND",
    ],
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
