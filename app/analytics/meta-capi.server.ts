/**
 * Meta's Conversions API, opted into with META_PIXEL_ID and META_ACCESS_TOKEN: a `Lead` for each
 * counted lead, so Meta's optimiser sees the leads its Instagram and Facebook ads bring (the
 * site loads no pixel). What is sent, and why, is in docs/analytics.md.
 */

import type { Delivery } from "~/analytics/outbox.server";
import type { Config } from "~/platform/config.server";

/** A counted lead, as Meta is told of it. */
export type MetaLead = {
  /** Random per lead: Meta's event_id, so a retry (or a pixel added later) is one Lead. */
  id: string;
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

export function metaLeadDelivery(meta: NonNullable<Config["meta"]>, lead: MetaLead): Delivery {
  const userData: Record<string, string> = { client_ip_address: lead.address };
  if (lead.userAgent && lead.userAgent.length <= MAX_USER_AGENT)
    userData.client_user_agent = lead.userAgent;
  // Never after the lead itself (pages/thank-you.server.ts has checked the carried time already).
  if (lead.fbclid) userData.fbc = fbcOf(lead.fbclid, Math.min(lead.fbclidAt ?? lead.at, lead.at));
  const body = JSON.stringify({
    data: [
      {
        event_name: "Lead",
        event_time: Math.floor(lead.at / 1000),
        event_id: lead.id,
        event_source_url: lead.pageUrl,
        action_source: "website",
        user_data: userData,
        custom_data: lead.details,
      },
    ],
    // In the body, not the URL: URLs end up in logs.
    access_token: meta.accessToken,
  });
  return { url: new URL(`${meta.endpoint}/${meta.pixelId}/events`), body, events: 1 };
}
