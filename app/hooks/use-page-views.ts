import { useLocation } from "@remix-run/react";
import { type RefObject, useEffect } from "react";
import { setAnalyticsContext, track } from "~/lib/analytics.client";
import type { Attribution } from "~/lib/attribution";
import type { Locale } from "~/lib/locale";

/**
 * Sends page_view on the first render and on every route change, with the visit's source on
 * every event and the page's language. /sitemap.xml is a resource route: it never renders, so it never counts.
 * Call it after useVisitAttribution, whose effect must have read the visit's source first.
 */
export function usePageViews(visit: RefObject<Attribution>, language: Locale): void {
  const { pathname, search } = useLocation();
  useEffect(() => {
    const attribution = visit.current;
    if (!attribution) return;
    setAnalyticsContext({
      source: attribution.source,
      medium: attribution.medium,
      campaign: attribution.campaign,
      language,
    });
    track("page_view", { page_location: `${pathname}${search}`, page_title: document.title });
  }, [visit, pathname, search, language]);
}
