import { useLocation } from "@remix-run/react";
import { useEffect } from "react";
import { setAnalyticsContext, track } from "~/lib/analytics.client";
import type { Attribution } from "~/lib/attribution";
import type { Locale } from "~/lib/locale";

/**
 * Sends page_view on the first render and on every route change, with the visit's source on
 * every event and the page's language. /sitemap.xml is a resource route: it never renders, so it never counts.
 */
export function usePageViews(attribution: Attribution, ready: boolean, language: Locale): void {
  const location = useLocation();
  useEffect(() => {
    setAnalyticsContext({
      source: attribution.source,
      medium: attribution.medium,
      campaign: attribution.campaign,
      language,
    });
  }, [attribution, language]);
  useEffect(() => {
    if (!ready) return;
    track("page_view", {
      page_location: `${location.pathname}${location.search}`,
      page_title: document.title,
    });
  }, [ready, location.pathname, location.search]);
}
