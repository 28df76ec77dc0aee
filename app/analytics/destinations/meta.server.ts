/**
 * Meta's Conversions API, opted into with META_PIXEL_ID and META_ACCESS_TOKEN: what Meta's
 * optimiser learns of the leads its Instagram and Facebook ads bring (the site loads no pixel).
 * The tap is a website `Lead`; the chat and the later stages follow Meta's documentation for a
 * conversation (docs/decisions/026-chat-and-stage-events.md): a chat from a Click-to-WhatsApp ad
 * is a business-messaging `LeadSubmitted` with its ctwa_clid, a website lead's chat a `Contact`
 * from "chat"; a qualified lead is `QualifiedLead`, an installed one a `Purchase` with its value.
 * The token joins each call's body only as it is sent. What is sent: docs/analytics.md.
 */
import {
  type ChatFacts,
  type Destination,
  externalId,
  momentId,
  momentsSetting,
  ownCampaign,
  type StageFacts,
  type TapFacts,
  userAgentOf,
} from "~/analytics/destinations/destination.server";
import { judgeMeta } from "~/analytics/verdict.server";
import { fbcOf } from "~/leads/attribution-cookies.server";
import type { LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import { expVariantString } from "~/leads/variant-token";
import {
  ConfigError,
  type Env,
  endpoint,
  read,
  setting,
  shown,
  TOKEN,
  text,
} from "~/platform/setting-readers.server";

export type MetaSettings = {
  pixelId: string;
  accessToken: string;
  endpoint: string;
  /** The WhatsApp Business Account's dataset, for business-messaging events; else the pixel. */
  datasetId: string | null;
  /** Marks every event for Events Manager's Test events screen. */
  testEventCode: string | null;
  moments: ReadonlySet<"tap" | "chat" | "stages">;
};

/** The Graph API version is pinned here: Meta keeps each for about two years. */
export const DEFAULT_META_ENDPOINT = "https://graph.facebook.com/v23.0";
/** Meta takes an event_time up to 7 days back. */
export const META_MAX_AGE_MS = 7 * 86_400_000;

/**
 * The body as it is sent: with the access token, in the body rather than the URL (URLs end up in
 * logs), and the test code while one is set, both added at send time so the ledger and its
 * backups never hold the token.
 */
export function metaStamp(body: string, accessToken: string, testEventCode?: string | null) {
  const test = testEventCode ? `,"test_event_code":${JSON.stringify(testEventCode)}` : "";
  return `${body.slice(0, -1)}${test},"access_token":${JSON.stringify(accessToken)}}`;
}

function eventsCall(to: string, settings: MetaSettings, event: object, at: number, lead?: string) {
  return {
    destination: "meta",
    url: `${settings.endpoint}/${to}/events`,
    body: JSON.stringify({ data: [event] }),
    events: 1,
    at,
    lead,
  } satisfies NewCall;
}

const AED = (value: number) => ({ currency: "AED", value });

function tapCall(settings: MetaSettings, lead: TapFacts): NewCall[] {
  const userData: Record<string, string> = {
    client_ip_address: lead.address,
    external_id: externalId(lead.clientId),
  };
  const userAgent = userAgentOf(lead);
  if (userAgent) userData.client_user_agent = userAgent;
  const { fbclid } = lead.campaign;
  // Never after the lead itself (pages/thank-you.server.ts has checked the carried time already).
  if (fbclid) userData.fbc = fbcOf(fbclid, Math.min(lead.fbclidAt ?? lead.at, lead.at));
  if (lead.fbp) userData.fbp = lead.fbp;
  // Meta's part of the campaign on the page's address: its words and its own click id.
  const event = {
    event_name: "Lead",
    event_time: Math.floor(lead.at / 1000),
    event_id: lead.id,
    event_source_url: lead.pageUrl(ownCampaign(lead.campaign, ["fbclid"])),
    action_source: "website",
    user_data: userData,
    custom_data: { ...lead.details, ...AED(lead.value) },
  };
  return [eventsCall(settings.pixelId, settings, event, lead.at, lead.id)];
}

/** What a lead's later events say of it: its id, CTA and the experiment's variant it saw. */
function leadDetails(lead: LeadRecord): Record<string, string> {
  const { experiment } = lead;
  return {
    lead_event_id: lead.id,
    cta_type: lead.cta,
    ...(experiment
      ? {
          exp_variant_string: expVariantString({
            experiment: experiment.id,
            variant: experiment.variant,
          }),
        }
      : {}),
  };
}

/**
 * Where a lead's conversation is credited: a Click-to-WhatsApp ad's (its ctwa_clid known) as
 * Meta's business messaging, to the WhatsApp account's dataset; any other lead's chat as a
 * website visitor's contact "from chat", to the pixel, joined to its tap by external_id and fbc.
 */
function conversation(
  settings: MetaSettings,
  lead: LeadRecord | undefined,
  ctwaClid: string | undefined,
  account: string | undefined,
  phone: ChatFacts["phone"],
) {
  const userData: Record<string, string> = {};
  if (lead) userData.external_id = externalId(lead.clientId);
  if (lead?.fbc) userData.fbc = lead.fbc;
  if (lead?.fbp) userData.fbp = lead.fbp;
  if (phone) userData.ph = phone.digits;
  if (ctwaClid) {
    userData.ctwa_clid = ctwaClid;
    if (account) userData.whatsapp_business_account_id = account;
    return {
      to: settings.datasetId ?? settings.pixelId,
      fields: { action_source: "business_messaging", messaging_channel: "whatsapp" },
      userData,
    };
  }
  return { to: settings.pixelId, fields: { action_source: "chat" }, userData };
}

function chatCall(settings: MetaSettings, { chat, lead, phone, value }: ChatFacts): NewCall[] {
  // A chat with neither a lead nor an ad's click tells Meta of nothing it could match.
  if (!lead && !chat.ctwaClid) return [];
  const where = conversation(settings, lead, chat.ctwaClid, chat.account, phone);
  const event = {
    event_name: chat.ctwaClid ? "LeadSubmitted" : "Contact",
    event_time: Math.floor(chat.at / 1000),
    event_id: lead ? momentId(lead.id, "chat") : `chat-${chat.messageId}`,
    ...where.fields,
    user_data: where.userData,
    custom_data: { ...(lead ? leadDetails(lead) : {}), ...AED(value) },
  };
  return [eventsCall(where.to, settings, event, chat.at, lead?.id)];
}

/** Meta's events for the stages: a qualified lead, and an installed one as a purchase of value. */
const STAGE_EVENTS = { qualified: "QualifiedLead", installed: "Purchase" } as const;

function stageCall(settings: MetaSettings, facts: StageFacts): NewCall[] {
  if (facts.stage === "lost") return [];
  const { lead } = facts;
  const where = conversation(settings, lead, lead.ctwaClid, lead.account, facts.phone);
  const event = {
    event_name: STAGE_EVENTS[facts.stage],
    event_time: Math.floor(facts.at / 1000),
    event_id: momentId(lead.id, facts.stage),
    ...where.fields,
    user_data: where.userData,
    custom_data: { ...leadDetails(lead), ...AED(facts.value) },
  };
  return [eventsCall(where.to, settings, event, facts.at, lead.id)];
}

const META_PIXEL_ID = setting({
  name: "META_PIXEL_ID",
  description: "Meta's pixel (dataset) id, with META_ACCESS_TOKEN: the Conversions API",
  schema: text([
    (raw) => /^[0-9]{5,20}$/.test(raw),
    (raw) => `must be the pixel's 5 to 20 digits, got ${shown(raw)}`,
  ]),
});

// Never echo a token into logs.
const META_ACCESS_TOKEN = setting({
  name: "META_ACCESS_TOKEN",
  description: "the Conversions API's access token from Events Manager",
  secret: true,
  schema: text([
    (raw) => /^[A-Za-z0-9_|-]{20,512}$/.test(raw),
    "must be 20 to 512 letters, digits, '_', '-' or '|' (the token Events Manager gives)",
  ]),
});

const META_CAPI_ENDPOINT = endpoint(
  {
    name: "META_CAPI_ENDPOINT",
    description: "the Graph API base, pinning its version; http: only on loopback, for tests",
    default: DEFAULT_META_ENDPOINT,
  },
  true,
);

const META_WHATSAPP_DATASET_ID = setting({
  name: "META_WHATSAPP_DATASET_ID",
  description: "the WhatsApp Business Account's dataset, for Click-to-WhatsApp ads' chats",
  schema: text([
    (raw) => /^[0-9]{5,20}$/.test(raw),
    (raw) => `must be the WhatsApp account's dataset id, 5 to 20 digits, got ${shown(raw)}`,
  ]),
});

const META_TEST_EVENT_CODE = setting({
  name: "META_TEST_EVENT_CODE",
  description: "marks every event for Events Manager's Test events screen (warned about)",
  schema: text([
    (raw) => TOKEN(4, 64).test(raw),
    "must be the code Events Manager's Test events screen shows (such as TEST12345)",
  ]),
});

const META_SEND = momentsSetting("META_SEND", "Meta");

function readMeta(env: Env): MetaSettings | null {
  const pixelId = read(env, "META_PIXEL_ID");
  const accessToken = read(env, "META_ACCESS_TOKEN");
  const endpoint = META_CAPI_ENDPOINT.read(env);
  const moments = META_SEND.read(env);
  if (!pixelId && !accessToken) {
    // A setting that means nothing alone is a mistake, not an "off".
    const stray = ["META_WHATSAPP_DATASET_ID", "META_TEST_EVENT_CODE"].find(
      (name) => read(env, name) !== undefined,
    );
    if (stray) throw new ConfigError("META_PIXEL_ID", `must be set when ${stray} is`);
    return null;
  }
  if (!pixelId) throw new ConfigError("META_PIXEL_ID", "must be set when META_ACCESS_TOKEN is");
  if (!accessToken) throw new ConfigError("META_ACCESS_TOKEN", "must be set when META_PIXEL_ID is");
  return {
    pixelId: META_PIXEL_ID.read(env) as string,
    accessToken: META_ACCESS_TOKEN.read(env) as string,
    endpoint,
    datasetId: META_WHATSAPP_DATASET_ID.read(env),
    testEventCode: META_TEST_EVENT_CODE.read(env),
    moments,
  };
}

const META_SETTINGS = [
  META_PIXEL_ID,
  META_ACCESS_TOKEN,
  META_CAPI_ENDPOINT,
  META_WHATSAPP_DATASET_ID,
  META_TEST_EVENT_CODE,
  META_SEND,
];

export const meta: Destination<MetaSettings> = {
  name: "meta",
  settings: {
    names: META_SETTINGS.map(({ name }) => name),
    declared: META_SETTINGS,
    read: readMeta,
  },
  maxAgeMs: META_MAX_AGE_MS,
  // Meta merges events with the same event_id.
  deduplicates: true,
  secrets: (settings) => [settings.accessToken],
  sending: (settings) => ({
    stamp: (call) => metaStamp(call.body, settings.accessToken, settings.testEventCode),
    judge: judgeMeta,
  }),
  moments: (settings) => settings.moments,
  warnings: (settings) =>
    settings.testEventCode
      ? ["META_TEST_EVENT_CODE is set: Meta shows every event in Test events, for testing only"]
      : [],
  tap: tapCall,
  chat: chatCall,
  stage: stageCall,
};
