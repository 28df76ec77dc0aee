/**
 * What a visitor's browser keeps between visits, as the server reads it from its cookies
 * (leads/attribution-cookies.server.ts): plain data every layer may carry.
 */
import type { Campaign } from "~/shared/campaign";

/** The last tagged visit's campaign and click ids, with when it came (ms since the epoch). */
export type KeptCampaign = { campaign: Campaign; at: number };

/** What a page request keeps: the campaign to credit, Meta's browser id, the cookies to set. */
export type Attribution = {
  /** The campaign to credit a lead with when its own link carries none. */
  kept: KeptCampaign | null;
  /** Meta's browser id for this browser, when Meta is a destination. */
  fbp: string | null;
  /** What the response sets (or clears). */
  setCookies: string[];
};
