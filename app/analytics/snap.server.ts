/**
 * Snap's Conversions API (v3), opted into with SNAP_PIXEL_ID and SNAP_ACCESS_TOKEN: a `SIGN_UP`
 * for each counted lead, so Snap's optimiser sees the leads its ads bring. The token travels as
 * a Bearer token, added when the call is sent (never in the URL or the ledger). What is sent,
 * and why: docs/analytics.md; why every lead: docs/decisions/023-ad-networks.md.
 */
import { type AdLead, ownCampaign, userAgentOf } from "~/analytics/ad-lead.server";
import { externalId } from "~/analytics/meta-capi.server";
import type { NewCall } from "~/leads/ledger/ledger.server";
import type { Config } from "~/platform/config.server";

type Snap = NonNullable<Config["snap"]>;

/** Snap takes events up to 37 days back. */
export const SNAP_MAX_AGE_MS = 37 * 86_400_000;

/** Snap has no "lead" event: SIGN_UP is the one its lead campaigns optimise for. */
export const SNAP_LEAD_EVENT = "SIGN_UP";

export function snapLeadCall(snap: Snap, lead: AdLead): NewCall {
  const campaign = ownCampaign(lead.campaign, ["ScCid"]);
  const userData: Record<string, string> = {
    client_ip_address: lead.address,
    external_id: externalId(lead.clientId),
  };
  const userAgent = userAgentOf(lead);
  if (userAgent) userData.client_user_agent = userAgent;
  if (campaign.ScCid) userData.sc_click_id = campaign.ScCid;
  const body = JSON.stringify({
    data: [
      {
        event_name: SNAP_LEAD_EVENT,
        event_time: Math.floor(lead.at / 1000),
        event_id: lead.id,
        action_source: "WEB",
        event_source_url: lead.pageUrl(campaign),
        user_data: userData,
      },
    ],
  });
  return {
    destination: "snap",
    url: `${snap.endpoint}/${snap.pixelId}/events`,
    body,
    events: 1,
    at: lead.at,
    lead: lead.id,
  };
}

/** The Authorization header, added at send time. */
export const snapHeaders = (snap: Snap) => async () => ({
  Authorization: `Bearer ${snap.accessToken}`,
});
