import { type Copy, copyFor } from "~/content/copy.server";
import { useLocale } from "~/hooks/use-site";
import { LOCALE_INFO, LOCALES, type Locale } from "~/shared/locale";

type PageCopy = Copy & { intl: string };

// Put together once per language, not on every static component's render.
const byLocale = Object.fromEntries(
  LOCALES.map((locale) => [locale, { ...copyFor(locale), intl: LOCALE_INFO[locale].intl }]),
) as Record<Locale, PageCopy>;

/**
 * Every word of the site in the page's language, for static parts: they render only on the
 * server (document/static-parts.ts), so both languages' copy stays out of the bundle.
 */
export function useCopy(): PageCopy {
  return byLocale[useLocale()];
}
