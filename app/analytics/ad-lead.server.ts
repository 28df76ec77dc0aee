/**
 * A counted lead as the ad networks (TikTok, Snap, Google Ads) are told of it: what each needs to
 * match the lead to its ad, and nothing a network could use to learn of another's click.
 */
import { type Campaign, CLICK_IDS } from "~/shared/campaign";

export type ClickIdName = (typeof CLICK_IDS)[number];

export type AdLead = {
  /** The ledger's id: every network's deduplication key (event_id, order_id). */
  id: string;
  /** GA4's daily client id for the visit; sent only hashed. */
  clientId: string;
  /** When it was counted, ms since the epoch. */
  at: number;
  address: string;
  userAgent: string;
  /** The visit's whole campaign: each network takes its own part (ownCampaign). */
  campaign: Campaign;
  /** The absolute page the visitor tapped on, with the campaign given. */
  pageUrl: (campaign: Campaign) => string;
};

/** A campaign's words and the network's own click ids, never another network's. */
export function ownCampaign(campaign: Campaign, own: readonly ClickIdName[]): Campaign {
  const kept: Campaign = { ...campaign };
  for (const name of CLICK_IDS) if (!own.includes(name)) delete kept[name];
  return kept;
}

// Real user agents are a few hundred characters; a longer one is not a phone's.
export const MAX_USER_AGENT = 1024;

/** The user agent when it is a plausible one, else none. */
export const userAgentOf = (lead: AdLead) =>
  lead.userAgent && lead.userAgent.length <= MAX_USER_AGENT ? lead.userAgent : undefined;
