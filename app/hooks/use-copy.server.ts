import { createContext, useContext } from "react";
import { type Copy, type CopySettings, copyFor } from "~/content/copy.server";
import { VariantCopyContext, withVariantCopy } from "~/experiments/variant-copy.server";
import { useLocale } from "~/hooks/use-site";
import type { VariantCopy } from "~/shared/experiment";
import { LOCALE_INFO, type Locale } from "~/shared/locale";

type PageCopy = Copy & { intl: string };

/**
 * The settings the page's words depend on (content/copy.server.ts): the render provides the
 * process's Config (document/pipeline.server.tsx); without it, the words without the reply.
 */
export const CopySettingsContext = createContext<CopySettings>({ instantReply: false });

// Put together once per copy (copyFor keeps one a language and wording), not on every static
// component's render.
const pageCopies = new WeakMap<Copy, PageCopy>();

function pageCopy(copy: Copy, locale: Locale): PageCopy {
  let known = pageCopies.get(copy);
  if (!known) {
    known = { ...copy, intl: LOCALE_INFO[locale].intl };
    pageCopies.set(copy, known);
  }
  return known;
}

// A variant's words, put together once per variant and copy (a variant's changes are one
// object for the life of the process: config/experiments-file.server.ts read them at start).
const byVariant = new WeakMap<VariantCopy, WeakMap<Copy, PageCopy>>();

function variantCopy(changes: VariantCopy, copy: Copy, locale: Locale): PageCopy {
  const known = byVariant.get(changes) ?? new WeakMap<Copy, PageCopy>();
  byVariant.set(changes, known);
  let changed = known.get(copy);
  if (!changed) {
    changed = withVariantCopy(pageCopy(copy, locale), changes, locale);
    known.set(copy, changed);
  }
  return changed;
}

/**
 * Every word of the site in the page's language, for static parts: they render only on the
 * server (components/static-parts.ts), so both languages' copy stays out of the bundle. A page
 * rendered for an experiment's variant gets the variant's words (experiments/variant-copy.server.ts).
 */
export function useCopy(): PageCopy {
  const locale = useLocale();
  const changes = useContext(VariantCopyContext);
  const copy = copyFor(locale, useContext(CopySettingsContext));
  return changes ? variantCopy(changes, copy, locale) : pageCopy(copy, locale);
}
