/**
 * A page's view from a browser that runs no script (analytics/no-js-view.ts): its <noscript>
 * image's request, counted as GA4's `page_view` (with `campaign_details` when the visit is
 * tagged, and `experience_impression` when the page showed a variant) on the server's session
 * for the visitor and campaign: the one /thank-you gives the same visitor's no-JS lead, so the
 * lead joins the session its landing page began. Once per visitor, session and page (a reload
 * is no new view), bounded per address, and never for bots, prefetches, `Sec-GPC: 1`, another
 * site's page or anything but an image's request.
 */

import { VIEW_PAGE_PARAM } from "~/analytics/no-js-view";
import {
  CAMPAIGN_COOKIE,
  cookiesOf,
  keptCampaignOf,
  leadCampaign,
} from "~/leads/attribution-cookies.server";
import { visitorOf } from "~/leads/leads.server";
import type { LeadVerdict } from "~/leads/limits.server";
import { shownVariant } from "~/leads/variant-credit.server";
import { expVariantString } from "~/leads/variant-token";
import { isPrefetched, mayTrack } from "~/leads/visitor.server";
import type { RequestContext } from "~/platform/request-context.server";
import { campaignDetails, campaignFrom, isTagged } from "~/shared/campaign";
import { VARIANT_PARAM } from "~/shared/cta";
import { fitParams, type OutboundEvent } from "~/shared/events";
import { EXPOSURE_EVENT } from "~/shared/experiment";
import { localeOfPath } from "~/shared/locale";

/** What became of a view: counted, or why not; `bad` for a request no page of ours makes. */
export type ViewVerdict = LeadVerdict | "not_tracked" | "bad";

const MAX_PATH_LENGTH = 512;

/**
 * The page's path as the image names it (the browser's `location.pathname`, escaped as the URL
 * standard escapes a path): printable ASCII from "/", never "//" (another host), nothing a
 * browser escapes in a path (`"<>\`{}`, a query or a fragment), no backslash; else null.
 */
export function viewedPath(raw: string | null): string | null {
  if (raw === null || raw.length > MAX_PATH_LENGTH) return null;
  if (!/^\/[\x21-\x7e]*$/.test(raw) || raw.startsWith("//")) return null;
  return /[?#\\"<>`{}]/.test(raw) ? null : raw;
}

/** The origins a page of this site is at: the request's own, and SITE_URL's. */
function ownOrigins(request: Request, siteUrl: string): string[] {
  return [new URL(request.url).origin, new URL(siteUrl).origin];
}

function parsed(raw: string | null): URL | null {
  if (!raw) return null;
  try {
    return new URL(raw);
  } catch {
    return null;
  }
}

/**
 * An image of one of this site's own pages, loaded by a visitor's browser: `Sec-Fetch-Dest:
 * image` (absent in older browsers), from the same origin (`Sec-Fetch-Site`, else the Referer),
 * not a prefetch, not a bot, no Global Privacy Control.
 */
function isPagesImage(request: Request, referer: URL | null, origins: string[]): boolean {
  const { headers } = request;
  const dest = headers.get("sec-fetch-dest");
  if (dest !== null && dest !== "image") return false;
  const site = headers.get("sec-fetch-site");
  const sameOrigin = site ? site === "same-origin" : !!referer && origins.includes(referer.origin);
  return sameOrigin && !isPrefetched({ headers }) && mayTrack(headers);
}

/**
 * Records the view `request` asks for, if it is one to count. The page's query (its campaign)
 * comes from the Referer, which the site's Referrer-Policy (strict-origin-when-cross-origin) sends
 * whole to its own origin: the image's address is the same for every visitor of a kept page.
 */
export async function recordNoJsView(
  context: RequestContext,
  request: Request,
): Promise<ViewVerdict> {
  const url = new URL(request.url);
  const path = viewedPath(url.searchParams.get(VIEW_PAGE_PARAM));
  if (path === null) return "bad";
  const referer = parsed(request.headers.get("referer"));
  const origins = ownOrigins(request, context.config.siteUrl);
  if (request.method !== "GET" || !isPagesImage(request, referer, origins)) return "not_tracked";
  // The page's own address, with its query, when the Referer is that page.
  const query =
    referer && origins.includes(referer.origin) && referer.pathname === path ? referer.search : "";
  // An untagged page takes the campaign the browser kept from its last tagged visit, as the
  // no-JS lead that follows will (leads/attribution-cookies.server.ts): the same session.
  const kept = keptCampaignOf(
    cookiesOf(request.headers.get("cookie"), [CAMPAIGN_COOKIE]).get(CAMPAIGN_COOKIE),
    Date.now(),
  );
  const { campaign } = leadCampaign({ campaign: campaignFrom(new URLSearchParams(query)) }, kept);
  const { services, config } = context;
  const visitor = visitorOf(context, request);
  const sessionId = await services.limits.session(visitor, campaign);
  const verdict = await services.limits.view(visitor, `${sessionId}|${path}`);
  if (verdict !== "counted") return verdict;

  const language = localeOfPath(path);
  const details = campaignDetails(campaign);
  const events: OutboundEvent[] = [];
  if (isTagged(campaign) && Object.keys(details).length > 0) {
    events.push({ name: "campaign_details", params: { ...details, language } });
  }
  events.push({
    name: "page_view",
    // fitParams cuts each to GA4's own limit for it (page_location: 1000).
    params: fitParams({
      page_location: `${new URL(config.siteUrl).origin}${path}${query}`,
      ...details,
      language,
    }),
  });
  const shown = shownVariant(config.experiments, url.searchParams.get(VARIANT_PARAM) ?? "");
  if (shown) {
    events.push({
      name: EXPOSURE_EVENT,
      params: { exp_variant_string: expVariantString(shown), language },
    });
  }
  services.analytics.record(visitor, events, { sessionId, browser: true });
  return "counted";
}
