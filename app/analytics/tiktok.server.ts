/**
 * TikTok's Events API (1.3), opted into with TIKTOK_PIXEL_CODE and TIKTOK_ACCESS_TOKEN: a
 * `Contact` for each counted lead, so TikTok's optimiser sees the leads its ads bring. The token
 * travels in the Access-Token header, added when the call is sent (never in the ledger). What is
 * sent, and why: docs/analytics.md; why every lead and no chat: docs/decisions/023-ad-networks.md.
 */
import { type AdLead, ownCampaign, userAgentOf } from "~/analytics/ad-lead.server";
import { externalId } from "~/analytics/meta-capi.server";
import { judgeStatus, platformError, type Verdict } from "~/analytics/verdict.server";
import type { NewCall } from "~/leads/ledger/ledger.server";
import type { Config } from "~/platform/config.server";

type Tiktok = NonNullable<Config["tiktok"]>;

/** TikTok attributes web events up to 7 days after they happened; older ones are given up. */
export const TIKTOK_MAX_AGE_MS = 7 * 86_400_000;

/** TikTok's standard event for "when a visitor contacts you", one of its Lead objective's. */
export const TIKTOK_LEAD_EVENT = "Contact";

export function tiktokLeadCall(tiktok: Tiktok, lead: AdLead): NewCall {
  const campaign = ownCampaign(lead.campaign, ["ttclid"]);
  const user: Record<string, string> = {
    ip: lead.address,
    external_id: externalId(lead.clientId),
  };
  const userAgent = userAgentOf(lead);
  if (userAgent) user.user_agent = userAgent;
  if (campaign.ttclid) user.ttclid = campaign.ttclid;
  const body = JSON.stringify({
    event_source: "web",
    event_source_id: tiktok.pixelCode,
    data: [
      {
        event: TIKTOK_LEAD_EVENT,
        event_time: Math.floor(lead.at / 1000),
        event_id: lead.id,
        user,
        page: { url: lead.pageUrl(campaign) },
      },
    ],
  });
  return {
    destination: "tiktok",
    url: `${tiktok.endpoint}/event/track/`,
    body,
    events: 1,
    at: lead.at,
    lead: lead.id,
  };
}

/** The Access-Token header, added at send time. */
export const tiktokHeaders = (tiktok: Tiktok) => async () => ({
  "Access-Token": tiktok.accessToken,
});

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
