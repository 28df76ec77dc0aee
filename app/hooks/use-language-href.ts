import { useLocation } from "@remix-run/react";
import { campaignOf } from "~/lib/campaign-query";
import { type Locale, pathInLocale } from "~/lib/locale";

/**
 * Where a language link leads as the server renders it: this page in `locale`, with the URL's
 * campaign (lib/campaign-query.ts), so the switch keeps it with JavaScript off. The render cache
 * keys pages by that campaign (lib/render-cache.server.ts). With JavaScript the click listener
 * puts the page's whole query and hash on it (lib/link-clicks.ts, languageHref).
 */
export function useLanguageHref(locale: Locale): string {
  const { pathname, search } = useLocation();
  return `${pathInLocale(pathname, locale)}${campaignOf(new URLSearchParams(search)).query}`;
}
