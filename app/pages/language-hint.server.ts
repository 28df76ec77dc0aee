import { getClientLocales } from "remix-utils/locales/server";
import { HINT_DISMISSED } from "~/shared/language-cookie";
import { isLocale, type Locale } from "~/shared/locale";

function hintDismissed(cookieHeader: string | null): boolean {
  return (cookieHeader ?? "").split(";").some((pair) => pair.trim() === HINT_DISMISSED);
}

/**
 * The other language to suggest, or null: when the first of the visitor's languages that the
 * site speaks (Accept-Language, in order of preference) is not the page's. Never a redirect:
 * a shared link shows the language it names.
 */
export function suggestedLocale(headers: Headers, pageLocale: Locale): Locale | null {
  if (hintDismissed(headers.get("cookie"))) return null;
  const language = firstSiteLanguage(headers.get("accept-language") ?? "");
  return language === pageLocale ? null : language;
}

// Reading Accept-Language is the dearest part of a kept page's key, and a page's visitors send
// few different ones: each is read once (the cache is emptied when it holds 1,000).
const firstLanguages = new Map<string, Locale | null>();

/** The first of the header's languages that the site speaks, or null. */
function firstSiteLanguage(acceptLanguage: string): Locale | null {
  const known = firstLanguages.get(acceptLanguage);
  if (known !== undefined) return known;
  let found: Locale | null = null;
  try {
    const preferred = getClientLocales(new Headers({ "accept-language": acceptLanguage }));
    for (const tag of preferred ?? []) {
      const language = tag.split("-")[0]?.toLowerCase();
      if (isLocale(language)) {
        found = language;
        break;
      }
    }
  } catch {
    // A header Intl cannot read is no preference at all.
  }
  if (firstLanguages.size >= 1000) firstLanguages.clear();
  firstLanguages.set(acceptLanguage, found);
  return found;
}
