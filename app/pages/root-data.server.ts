import { languageOffers } from "~/content/language";
import { uiCopy } from "~/content/ui-copy.server";
import { suggestedLocale } from "~/pages/language-hint.server";
import { siteSettings } from "~/pages/site-settings.server";
import { getConfig } from "~/platform/config.server";
import { campaignFrom, campaignQuery } from "~/shared/campaign";
import { FBCLID_AT_PARAM, fbclidSeenAt } from "~/shared/cta";
import { type Locale, localeOfPath, otherLocale } from "~/shared/locale";
import { choosePlatform } from "~/shared/platform";

function switchWords(locale: Locale) {
  const { name, switchLabel } = languageOffers[locale];
  return { name, switchLabel };
}

/**
 * What every page's root knows of the request (root.tsx's loader). One server module for it, so
 * the browser's copy of the root route carries one empty stand-in instead of one per import.
 */
export function rootData(request: Request, now: number = Date.now()) {
  const url = new URL(request.url);
  const campaign = campaignFrom(url.searchParams);
  const locale = localeOfPath(url.pathname);
  return {
    site: siteSettings(getConfig()),
    locale,
    ui: uiCopy(locale),
    // The other language, for the switch (the offer's other words stay in its static part);
    // and whether to suggest it (Accept-Language).
    other: { locale: otherLocale(locale), offer: switchWords(otherLocale(locale)) },
    suggest: suggestedLocale(request.headers, locale) !== null,
    // Whose words the preview uses: the crawler that asks, else ?platform= or the source.
    platform: choosePlatform(url.searchParams, request.headers.get("user-agent")),
    // What the language links pass on of the URL (worked out here, so not in the bundle).
    campaignQuery: campaignQuery(campaign),
    // When this visit's fbclid was first seen, for Meta's fbc: the URL's own time when it came
    // with one, else this request's. Only with a click id, whose pages are never kept for other
    // visitors (server/document-cache.ts): a cached page carries no time.
    ...(campaign.fbclid
      ? { fbclidAt: fbclidSeenAt(url.searchParams.get(FBCLID_AT_PARAM), now) ?? now }
      : {}),
  };
}
