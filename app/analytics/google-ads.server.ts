/**
 * Google Ads click conversions, opted into with the GOOGLE_ADS_* settings: a lead whose visit
 * carried a Google click id (gclid, gbraid or wbraid) is uploaded to the conversion action, with
 * the lead's id as its order id, so a retry is one conversion. A lead without one is not
 * uploaded: Google can only attribute a click conversion to a click. The developer token and the
 * access token are headers added when the call is sent (never in the ledger). What is sent, and
 * why: docs/analytics.md and docs/decisions/023-ad-networks.md.
 */
import type { AdLead, ClickIdName } from "~/analytics/ad-lead.server";
import type { TokenCache } from "~/analytics/google-oauth.server";
import { judgeStatus, platformError, type Verdict } from "~/analytics/verdict.server";
import type { NewCall } from "~/leads/ledger/ledger.server";
import type { GoogleAdsConfig } from "~/platform/config.server";

/** A click conversion is taken up to 90 days after its click (the longest window an action has). */
export const GOOGLE_ADS_MAX_AGE_MS = 90 * 86_400_000;

/** Exactly one click id goes with a conversion: gclid first, then the iOS ones. */
const GOOGLE_CLICK_IDS = ["gclid", "gbraid", "wbraid"] as const satisfies readonly ClickIdName[];

const DUBAI_OFFSET_MS = 4 * 3600_000;

/** Google's conversion time, "yyyy-mm-dd hh:mm:ss+hh:mm", written in Dubai's time (UTC+4). */
export function conversionDateTime(at: number): string {
  const local = new Date(at + DUBAI_OFFSET_MS).toISOString();
  return `${local.slice(0, 10)} ${local.slice(11, 19)}+04:00`;
}

/** The lead's upload, or null when its visit carried no Google click id. */
export function googleAdsLeadCall(ads: GoogleAdsConfig, lead: AdLead): NewCall | null {
  const name = GOOGLE_CLICK_IDS.find((id) => lead.campaign[id] !== undefined);
  if (!name) return null;
  const body = JSON.stringify({
    conversions: [
      {
        conversionAction: ads.conversionAction,
        conversionDateTime: conversionDateTime(lead.at),
        orderId: lead.id,
        [name]: lead.campaign[name],
      },
    ],
    // Google asks for it always: a refused conversion comes back in a 200's partialFailureError.
    partialFailure: true,
  });
  return {
    destination: "google_ads",
    url: `${ads.endpoint}/customers/${ads.customerId}:uploadClickConversions`,
    body,
    events: 1,
    at: lead.at,
    lead: lead.id,
  };
}

/** The developer token and a fresh access token, added at send time. */
export function googleAdsHeaders(ads: GoogleAdsConfig, tokens: TokenCache) {
  return async () => ({
    "developer-token": ads.developerToken,
    Authorization: `Bearer ${await tokens.get()}`,
  });
}

/**
 * What Google Ads' answer means. A 200 whose `partialFailureError` is set refused the one
 * conversion the call carries (a click too old, an unknown click id): sent again it fails
 * again; one Google already has (its order id seen) was delivered before. A 401 means the access token was not taken: a new one is fetched and the
 * call is sent again.
 */
export function judgeGoogleAds(tokens: TokenCache) {
  return (status: number, answer: string): Verdict => {
    if (status === 401) {
      tokens.invalidate();
      return { kind: "retry", ...platformError(answer) };
    }
    if (status < 200 || status >= 300) return judgeStatus(status, answer);
    // Already there (an earlier try arrived, its answer lost): delivered, not refused.
    if (/CLICK_CONVERSION_ALREADY_EXISTS|ORDER_ID_ALREADY_IN_USE/.test(answer)) {
      return { kind: "delivered" };
    }
    try {
      const parsed = JSON.parse(answer) as { partialFailureError?: { code?: unknown } };
      if (parsed.partialFailureError && parsed.partialFailureError.code !== 0) {
        return {
          kind: "refused",
          ...platformError(JSON.stringify({ error: parsed.partialFailureError })),
        };
      }
    } catch {
      // A 2xx without JSON: Google took the call.
    }
    return { kind: "delivered" };
  };
}
