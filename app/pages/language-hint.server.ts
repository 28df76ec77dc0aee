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
  let preferred: string[] | undefined;
  try {
    preferred = getClientLocales(headers);
  } catch {
    // A header Intl cannot read is no preference at all.
    return null;
  }
  for (const tag of preferred ?? []) {
    const language = tag.split("-")[0]?.toLowerCase();
    if (isLocale(language)) return language === pageLocale ? null : language;
  }
  return null;
}
