import { type Copy, copyFor } from "~/content/copy.server";
import { useLocale } from "~/hooks/use-site";
import { LOCALE_INFO } from "~/lib/locale";

/**
 * Every word of the site in the page's language, for static parts: they render only on the
 * server (lib/static-parts.ts), so both languages' copy stays out of the bundle.
 */
export function useCopy(): Copy & { intl: string } {
  const locale = useLocale();
  return { ...copyFor(locale), intl: LOCALE_INFO[locale].intl };
}
