import { useLocation } from "@remix-run/react";
import { type MutableRefObject, useEffect, useRef } from "react";
import { setAnalyticsContext, track } from "~/browser/analytics.client";
import { noteVisitCampaignSent, visitSession } from "~/browser/session";
import {
  type Campaign,
  campaignDetails,
  campaignFrom,
  campaignQuery,
  isTagged,
  leadSource,
} from "~/shared/campaign";
import { SESSION_PARAM } from "~/shared/cta";
import { basePath, type Locale } from "~/shared/locale";

const STORAGE_KEY = "darb:campaign";

/**
 * From this URL when it is tagged, else what this tab arrived with; the URL's is kept, as the
 * query it would be on a link, and read back as a URL's is, trusting nothing stored.
 */
function visitCampaign(search: string): Campaign {
  const fromUrl = campaignFrom(new URLSearchParams(search));
  try {
    if (isTagged(fromUrl)) {
      sessionStorage.setItem(STORAGE_KEY, campaignQuery(fromUrl));
      return fromUrl;
    }
    return campaignFrom(new URLSearchParams(sessionStorage.getItem(STORAGE_KEY) ?? ""));
  } catch {
    // Storage blocked (privacy mode, a sandboxed frame): the URL's campaign is all there is.
    return fromUrl;
  }
}

export type Visit = { campaign: Campaign; session: string };

/**
 * The visit: its campaign (sessionStorage, no cookies; the server renders links from the URL
 * alone, so they work without JavaScript), its GA4 session (browser/session.ts), and for the
 * first page and every route change a page_view, preceded by campaign_details when the session
 * has not yet had this campaign's (GA4 gives Measurement Protocol sessions no campaign
 * otherwise: docs/analytics.md). /sitemap.xml is a resource route: it never renders.
 *
 * The visit is kept in a ref for the click listener to read: nothing on screen shows it, and
 * as React state it re-rendered the whole page once more right after hydration.
 */
export function useVisit(language: Locale): MutableRefObject<Visit> {
  const { pathname, search } = useLocation();
  const visit = useRef<Visit>({ campaign: {}, session: "" });
  // The page before this one, for page_referrer: another site's (document.referrer) at first.
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const campaign = visitCampaign(search);
    const session = visitSession();
    visit.current = { campaign, session: session.id };
    setAnalyticsContext({
      source: leadSource(campaign),
      medium: campaign.utm_medium,
      campaign: campaign.utm_campaign,
      language,
    });
    const details = campaignDetails(campaign);
    const tags = campaignQuery(campaign);
    if (Object.keys(details).length > 0 && session.details !== tags) {
      track("campaign_details", details);
      noteVisitCampaignSent(tags);
    }
    const location = `${window.location.origin}${pathname}${search}`;
    // A /thank-you reached by a link without the session (no JavaScript when it was followed)
    // had its page_view counted by the server with the lead.
    const query = new URLSearchParams(search);
    const countedByServer =
      basePath(pathname) === "/thank-you" && query.has("cta") && !query.has(SESSION_PARAM);
    if (!countedByServer)
      track("page_view", {
        page_location: location,
        page_referrer: previous.current ?? (document.referrer || undefined),
        page_title: document.title,
      });
    previous.current = location;
  }, [pathname, search, language]);
  return visit;
}
