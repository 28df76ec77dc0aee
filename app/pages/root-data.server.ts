import { languageOffers } from "~/content/language";
import { uiCopy } from "~/content/ui-copy.server";
import { variantToken } from "~/leads/variant-token";
import { pageVariant } from "~/pages/page-variant.server";
import { siteSettings } from "~/pages/site-settings.server";
import { requestContext } from "~/platform/request-context.server";
import { campaignQuery } from "~/shared/campaign";
import { FBCLID_AT_PARAM, fbclidSeenAt } from "~/shared/cta";
import { type Locale, otherLocale } from "~/shared/locale";

function switchWords(locale: Locale) {
  const { name, switchLabel } = languageOffers[locale];
  return { name, switchLabel };
}

/**
 * What every page's root knows of the request (root.tsx's loader). One server module for it, so
 * the browser's copy of the root route carries one empty stand-in instead of one per import.
 */
export function rootData(
  request: Request,
  loadContext: Parameters<typeof requestContext>[0],
  now: number = Date.now(),
) {
  const { config, assignment } = requestContext(loadContext);
  const url = new URL(request.url);
  const { locale, campaign, platform, offer } = pageVariant(url, request.headers);
  return {
    site: siteSettings(config),
    locale,
    ui: uiCopy(locale),
    // The other language, for the switch (the offer's other words stay in its static part);
    // and whether to suggest it (Accept-Language).
    other: { locale: otherLocale(locale), offer: switchWords(otherLocale(locale)) },
    suggest: offer !== null,
    // Whose words the preview uses.
    platform,
    // What the language links pass on of the URL (worked out here, so not in the bundle).
    campaignQuery: campaignQuery(campaign),
    // When this visit's fbclid was first seen, for Meta's fbc: the URL's own time when it came
    // with one, else this request's. Only with a click id, whose pages are never kept for other
    // visitors (server/document-cache.ts): a cached page carries no time.
    ...(campaign.fbclid
      ? { fbclidAt: fbclidSeenAt(url.searchParams.get(FBCLID_AT_PARAM), now) ?? now }
      : {}),
    // The running experiment's variant this landing page shows (server/experiments.ts), for its
    // lead links, the browser's experience_impression and the no-JS view: the page is kept per
    // variant, so it is this page's for every visitor it is served to.
    ...(assignment ? { exp: variantToken(assignment) } : {}),
  };
}
