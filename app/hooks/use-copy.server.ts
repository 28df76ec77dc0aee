import { useContext } from "react";
import { type Copy, copyFor } from "~/content/copy.server";
import { VariantCopyContext, withVariantCopy } from "~/experiments/variant-copy.server";
import { useLocale } from "~/hooks/use-site";
import type { VariantCopy } from "~/shared/experiment";
import { LOCALE_INFO, LOCALES, type Locale } from "~/shared/locale";

type PageCopy = Copy & { intl: string };

// Put together once per language, not on every static component's render.
const byLocale = Object.fromEntries(
  LOCALES.map((locale) => [locale, { ...copyFor(locale), intl: LOCALE_INFO[locale].intl }]),
) as Record<Locale, PageCopy>;

// A variant's words, put together once per variant and language (a variant's changes are one
// object for the life of the process: config/experiments-file.server.ts read them at start).
const byVariant = new WeakMap<VariantCopy, Partial<Record<Locale, PageCopy>>>();

function variantCopy(changes: VariantCopy, locale: Locale): PageCopy {
  const known = byVariant.get(changes) ?? {};
  byVariant.set(changes, known);
  known[locale] ??= withVariantCopy(byLocale[locale], changes, locale);
  return known[locale];
}

/**
 * Every word of the site in the page's language, for static parts: they render only on the
 * server (components/static-parts.ts), so both languages' copy stays out of the bundle. A page
 * rendered for an experiment's variant gets the variant's words (experiments/variant-copy.server.ts).
 */
export function useCopy(): PageCopy {
  const locale = useLocale();
  const changes = useContext(VariantCopyContext);
  return changes ? variantCopy(changes, locale) : byLocale[locale];
}
