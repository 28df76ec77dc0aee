/**
 * Meta's Conversions API, opted into with META_PIXEL_ID and META_ACCESS_TOKEN: a `Lead` for each
 * counted lead, so Meta's optimiser sees the leads its Instagram and Facebook ads bring (the
 * site loads no pixel). What is sent, and why, is in docs/analytics.md.
 */

import { createHash } from "node:crypto";
import { expVariantString } from "~/experiments/experiment";
import type { ChatRecord, LeadRecord, NewCall } from "~/leads/ledger/ledger.server";
import type { Config } from "~/platform/config.server";

/** A counted lead, as Meta is told of it. */
export type MetaLead = {
  /**
   * Meta's event_id: the lead ledger's id, the same on every replica for the same lead, so a
   * retry, a lead two replicas both counted, or a pixel added later, is one Lead.
   */
  id: string;
  /** GA4's client id for the visit: hashed, it is the external_id a later chat repeats. */
  clientId: string;
  /** When it was counted, ms since the epoch. */
  at: number;
  /** The page the visitor tapped on, absolute (SITE_URL, the page's path, its campaign). */
  pageUrl: string;
  address: string;
  userAgent: string;
  /** The click id Meta put on the ad's link, if the visit came with one. */
  fbclid?: string;
  /** When the click id was first seen (the landing request, ms), if the lead link said. */
  fbclidAt?: number;
  /** What the lead was: the same words as GA4's generate_lead. */
  details: Record<string, string | number>;
};

/**
 * The `fbc` parameter as Meta documents it for a server that keeps no _fbc cookie:
 * `fb.1.<ms when the click id was first seen>.<fbclid>`, the 1 being the domain index Meta asks
 * servers to use. The click id is first seen on the landing request, whose time the lead link
 * carries (`fbclid_at`); a lead link without it gives the lead's own time, the closest honest one.
 */
export function fbcOf(fbclid: string, seenAt: number): string {
  return `fb.1.${seenAt}.${fbclid}`;
}

// Real user agents are a few hundred characters; a longer one is not a phone's.
const MAX_USER_AGENT = 1024;

/** Meta wants an external_id hashed (SHA-256, hex): the visit's daily client id, hashed. */
export const externalId = (clientId: string) => createHash("sha256").update(clientId).digest("hex");

function eventsCall(
  meta: NonNullable<Config["meta"]>,
  event: object,
  at: number,
  lead?: string,
): NewCall {
  // The token is added as the call is sent (metaStamp), never kept in the ledger.
  const body = JSON.stringify({ data: [event] });
  return {
    destination: "meta",
    url: `${meta.endpoint}/${meta.pixelId}/events`,
    body,
    events: 1,
    at,
    lead,
  };
}

/**
 * The body as it is sent: with the access token, in the body rather than the URL (URLs end up in
 * logs), added at send time so the ledger and its backups never hold it.
 */
export function metaStamp(body: string, accessToken: string): string {
  return `${body.slice(0, -1)},"access_token":${JSON.stringify(accessToken)}}`;
}

export function metaLeadCall(meta: NonNullable<Config["meta"]>, lead: MetaLead): NewCall {
  const userData: Record<string, string> = {
    client_ip_address: lead.address,
    external_id: externalId(lead.clientId),
  };
  if (lead.userAgent && lead.userAgent.length <= MAX_USER_AGENT)
    userData.client_user_agent = lead.userAgent;
  // Never after the lead itself (pages/thank-you.server.ts has checked the carried time already).
  if (lead.fbclid) userData.fbc = fbcOf(lead.fbclid, Math.min(lead.fbclidAt ?? lead.at, lead.at));
  const event = {
    event_name: "Lead",
    event_time: Math.floor(lead.at / 1000),
    event_id: lead.id,
    event_source_url: lead.pageUrl,
    action_source: "website",
    user_data: userData,
    custom_data: lead.details,
  };
  return eventsCall(meta, event, lead.at, lead.id);
}

/**
 * A chat on WhatsApp, as Meta documents business messaging events: `LeadSubmitted` (the name
 * Meta's own automatic events give a lead's conversation; `Lead` and `Contact` are refused for
 * this source) from "business_messaging" on the "whatsapp" channel, with the business account,
 * joined to its lead by the lead's external_id and fbc, and to a Click-to-WhatsApp ad by its
 * ctwa_clid (docs/analytics.md, The chat).
 */
/** What a chat's event says of its lead: its id, CTA and the experiment's variant it saw. */
function chatDetails(lead: LeadRecord): Record<string, string> {
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

export function metaChatCall(
  meta: NonNullable<Config["meta"]>,
  chat: ChatRecord,
  lead: LeadRecord | undefined,
): NewCall {
  const userData: Record<string, string> = {};
  if (lead) userData.external_id = externalId(lead.clientId);
  if (lead?.fbc) userData.fbc = lead.fbc;
  if (chat.ctwaClid) userData.ctwa_clid = chat.ctwaClid;
  if (chat.account) userData.whatsapp_business_account_id = chat.account;
  const event = {
    event_name: "LeadSubmitted",
    event_time: Math.floor(chat.at / 1000),
    event_id: `chat-${chat.messageId}`,
    action_source: "business_messaging",
    messaging_channel: "whatsapp",
    user_data: userData,
    ...(lead ? { custom_data: chatDetails(lead) } : {}),
  };
  return eventsCall(meta, event, chat.at, lead?.id);
}
