import { useLocation } from "@remix-run/react";
import { type MutableRefObject, useEffect, useRef } from "react";
import { setAnalyticsContext, track } from "~/browser/analytics.client";
import {
  type Attribution,
  attributionFrom,
  DIRECT,
  parseStoredAttribution,
} from "~/shared/attribution";
import type { Locale } from "~/shared/locale";

const STORAGE_KEY = "darb:attribution";

/** From this URL when it has a source, else what this tab arrived with; the URL's is kept. */
function visitAttribution(search: string): Attribution {
  const fromUrl = attributionFrom(new URLSearchParams(search));
  try {
    if (fromUrl.source !== DIRECT.source) {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify(fromUrl));
      return fromUrl;
    }
    return parseStoredAttribution(sessionStorage.getItem(STORAGE_KEY)) ?? DIRECT;
  } catch {
    // Storage blocked (privacy mode, a sandboxed frame): the URL's attribution is all there is.
    return fromUrl;
  }
}

/**
 * The visit: its campaign source (sessionStorage, no cookies; the server renders links from the
 * URL alone, so they work without JavaScript) and a page_view for the first page and every route
 * change, with the source and the page's language on every event. /sitemap.xml is a resource
 * route: it never renders, so it never counts.
 *
 * The source is kept in a ref for the click listener to read: nothing on screen shows it, and
 * as React state it re-rendered the whole page once more right after hydration.
 */
export function useVisit(language: Locale): MutableRefObject<Attribution> {
  const { pathname, search } = useLocation();
  const visit = useRef<Attribution>(DIRECT);
  useEffect(() => {
    const attribution = visitAttribution(search);
    visit.current = attribution;
    setAnalyticsContext({
      source: attribution.source,
      medium: attribution.medium,
      campaign: attribution.campaign,
      language,
    });
    track("page_view", { page_location: `${pathname}${search}`, page_title: document.title });
  }, [pathname, search, language]);
  return visit;
}
