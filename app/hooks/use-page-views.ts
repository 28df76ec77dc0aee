import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { setAnalyticsContext, track } from "~/lib/analytics.client";
import type { Attribution } from "~/lib/attribution";

/**
 * Sends page_view on the first render and on every route change, with the visit's source on
 * every event. /sitemap.xml is a resource route: it never renders, so it never counts.
 */
export function usePageViews(attribution: Attribution, ready: boolean): void {
  const location = useLocation();
  useEffect(() => {
    setAnalyticsContext({
      source: attribution.source,
      medium: attribution.medium,
      campaign: attribution.campaign,
    });
  }, [attribution]);
  useEffect(() => {
    if (!ready) return;
    track("page_view", {
      page_location: `${location.pathname}${location.search}`,
      page_title: document.title,
    });
  }, [ready, location.pathname, location.search]);
}
