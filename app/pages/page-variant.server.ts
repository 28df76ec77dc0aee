/**
 * What a page shows differently for a request, worked out in one place: the language (its
 * path), the campaign its links carry on (shared/campaign.ts, cleaned), whose words the preview
 * uses (the crawler that asks, else ?platform= or the source) and the other language it offers
 * (Accept-Language and its cookie). The root's data, the pages' heads, /thank-you and the
 * document cache's key (server/document-cache.ts) all read it from here, so a kept page is the
 * page a render would give.
 */
import { suggestedLocale } from "~/pages/language-hint.server";
import { type Campaign, campaignFrom, campaignQuery } from "~/shared/campaign";
import { type Locale, localeOfPath } from "~/shared/locale";
import { choosePlatform, type Platform } from "~/shared/platform";

export type PageVariant = {
  locale: Locale;
  campaign: Campaign;
  platform: Platform;
  /** The language to suggest, or null when the visitor's first language is the page's. */
  offer: Locale | null;
};

export function pageVariant(url: URL, headers: Headers): PageVariant {
  const locale = localeOfPath(url.pathname);
  return {
    locale,
    campaign: campaignFrom(url.searchParams),
    platform: choosePlatform(url.searchParams, headers.get("user-agent")),
    offer: suggestedLocale(headers, locale),
  };
}

/** The variant of a Remix request's page. */
export const variantOf = (request: Request) => pageVariant(new URL(request.url), request.headers);

/**
 * The variant as text, one key per distinct page: the campaign part (its normalised query)
 * comes last and is empty for an untagged page.
 */
export function variantKey(variant: PageVariant): string {
  return [variant.platform, variant.offer ?? "", campaignQuery(variant.campaign)].join(" ");
}
