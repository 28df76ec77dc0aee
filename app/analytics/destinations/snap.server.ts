/**
 * Snap's Conversions API (v3), opted into with SNAP_PIXEL_ID and SNAP_ACCESS_TOKEN: the tap as a
 * `SIGN_UP` (Snap has no "lead" event; its lead campaigns optimise for this one), the chat and a
 * qualified lead as `CUSTOM_EVENT_1` and `CUSTOM_EVENT_2` (Snap has no event for either; the
 * marketer names them in Events Manager), and an installed lead as a `PURCHASE` of its value
 * (docs/decisions/026-chat-and-stage-events.md), each on the lead's ScCid and, once the chat
 * gives it, its hashed phone. The token is a Bearer token added when the call is sent.
 */
import {
  type Destination,
  externalId,
  momentId,
  momentsSetting,
  ownCampaign,
  type PhoneHashes,
  type TapFacts,
  userAgentOf,
} from "~/analytics/destinations/destination.server";
import type { LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import {
  allOrNone,
  type Env,
  endpoint,
  setting,
  shown,
  TOKEN,
  text,
} from "~/platform/setting-readers.server";
import type { Campaign } from "~/shared/campaign";

export type SnapSettings = {
  pixelId: string;
  accessToken: string;
  endpoint: string;
  moments: ReadonlySet<"tap" | "chat" | "stages">;
};

/** Snap's Conversions API, version 3; /<pixel id>/events is added to it. */
export const DEFAULT_SNAP_ENDPOINT = "https://tr.snapchat.com/v3";
/** Snap takes events up to 37 days back. */
export const SNAP_MAX_AGE_MS = 37 * 86_400_000;

/** Snap has no "lead" event: SIGN_UP is the one its lead campaigns optimise for. */
export const SNAP_LEAD_EVENT = "SIGN_UP";
const MOMENT_EVENTS = {
  chat: "CUSTOM_EVENT_1",
  qualified: "CUSTOM_EVENT_2",
  installed: "PURCHASE",
} as const;

/** A value only when there is one (LEAD_VALUE_AED): a tap of no value is sent as it always was. */
const valued = (value: number) => (value > 0 ? { custom_data: { currency: "AED", value } } : {});

function eventsCall(settings: SnapSettings, event: object, at: number, lead: string): NewCall {
  return {
    destination: "snap",
    url: `${settings.endpoint}/${settings.pixelId}/events`,
    body: JSON.stringify({ data: [event] }),
    events: 1,
    at,
    lead,
  };
}

function tapCall(settings: SnapSettings, lead: TapFacts): NewCall[] {
  const campaign = ownCampaign(lead.campaign, ["ScCid"]);
  const userData: Record<string, string> = {
    client_ip_address: lead.address,
    external_id: externalId(lead.clientId),
  };
  const userAgent = userAgentOf(lead);
  if (userAgent) userData.client_user_agent = userAgent;
  if (campaign.ScCid) userData.sc_click_id = campaign.ScCid;
  const event = {
    event_name: SNAP_LEAD_EVENT,
    event_time: Math.floor(lead.at / 1000),
    event_id: lead.id,
    action_source: "WEB",
    event_source_url: lead.pageUrl(campaign),
    user_data: userData,
    ...valued(lead.value),
  };
  return [eventsCall(settings, event, lead.at, lead.id)];
}

function later(
  settings: SnapSettings,
  lead: LeadRecord,
  moment: keyof typeof MOMENT_EVENTS,
  at: number,
  value: number,
  phone: PhoneHashes | undefined,
  pageUrl: (campaign: Campaign) => string,
): NewCall {
  const campaign = ownCampaign(lead.campaign, ["ScCid"]);
  const userData: Record<string, string> = { external_id: externalId(lead.clientId) };
  if (campaign.ScCid) userData.sc_click_id = campaign.ScCid;
  if (phone) userData.ph = phone.digits;
  const event = {
    event_name: MOMENT_EVENTS[moment],
    event_time: Math.floor(at / 1000),
    event_id: momentId(lead.id, moment),
    action_source: "WEB",
    event_source_url: pageUrl(campaign),
    user_data: userData,
    ...valued(value),
  };
  return eventsCall(settings, event, at, lead.id);
}

const SNAP_PIXEL_ID = setting({
  name: "SNAP_PIXEL_ID",
  description: "Snap's pixel id (a UUID), with SNAP_ACCESS_TOKEN: the Conversions API",
  // Snap's pixel ids are UUIDs.
  schema: text([
    (raw) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw),
    (raw) => `must be the pixel's id from Events Manager, a UUID, got ${shown(raw)}`,
  ]),
});

const SNAP_ACCESS_TOKEN = setting({
  name: "SNAP_ACCESS_TOKEN",
  description: "the Conversions API token from Business Manager",
  secret: true,
  schema: text([
    (raw) => TOKEN(16, 4096).test(raw),
    "must be 16 to 4096 visible characters without spaces (the Conversions API token from Business Manager)",
  ]),
});

const SNAP_ENDPOINT = endpoint(
  {
    name: "SNAP_ENDPOINT",
    description: "the Conversions API base, pinning its version; http: only on loopback, for tests",
    default: DEFAULT_SNAP_ENDPOINT,
  },
  true,
);

const SNAP_SEND = momentsSetting("SNAP_SEND", "Snap");

function readSnap(env: Env): SnapSettings | null {
  const endpoint = SNAP_ENDPOINT.read(env);
  const moments = SNAP_SEND.read(env);
  if (!allOrNone(env, ["SNAP_PIXEL_ID", "SNAP_ACCESS_TOKEN"])) return null;
  return {
    pixelId: SNAP_PIXEL_ID.read(env) as string,
    accessToken: SNAP_ACCESS_TOKEN.read(env) as string,
    endpoint,
    moments,
  };
}

const SNAP_SETTINGS = [SNAP_PIXEL_ID, SNAP_ACCESS_TOKEN, SNAP_ENDPOINT, SNAP_SEND];

export const snap: Destination<SnapSettings> = {
  name: "snap",
  settings: {
    names: SNAP_SETTINGS.map(({ name }) => name),
    declared: SNAP_SETTINGS,
    read: readSnap,
  },
  maxAgeMs: SNAP_MAX_AGE_MS,
  // Snap merges events with the same event_id.
  deduplicates: true,
  secrets: (settings) => [settings.accessToken],
  sending: (settings) => ({
    authorize: async () => ({ Authorization: `Bearer ${settings.accessToken}` }),
  }),
  moments: (settings) => settings.moments,
  tap: tapCall,
  chat: (settings, { lead, chat, phone, value, pageUrl }) =>
    lead ? [later(settings, lead, "chat", chat.at, value, phone, pageUrl)] : [],
  stage: (settings, facts) =>
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
