/**
 * What a counted lead hands every network at its tap. The lead flow (leads.server.ts) fills it in
 * and each destination takes its own part, so the shape belongs with the lead.
 */
import type { Campaign } from "~/shared/campaign";

/** A counted lead as the networks are told of it at the tap. */
export type TapFacts = {
  /** The ledger's id: every network's deduplication key (event_id, order and transaction ids). */
  id: string;
  at: number;
  cta: string;
  /** GA4's daily client id for the visit; sent only hashed (external_id). */
  clientId: string;
  address: string;
  userAgent: string;
  /** The visit's whole campaign: each network takes its own part (ownCampaign). */
  campaign: Campaign;
  /** When the visit's fbclid was first seen (ms), for Meta's fbc. */
  fbclidAt?: number;
  /** Meta's browser id the site keeps for this browser (leads/attribution-cookies.server.ts). */
  fbp?: string;
  /** The absolute page the visitor tapped on, with the campaign given. */
  pageUrl: (campaign: Campaign) => string;
  /** What the lead was, in GA4's words (cta, language, plan, campaign, variant), no click id. */
  details: Record<string, string | number>;
  /** What the tap is worth (LEAD_VALUE_AED), in AED. */
  value: number;
};
