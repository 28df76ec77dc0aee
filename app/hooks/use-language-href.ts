import { useLocation } from "@remix-run/react";
import { useCampaignQuery } from "~/hooks/use-site";
import { type Locale, pathInLocale } from "~/shared/locale";

/**
 * Where a language link leads as the server renders it: this page in `locale`, with the URL's
 * campaign (shared/campaign.ts, worked out by the root loader), so the switch keeps it with
 * JavaScript off. The render cache keys pages by that campaign (document/render-cache.server.ts).
 * With JavaScript the click listener puts the page's whole query and hash on it
 * (analytics/link-clicks.ts, languageHref).
 */
export function useLanguageHref(locale: Locale): string {
  const { pathname } = useLocation();
  return `${pathInLocale(pathname, locale)}${useCampaignQuery()}`;
}
